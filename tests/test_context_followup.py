"""Follow-ups that change only the context (trial s24 #2 and #6), through the real conversation path.

#2: '部署Llama-3.3-70B，fp8，2张H100，16k上下文，最多多少并发' then '那32k呢' got the help text: a
length written alone ('32k', '128K') set no field, so the follow-up had nothing to change. It is now
the previous question's context (serving) or sequence length (training), in both languages.
#6: 'how many concurrent users at 16k context?' then 'what about 32k context?' was headed 'fits (TP=2)'
with an assumed 6 sequences: the follow-up's parse did not ask, so the earlier question was lost from the
headline. The question is carried unless the follow-up asks something else.

Figures: Llama-3.3-70B (80 layers, 8 KV heads × 128, bf16 KV cache: 2 × 80 × 8 × 128 × 2 B = 320 KiB a
token, its config.json) in FP8 on 2 × H100 80G holds 13 sequences of 16K and 6 of 32K (the same
answers a fresh question at that context gets, asserted below).
"""

from __future__ import annotations

import pytest

from bot.core.conversation import Conversation
from bot.parse import parse
from bot.parse.bare_length import length_tokens
from bot.render.renderer import render
from estimator.models import Stage

ZH = "部署Llama-3.3-70B，fp8，2张H100，16k上下文，最多多少并发"
EN = "Serving Llama-3.3-70B at FP8 on 2x H100 with vLLM: how many concurrent users at 16k context?"


def _most(turn) -> int:
    inf = turn.answer.report.inference
    assert inf is not None
    return int(inf.max_concurrency)


@pytest.mark.parametrize(
    ("first", "then"),
    [
        (ZH, "那32k呢"),
        (ZH, "如果是32k呢"),
        (ZH, "换成32k"),
        (ZH, "32k呢"),
        (ZH, "那32k上下文呢"),
        (EN, "and at 32k?"),
        (EN, "at 32k?"),
        (EN, "same at 32k"),
        (EN, "what about 32k context?"),
        (EN, "what about 32768 tokens?"),
    ],
)
def test_a_length_alone_changes_the_context_and_keeps_the_question(first: str, then: str) -> None:
    chat = Conversation()
    before = chat.ask(1, 1, first)
    assert before.request.seq_len == 16384 and _most(before) == 13
    after = chat.ask(1, 1, then)
    assert after.followup and after.changed == ["seq_len"]
    assert after.request.seq_len == 32768 and after.request.concurrency_asked is True
    assert after.request.stage == Stage.inference and after.request.tokens is None
    fresh = Conversation().ask(1, 1, first.replace("16k", "32k"))
    assert _most(after) == _most(fresh) == 6
    head = render(after.answer, "plain").splitlines()[0]
    assert ("最多约 6 条并发" in head) or ("up to 6 concurrent sequences" in head)  # not 'fits (TP=2)'
    assert "fits" not in head and "32K" in head
    assert "32k" not in " ".join(s for s, _ in after.answer.parsed.unused_numbers)  # read, not 'not used'


@pytest.mark.parametrize(("said", "tokens"), [("32", 32768), ("128", 131072), ("20", 20000), ("1.5", 1500)])
def test_a_length_in_thousands_reads_as_the_parser_reads_a_context(said: str, tokens: int) -> None:
    assert length_tokens(float(said)) == tokens
    assert parse(f"那{said}k呢").bare_length == tokens
    assert parse(f"{said}k context").request.seq_len == tokens  # the parser's own reading (roles.seq_value)


def test_a_length_alone_with_nothing_before_it_is_a_lost_follow_up() -> None:
    turn = Conversation().ask(1, 1, "那32k呢")
    assert not turn.followup and turn.answer.report is None
    assert "lost_followup" in turn.answer.parsed.notes  # 'I no longer have your previous question', not help


def test_a_length_alone_is_nothing_else() -> None:
    assert parse("那32k呢").found == [] and parse("32k users").bare_length is None
    assert parse("预算32k美元").bare_length is None and parse("那4张呢").bare_length is None
    assert parse("Which GPU is best for 4K gaming?").bare_length is None  # out of scope: a resolution


def test_after_training_a_small_token_count_is_the_sequence_length_a_large_one_the_data() -> None:
    chat = Conversation()
    chat.ask(1, 1, "Full fine-tune Llama-3-8B on 1B tokens with 8 A100, how long?")
    after = chat.ask(1, 1, "what about 4096 tokens?")
    assert after.followup and after.request.seq_len == 4096 and after.request.tokens == 1e9
    chat = Conversation()
    chat.ask(1, 1, "Full fine-tune Llama-3-8B on 1B tokens with 8 A100, how long?")
    after = chat.ask(1, 1, "what about 2B tokens?")
    assert after.request.tokens == 2e9 and after.request.seq_len is None


@pytest.mark.parametrize(
    ("first", "then"),
    [(EN, "what about 30 users?"), (ZH, "那30个用户呢")],
)
def test_a_stated_load_replaces_the_earlier_how_many(first: str, then: str) -> None:
    chat = Conversation()
    chat.ask(1, 1, first)
    after = chat.ask(1, 1, then)
    assert after.followup and after.request.concurrency_asked is None
    assert not after.answer.parsed.asks_concurrency


def test_the_trials_telegram_preview_answers_the_follow_up() -> None:
    """The trial's repro through the real CLI process (``sizing-bot preview telegram``)."""
    from tests.test_preview import bodies

    _, second = bodies("telegram", ZH, "那32k呢")
    text = second["send"][0]["text"]
    assert "用一句话问我就行" not in text  # not the help text
    assert text.startswith("<b>") and "32K 上下文下最多约 6 条并发" in text.split("\n")[0]
