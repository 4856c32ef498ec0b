"""DingTalk end to end: the real ``sizing-bot run`` process against the fake DingTalk on loopback
(tests/fake_dingtalk.py: Stream mode's WebSocket with JSON frames, the session webhook, the robot
OpenAPI and the media upload)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from dingtalk_run import WEB, answers, bot_env, of_kind, running_bot, text_of
from fake_dingtalk import FakeDingTalk
from platform_run import QUOTE_S, wait


@pytest.fixture
def fake():
    with FakeDingTalk() as server:
        yield server


def test_a_group_question_that_ats_the_bot_is_answered_with_the_headline_and_a_chart(
    fake, tmp_path: Path
) -> None:
    with running_bot(fake, tmp_path):
        data = fake.message("7B模型1万亿token要多少A100")
        frame = fake.push(data)
        card = wait(lambda: answers(fake), 15, "answer")[0]
        ack = next(a for a in fake.acks if a.message_id == frame)
        assert ack.code == 200 and ack.data == '{"response": null}'
        assert ack.at <= card.at and card.at - ack.at < 3.0  # acked first, answered after
        assert card.via == "webhook" and card.kind == "actionCard" and card.chat == data["conversationId"]
        body = card.body["actionCard"]
        assert body["text"].startswith("### ") and "A100" in body["text"].split("\n", 1)[0]
        assert "A100" in body["title"] and "#" not in body["title"]
        assert "\\\n" not in body["text"] and "```" not in body["text"]  # DingTalk's Markdown subset
        assert "  \n" in body["text"]  # its hard line break
        links = {b["title"]: b["actionURL"] for b in body["btns"]}
        chart = links.get("📊 图表") or links.get("📊 Chart")
        assert chart and chart.startswith(f"{WEB}/chart.png?")
        assert parse_qs(urlsplit(chart).query)["q"] == ["7B模型1万亿token要多少A100"]
        gpu = [u for t, u in links.items() if t.startswith("🖥 ")]
        assert gpu and parse_qs(urlsplit(gpu[0]).query)["prev"] == ["7B模型1万亿token要多少A100"]
        image = wait(lambda: of_kind(fake, "sampleImageMsg"), 30, "chart")[0]
        assert image.via == "openapi" and image.chat == data["conversationId"]
        upload = fake.uploads[image.body["photoURL"]]
        assert upload["type"] == "image" and upload["media"].startswith(b"\x89PNG")


def test_a_group_message_that_does_not_at_the_bot_is_not_answered(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        fake.push(fake.message("7B模型1万亿token要多少A100", at_bot=False))
        fake.push(fake.message("13B 1T tokens H100"))
        wait(lambda: answers(fake), 15, "answer")
        time.sleep(1.0)
        assert len(answers(fake)) == 1 and "H100" in text_of(answers(fake)[0])


def test_a_duplicate_push_gets_no_second_answer(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        frame = fake.push(fake.message("70B model 2T tokens on H100, how many GPUs?"), times=3)
        wait(lambda: len([a for a in fake.acks if a.message_id == frame]) == 3, 10, "three acks")
        wait(lambda: answers(fake), 15, "answer")
        time.sleep(1.5)
        assert len(answers(fake)) == 1


def test_a_re_push_after_a_restart_is_not_answered_again(fake, tmp_path: Path) -> None:
    data = fake.message("7B model 1T tokens on A100")
    with running_bot(fake, tmp_path):
        fake.push(data)
        wait(lambda: answers(fake), 15, "answer")
    with running_bot(fake, tmp_path):  # the msgId is kept in the settings SQLite
        frame = fake.push(data)  # a new frame carrying the same message
        wait(lambda: any(a.message_id == frame for a in fake.acks), 10, "ack after the restart")
        time.sleep(1.0)
        assert len(answers(fake)) == 1


def test_a_follow_up_in_a_1_to_1_chat_keeps_the_model(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        fake.push(fake.message("70B模型推理要多少A100", group=False))
        wait(lambda: answers(fake), 15, "first answer")
        fake.push(fake.message("那H100呢", group=False))
        wait(lambda: len(answers(fake)) == 2, 15, "second answer")
        second = answers(fake)[1]
        head = text_of(second).split("\n", 1)[0]
        assert "H100" in head and "70B" in text_of(second), text_of(second)[:300]
        links = {b["title"]: b["actionURL"] for b in second.body["actionCard"]["btns"]}
        query = parse_qs(urlsplit(next(iter(links.values()))).query)
        assert query["q"][0] in ("那H100呢",) or query["prev"][-1] == "那H100呢"
        assert "70B模型推理要多少A100" in query["prev"]


def test_a_follow_up_in_a_group_that_ats_the_bot_keeps_the_model(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        fake.push(fake.message("70B model inference on A100, how many GPUs?"))
        wait(lambda: answers(fake), 15, "first answer")
        fake.push(fake.message("what about H100?"))
        wait(lambda: len(answers(fake)) == 2, 15, "second answer")
        assert "70B" in text_of(answers(fake)[1]) and "H100" in text_of(answers(fake)[1])


def test_the_quote_arrives_as_a_pdf_file_through_the_openapi(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path, offer=True):
        fake.push(fake.message("70B model inference on H800", group=False))
        first = wait(lambda: answers(fake), 15, "answer")[0]
        links = [b["actionURL"] for b in first.body["actionCard"]["btns"]]
        assert any(u.startswith(f"{WEB}/quote.pdf?") for u in links), links
        fake.push(fake.message("/quote", group=False))
        sent = wait(lambda: of_kind(fake, "sampleFile"), QUOTE_S, "file")[0]
        assert sent.via == "openapi" and sent.chat == "staff0001"
        assert sent.body["fileType"] == "pdf" and sent.body["fileName"].endswith(".pdf")
        upload = fake.uploads[sent.body["mediaId"]]
        assert upload["type"] == "file" and upload["media"].startswith(b"%PDF")
        assert ("POST", "/media/upload") in fake.calls


def test_a_silent_socket_is_reopened_within_the_watchdog_period(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path, extra_env={"DINGTALK_WATCHDOG": "2"}):
        wait(lambda: fake.ping_echoes, 10, "a ping acked")
        fake.silence()
        silenced = time.monotonic()
        wait(lambda: fake.connections >= 2, 10, "a new connection")
        took = time.monotonic() - silenced
        print(f"\nwatchdog 2 s: reconnected {took:.2f} s after the socket went silent")
        assert took < 2.0 + 1.5  # the watchdog period, plus the first reconnect's jitter and the open
        fake.push(fake.message("7B model 1T tokens on A100"))
        wait(lambda: answers(fake), 15, "answer on the new connection")
        assert fake.acks[-1].connection >= 2


def test_a_dropped_socket_and_a_disconnect_are_reconnected_and_pings_echoed(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        wait(lambda: fake.ping_echoes, 10, "a ping acked")
        fake.drop()
        wait(lambda: fake.connections >= 2, 10, "reconnect after a drop")
        fake.disconnect()
        wait(lambda: fake.connections >= 3, 10, "reconnect after disconnect")
        fake.push(fake.message("7B model 1T tokens on A100"))
        wait(lambda: answers(fake), 15, "answer")
        assert fake.ping_echoes and all(fake.ping_echoes)
        assert fake.opens == fake.connections  # one gateway call (a fresh ticket) per socket


def test_an_expired_session_webhook_falls_back_to_the_openapi(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        refused = fake.message("7B model 1T tokens on A100")
        fake.expire_sessions()  # the webhook refuses although its expiry time looks valid
        fake.push(refused)
        sent = wait(lambda: answers(fake), 15, "answer")[0]
        assert sent.via == "openapi" and sent.kind == "sampleMarkdown"
        assert sent.chat == refused["conversationId"] and "A100" in sent.body["title"]
        assert f"]({WEB}/chart.png?" in sent.body["text"]  # the buttons as links in the text
        assert fake.calls.count(("POST", "/robot/sendBySession")) == 1
        late = fake.message("13B model 1T tokens on H100", expires_in=-1)  # past its expiry time
        fake.push(late)
        wait(lambda: len(answers(fake)) == 2, 15, "second answer")
        assert answers(fake)[1].via == "openapi"
        assert fake.calls.count(("POST", "/robot/sendBySession")) == 1  # not even tried


def _texts(fake: FakeDingTalk) -> list[str]:
    return [
        s.body["text"]["content"] if s.via == "webhook" else s.body["content"] for s in of_kind(fake, "text")
    ]


def test_group_settings_are_changed_by_a_configured_admin_only(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path, extra_env={"DINGTALK_ADMINS": "staffBoss, staffOther"}):
        fake.push(fake.message("/settings price A100 18元", staff_id="staffMember", is_admin=True))
        wait(lambda: _texts(fake), 10, "refusal")
        assert _texts(fake)[0] == "只有群管理员可以修改本群的设置。"  # the org-admin flag is not enough
        fake.push(fake.message("/settings price A100 18元", staff_id="staffBoss"))
        wait(lambda: len(_texts(fake)) == 2, 10, "saved")
        assert "A100 ¥18" in _texts(fake)[1], _texts(fake)[1]
        fake.push(fake.message("/settings", staff_id="staffMember"))  # anyone may look
        wait(lambda: len(_texts(fake)) == 3, 10, "shown")
        assert "A100" in _texts(fake)[2] and "<b>" not in _texts(fake)[2]
        fake.push(fake.message("/settings price H100 20元", group=False, staff_id="staffMember"))
        wait(lambda: len(_texts(fake)) == 4, 10, "1:1 saved")
        assert "H100 ¥20" in _texts(fake)[3], _texts(fake)[3]  # one's own 1:1 chat: always


def test_health_names_dingtalk_and_its_stream_connection(fake, tmp_path: Path) -> None:
    beat = tmp_path / "beat.json"
    env = {"SIZING_BOT_HEARTBEAT": str(beat)}

    def health() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bot", "health", "--heartbeat"],
            cwd=tmp_path,
            env=bot_env(fake, tmp_path, env),
            capture_output=True,
            text=True,
            timeout=60,
        )

    with running_bot(fake, tmp_path, extra_env=env):
        wait(lambda: (tmp_path / "beat.json.dingtalk").exists(), 10, "DingTalk heartbeat")
        done = health()
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == [
            f"dingtalk: configured ({fake.endpoint}); stream connection: open",
            "healthy",
        ]
    assert not (tmp_path / "beat.json.dingtalk").exists()  # removed on a clean stop
    done = health()
    assert done.returncode == 1  # FIX2 item 2: was "stream connection: no heartbeat"
    assert "long connection not open (or the bot is not running): no heartbeat at" in done.stdout


def test_the_log_holds_no_secret_at_debug_level(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        fake.push(fake.message("7B model 1T tokens on A100"))
        wait(lambda: of_kind(fake, "sampleImageMsg"), 30, "chart (an access token was used)")
        fake.drop()
        wait(lambda: fake.connections >= 2, 10, "reconnect (a second ticket)")
    log = (tmp_path / "bot.log").read_text()
    assert "dingtalk: connected to ws://127.0.0.1" in log  # the log is there, at DEBUG
    for secret in (fake.client_secret, "ticket-SECRET-", "at-SECRET-"):
        assert secret not in log


def test_bad_credentials_end_run_with_one_line_and_no_secret(fake, tmp_path: Path) -> None:
    env = bot_env(fake, tmp_path, {"DINGTALK_CLIENT_SECRET": "wrong-secret-DO-NOT-LOG"})
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == "DingTalk: HTTP 401: clientId or clientSecret is wrong"
    assert "wrong-secret-DO-NOT-LOG" not in done.stderr + done.stdout
    assert "Traceback" not in done.stderr


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", f"import sys; {code}; print(' '.join(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return set(out.stdout.split())


def test_dingtalk_s_code_loads_only_when_its_credentials_are_set() -> None:
    loaded = _modules_after("import bot.run, bot.dingtalk.serve")
    assert "telegram" not in loaded and "websockets" in loaded
    assert "dingtalk_stream" not in loaded and "requests" not in loaded
    telegram = _modules_after("import bot.run, bot.telegram.app")
    assert "bot.dingtalk" not in telegram


def test_feishu_and_dingtalk_run_in_one_process(fake, tmp_path: Path) -> None:
    from fake_feishu import FakeFeishu
    from feishu_run import bot_env as feishu_env
    from feishu_run import cards

    with FakeFeishu() as feishu:
        env = {**feishu_env(feishu, tmp_path), **bot_env(fake, tmp_path)}
        env.update(
            FEISHU_APP_ID=feishu.app_id, FEISHU_APP_SECRET=feishu.app_secret, FEISHU_DOMAIN=feishu.domain
        )
        log = (tmp_path / "bot.log").open("w")
        proc = subprocess.Popen(
            [sys.executable, "-m", "bot", "run"], cwd=tmp_path, env=env, stdout=log, stderr=log
        )
        try:
            wait(
                lambda: (fake.connections and feishu.connections) or proc.poll() is not None,
                30,
                "both connected",
            )
            assert proc.poll() is None, (tmp_path / "bot.log").read_text()
            fake.push(fake.message("7B model 1T tokens on A100"))
            feishu.push(feishu.message_event("13B model 1T tokens on H100"))
            assert "A100" in text_of(wait(lambda: answers(fake), 20, "DingTalk answer")[0])
            wait(lambda: cards(feishu), 20, "Feishu card")
            proc.terminate()
            assert proc.wait(20) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
            log.close()
