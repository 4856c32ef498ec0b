# The Telegram bot: slim Python, non-root user, translations and templates compiled at build time.
# Layers from the least to the most often changed: system fonts, the dependencies (numpy, matplotlib,
# python-telegram-bot, fpdf2 …: rebuilt only when pyproject.toml's dependencies change), then the
# project's own wheel (every code change: seconds).
FROM python:3.11-slim AS build
WORKDIR /src
# the dependency list alone, from pyproject.toml: this layer and the next stay cached on code changes
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
    > /requirements.txt
RUN pip wheel --no-cache-dir -w /deps -r /requirements.txt
# the project itself (hatch_build.py compiles the catalogs, templates and data into the wheel)
COPY . .
RUN pip wheel --no-cache-dir --no-deps -w /wheels .

FROM python:3.11-slim
# a CJK font for the charts' Chinese labels and the PDF quote (WenQuanYi Micro Hei: Apache-2.0 or
# GPL-3 with the font embedding exception)
RUN apt-get update \
 && apt-get install -y --no-install-recommends fonts-wqy-microhei fontconfig \
 && rm -rf /var/lib/apt/lists/*
RUN useradd --create-home --uid 10001 bot && mkdir -p /data && chown bot /data
# dependencies in a layer of their own: a code change does not reinstall numpy and matplotlib
COPY --from=build /requirements.txt /tmp/requirements.txt
COPY --from=build /deps /deps
RUN pip install --no-cache-dir --no-index --find-links /deps -r /tmp/requirements.txt \
 && rm -rf /deps /tmp/requirements.txt
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-deps /wheels/*.whl && rm -rf /wheels
USER bot
# build matplotlib's font cache now (with the CJK font), not on the first 📊 tap
RUN python -c "from bot.render.chart import find_cjk_font; assert find_cjk_font(), 'no CJK font'"
WORKDIR /home/bot
ENV PYTHONUNBUFFERED=1 SIZING_BOT_DB=/data/settings.sqlite3
# chat settings live in SQLite: keep them across container restarts (docker run -v sizing-data:/data …)
VOLUME /data
# webhook mode (TELEGRAM_WEBHOOK_URL set) serves plain HTTP here, behind a TLS-terminating proxy;
# long polling (the default) needs no port
EXPOSE 8443
# the pipeline answers the seed question, the pre-sales file (if any) is valid, and in webhook mode the
# port accepts connections (sizing-bot health)
HEALTHCHECK --interval=60s --timeout=15s --start-period=30s --retries=3 CMD ["sizing-bot", "health"]
# TELEGRAM_BOT_TOKEN must be provided at run time: docker run -e TELEGRAM_BOT_TOKEN=… image
CMD ["sizing-bot", "run"]
