"""The parser returns what the conversation reads (issue 23 item 2): normalized text, stage word,
follow-up / reset cues and language evidence, so the follow-up rules never call back into bot.parse."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bot.core import followup
from bot.core.followup import classify, lost_followup
from bot.parse import normalize, parse
from bot.parse.lang import reply_lang
from estimator.models import SizingRequest, Stage

PREV = SizingRequest(stage=Stage.pretrain, params_total=7e9, tokens=1e12, gpu="A100-SXM4-80GB")


def test_the_parse_carries_the_conversation_cues():
    r = parse("那推理呢？")
    assert (r.normalized, r.stage_word, r.followup_cue, r.reset_cue, r.message_lang) == (
        "那推理呢?",
        Stage.inference,
        True,
        False,
        "zh",
    )
    r = parse("New question: how big a model can I train for $10k?")
    assert r.reset_cue and not r.followup_cue and r.message_lang == "en" and r.stage_word is None
    assert parse("用256张").change_cue and not parse("7B要几张A100").change_cue
    assert parse("H100?").message_lang is None  # names and numbers only: no evidence
    assert parse("换成QLoRA").stage_word is None  # LoRA words are a method, not a stage


@pytest.mark.parametrize(
    "text",
    ["那H100呢？", "用256张", "What about LoRA?", "预算100万，能训多大的模型？", "那推理呢", "H100?", ""],
)
def test_reply_lang_from_the_parse_equals_reply_lang_of_the_text(text: str):
    r = parse(text)
    for kw in (
        {},
        {"previous": "en"},
        {"client": "en-US"},
        {"chosen": "en"},
        {"fixed": "zh", "previous": "en"},
    ):
        assert r.reply_lang(**kw) == reply_lang(text, **kw), (text, kw)
    assert r.normalized == normalize(text)


def test_followup_rules_read_the_parse_only(monkeypatch: pytest.MonkeyPatch):
    parsed = {t: parse(t) for t in ("那H100呢？", "用256张", "那推理呢", "预算100万，能训多大的模型？")}

    def no_callback(*_a, **_k):
        raise AssertionError("core called back into bot.parse after parse()")

    monkeypatch.setattr(followup, "normalize", no_callback)
    monkeypatch.setattr(followup, "stage_word", no_callback)
    assert classify(PREV, parsed["那H100呢？"]).followup
    assert not classify(PREV, parsed["预算100万，能训多大的模型？"]).followup
    assert classify(PREV, parsed["那推理呢"]).followup
    assert lost_followup(parsed["用256张"]) and not lost_followup(parsed["预算100万，能训多大的模型？"])


def test_a_followup_still_reads_through_the_cli():
    """A lone follow-up with nothing before it is answered as one that lost its question (the cue
    now comes from the parse); a fresh question with the same GPU is answered."""
    lost = subprocess.run(
        [sys.executable, "-m", "bot", "ask", "--", "那H100呢？"], capture_output=True, text=True
    ).stdout
    assert "不保留历史" in lost  # fix1 item 4: `ask` keeps no history
    fresh = subprocess.run(
        [sys.executable, "-m", "bot", "ask", "--", "7B模型1万亿token要多少H100"],
        capture_output=True,
        text=True,
    ).stdout
    assert "没有你上一个问题" not in fresh and "H100" in fresh
