# syntax=docker/dockerfile:1
# (BuildKit: RUN --mount needs it; Docker 23+ builds with BuildKit by default)
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
# the PostgreSQL driver too (SIZING_BOT_DATABASE_URL: replicas on one database, compose.yaml)
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']['postgres']))" \
    >> /requirements.txt
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
# dependencies in a layer of their own: a code change does not reinstall numpy and matplotlib. The
# wheels are bind-mounted from the build stage for the one RUN, never copied: no layer keeps them
# (a COPY, then rm in a later layer, left ~60 MB of dead wheels in the image)
RUN --mount=type=bind,from=build,source=/deps,target=/deps \
    --mount=type=bind,from=build,source=/requirements.txt,target=/tmp/requirements.txt \
    pip install --no-cache-dir --no-index --find-links /deps -r /tmp/requirements.txt
RUN --mount=type=bind,from=build,source=/wheels,target=/wheels \
    pip install --no-cache-dir --no-deps /wheels/*.whl
USER bot
# build matplotlib's font cache now (with the CJK font), not on the first 📊 tap
RUN python -c "from bot.render.chart import find_cjk_font; assert find_cjk_font(), 'no CJK font'"
WORKDIR /home/bot
# the running bot rewrites its heartbeat file every 15 s while it serves (bot.telegram.heartbeat)
ENV PYTHONUNBUFFERED=1 SIZING_BOT_DB=/data/settings.sqlite3 SIZING_BOT_HEARTBEAT=/tmp/sizing-bot.heartbeat
# chat settings live in SQLite: keep them across container restarts (docker run -v sizing-data:/data …)
VOLUME /data
# webhook mode (TELEGRAM_WEBHOOK_URL set) serves plain HTTP here, behind a TLS-terminating proxy;
# long polling (the default) needs no port
EXPOSE 8443
# probes the running bot, in polling mode too: its heartbeat is at most 60 s old (its event loop runs
# and the updater polls or serves the webhook), and in webhook mode the port accepts connections.
# (`sizing-bot health` without --heartbeat checks the installation instead: it answers the seed
# question in a process of its own.)
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 CMD ["sizing-bot", "health", "--heartbeat"]
# the web page and JSON API instead of the bot (bot/web): no token needed; its own health check is
# GET /healthz (docker run --health-cmd "python -c \"import urllib.request as u; u.urlopen('http://127.0.0.1:8000/healthz')\"" …)
#   docker run -p 8000:8000 -e SIZING_BOT_WEB_HOST=0.0.0.0 image sizing-bot serve
EXPOSE 8000
# TELEGRAM_BOT_TOKEN must be provided at run time: docker run -e TELEGRAM_BOT_TOKEN=… image
CMD ["sizing-bot", "run"]
