"""The fake Bot API counts a call for ``wait_for`` only once it was handled, so a test that waits for
the bot's n-th message finds it stored. Before, the count came on arrival: under load the test read
``bot_messages`` before the server thread stored the message (IndexError in
tests/test_telegram_ui.py::test_reply_to_an_earlier_answer_follows_up_on_that_answer, 1 run in 3 with
two busy cores)."""

from __future__ import annotations

import threading
import time
from typing import Any

from tg_harness import checked_fake_api

TOKEN = "123456:FAKE-TOKEN-abc"


def test_wait_for_returns_once_the_sent_message_is_stored() -> None:
    with checked_fake_api(TOKEN) as api:
        chat = api.private_chat(api.user("Ann", "en"))
        store = api._m_sendmessage

        def descheduled(params: dict[str, Any]) -> dict[str, Any]:
            time.sleep(0.3)  # the server thread gets no CPU for a while (a loaded machine)
            return store(params)

        api._m_sendmessage = descheduled  # type: ignore[method-assign]
        sender = threading.Thread(
            target=api.handle, args=(TOKEN, "sendMessage", {"chat_id": chat["id"], "text": "hello"})
        )
        sender.start()
        api.wait_for("sendMessage", 1, timeout=30)
        assert [m["text"] for m in api.bot_messages(chat["id"])] == ["hello"]
        sender.join(30)


def test_a_bot_restarted_on_the_same_fake_is_yielded_once_its_own_connection_is_open(tmp_path) -> None:
    """``running_bot`` waited for ``fake.connections >= 1``: a second bot on the same fake (a restart,
    a replica) was yielded at once, before its process had started, and the test's next push waited
    for a re-push (3 s) plus the start-up inside its 10 s budget ('card not met within 10 s', 2 in 8
    quote runs under load)."""
    from fake_feishu import FakeFeishu
    from feishu_run import running_bot

    with FakeFeishu() as fake:
        with running_bot(fake, tmp_path):
            assert fake.connections == 1
        with running_bot(fake, tmp_path):
            assert fake.connections == 2  # its own, not the stopped bot's
