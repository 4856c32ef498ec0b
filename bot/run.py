"""``sizing-bot run``: start every platform whose credentials are set, in one process.

* Telegram (``TELEGRAM_BOT_TOKEN``): :func:`bot.telegram.app.run`, as before, on the main thread.
* Feishu / Lark (``FEISHU_APP_ID`` + ``FEISHU_APP_SECRET``, ``FEISHU_DOMAIN``): :mod:`bot.feishu.serve`
  on its own event loop, on the main thread when it is the only platform, else on a thread of its own.
* DingTalk (``DINGTALK_CLIENT_ID`` + ``DINGTALK_CLIENT_SECRET``): :mod:`bot.dingtalk.run`, the same way.
* WeCom (``WECOM_BOT_ID`` + ``WECOM_BOT_SECRET``, ``WECOM_WS_URL``): :mod:`bot.wecom.serve`, the same way.

A platform's code is imported only when its credentials are set (python-telegram-bot is not loaded
for a Feishu-only deployment, websockets is not loaded for a Telegram-only one).
"""

from __future__ import annotations

import logging
import sys
import threading
from typing import TYPE_CHECKING

from bot.chat.loop import one_line as _one_line
from bot.chat.warmup import enable_warm_up

if TYPE_CHECKING:
    from bot.config import AppSettings

log = logging.getLogger(__name__)

NO_PLATFORM = (
    "TELEGRAM_BOT_TOKEN is not set: get a token from @BotFather and export it "
    "(or put TELEGRAM_BOT_TOKEN=... in .env); for Feishu/Lark set FEISHU_APP_ID and FEISHU_APP_SECRET; "
    "for WeCom set WECOM_BOT_ID and WECOM_BOT_SECRET; "
    "for DingTalk set DINGTALK_CLIENT_ID and DINGTALK_CLIENT_SECRET."
)


def platforms(settings: AppSettings) -> list[str]:
    """The platforms whose credentials are set, in start order."""
    found = []
    if settings.token():
        found.append("telegram")
    if settings.feishu.app_id and settings.feishu.app_secret:
        found.append("feishu")
    if settings.dingtalk.client_id and settings.dingtalk.client_secret:
        found.append("dingtalk")
    if settings.wecom.bot_id and settings.wecom.bot_secret:
        found.append("wecom")
    return found


CREDENTIAL_PAIRS = (
    ("Feishu/Lark", "FEISHU_APP_ID", "FEISHU_APP_SECRET", lambda s: (s.feishu.app_id, s.feishu.app_secret)),
    (
        "DingTalk",
        "DINGTALK_CLIENT_ID",
        "DINGTALK_CLIENT_SECRET",
        lambda s: (s.dingtalk.client_id, s.dingtalk.client_secret),
    ),
    ("WeCom", "WECOM_BOT_ID", "WECOM_BOT_SECRET", lambda s: (s.wecom.bot_id, s.wecom.bot_secret)),
)
"""Each platform's two credentials (its variables as the README names them): one without the other
is a mistake to name, not a platform to skip in silence."""


def half_configured(settings: AppSettings) -> list[str]:
    """One line per platform with only one of its two credentials set (a fresh-user trial: only
    FEISHU_APP_ID set got the generic 'TELEGRAM_BOT_TOKEN is not set' line and a healthy health)."""
    lines = []
    for label, first, second, values in CREDENTIAL_PAIRS:
        a, b = values(settings)
        if bool(a) != bool(b):
            have, missing = (first, second) if a else (second, first)
            lines.append(f"{label}: {have} is set but {missing} is not: set both, or neither")
    return lines


def run(settings: AppSettings, _without: frozenset[str] = frozenset()) -> int:
    """Start the configured platforms; returns the exit code (2: nothing configured, a platform with
    only one of its credentials, or bad settings)."""
    half = half_configured(settings) if not _without else []
    for line in half:
        print(f"sizing-bot: {line}", file=sys.stderr)
    if half:
        return 2
    found = [name for name in platforms(settings) if name not in _without]
    if not found:
        print(NO_PLATFORM, file=sys.stderr)
        return 2
    enable_warm_up()  # each platform, once connected, warms the answer path (bot.chat.warmup)
    if "dingtalk" in found:  # DingTalk (bot/dingtalk/run.py): on a thread when others run too
        from bot.dingtalk.run import run_dingtalk

        rest = None if found == ["dingtalk"] else (lambda: run(settings, _without | {"dingtalk"}))
        return run_dingtalk(settings, rest)
    if found == ["telegram"]:
        from bot.telegram.app import run as run_telegram

        return run_telegram(settings)
    from bot.chat.secrets import REDACTOR, configure_logging, protect_token

    for secret in (settings.feishu.app_secret, settings.wecom.bot_secret):
        if secret is not None:
            protect_token(secret.get_secret_value())
    configure_logging(settings.log_level)
    servers = []  # (name, serve(stop) -> exit code), each on its own event loop
    for name, starter in (("feishu", _feishu_server), ("wecom", _wecom_server)):
        if name not in found:
            continue
        try:
            servers.append((name, starter(settings)))
        except Exception as err:  # a bad offer file, an unopenable settings DB: one line
            label = {"feishu": "Feishu", "wecom": "WeCom"}[name]
            print(f"sizing-bot: cannot start {label}: {REDACTOR.redact(_one_line(err))}", file=sys.stderr)
            return 2
    return _run_servers(settings, "telegram" in found, servers)


def _run_servers(settings: AppSettings, telegram: bool, servers: list) -> int:
    """The first server on the main thread when Telegram is not configured, the others on threads."""
    stop = threading.Event()
    main = None if telegram else servers[0][1]
    threads = [
        threading.Thread(target=serve, args=(stop,), name=name, daemon=True)
        for name, serve in (servers if telegram else servers[1:])
    ]
    for thread in threads:
        thread.start()
    try:
        if main is not None:
            return main(None)
        from bot.telegram.app import run as run_telegram

        return run_telegram(settings)
    finally:
        stop.set()
        for thread in threads:
            thread.join(10)


def _feishu_server(settings: AppSettings):
    seam, adapter = _feishu(settings)
    return lambda stop: _run_feishu(seam, adapter, stop)


def _wecom_server(settings: AppSettings):
    from bot.settings.presales import load_presales
    from bot.wecom.serve import build

    presales = load_presales(settings.presales_path) if settings.presales_path else None
    service = build(settings, presales)
    return lambda stop: _run_wecom(service, stop)


def _run_wecom(service, stop: threading.Event | None) -> int:
    """Serve WeCom on a new event loop until a signal (main thread) or ``stop`` (a thread)."""
    from bot.chat.loop import serve_on_new_loop
    from bot.wecom.serve import serve_until_signalled

    return serve_on_new_loop("WeCom", lambda done: serve_until_signalled(service, done), stop)


def _feishu(settings: AppSettings):  # -> (Seam, FeishuAdapter)
    from bot.feishu.serve import build
    from bot.settings.presales import load_presales

    presales = load_presales(settings.presales_path) if settings.presales_path else None
    return build(settings, presales)


def _run_feishu(seam, adapter, stop: threading.Event | None) -> int:
    """Serve Feishu on a new event loop until a signal (main thread) or ``stop`` (a thread)."""
    from bot.chat.loop import serve_on_new_loop
    from bot.feishu.serve import serve_until_signalled

    return serve_on_new_loop("Feishu", lambda done: serve_until_signalled(seam, adapter, done), stop)


def health_lines(
    settings: AppSettings, heartbeat: str | None, max_age_s: float | None
) -> tuple[list[str], bool]:
    """One line per configured platform for ``sizing-bot health``, and whether all are healthy.

    Without ``--heartbeat`` (``heartbeat`` None) each line says the connection is not checked. With a
    heartbeat file, Feishu's and WeCom's own beats (``<file>.feishu``, ``<file>.wecom``, written while
    their long connections are open) must be fresh too; Telegram's is the file itself."""
    from pathlib import Path

    from bot.chat.secrets import REDACTOR
    from bot.telegram.heartbeat import connection_state

    lines = half_configured(settings)
    ok = not lines
    base = (Path(heartbeat) if heartbeat else settings.heartbeat_path) if heartbeat is not None else None
    for name in platforms(settings):
        if name == "dingtalk":
            from bot.dingtalk.run import health_line

            line, fine = health_line(settings, heartbeat, max_age_s)
        else:
            endpoint = {
                "telegram": REDACTOR.redact(settings.telegram_base_url.replace("{token}", "<token>")),
                "feishu": settings.feishu.domain,
                "wecom": settings.wecom.ws_url,
            }[name]
            beat = base if name == "telegram" or base is None else base.with_name(f"{base.name}.{name}")
            words = "connection: open" if name == "telegram" else "long connection: open"
            state, fine = connection_state(beat, heartbeat, max_age_s, words)
            line = f"{name}: configured ({endpoint}); {state}"
        lines.append(line)
        ok = ok and fine
    return lines, ok
