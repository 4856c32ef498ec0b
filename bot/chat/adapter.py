"""The adapter interface every front end implements, and the neutral values it trades in.

An adapter turns its platform's updates into :class:`Inbound` messages and :class:`Press` es (a
button pressed), and sends :class:`Outbound` replies back (text plus rows of neutral actions, which
it translates into its own buttons). Ids are scoped strings (``telegram:123``, ``feishu:oc_ab``;
:mod:`bot.chat.ids`); message ids are the platform's own, as strings. :class:`bot.chat.seam.Seam`
answers them; Telegram implements the interface first (:class:`bot.telegram.adapter.TelegramAdapter`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from bot.core.actions import Action


@dataclass(frozen=True, slots=True)
class Inbound:
    """A message someone sent: ``text`` in chat ``chat_id`` from ``user_id``. ``reply_to``: the id of
    the message it replies to; ``mentioned``: the bot was named in a group message."""

    platform: str
    chat_id: str
    user_id: str
    text: str
    message_id: str = ""
    reply_to: str | None = None
    is_group: bool = False
    mentioned: bool = False
    user_lang: str | None = None
    """the user's client language (``zh-hans``, ``en``), when the platform says it"""


@dataclass(frozen=True, slots=True)
class Press:
    """A button pressed under bot message ``message_id``: ``action`` on the answer of ``turn_id``."""

    platform: str
    chat_id: str
    user_id: str
    message_id: str
    turn_id: str
    action: Action


@dataclass(frozen=True, slots=True)
class Outbound:
    """A reply: ``text`` (in the adapter's dialect) and rows of actions to offer under it."""

    text: str
    turn_id: str = ""
    actions: list[list[Action]] = field(default_factory=list)
    details: bool = True
    """whether ``text`` shows the expandable details (the details action offers the opposite)"""
    lang: str = "en"
    """the reply's language: the actions' labels follow it"""


@runtime_checkable
class Adapter(Protocol):
    """One front end. ``receive`` yields until the platform's stream ends or :meth:`stop` is called."""

    platform: str

    async def connect(self) -> None:
        """Log in, open sockets; after this ``receive`` yields."""

    def receive(self) -> AsyncIterator[Inbound | Press]:
        """The messages and presses, in order."""
        ...

    async def reply(self, to: Inbound | Press, out: Outbound) -> str:
        """Send ``out`` in the chat of ``to`` (quoting it in groups); the sent message's id."""
        ...

    async def edit(self, chat_id: str, message_id: str, out: Outbound) -> None:
        """Replace a sent message's text and actions."""

    async def send_file(self, chat_id: str, name: str, data: bytes, *, reply_to: str | None = None) -> str:
        """Send a document (a recipe, a PDF quote); the sent message's id."""
        ...

    async def send_photo(
        self, chat_id: str, png: bytes, *, caption: str = "", reply_to: str | None = None
    ) -> str:
        """Send a picture (a chart); the sent message's id."""
        ...

    async def stop(self) -> None:
        """Stop receiving and close what ``connect`` opened."""
