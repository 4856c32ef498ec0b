"""The bot's application-wide state (``context.bot_data``), typed, and what each sent answer shows."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from telegram.ext import CallbackContext, ContextTypes, ExtBot

from bot.chat.contact import contact_of
from bot.chat.ratelimit import FloodGate
from bot.chat.shown import ShownMessages
from bot.core.conversation import Conversation
from bot.quote.pool import WorkPool
from bot.settings.presales import Localized, PresalesConfig
from bot.settings.store import SettingsStore
from bot.telegram.config import BotSettings
from bot.telegram.journal import UpdateJournal
from bot.telegram.settings_io import ChatSettingsIO


@dataclass
class BotData:
    """Application-wide state, reached as ``context.bot_data`` (no module globals)."""

    settings: BotSettings | None = None
    username: str = ""
    conversation: Conversation = field(default_factory=Conversation)
    store: SettingsStore | None = None
    """The chat settings (None: settings unavailable). Blocking: use ``settings_io`` on the loop."""
    settings_io: ChatSettingsIO = field(default_factory=lambda: ChatSettingsIO(None))
    """The settings off the event loop, cached (bot.telegram.settings_io)."""
    journal: UpdateJournal | None = None
    """Updates persisted before they are acknowledged (bot.telegram.journal); None: off."""
    presales: PresalesConfig | None = None
    shown: ShownMessages = field(default_factory=ShownMessages)
    migrated: set[tuple[int, int]] = field(default_factory=set)
    flood: FloodGate | None = None
    """Per-user and per-chat limits on answers (None: unlimited)."""
    inline_flood: FloodGate | None = None
    """Per-user limit on inline answers (None: unlimited)."""
    heavy: WorkPool = field(default_factory=WorkPool)
    """Quotes and charts: a bounded worker pool with per-user and global limits (bot.quote.pool)."""
    shared: Any = None
    """The store replicas share (bot.store, SIZING_BOT_DATABASE_URL); None: this process's SQLite."""
    heartbeat: asyncio.Task[None] | None = None
    """The task that proves the bot serves (bot.telegram.heartbeat); None: no heartbeat file."""

    @property
    def contact(self) -> str | Localized | None:
        """The pre-sales contact line appended to answers (per reply language), if configured."""
        return contact_of(self.presales)


SizingContext = CallbackContext[ExtBot[None], dict, dict, BotData]
CONTEXT_TYPES = ContextTypes(bot_data=BotData)
