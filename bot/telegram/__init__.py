"""The Telegram adapter (python-telegram-bot).

PTB's ``telegram.ext`` is imported here first, without its tornado webhook server: ``telegram.ext._updater``
imports ``telegram.ext._utils.webhookhandler`` (tornado, with ``multiprocessing``: 20+ modules, ~2.8 MiB of
the idle bot's RSS) whenever tornado is installed, but this bot never starts it — a webhook is served by
:mod:`bot.telegram.webhook` (the secret checked before the body is read, size caps, timeouts). PTB then says
``WEBHOOKS_AVAILABLE = False``, which only its own ``Updater.start_webhook`` reads;
:func:`enable_ptb_webhook_server` brings that server back where it is wanted (tests that drive PTB's own
webhook).
"""

from __future__ import annotations

import sys


def _import_ptb_without_tornado() -> None:
    """Import ``telegram.ext`` with tornado hidden (a ``None`` in ``sys.modules`` makes its import raise
    ImportError, which PTB catches), then unhide it. Nothing is hidden when tornado or ``telegram.ext``
    is already imported."""
    if "tornado" in sys.modules or "telegram.ext" in sys.modules:
        return
    sys.modules["tornado"] = None  # type: ignore[assignment]
    try:
        import telegram.ext  # noqa: F401
    finally:
        if sys.modules.get("tornado", 0) is None:
            del sys.modules["tornado"]


def enable_ptb_webhook_server() -> bool:
    """Give PTB its tornado webhook server back (``Updater.start_webhook``), importing it now; False when
    tornado is not installed (PTB then refuses ``start_webhook`` as it always would)."""
    from telegram.ext import _updater

    if not _updater.WEBHOOKS_AVAILABLE:
        try:
            from telegram.ext._utils.webhookhandler import WebhookAppClass, WebhookServer
        except ImportError:
            return False
        _updater.WebhookAppClass = WebhookAppClass  # type: ignore[attr-defined]
        _updater.WebhookServer = WebhookServer  # type: ignore[attr-defined]
        _updater.WEBHOOKS_AVAILABLE = True
    return True


_import_ptb_without_tornado()
