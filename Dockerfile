# The Telegram bot: slim Python, non-root user, translations compiled at build time.
FROM python:3.11-slim AS build
WORKDIR /src
COPY . .
RUN pip install --no-cache-dir babel \
 && pybabel compile -d locales -D messages \
 && pip wheel --no-cache-dir --no-deps -w /wheels .

FROM python:3.11-slim
RUN useradd --create-home --uid 10001 bot
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER bot
WORKDIR /home/bot
ENV PYTHONUNBUFFERED=1
# TELEGRAM_BOT_TOKEN must be provided at run time: docker run -e TELEGRAM_BOT_TOKEN=… image
CMD ["sizing-bot", "run"]
