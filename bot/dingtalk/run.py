"""``sizing-bot run`` with DingTalk configured (``DINGTALK_CLIENT_ID`` + ``DINGTALK_CLIENT_SECRET``):
DingTalk on its own event loop, on the main thread when it is the only platform, else on a thread of
its own while the other platforms run as before (:func:`bot.run.run`); and its ``health`` line.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.config import AppSettings
    from bot.dingtalk.serve import DingTalkServer


def run_dingtalk(settings: AppSettings, others: Callable[[], int] | None) -> int:
    """Start DingTalk, and ``others`` (the other platforms) on the main thread when given."""
    from bot.chat.loop import one_line
    from bot.chat.secrets import REDACTOR, configure_logging, protect_token

    secret = settings.dingtalk.client_secret
    assert secret is not None
    protect_token(secret.get_secret_value())
    configure_logging(settings.log_level)
    try:
        server = _build(settings)
    except Exception as err:  # a bad offer file, an unopenable settings DB: one line
        print(f"sizing-bot: cannot start DingTalk: {REDACTOR.redact(one_line(err))}", file=sys.stderr)
        return 2
    server.adapter.api.token.on_token = protect_token  # each access token stays out of the logs
    if others is None:
        return _serve(server, None)
    stop = threading.Event()
    thread = threading.Thread(target=_serve, args=(server, stop), name="dingtalk", daemon=True)
    thread.start()
    try:
        return others()
    finally:
        stop.set()
        thread.join(10)


def _build(settings: AppSettings) -> DingTalkServer:
    from bot.dingtalk.serve import build
    from bot.settings.presales import load_presales

    presales = load_presales(settings.presales_path) if settings.presales_path else None
    return build(settings, presales)


def _serve(server: DingTalkServer, stop: threading.Event | None) -> int:
    """Serve DingTalk on a new event loop until a signal (main thread) or ``stop`` (a thread)."""
    from bot.chat.loop import serve_on_new_loop
    from bot.dingtalk.serve import serve_until_signalled

    return serve_on_new_loop("DingTalk", lambda done: serve_until_signalled(server, done), stop)


def health_line(settings: AppSettings, heartbeat: str | None, max_age_s: float | None) -> tuple[str, bool]:
    """``health``'s DingTalk line; with a heartbeat file, its own beat (``<file>.dingtalk``, written
    while the Stream connection is open) must be fresh."""
    from bot.telegram.heartbeat import connection_state

    base = (Path(heartbeat) if heartbeat else settings.heartbeat_path) if heartbeat is not None else None
    beat = base.with_name(base.name + ".dingtalk") if base is not None else None
    state, ok = connection_state(beat, heartbeat, max_age_s, "stream connection: open")
    return f"dingtalk: configured ({settings.dingtalk.endpoint}); {state}", ok
