"""Feishu / Lark end to end: the real ``sizing-bot run`` process against the fake Feishu on loopback
(tests/fake_feishu.py: the long connection with protobuf frames, the HTTP API)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fake_feishu import FakeFeishu
from feishu_run import bot_env, buttons, card_of, card_words, cards, running_bot, wait
from platform_run import QUOTE_S

from bot.run import NO_PLATFORM


@pytest.fixture
def fake():
    with FakeFeishu() as server:
        yield server


def _answers_for(fake: FakeFeishu, message_id: str) -> list[dict]:
    return [m for m in fake.http.sent() if m["parent_id"] == message_id]


def test_a_group_question_that_ats_the_bot_is_answered_with_a_card_within_3_s(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        event = fake.group_message("@_user_1 7B模型1万亿token要多少A100")
        asked = event["event"]["message"]["message_id"]
        fake.push(event)
        wait(lambda: fake.acks, 10, "ack")
        acked_at = fake.acks[0].at
        sent = wait(lambda: _answers_for(fake, asked), 10, "answer")
        answered_at = next(c.at for c in fake.http.calls if c.path.endswith(f"{asked}/reply"))
        assert answered_at - acked_at < 3.0
        assert fake.acks[0].code == 200 and fake.acks[0].latency < 3.0
        card = card_of(sent[0])
        assert sent[0]["msg_type"] == "interactive" and card["schema"] == "2.0"
        words = card_words(card)
        assert "A100" in card["header"]["title"]["content"]
        assert "@_user_1" not in words
        panel = [e for e in card["body"]["elements"] if e["tag"] == "collapsible_panel"]
        assert panel and panel[0]["expanded"] is False
        labels = [label for label, _ in buttons(card)]
        assert "📊 Chart" in labels or "📊 图表" in labels, labels


def test_a_group_message_that_does_not_at_the_bot_is_not_answered(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        fake.push(fake.group_message("7B模型1万亿token要多少A100", mention_bot=False))
        event = fake.group_message("@_user_1 7B 1T tokens A100")
        fake.push(event)
        wait(lambda: _answers_for(fake, event["event"]["message"]["message_id"]), 10, "answer")
        assert len(fake.acks) == 2
        assert len(cards(fake)) == 1


def test_a_duplicate_push_gets_no_second_answer(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        event = fake.message_event("70B model 2T tokens on H100, how many GPUs?")
        asked = event["event"]["message"]["message_id"]
        fake.push(event, times=3)
        wait(lambda: len(fake.acks) >= 3, 10, "acks")
        wait(lambda: _answers_for(fake, asked), 10, "answer")
        time.sleep(1.0)
        assert len(fake.pushes) == 3
        assert len(_answers_for(fake, asked)) == 1


def test_a_button_click_updates_the_card_in_place(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        event = fake.message_event("7B model 1T tokens on A100", chat_id="oc_p2p0001")
        fake.push(event)
        sent = wait(lambda: cards(fake), 10, "card")[0]
        gpu = [(label, value) for label, value in buttons(card_of(sent)) if value["a"] == "g"]
        assert gpu, buttons(card_of(sent))
        label, value = gpu[0]
        fake.push(fake.card_action(value, message_id=sent["message_id"], chat_id="oc_p2p0001"), kind="card")
        wait(lambda: fake.http.messages[sent["message_id"]]["updates"], 10, "PATCH")
        updated = card_of(fake.http.messages[sent["message_id"]])
        assert label.split()[-1] in updated["header"]["title"]["content"]
        assert len(cards(fake)) == 1  # updated, not a new message


def test_a_follow_up_in_p2p_keeps_the_model(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        fake.push(fake.message_event("70B模型推理要多少A100"))
        wait(lambda: cards(fake), 10, "first card")
        fake.push(fake.message_event("那H100呢"))
        wait(lambda: len(cards(fake)) == 2, 10, "second card")
        second = card_words(card_of(cards(fake)[1]))
        assert "70B" in second and "H100" in second


def test_a_quote_arrives_as_a_pdf_file(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path, offer=True):
        fake.push(fake.message_event("70B model inference, how many GPUs?"))
        sent = wait(lambda: cards(fake), 10, "card")[0]
        quote = [value for _, value in buttons(card_of(sent)) if value["a"] == "q"]
        assert quote, buttons(card_of(sent))
        fake.push(
            fake.card_action(quote[0], message_id=sent["message_id"], chat_id="oc_p2p0001"), kind="card"
        )
        files = wait(lambda: [m for m in fake.http.sent() if m["msg_type"] == "file"], QUOTE_S, "file")
        key = card_of(files[0])["file_key"]
        upload = fake.http.uploads[key]
        assert upload["file_type"] == "pdf" and upload["file"].startswith(b"%PDF")


def test_exactly_once_with_duplicates_split_payloads_lost_acks_and_a_dropped_socket(
    fake, tmp_path: Path
) -> None:
    """Faults on: every question answered once. The figures go to the report (printed with -s)."""
    with running_bot(fake, tmp_path):
        asked = []
        for i in range(3):
            event = fake.message_event(f"{7 * (i + 1)}B model 1T tokens on A100", chat_id=f"oc_p2p{i}")
            asked.append(event["event"]["message"]["message_id"])
            fake.push(event, times=2, parts=3, reverse=i == 1)
        wait(lambda: all(_answers_for(fake, m) for m in asked), 15, "first answers")
        fake.drop()  # the socket dies; the bot reconnects per the fake's ClientConfig
        wait(lambda: fake.connections >= 2, 15, "reconnect")
        fake.lose_acks(1)  # this ack is lost: Feishu pushes the event again after 3 s
        event = fake.group_message("@_user_1 13B 500B tokens H100")
        asked.append(event["event"]["message"]["message_id"])
        fake.push(event, parts=2)
        wait(lambda: _answers_for(fake, asked[-1]), 15, "answer after the drop")
        wait(lambda: len(fake.pushes) >= 8, 10, "the re-push of the lost ack")
        time.sleep(1.0)
        answers = {m: len(_answers_for(fake, m)) for m in asked}
        print(
            f"\nexactly-once: pushes={len(fake.pushes)} acks={len(fake.acks)} lost_acks={len(fake.lost_acks)}"
            f" answers={sum(answers.values())} questions={len(asked)} connections={fake.connections}"
        )
        assert answers == dict.fromkeys(asked, 1)


def test_a_re_push_after_a_restart_is_not_answered_again(fake, tmp_path: Path) -> None:
    event = fake.message_event("7B model 1T tokens on A100")
    asked = event["event"]["message"]["message_id"]
    with running_bot(fake, tmp_path):
        fake.push(event)
        wait(lambda: _answers_for(fake, asked), 10, "answer")
    with running_bot(fake, tmp_path):  # the dedupe keys are in the settings SQLite
        fake.push(event)
        wait(lambda: len(fake.acks) >= 2, 10, "second ack")
        time.sleep(1.0)
        assert len(_answers_for(fake, asked)) == 1


def _texts(fake: FakeFeishu) -> list[str]:
    return [json.loads(m["body"]["content"])["text"] for m in fake.http.sent() if m["msg_type"] == "text"]


def test_group_settings_are_changed_by_the_owner_only(fake, tmp_path: Path) -> None:
    fake.http.chat_owners["oc_group0001"] = "ou_owner"
    with running_bot(fake, tmp_path):
        fake.push(fake.group_message("@_user_1 /settings price A100 18元", user="ou_member"))
        wait(lambda: _texts(fake), 10, "refusal")
        assert _texts(fake)[0] == "只有群管理员可以修改本群的设置。"
        fake.push(fake.group_message("@_user_1 /settings price A100 18元", user="ou_owner"))
        wait(lambda: len(_texts(fake)) == 2, 10, "saved")
        assert "A100 ¥18" in _texts(fake)[1], _texts(fake)[1]
        owner_checks = [c for c in fake.http.calls if c.path == "/open-apis/im/v1/chats/oc_group0001"]
        assert len(owner_checks) == 1  # the owner and admins are remembered 60 s (issue 27, part FS item 2)
        fake.push(fake.group_message("@_user_1 /settings"))  # anyone may look
        wait(lambda: len(_texts(fake)) == 3, 10, "shown")
        assert "A100 CN¥18" in _texts(fake)[2] or "A100 ¥18" in _texts(fake)[2], _texts(fake)[2]
        assert "<b>" not in _texts(fake)[2]


def test_the_quote_command_sends_the_pdf_or_says_why_not(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):  # no offer configured
        fake.push(fake.message_event("/quote"))
        wait(lambda: _texts(fake), 10, "no offer")
        assert "SIZING_BOT_PRESALES" in _texts(fake)[0]
    with running_bot(fake, tmp_path, offer=True):
        fake.push(fake.message_event("70B model inference on H800"))
        wait(lambda: cards(fake), 10, "card")
        fake.push(fake.message_event("/quote"))
        files = wait(lambda: [m for m in fake.http.sent() if m["msg_type"] == "file"], QUOTE_S, "file")
        upload = fake.http.uploads[card_of(files[0])["file_key"]]
        assert upload["file_type"] == "pdf" and upload["file_name"].endswith(".pdf")
        assert upload["file"].startswith(b"%PDF")


def test_health_names_each_platform_and_feishu_s_long_connection(fake, tmp_path: Path) -> None:
    beat = tmp_path / "beat.json"
    env = {"SIZING_BOT_HEARTBEAT": str(beat)}
    with running_bot(fake, tmp_path, extra_env=env):
        wait(lambda: (tmp_path / "beat.json.feishu").exists(), 10, "Feishu heartbeat")
        done = subprocess.run(
            [sys.executable, "-m", "bot", "health", "--heartbeat"],
            cwd=tmp_path,
            env=bot_env(fake, tmp_path, env),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == [
            f"feishu: configured ({fake.domain}); long connection: open",
            "healthy",
        ]
    assert not (tmp_path / "beat.json.feishu").exists()  # removed on a clean stop
    done = subprocess.run(
        [sys.executable, "-m", "bot", "health", "--heartbeat"],
        cwd=tmp_path,
        env=bot_env(fake, tmp_path, env),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert (
        "long connection not open (or the bot is not running): no heartbeat at" in done.stdout
    )  # FIX2 item 2


def test_the_log_holds_no_secret_at_debug_level(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        fake.push(fake.message_event("7B model 1T tokens on A100"))
        wait(lambda: cards(fake), 10, "card")
        fake.expire_tokens()  # a fresh token is fetched: that request carries the secret too
        fake.push(fake.message_event("那H100呢"))
        wait(lambda: len(cards(fake)) == 2, 10, "second card")
    log = (tmp_path / "bot.log").read_text()
    assert "feishu: connected to ws://127.0.0.1" in log  # the log is there, at DEBUG
    for secret in (fake.app_secret, "ticket-SECRET-abc123", "t-fake"):
        assert secret not in log


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", f"import sys; {code}; print(' '.join(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return set(out.stdout.split())


def test_a_platform_s_code_loads_only_when_its_credentials_are_set() -> None:
    feishu = _modules_after("import bot.run, bot.feishu.serve")
    assert "telegram" not in feishu and "websockets" in feishu
    telegram = _modules_after("import bot.run, bot.telegram.app")
    assert "websockets" not in telegram and "bot.feishu" not in telegram


def test_a_rate_limited_reply_waits_for_the_reset_and_is_sent_once(fake, tmp_path: Path) -> None:
    fake.rate_limit("/open-apis/im/v1/messages", 1)  # 429 / 99991400, x-ogw-ratelimit-reset: 1
    with running_bot(fake, tmp_path):
        event = fake.message_event("7B model 1T tokens on A100")
        asked = event["event"]["message"]["message_id"]
        fake.push(event)
        wait(lambda: _answers_for(fake, asked), 15, "answer")
        tries = [c for c in fake.http.calls if c.path.endswith(f"{asked}/reply")]
        assert [c.refused for c in tries] == [99991400, None]
        assert tries[1].at - tries[0].at >= 1.0
        assert len(_answers_for(fake, asked)) == 1


def test_run_with_no_platform_configured_says_so_in_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "FEISHU_"))}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [NO_PLATFORM]
    assert "FEISHU_APP_ID" in NO_PLATFORM and done.stderr.startswith("TELEGRAM_BOT_TOKEN is not set: ")


def test_the_chart_button_puts_the_uploaded_chart_into_the_card(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        fake.push(fake.message_event("7B model 1T tokens on A100"))
        sent = wait(lambda: cards(fake), 10, "card")[0]
        chart = [value for _, value in buttons(card_of(sent)) if value["a"] == "c"]
        assert chart, buttons(card_of(sent))
        fake.push(
            fake.card_action(chart[0], message_id=sent["message_id"], chat_id="oc_p2p0001"), kind="card"
        )
        wait(lambda: fake.http.messages[sent["message_id"]]["updates"], 15, "PATCH")
        images = [
            e
            for e in card_of(fake.http.messages[sent["message_id"]])["body"]["elements"]
            if e["tag"] == "img"
        ]
        assert len(images) == 1 and images[0]["img_key"] in fake.http.uploads
        assert fake.http.uploads[images[0]["img_key"]]["image"].startswith(b"\x89PNG")
        assert len(fake.http.sent()) == 1  # no second message
