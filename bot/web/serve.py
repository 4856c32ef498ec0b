"""``sizing-bot serve``: the web application under uvicorn, settings from the arguments, else the
environment (``SIZING_BOT_WEB_HOST``, ``SIZING_BOT_WEB_PORT``, ``SIZING_BOT_WEB_ROOT_PATH`` for a
reverse proxy's path prefix, ``SIZING_BOT_WEB_RATE`` requests a minute per client, and the offer
``SIZING_BOT_PRESALES``)."""

from __future__ import annotations

import sys

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
MAX_REQUEST_HEAD_BYTES = 256 * 1024
"""Longest request line and headers: a shared link carries a long pasted question URL-encoded (up to
9 bytes a character); h11's default, 16 KiB, would refuse the corpus's longest question."""


def serve(host: str | None = None, port: int | None = None) -> int:
    """Run until stopped; 2 with one line on stderr for a bad port or offer file."""
    import uvicorn

    from bot.config import SettingsProblem, current
    from bot.settings.presales_path import PresalesError, load_offer
    from bot.web.app import create_app

    try:
        web = current().web
    except SettingsProblem as exc:  # one line naming the variable
        print(f"error: {exc}", file=sys.stderr)
        return 2
    host = host or web.host or DEFAULT_HOST
    port = port if port is not None else web.port
    if not 0 < port < 65536:
        print(f"error: port {port}: not a port (1-65535)", file=sys.stderr)
        return 2
    try:
        presales = load_offer()
    except PresalesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    root_path = web.root_path
    print(f"serving on http://{host}:{port}{root_path}/", file=sys.stderr, flush=True)
    uvicorn.run(
        create_app(presales), host=host, port=port, root_path=root_path, log_level="warning",
        access_log=False, proxy_headers=True,
        h11_max_incomplete_event_size=MAX_REQUEST_HEAD_BYTES,
    )  # fmt: skip
    return 0
