"""DingTalk callback cards (issue 28): with ``DINGTALK_CARD_TEMPLATE_ID`` the real ``sizing-bot run``
answers with a card instance of that template, and a button click updates the card in place; without
it the answers keep their link buttons (tests/fake_dingtalk.py plays DingTalk on loopback)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from dingtalk_run import answers, of_kind, running_bot
from fake_dingtalk import CARD_TOPIC, FakeDingTalk
from platform_run import wait

TEMPLATE = "d3b6a1f0-fake-template.schema"
CARDS = {"DINGTALK_CARD_TEMPLATE_ID": TEMPLATE}


@pytest.fixture
def fake():
    with FakeDingTalk() as server:
        yield server


def _cards(fake: FakeDingTalk) -> list[dict]:
    with fake.lock:
        return [c["create"] for c in fake.cards.values()]


def _updates(fake: FakeDingTalk, track: str) -> list[dict]:
    with fake.lock:
        return list(fake.cards[track]["updates"])


def test_a_question_gets_a_card_instance_and_a_click_updates_it_in_place(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path, extra_env=CARDS):
        data = fake.message("7B模型1万亿token要多少A100")
        fake.push(data)
        card = wait(lambda: _cards(fake), 15, "card instance")[0]
        assert card["cardTemplateId"] == TEMPLATE and card["callbackType"] == "STREAM"
        assert card["openSpaceId"] == f"dtv1.card//IM_GROUP.{data['conversationId']}"
        assert card["imGroupOpenDeliverModel"] == {"robotCode": fake.client_id}
        params = card["cardData"]["cardParamMap"]
        assert all(isinstance(v, str) for v in params.values())
        assert "A100" in params["headline"] and "7B" in params["headline"] + params["figures"]
        actions = json.loads(params["actions"])
        gpu = [a for a in actions if a["key"].split("|")[2] == "g"]
        assert gpu and all(a["key"].startswith("1|") for a in actions)
        assert not answers(fake)  # the card replaces the link card, not added to it
        wait(lambda: of_kind(fake, "sampleImageMsg"), 30, "chart")  # the chart still follows
        assert [CARD_TOPIC in str(s) for s in fake.subscriptions] == [True] * len(fake.subscriptions)

        track, new_gpu = card["outTrackId"], gpu[0]["key"].split("|")[3].split("-")[0]  # H100-SXM5-80GB
        assert new_gpu != "A100"
        frame = fake.click(track, gpu[0]["key"])
        update = wait(lambda: _updates(fake, track), 15, "card update")[0]
        ack = next(a for a in fake.acks if a.message_id == frame)
        assert ack.code == 200 and ack.at <= time.monotonic()
        assert update["outTrackId"] == track  # the same card, updated in place
        headline = update["cardData"]["cardParamMap"]["headline"]
        assert new_gpu in headline and "A100" not in headline, headline
        assert len(fake.cards) == 1 and not answers(fake)


def test_a_1_to_1_card_goes_to_the_robot_chat_and_foreign_clicks_are_ignored(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path, extra_env=CARDS):
        fake.push(fake.message("70B model inference on H100, how many GPUs?", group=False))
        card = wait(lambda: _cards(fake), 15, "card instance")[0]
        assert card["openSpaceId"] == "dtv1.card//IM_ROBOT.staff0001"
        assert card["imRobotOpenDeliverModel"] == {"spaceType": "IM_ROBOT", "robotCode": fake.client_id}
        key = json.loads(card["cardData"]["cardParamMap"]["actions"])[0]["key"]
        unknown = fake.click("sz-not-ours-00000000", key)  # a card this bot never sent
        forged = fake.click(card["outTrackId"], "not|a|key")  # not one of our button keys
        wait(lambda: {unknown, forged} <= {a.message_id for a in fake.acks}, 10, "acks")
        time.sleep(1.0)
        assert _updates(fake, card["outTrackId"]) == [] and len(fake.cards) == 1
        assert "Traceback" not in (tmp_path / "bot.log").read_text()


def test_without_a_template_id_the_link_buttons_stay(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        fake.push(fake.message("7B模型1万亿token要多少A100"))
        sent = wait(lambda: answers(fake), 15, "answer")[0]
        assert sent.kind == "actionCard" and sent.body["actionCard"]["btns"]
        assert fake.cards == {} and ("POST", "/v1.0/card/instances/createAndDeliver") not in fake.calls
        assert all(CARD_TOPIC not in str(s) for s in fake.subscriptions) and fake.subscriptions


def test_a_refused_card_falls_back_to_the_link_buttons(fake, tmp_path: Path) -> None:
    fake.refuse_cards = True
    with running_bot(fake, tmp_path, extra_env=CARDS):
        fake.push(fake.message("7B模型1万亿token要多少A100"))
        sent = wait(lambda: answers(fake), 15, "answer")[0]
        assert sent.kind == "actionCard" and sent.body["actionCard"]["btns"] and fake.cards == {}
        assert ("POST", "/v1.0/card/instances/createAndDeliver") in fake.calls
        log = (tmp_path / "bot.log").read_text()
        assert "the card was refused (param.cardTemplateIdInvalid)" in log and "Traceback" not in log
