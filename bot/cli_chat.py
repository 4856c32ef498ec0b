"""``sizing-bot chat``: a conversation on the terminal (trial s35 #2: ``ask`` answers one question and
has no follow-up, only the web API's ``prev`` and ``preview`` had one).

Each line read from standard input is a message of one private chat, answered by the conversation code
the bots use (:class:`bot.core.conversation.Conversation`), so "那H100呢？", "换成QLoRA" or "what about
30 days?" change the question before, as on Telegram. ``/reset`` (or ``/start``, ``/new``) forgets the
question before; ``/quit`` (``/exit``), end of input (Ctrl-D) or Ctrl-C ends the chat with exit 0. An
answer is printed as ``ask`` prints it (``--format``, ``--lang``); in JSON, one object a line (JSON
Lines), so a script can read the answers one by one. A message that cannot be answered gets the help,
and a failure of one answer is one line on stderr: the chat goes on, never a traceback.
"""

from __future__ import annotations

import json
import sys
from typing import IO, TYPE_CHECKING

from bot.render.i18n import N_, translate

if TYPE_CHECKING:
    from bot.settings.chat import ChatSettings
    from bot.settings.presales import PresalesConfig

CHAT, USER = "cli:chat", "cli:user"
RESET_COMMANDS = ("/reset", "/start", "/new")
QUIT_COMMANDS = ("/quit", "/exit")
MAX_LINE_CHARS = 20_000
"""A line longer than this is cut (the web API's bound on a question: bot/web/openapi.py)."""
RESET_TEXT = N_("New conversation: the next question does not follow up the ones before.")
WELCOME_TEXT = N_(
    "Ask a question; a follow-up ('what about H100?') changes the one before. /reset starts over, "
    "Ctrl-D ends."
)


class _FixedLang:
    """A settings store whose every chat chose ``lang`` (``--lang``): the reply's language, above the
    message's own (:meth:`bot.core.conversation.Conversation.settings`)."""

    def __init__(self, lang: str, script: str | None = None) -> None:
        from bot.settings.chat import ChatSettings

        self._settings = ChatSettings(lang=lang, script=script)  # type: ignore[arg-type]

    def get(self, chat_id: str) -> ChatSettings:
        return self._settings


def chat(
    lang: str | None,
    fmt: str,
    presales: PresalesConfig | None = None,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
) -> int:
    """Answer each line of ``stdin`` in one conversation, writing the replies to ``stdout``; 0 at the end."""
    from bot.core.conversation import Conversation

    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    tty = _isatty(stdin)
    from bot.core.script import LANG_TAGS

    lang, script = LANG_TAGS[lang] if lang else (None, None)  # 'zh-Hant': Chinese, Traditional (s38)
    store = _FixedLang(lang, script) if lang else None
    conversation = Conversation(presales=presales, settings_store=store)
    if tty:
        print(translate(lang or "en", WELCOME_TEXT), file=sys.stderr)
    try:
        while True:
            if tty:
                print("> ", end="", file=sys.stderr, flush=True)
            line = stdin.readline()
            if not line:  # end of input (Ctrl-D)
                return 0
            text = line.strip()[:MAX_LINE_CHARS]
            if not text:
                continue
            command = text.split()[0].lower()
            if command in QUIT_COMMANDS:
                return 0
            if command in RESET_COMMANDS:
                last = conversation.last_turn_id(CHAT, USER)
                said = lang or (last and conversation.turn_lang(last)) or _text_lang(text)
                conversation.forget(CHAT, USER)
                _write(stdout, _reset_reply(said, fmt))
                continue
            reply = _reply(conversation, text, fmt)
            _write(stdout, reply + "\n" if reply and fmt != "json" else reply)  # a blank line between
    except KeyboardInterrupt:  # Ctrl-C: the chat ends, no traceback
        print(file=sys.stderr)
        return 0
    except BrokenPipeError:  # the reader left (`| head`)
        return 0


def _reply(conversation: object, text: str, fmt: str) -> str:
    """The answer to one message in the conversation, as ``ask`` prints it; the help when it fails."""
    from bot.render.renderer import render

    try:
        turn = conversation.ask(CHAT, USER, text)  # type: ignore[attr-defined]
        result = turn.answer  # a follow-up after /reset is a lost one: the reply asks for the whole question
        if fmt == "json":
            from bot.contract import to_json

            return json.dumps(to_json(result, render(result, "text")), ensure_ascii=False)
        return render(result, fmt)  # type: ignore[arg-type]
    except Exception as exc:  # one answer failing never ends the chat
        print(f"error: {' '.join(str(exc).split())[:300] or type(exc).__name__}", file=sys.stderr)
        return ""


def _text_lang(text: str) -> str:
    """Chinese when ``text`` holds a CJK character, else English (design §4: any CJK → Chinese)."""
    return "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en"


def _reset_reply(lang: str, fmt: str) -> str:
    """The line said after /reset, in ``lang``: ``--lang``, else the last answer's, else the command's."""
    line = translate(lang, RESET_TEXT)
    return json.dumps({"reset": True, "reply": line}, ensure_ascii=False) if fmt == "json" else line


def _write(stdout: IO[str], out: str) -> None:
    if out:
        stdout.write(out + "\n")
        stdout.flush()


def _isatty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
