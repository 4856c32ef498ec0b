"""Card clicks on Feishu / Lark are acked with a toast: what comes when the click is accepted, why not
when it is refused. Through the real ``sizing-bot run`` against the fake Feishu."""

from __future__ import annotations

import base64
import json
import time
from pathlib import Path

import pytest
from fake_feishu import FakeFeishu
from feishu_run import buttons, card_of, cards, running_bot, wait


@pytest.fixture
def fake():
    with FakeFeishu() as server:
        yield server


def _click(fake: FakeFeishu, value: dict, message_id: str) -> dict:
    """Push a click and return the callback response its ack carried."""
    pushed = fake.push(fake.card_action(value, message_id=message_id, chat_id="oc_p2p0001"), kind="card")
    ack = wait(lambda: [a for a in fake.acks if a.message_id == pushed], 10, "ack")[0]
    assert ack.code == 200 and ack.latency < 3.0
    return json.loads(base64.b64decode(ack.data))


def _button(card: dict, action: str) -> dict:
    return next(value for _, value in buttons(card) if value["a"] == action)


def test_an_accepted_click_is_acked_with_a_toast_saying_what_comes(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        fake.push(fake.message_event("7B model 1T tokens on A100"))
        sent = wait(lambda: cards(fake), 10, "card")[0]
        card, mid = card_of(sent), sent["message_id"]
        assert _click(fake, _button(card, "g"), mid) == {
            "toast": {"type": "info", "content": "Updating the answer…"}
        }
        wait(lambda: fake.http.messages[mid]["updates"], 10, "PATCH")
        assert _click(fake, _button(card, "c"), mid)["toast"]["content"] == "Drawing the chart…"
        assert _click(fake, _button(card, "r"), mid)["toast"]["content"] == "Preparing the file…"
        chinese = _click(fake, _button(card, "l"), mid)  # 🌐 中文: the toast is already in Chinese
        assert chinese == {"toast": {"type": "info", "content": "正在更新答案…"}}


def test_a_refused_click_is_acked_with_a_warning_toast_and_changes_nothing(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        fake.push(fake.message_event("70B模型推理要多少A100"))
        sent = wait(lambda: cards(fake), 10, "card")[0]
        mid = sent["message_id"]
        gpu = _button(card_of(sent), "g")
        assert _click(fake, gpu, mid)["toast"] == {"type": "info", "content": "正在更新答案…"}
        wait(lambda: fake.http.messages[mid]["updates"], 10, "PATCH")
        expired = _click(fake, {**gpu, "t": "gone1234"}, mid)  # an answer no longer remembered
        assert expired == {"toast": {"type": "warning", "content": "这条结果已过期，请重新提问"}}
        other = _click(fake, {**gpu, "v": 99}, mid)  # a button this version does not make
        assert other["toast"]["type"] == "warning"
        time.sleep(1.0)
        assert len(fake.http.messages[mid]["updates"]) == 1 and len(fake.http.sent()) == 1
