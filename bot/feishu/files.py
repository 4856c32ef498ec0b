"""Config files sent to the bot on Feishu / Lark: a model's config.json, a training config (LLaMA-Factory
/ axolotl / torchtune YAML, a DeepSpeed JSON) or a serving command line, as a ``file`` message.

As in Telegram (:mod:`bot.telegram.documents`): p2p chats, any file; groups, a file that replies to
one of the bot's cards (a Feishu file message cannot @ the bot, and reaches the bot only when the app
has the "read all group messages" scope). The file is downloaded with ``GET
/open-apis/im/v1/messages/:message_id/resources/:file_key?type=file`` and never past
:data:`MAX_FILE_BYTES` (the ``Content-Length`` is checked first, then the bytes as they come), and
read by the one reader every front end uses (:func:`bot.core.configfile.read_config_file_data`): a
file that is too large, cannot be downloaded, is not JSON / YAML or not a config gets a card saying
why. A file message has no caption: the config alone is sized (as a bare model name is: serving, the
defaults stated), and plain-text follow-ups ("QLoRA it", "那用4090呢") size the same model. Its
name is not used to tell the format: the content is.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import httpx

from bot.chat.adapter import Inbound
from bot.core.configfile import ConfigInfo, file_too_large, file_unreadable, read_config_file_data
from bot.feishu.api import FeishuAPIError, FileTooLarge
from estimator.hf_config import MAX_CONFIG_BYTES

if TYPE_CHECKING:
    from bot.chat.seam import Seam
    from bot.feishu.adapter import FeishuAdapter
    from bot.feishu.api import FeishuAPI

log = logging.getLogger(__name__)

MAX_FILE_BYTES = MAX_CONFIG_BYTES
"""Largest file read as a config (bytes; a real config.json or training YAML is a few kB), the same
bound as a Telegram document and ``sizing-bot ask --config``."""


@dataclass(frozen=True, slots=True)
class FileMessage:
    """A ``file`` message: ``message`` (its chat, sender, ids; no text) and the file's key and name."""

    message: Inbound
    file_key: str
    file_name: str


def file_message(inbound: Inbound, content: Any) -> FileMessage | None:
    """The file message behind ``inbound`` (built from a ``file`` event) when its content names a file."""
    try:
        parsed = json.loads(content or "{}")
    except (TypeError, ValueError):
        return None
    key = parsed.get("file_key") if isinstance(parsed, dict) else None
    if not isinstance(key, str) or not key:
        return None
    return FileMessage(inbound, key, str(parsed.get("file_name") or ""))


async def read_file(api: FeishuAPI, item: FileMessage) -> ConfigInfo | str:
    """The file read as a config.json (:class:`ConfigInfo`, or the reason it cannot be used), or, for a
    training or serving config, its text (read by the parser as the message)."""
    try:
        data = await api.download_resource(item.message.message_id, item.file_key, limit=MAX_FILE_BYTES)
    except FileTooLarge as exc:
        return file_too_large(exc.size)
    except (FeishuAPIError, httpx.HTTPError) as exc:
        log.info("feishu: could not download file %s: %s", item.file_key, type(exc).__name__)
        return file_unreadable(type(exc).__name__)
    read = read_config_file_data(data)
    return read if isinstance(read, ConfigInfo) else data.decode("utf-8", "replace")


async def answer_file(seam: Seam, adapter: FeishuAdapter, item: FileMessage) -> None:
    """Answer a file message with a card (groups: only a file replying to one of the bot's cards)."""
    msg = item.message
    replied = seam.shown.get(msg.chat_id, msg.reply_to) if msg.reply_to else None
    if msg.is_group and replied is None:
        return
    config = await read_file(adapter.api, item)
    question = config if isinstance(config, str) else ""
    turn = await asyncio.to_thread(  # off the loop: acks, pings and leases go on
        seam.conversation.ask,
        msg.chat_id,
        msg.user_id,
        question,
        reply_to_turn=replied.turn_id if replied else None,
        config=None if isinstance(config, str) else config,
    )
    out = await asyncio.to_thread(seam.outbound, turn)
    seam.remember(msg.chat_id, await adapter.reply(msg, out), out)
