"""``sizing-bot run``: start every platform whose credentials are set, in one process.

* Telegram (``TELEGRAM_BOT_TOKEN``): :func:`bot.telegram.app.run`, as before, on the main thread.
* Feishu / Lark (``FEISHU_APP_ID`` + ``FEISHU_APP_SECRET``, ``FEISHU_DOMAIN``): :mod:`bot.feishu.serve`
  on its own event loop, on the main thread when it is the only platform, else on a thread of its own.
* DingTalk (``DINGTALK_CLIENT_ID`` + ``DINGTALK_CLIENT_SECRET``): :mod:`bot.dingtalk.run`, the same way.

A platform's code is imported only when its credentials are set (python-telegram-bot is not loaded
for a Feishu-only deployment, websockets is not loaded for a Telegram-only one).
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.config import AppSettings

log = logging.getLogger(__name__)

NO_PLATFORM = (
    "TELEGRAM_BOT_TOKEN is not set: get a token from @BotFather and export it "
    "(or put TELEGRAM_BOT_TOKEN=... in .env); for Feishu/Lark set FEISHU_APP_ID and FEISHU_APP_SECRET."
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
    return found


def _one_line(error: BaseException) -> str:
    return "; ".join(line.strip() for line in str(error).splitlines() if line.strip()) or type(error).__name__


def run(settings: AppSettings, _without: frozenset[str] = frozenset()) -> int:
    """Start the configured platforms; returns the exit code (2: nothing configured or bad settings)."""
    found = [name for name in platforms(settings) if name not in _without]
    if not found:
        print(NO_PLATFORM, file=sys.stderr)
        return 2
    if "dingtalk" in found:  # DingTalk (bot/dingtalk/run.py): on a thread when others run too
        from bot.dingtalk.run import run_dingtalk

        rest = None if found == ["dingtalk"] else (lambda: run(settings, _without | {"dingtalk"}))
        return run_dingtalk(settings, rest)
    if "feishu" not in found:
        from bot.telegram.app import run as run_telegram

        return run_telegram(settings)
    from bot.chat.secrets import REDACTOR, configure_logging, protect_token

    secret = settings.feishu.app_secret
    assert secret is not None
    protect_token(secret.get_secret_value())
    configure_logging(settings.log_level)
    try:
        seam, adapter = _feishu(settings)
    except Exception as err:  # a bad offer file, an unopenable settings DB: one line
        print(f"sizing-bot: cannot start Feishu: {REDACTOR.redact(_one_line(err))}", file=sys.stderr)
        return 2
    if "telegram" not in found:
        return _run_feishu(seam, adapter, None)
    stop = threading.Event()
    thread = threading.Thread(target=_run_feishu, args=(seam, adapter, stop), name="feishu", daemon=True)
    thread.start()
    from bot.telegram.app import run as run_telegram

    try:
        return run_telegram(settings)
    finally:
        stop.set()
        thread.join(10)


def _feishu(settings: AppSettings):  # -> (Seam, FeishuAdapter)
    from bot.feishu.serve import build
    from bot.settings.presales import load_presales

    presales = load_presales(settings.presales_path) if settings.presales_path else None
    return build(settings, presales)


def _run_feishu(seam, adapter, stop: threading.Event | None) -> int:
    """Serve Feishu on a new event loop until a signal (main thread) or ``stop`` (a thread)."""
    from bot.chat.secrets import REDACTOR
    from bot.feishu.serve import serve_until_signalled

    async def main() -> None:
        done = asyncio.Event()
        if stop is not None:
            loop = asyncio.get_running_loop()
            threading.Thread(
                target=lambda: (stop.wait(), loop.call_soon_threadsafe(done.set)), daemon=True
            ).start()
        await serve_until_signalled(seam, adapter, done)

    try:
        asyncio.run(main())
    except Exception as err:  # the server's ReconnectCount used up (refusals are retried, never fatal)
        print(f"Feishu: {REDACTOR.redact(_one_line(err))}", file=sys.stderr)
        return 1
    return 0


def health_lines(
    settings: AppSettings, heartbeat: str | None, max_age_s: float | None
) -> tuple[list[str], bool]:
    """One line per configured platform for ``sizing-bot health``, and whether all are healthy.

    With a heartbeat file, Feishu's own beat (``<file>.feishu``, written while its long connection is
    open) must be fresh too; Telegram's is the file itself (checked by the caller)."""
    lines, ok = [], True
    for name in platforms(settings):
        if name == "telegram":
            lines.append("telegram: configured")
            continue
        if name == "dingtalk":
            from bot.dingtalk.run import health_line

            line, fine = health_line(settings, heartbeat, max_age_s)
            lines.append(line)
            ok = ok and fine
            continue
        where = f"feishu: configured ({settings.feishu.domain})"
        if heartbeat is not None:
            from pathlib import Path

            from bot.telegram.heartbeat import HEARTBEAT_MAX_AGE_S, check_heartbeat

            base = Path(heartbeat) if heartbeat else settings.heartbeat_path
            if base is not None:
                beat = base.with_name(base.name + ".feishu")
                problem = check_heartbeat(beat, HEARTBEAT_MAX_AGE_S if max_age_s is None else max_age_s)
                where += f"; long connection: {problem}" if problem else "; long connection: open"
                ok = ok and problem is None
        lines.append(where)
    return lines, ok
