"""WeCom end to end (issue 28): the real ``sizing-bot run`` process against the fake WeCom long
connection on loopback (tests/fake_wecom.py: JSON frames, acks, uploads, card updates, faults)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from fake_wecom import FakeWecom
from platform_run import QUOTE_S
from wecom_run import bot_env, running_bot, stream_of, wait

from bot.wecom.card import parse_key
from bot.wecom.settings import NOT_WECOM_ADMIN

QUESTION = "7B模型1万亿token要多少A100"


@pytest.fixture
def fake():
    with FakeWecom() as server:
        yield server


def _ask_headline(question: str, *extra: str) -> str:
    """The headline ``sizing-bot ask --format markdown`` gives: the answer's first line."""
    done = subprocess.run(
        [sys.executable, "-m", "bot", "ask", *extra, "--format", "markdown", question],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout.splitlines()[0]


def _cards(fake: FakeWecom, req_id: str | None = None) -> list[dict]:
    return [r.body["template_card"] for r in fake.replies(req_id, "template_card")]


def test_a_group_question_that_ats_the_bot_gets_the_headline_and_a_chart(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        req = fake.push(fake.group(QUESTION))
        streams = wait(lambda: fake.replies(req, "stream"), 20, "stream reply")
        images = wait(lambda: fake.replies(req, "image"), 30, "chart image")
        assert len(streams) == 1 and streams[0].body["stream"]["finish"] is True
        text = stream_of(streams[0])
        assert text.splitlines()[0] == _ask_headline(QUESTION)
        assert "@Sizing" not in text and "\\\n" not in text
        upload = fake.uploads[images[0].body["image"]["media_id"]]
        assert upload["type"] == "image" and upload["data"].startswith(b"\x89PNG")
        card = _cards(fake, req)[0]
        assert card["card_type"] == "button_interaction"
        # s29 L7: a title cut at WeCom's 60 characters ends in "…"
        assert card["main_title"]["title"].removesuffix("…") in text.replace("**", "")
        labels = [b["text"] for b in card["button_list"]]
        assert "🖥 H100" in labels and len(labels) <= 6, labels
        assert all(parse_key(b["key"]) for b in card["button_list"])


def test_a_duplicate_push_gets_no_second_answer(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        frame = fake.message("70B model 2T tokens on H100, how many GPUs?")
        req = fake.push(frame, times=2)
        wait(lambda: fake.replies(req, "stream"), 20, "answer")
        wait(lambda: len(fake.pushes) == 2, 10, "both pushes")
        time.sleep(1.0)
        assert len(fake.replies(req, "stream")) == 1


def test_a_follow_up_keeps_the_model(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        first = fake.push(fake.message("70B模型推理要多少A100"))
        wait(lambda: fake.replies(first, "stream"), 20, "first answer")
        second = fake.push(fake.message("那H100呢"))
        reply = stream_of(wait(lambda: fake.replies(second, "stream"), 20, "second answer")[0])
        assert "70B" in reply and "H100" in reply, reply[:300]


def test_the_quote_command_sends_the_pdf_as_a_file(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path, offer=True):
        first = fake.push(fake.message("70B model inference on H800"))
        wait(lambda: fake.replies(first, "stream"), 20, "answer")
        req = fake.push(fake.message("/quote"))
        files = wait(lambda: fake.replies(req, "file"), QUOTE_S, "file reply")
        upload = fake.uploads[files[0].body["file"]["media_id"]]
        assert upload["type"] == "file" and upload["filename"].endswith(".pdf")
        assert upload["data"].startswith(b"%PDF")


def test_the_quote_command_without_an_offer_says_why(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        req = fake.push(fake.message("/quote"))
        reply = stream_of(wait(lambda: fake.replies(req, "stream"), 20, "reply")[0])
        assert "SIZING_BOT_PRESALES" in reply


def test_a_card_button_click_updates_the_card(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        req = fake.push(fake.group(QUESTION))
        card = wait(lambda: _cards(fake, req), 20, "card")[0]
        button = next(b for b in card["button_list"] if b["text"] == "🖥 H100")
        click = fake.push(fake.card_click(card["task_id"], button["key"], chattype="group"))
        updates = wait(
            lambda: [r for r in fake.commands("aibot_respond_update_msg") if r.req_id == click], 10, "update"
        )
        updated = updates[0].body["template_card"]
        assert updated["task_id"] == card["task_id"]
        assert "H100" in updated["main_title"]["title"] and "A100" not in updated["main_title"]["title"]
        assert not fake.refused, fake.refused  # within 5 s, the click's req_id used only for the update
        assert len(_cards(fake)) == 1  # updated, not a new card


def test_the_quote_button_sends_the_pdf_as_a_reply_to_the_question(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path, offer=True):
        req = fake.push(fake.group("70B model inference, how many GPUs?"))
        card = wait(lambda: _cards(fake, req), 20, "card")[0]
        keys = [b["key"] for b in card["button_list"] if parse_key(b["key"])[1].kind.value == "q"]
        assert keys and len(card["button_list"]) == 6, card["button_list"]
        fake.push(fake.card_click(card["task_id"], keys[0], chattype="group"))
        files = wait(lambda: fake.replies(req, "file"), QUOTE_S, "file reply")
        assert fake.uploads[files[0].body["file"]["media_id"]]["data"].startswith(b"%PDF")
        assert not fake.refused, fake.refused


def test_a_dropped_socket_reconnects_and_answers(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        fake.drop()
        wait(lambda: fake.subscribes >= 2, 15, "reconnect")
        req = fake.push(fake.message(QUESTION))
        wait(lambda: fake.replies(req, "stream"), 20, "answer after the drop")
        assert fake.max_active == 1


def test_a_silent_socket_is_found_dead_and_replaced(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        wait(lambda: fake.pings >= 2, 10, "pings")
        silenced = time.monotonic()
        fake.silence()
        wait(lambda: fake.subscribes >= 2, 15, "reconnect")
        found_in = time.monotonic() - silenced
        req = fake.push(fake.message(QUESTION))
        wait(lambda: fake.replies(req, "stream"), 20, "answer on the new connection")
        print(f"\nsilent socket replaced after {found_in:.2f} s (ping 0.3 s, 2 missed acks, backoff 1 s)")
        assert found_in < 5.0


def test_a_replaced_connection_does_not_fight_back(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path) as proc:
        fake.replace()
        code = proc.wait(20)
        time.sleep(1.5)  # longer than the first reconnect delay (1 s)
        assert fake.subscribes_after_replace == 0 and fake.subscribes == 1
        assert code == 1
    log = (tmp_path / "bot.log").read_text()
    assert "WeCom: 0: another connection of this bot took over (disconnected_event)" in log


def test_a_refused_subscribe_ends_run_with_one_line_and_no_secret(fake, tmp_path: Path) -> None:
    env = bot_env(fake, tmp_path, {"WECOM_BOT_SECRET": "wrong-secret-DO-NOT-LOG", "LOG_LEVEL": "INFO"})
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == "WeCom: 40001: subscribe refused: refused"
    assert "wrong-secret-DO-NOT-LOG" not in done.stderr + done.stdout
    assert fake.subscribes == 0 and len(fake.commands("aibot_subscribe")) == 0  # refused ones not kept
    assert fake.refused == [("aibot_subscribe", 40001)]  # tried once: bad credentials are not retried


def test_group_settings_change_only_by_a_listed_admin(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path, extra_env={"WECOM_ADMINS": "boss, lisi"}):
        refused = fake.push(fake.group("/settings price A100 18元", userid="zhangsan"))
        text = stream_of(wait(lambda: fake.replies(refused, "stream"), 20, "refusal")[0])
        assert text == NOT_WECOM_ADMIN["zh"]
        assert text.startswith("企业微信群里只有 WECOM_ADMINS 中列出的管理员可以修改设置")
        saved = fake.push(fake.group("/settings price A100 18元", userid="boss"))
        text = stream_of(wait(lambda: fake.replies(saved, "stream"), 20, "saved")[0])
        assert "A100 ¥18" in text and "<b>" not in text, text
        mine = fake.push(fake.message("/settings price A100 20元", userid="zhangsan"))  # a single chat
        text = stream_of(wait(lambda: fake.replies(mine, "stream"), 20, "single chat")[0])
        assert "A100 ¥20" in text, text


def test_the_log_holds_no_secret_at_debug_level(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        req = fake.push(fake.message(QUESTION))
        wait(lambda: fake.replies(req, "stream"), 20, "answer")
        fake.drop()
        wait(lambda: fake.subscribes >= 2, 15, "reconnect")  # the secret is sent again
    log = (tmp_path / "bot.log").read_text()
    assert "wecom: connected to ws://127.0.0.1" in log
    assert fake.secret not in log


def test_health_names_wecom_and_its_long_connection(fake, tmp_path: Path) -> None:
    env = {"SIZING_BOT_HEARTBEAT": str(tmp_path / "beat.json")}
    with running_bot(fake, tmp_path, extra_env=env):
        wait(lambda: (tmp_path / "beat.json.wecom").exists(), 10, "WeCom heartbeat")
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
            f"wecom: configured ({fake.url}); long connection: open",
            "healthy",
        ]
    assert not (tmp_path / "beat.json.wecom").exists()


def test_wecom_code_loads_only_when_its_credentials_are_set() -> None:
    out = subprocess.run(
        [sys.executable, "-c", "import sys, bot.run, bot.telegram.app; print(' '.join(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "bot.wecom" not in out.stdout.split() and "websockets" not in out.stdout.split()


def test_feishu_and_wecom_are_served_by_one_process(fake, tmp_path: Path) -> None:
    import feishu_run
    from fake_feishu import FakeFeishu

    wecom = {k: v for k, v in bot_env(fake, tmp_path).items() if k.startswith("WECOM_")}
    with FakeFeishu() as feishu, feishu_run.running_bot(feishu, tmp_path, extra_env=wecom):
        wait(lambda: fake.subscribes >= 1, 30, "WeCom subscribe")
        req = fake.push(fake.message(QUESTION))
        feishu.push(feishu.message_event(QUESTION))
        assert stream_of(wait(lambda: fake.replies(req, "stream"), 30, "WeCom answer")[0]).startswith("**7B")
        wait(lambda: feishu_run.cards(feishu), 30, "Feishu card")
