"""``sizing-bot health``: the container's health check, with one line per configured platform.

Moved out of :mod:`bot.cli` (over 500 lines) with issue 27; the checks are unchanged, the platform
lines (:func:`bot.run.health_lines`) are new.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bot.cli import EXIT_OK, ask, load_offer

HEALTH_QUESTION = "7B模型1万亿token要多少A100"
"""The seed question: the health check answers it end to end (parse, estimate, render)."""


def health(heartbeat: str | None = None, max_age_s: float | None = None) -> int:
    """The container's health check. With ``heartbeat`` (a file, or "" for $SIZING_BOT_HEARTBEAT): the
    running bot's heartbeat is at most ``max_age_s`` old (bot.telegram.heartbeat) -- the probe of the
    running process, in polling mode too. Without: the pipeline answers the seed question (templates,
    catalogs and data are installed and load) and the pre-sales file named by SIZING_BOT_PRESALES is
    valid. Either way, in webhook mode (TELEGRAM_WEBHOOK_URL set) the webhook server accepts a TCP
    connection on its port. Prints one line; exit 0 healthy, 1 not."""
    if _webhook_port_problem(connect=False):  # the settings first: a bad value is named, nothing runs
        return 1
    from bot.config import current
    from bot.run import health_lines, platforms

    if heartbeat is not None:
        found = platforms(current())  # with other platforms: each beat on its own line, below
        problem = _heartbeat_problem(heartbeat, max_age_s) if found in ([], ["telegram"]) else None
        if problem is not None:
            print(f"unhealthy: {problem}", file=sys.stderr)
            return 1
    elif not _answers():
        return 1
    if _webhook_port_problem():
        return 1
    lines, ok = health_lines(current(), heartbeat, max_age_s)  # one line per configured platform
    print("\n".join([*lines, "healthy"] if ok else lines))
    if not ok:
        print("unhealthy: a platform is not serving (see above)", file=sys.stderr)
        return 1
    return EXIT_OK


def _heartbeat_problem(path: str, max_age_s: float | None) -> str | None:
    from bot.telegram.heartbeat import HEARTBEAT_MAX_AGE_S, check_heartbeat

    if not path:
        from bot.config import current

        path = str(current().heartbeat_path or "")
    if not path:
        return "no heartbeat file: give --heartbeat FILE or set SIZING_BOT_HEARTBEAT"
    return check_heartbeat(Path(path), HEARTBEAT_MAX_AGE_S if max_age_s is None else max_age_s)


def _answers() -> bool:
    """The seed question is answered (with the offer, when one is configured); else one line why."""
    from bot.settings.presales import PresalesError

    try:
        presales = load_offer(None)
        out, code = ask(HEALTH_QUESTION, None, "text", presales=presales)
    except (PresalesError, OSError) as exc:
        print(f"unhealthy: {exc}", file=sys.stderr)
        return False
    if code != EXIT_OK or not out.strip():
        print("unhealthy: the seed question was not answered", file=sys.stderr)
        return False
    return True


def _webhook_port_problem(connect: bool = True) -> bool:
    """True (and one line) when a setting is bad or, in webhook mode with ``connect``, the webhook port
    does not accept a connection."""
    import socket

    from bot.config import SettingsProblem, current

    try:
        telegram = current().telegram
    except SettingsProblem as exc:
        port = [(v, shown) for v, shown, _ in exc.problems if v == "TELEGRAM_WEBHOOK_PORT"]
        why = f"{port[0][0]}={port[0][1]}: not a port (1-65535)" if port else str(exc)
        print(f"unhealthy: {why}", file=sys.stderr)
        return True
    if telegram.webhook_url and connect:
        host = telegram.webhook_listen.strip() or "0.0.0.0"
        host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
        port = telegram.webhook_port
        try:
            with socket.create_connection((host, port), timeout=3):
                pass
        except OSError as exc:
            print(f"unhealthy: webhook port {host}:{port}: {exc.strerror or exc}", file=sys.stderr)
            return True
    return False
