# The Telegram bot: slim Python, non-root user, translations compiled at build time.
FROM python:3.11-slim AS build
WORKDIR /src
COPY . .
RUN pip install --no-cache-dir babel \
 && pybabel compile -d locales -D messages \
 && pip wheel --no-cache-dir --no-deps -w /wheels .

FROM python:3.11-slim
# a CJK font for the charts' Chinese labels (without one they are drawn in English)
RUN apt-get update \
 && apt-get install -y --no-install-recommends fonts-wqy-microhei fontconfig \
 && rm -rf /var/lib/apt/lists/*
RUN useradd --create-home --uid 10001 bot && mkdir -p /data && chown bot /data
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER bot
# build matplotlib's font cache now, not on the first 📊 tap
RUN python -c "from matplotlib import font_manager"
WORKDIR /home/bot
ENV PYTHONUNBUFFERED=1 SIZING_BOT_DB=/data/settings.sqlite3
# chat settings live in SQLite: keep them across container restarts (docker run -v sizing-data:/data …)
VOLUME /data
# TELEGRAM_BOT_TOKEN must be provided at run time: docker run -e TELEGRAM_BOT_TOKEN=… image
CMD ["sizing-bot", "run"]
