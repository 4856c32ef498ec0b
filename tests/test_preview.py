"""``sizing-bot preview``: what a new user sees the bot send on Feishu/Lark, WeCom and DingTalk without an
account (the trial of session 16 found no way to see a card short of a real tenant). Through the real
CLI process; the bodies are the ones each adapter sends (bot.feishu.card, bot.wecom.card,
bot.dingtalk.card), so a follow-up and the buttons behave as on the platform."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

SEED, FOLLOWUP = "7B模型1万亿token要多少A100", "那H100呢"


def preview(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("SIZING_BOT_", "FEISHU_", "WECOM_"))}
    return subprocess.run(
        [sys.executable, "-m", "bot", "preview", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**clean, **(env or {})},
        check=False,
    )


def bodies(*args: str, env: dict[str, str] | None = None) -> list[dict]:
    done = preview(*args, env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_feishu_card_and_a_followup_in_the_same_chat() -> None:
    first, second = bodies("feishu", SEED, FOLLOWUP)
    assert [first["message"], second["message"]] == [SEED, FOLLOWUP]
    card = first["send"][0]
    assert card["msg_type"] == "interactive"
    title = card["content"]["header"]["title"]["content"]
    # the headline the CLI answers: 6·7e9·1e12 = 4.2e22 FLOPs at the A100's 40 % MFU ≈ 93,483 A100-hours
    assert title.startswith("7B 预训练 1万亿 token ≈ 9.3万 A100·时")
    follow = second["send"][0]["content"]["header"]["title"]["content"]
    assert "H100·时" in follow and "A100" not in follow  # the follow-up kept the job, changed the card
    values = [
        b["behaviors"][0]["value"]
        for e in card["content"]["body"]["elements"]
        for c in e.get("columns", [])
        for b in c["elements"]
    ]
    assert {"v": 1, "a": "g", "g": "H100-SXM5-80GB"}.items() <= values[0].items()


def test_wecom_streams_the_answer_then_its_button_card() -> None:
    (reply,) = bodies("wecom", "How many H100 to serve Llama-3.1-70B for 50 users?")
    stream, card = reply["send"]
    assert stream["msgtype"] == "stream" and stream["stream"]["finish"] is True
    assert stream["stream"]["content"].startswith("**Meta Llama 3.1 70B bf16 inference for 50 concurrent")
    assert len(stream["stream"]["content"].encode()) <= 20_480  # WeCom's stream content limit (bytes)
    assert card["msgtype"] == "template_card"
    assert card["template_card"]["card_type"] == "button_interaction"
    keys = [b["key"] for b in card["template_card"]["button_list"]]
    assert any(k.endswith("|g|H200-SXM-141GB") for k in keys)


def test_dingtalk_links_need_the_public_page() -> None:
    (alone,) = bodies("dingtalk", SEED)
    assert alone["send"][0]["msgtype"] == "markdown"  # no SIZING_BOT_WEB_PUBLIC_URL: no buttons
    url = {"SIZING_BOT_WEB_PUBLIC_URL": "https://sizing.example.com"}
    _first, second = bodies("dingtalk", SEED, FOLLOWUP, env=url)
    card = second["send"][0]["actionCard"]
    assert card["title"].startswith("7B 预训练 1万亿 token ≈ 4.2万 H100·时")
    first_button = card["btns"][0]["actionURL"]  # the page rebuilds the conversation from the link
    assert first_button.startswith("https://sizing.example.com/?q=")
    assert "prev=7B%E6%A8%A1%E5%9E%8B1%E4%B8%87%E4%BA%BFtoken%E8%A6%81%E5%A4%9A%E5%B0%91A100" in first_button


@pytest.mark.parametrize("args", [("slack", SEED), ("feishu",)])
def test_a_wrong_platform_or_no_message_is_a_usage_error(args: tuple[str, ...]) -> None:
    done = preview(*args)
    assert done.returncode == 2 and "usage: sizing-bot preview" in done.stderr
    assert "Traceback" not in done.stderr


def test_markup_is_never_echoed_raw() -> None:
    (reply,) = bodies("dingtalk", "<b>7B</b> 模型 1万亿 token 要多少 A100")
    sent = json.dumps(reply["send"], ensure_ascii=False)
    assert "<b>" not in sent and "A100·时" in sent


def test_telegram_send_message_with_html_and_its_keyboard() -> None:
    """Trial s21 #25: the README gave no way to see a Telegram reply without a token."""
    first, second = bodies("telegram", SEED, FOLLOWUP)
    body = first["send"][0]
    assert body["method"] == "sendMessage" and body["parse_mode"] == "HTML"
    assert body["text"].startswith("<b>7B 预训练 1万亿 token ≈ 9.3万 A100·时")  # 6·7e9·1e12 at 40 % MFU
    labels = [b["text"] for row in body["reply_markup"]["inline_keyboard"] for b in row]
    assert "🚀 部署推理" in labels
    data = [b["callback_data"] for row in body["reply_markup"]["inline_keyboard"] for b in row]
    assert all(len(d.encode()) <= 64 for d in data)  # Bot API: callback_data is 1-64 bytes
    assert second["send"][0]["text"].startswith("<b>7B 预训练 1万亿 token ≈ 4.2万 H100·时")
    (escaped,) = bodies("telegram", "<s>7B</s> 模型 1万亿 token 要多少 A100")
    assert "<s>" not in escaped["send"][0]["text"] and "A100·时" in escaped["send"][0]["text"]
