"""Issue 23 done-when: a Telegram-free in-memory adapter drives a question, a follow-up and a button
through the neutral seam (bot.chat) with string ids, and gets the CLI's answer text for the question."""

from __future__ import annotations

import asyncio
import subprocess
import sys

from bot.chat.adapter import Adapter, Inbound, Outbound, Press
from bot.chat.seam import Seam
from bot.cli import main
from bot.core.actions import ActionKind
from bot.core.conversation import Conversation

SEED = "7B模型1万亿token要多少A100"
CHAT, ASKER, OTHER = "memory:room-1", "memory:ada", "memory:bob"


class MemoryAdapter:  # the whole front end: items in, replies out (a callable item reads what was sent)
    platform = "memory"

    def __init__(self, *items):
        self.items, self.sent, self.edits, self.files = items, [], [], []

    async def connect(self): ...
    async def stop(self): ...
    async def receive(self):
        for item in self.items:
            yield item(self) if callable(item) else item

    async def reply(self, to, out):
        self.sent.append(out)
        return f"m{len(self.sent)}"

    async def edit(self, chat_id, message_id, out):
        self.edits.append((chat_id, message_id, out))

    async def send_file(self, chat_id, name, data, *, reply_to=None):
        self.files.append((name, data))
        return "f"

    async def send_photo(self, chat_id, png, *, caption="", reply_to=None):
        self.files.append(("png", png))
        return "p"


def _says(text: str, user: str = ASKER, **kw) -> Inbound:
    return Inbound("memory", CHAT, user, text, **kw)


def _press(kind: ActionKind, message: int = 2, user: str = OTHER):
    def pick(adapter: MemoryAdapter) -> Press:
        out: Outbound = adapter.sent[message - 1]
        [action] = [a for row in out.actions for a in row if a.kind is kind]
        return Press("memory", CHAT, user, f"m{message}", out.turn_id, action)

    return pick


def _cli(question: str, capsys) -> str:
    assert main(["ask", question]) == 0
    return capsys.readouterr().out


def test_question_follow_up_and_button_through_the_seam(capsys) -> None:
    conversation = Conversation()
    seam = Seam(conversation)
    adapter = MemoryAdapter(_says(SEED), _says("那H100呢"), _press(ActionKind.STAGE))
    assert isinstance(adapter, Adapter)  # the Protocol, checked at run time
    asyncio.run(seam.serve(adapter))

    first, follow = adapter.sent
    assert first.text.strip() == _cli(SEED, capsys).strip()  # the CLI's answer, byte for byte
    assert "A100" in first.text and "H100" not in first.text.splitlines()[0]
    turn = conversation.turn(follow.turn_id)
    assert turn is not None and turn.answer.followup and turn.request.gpu == "H100-SXM5-80GB"
    assert (turn.chat_id, turn.user_id) == (CHAT, ASKER)
    assert "H100" in follow.text.splitlines()[0] and follow.text != first.text
    # core decided the actions: the pretraining answer offers "serve it", the details toggle, 🌐 English
    kinds = [a.kind for row in follow.actions for a in row]
    assert ActionKind.STAGE in kinds and ActionKind.LANG in kinds and ActionKind.DETAILS in kinds
    [(chat, message, edited)] = adapter.edits  # the 🚀 button edits the message it is under
    assert (chat, message) == (CHAT, "m2")
    served = conversation.turn(edited.turn_id)
    assert (
        served is not None and served.request.stage == "inference" and served.request.gpu == "H100-SXM5-80GB"
    )
    assert served.user_id == OTHER  # in a group anyone may press: the presser's memory moves on
    assert conversation.last_turn_id(CHAT, OTHER) == served.id
    assert seam.shown.get(CHAT, "m2").turn_id == served.id  # a reply to m2 now follows up the serving turn


def test_a_reply_to_an_answer_follows_it_up_and_groups_need_a_mention(capsys) -> None:
    seam = Seam(Conversation())
    adapter = MemoryAdapter(
        _says(SEED, is_group=True, mentioned=True),
        _says("那H100呢", is_group=True),  # neither mentioned nor a reply: not for the bot
        _says("QLoRA 7B on a 4090", user=OTHER, is_group=True, mentioned=True),
        _says("那H100呢", is_group=True, reply_to="m1"),  # a reply to the first answer: follows it up
        _press(ActionKind.CHART, message=3),
    )
    asyncio.run(seam.serve(adapter))
    assert len(adapter.sent) == 3
    last = seam.conversation.turn(adapter.sent[2].turn_id)
    assert last is not None and last.answer.followup and last.request.gpu == "H100-SXM5-80GB"
    assert last.request.stage == "pretrain"  # the reply follows up m1 (pretraining), not the 4090 turn
    [(name, png)] = adapter.files
    assert name == "png" and png.startswith(b"\x89PNG")


def test_the_neutral_kit_imports_no_telegram() -> None:
    code = (
        "import sys, bot.chat.seam, bot.chat.adapter, bot.chat.ids, bot.chat.shown, bot.core.actions,"
        " bot.chat.commands, bot.chat.wording, bot.chat.ratelimit, bot.chat.secrets, bot.chat.contact;"
        "print(sorted(m for m in sys.modules if m == 'telegram' or m.startswith('telegram.')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_contact_line_follows_sized_answers_only(capsys) -> None:
    seam = Seam(Conversation(), contact="Sales: ada@example.com")
    adapter = MemoryAdapter(_says(SEED), _says("今天天气怎么样"))
    asyncio.run(seam.serve(adapter))
    sized, help_text = adapter.sent
    assert sized.text == _cli(SEED, capsys).rstrip("\n") + "\n\nSales: ada@example.com"
    assert "Sales:" not in help_text.text and help_text.actions == [] and help_text.turn_id
