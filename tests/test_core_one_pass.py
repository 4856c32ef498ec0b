"""Core reads the parse once (issue 23 item 2): after :func:`bot.parse.parse` returned, the pipeline
and the conversation never call back into the parser (normalize, explicit_stage, reply_lang); the
stage word, follow-up cues and language come from the :class:`bot.parse.ParseResult`."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bot.core import conversation, followup, pipeline
from bot.core.conversation import Conversation
from estimator.models import Stage


def _no_callback(*_a, **_k):
    raise AssertionError("core called back into bot.parse after parse()")


@pytest.fixture
def no_callbacks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(followup, "normalize", _no_callback)
    monkeypatch.setattr(followup, "stage_word", _no_callback)
    monkeypatch.setattr(conversation, "reply_lang", _no_callback)


def test_the_pipeline_imports_no_parser_callback() -> None:
    for name in ("reply_lang", "explicit_stage", "normalize"):
        assert not hasattr(pipeline, name), name


@pytest.mark.usefixtures("no_callbacks")
def test_a_question_and_its_followups_read_the_parse_only() -> None:
    conv = Conversation()
    first = conv.ask("telegram:1", "telegram:2", "Llama-3-8B 15T tokens, 64 H100, how long?")
    assert first.answer.lang == "en" and first.request.stage == Stage.pretrain
    follow = conv.ask("telegram:1", "telegram:2", "那推理呢")  # the stage word comes from the parse
    assert follow.answer.followup and follow.request.stage == Stage.inference
    assert follow.answer.lang == "zh" and follow.request.model == first.request.model
    lost = pipeline.answer("那H100呢？")  # no question before: the follow-up cue of the parse
    assert pipeline.LOST_FOLLOWUP in lost.parsed.notes and lost.lang == "zh"
    fixed = pipeline.answer("那H100呢？", pipeline.Context(fixed_lang="en"))
    assert fixed.lang == "en"


def test_a_stage_followup_through_the_cli() -> None:
    """The stage word of a follow-up reached through the CLI: a lone '那推理呢' has no question to
    change and says so, in Chinese (the parse's language evidence)."""
    out = subprocess.run(
        [sys.executable, "-m", "bot", "ask", "--", "那推理呢"], capture_output=True, text=True, check=False
    ).stdout
    assert "我这里已经没有你上一个问题了" in out
