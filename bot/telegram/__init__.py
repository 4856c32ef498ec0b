"""The Telegram adapter (python-telegram-bot).

PTB's ``telegram.ext`` is imported without its tornado webhook server: ``telegram.ext._updater`` imports
``telegram.ext._utils.webhookhandler`` (tornado, with ``multiprocessing``: 20+ modules, ~2.8 MiB of the
idle bot's RSS) whenever tornado is installed, but this bot never starts it — a webhook is served by
:mod:`bot.telegram.webhook` (the secret checked before the body is read, size caps, timeouts). Importing
this package adds a finder that refuses that one module once (PTB catches the ImportError and says
``WEBHOOKS_AVAILABLE = False``, which only its own ``Updater.start_webhook`` reads) and then removes
itself; nothing of PTB is imported here (the heartbeat module is used by every platform).
:func:`enable_ptb_webhook_server` brings that server back where it is wanted (tests that drive PTB's own
webhook). It also puts :mod:`bot.telegram.limiter_version`'s finder first, so that ``aiolimiter`` (PTB's
``AIORateLimiter``) reads its version without importing ``importlib.metadata``.
"""

from __future__ import annotations

import sys
from typing import Any

from bot.telegram import limiter_version

WEBHOOK_SERVER_MODULE = "telegram.ext._utils.webhookhandler"


class _WithoutPtbWebhookServer:
    """A ``sys.meta_path`` finder that refuses :data:`WEBHOOK_SERVER_MODULE` on its first import (as
    when tornado is not installed), then takes itself off; it finds nothing else."""

    @staticmethod
    def find_spec(name: str, path: Any = None, target: Any = None) -> None:
        if name == WEBHOOK_SERVER_MODULE:
            _remove_finder()
            raise ModuleNotFoundError(f"{name} is left out by bot.telegram (see its docstring)", name=name)


_FINDER = _WithoutPtbWebhookServer()


def _remove_finder() -> None:
    while _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)


def enable_ptb_webhook_server() -> bool:
    """Give PTB its tornado webhook server back (``Updater.start_webhook``), importing it now; False when
    tornado is not installed (PTB then refuses ``start_webhook`` as it always would)."""
    from telegram.ext import _updater

    _remove_finder()
    if not _updater.WEBHOOKS_AVAILABLE:
        try:
            from telegram.ext._utils.webhookhandler import WebhookAppClass, WebhookServer
        except ImportError:
            return False
        _updater.WebhookAppClass = WebhookAppClass  # type: ignore[attr-defined]
        _updater.WebhookServer = WebhookServer  # type: ignore[attr-defined]
        _updater.WEBHOOKS_AVAILABLE = True
    return True


limiter_version.install()
if "telegram.ext._updater" not in sys.modules:  # PTB not imported yet: leave its server out
    sys.meta_path.insert(0, _FINDER)
