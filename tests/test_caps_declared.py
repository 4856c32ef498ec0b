"""The parser's caps come from the request's declarations (s7 fix item 6; one declaration per setting,
issue 23 item 3): bot.parse.request_fields keeps no numbers of its own, and a value beyond a declared
bound is named as a bad value (the c03652a mechanism), never dropped in silence. Through ``sizing-bot
ask``, both languages."""

from __future__ import annotations

import pytest

from bot.parse import request_fields
from bot.settings import chat
from estimator.request import bounds
from tests.cli_run import ask_json, ask_text


def test_every_cap_is_a_declared_bound():
    """Each capped field's cap is its declaration's upper bound: seq_len 1e8 tokens, global batch 1e7
    sequences, micro-batch 65,536 (was 1e6 in the parser while /settings said 65,536), MFU 1.0."""
    for name, cap in request_fields._CAPS.items():
        assert cap == bounds(name)[1], name
    assert bounds("seq_len") == (1, 100_000_000) and bounds("global_batch") == (1, 10_000_000)
    assert request_fields._CAPS["batch_size"] == 65_536
    assert chat.MFU_BOUNDS == bounds("mfu") == (0.01, 1.0)


@pytest.mark.parametrize(
    ("question", "field", "said"),
    [
        # s36 fixe #2: a context above the 10⁸ a context may take is worded in thousands and named beyond any
        # model's window (200,000,000 = 200,000 × 1,000); the JSON keeps 'seq_len: 200000000', bad_value
        (
            "7B 1T tokens on A100, seq len 200000000",
            "seq_len",
            "“context 200,000K” (beyond any model's context window",
        ),
        (
            "7B模型1万亿token，A100，序列长度 200000000",
            "seq_len",
            "“上下文 200,000K”（超出任何模型的上下文窗口",
        ),
        ("7B 1T tokens on A100, global batch 20000000", "global_batch", "“global_batch: 20000000”"),
        ("7B模型1万亿token，A100，global batch 20000000", "global_batch", "（global_batch）：20,000,000”"),
    ],
)
def test_a_value_beyond_its_declared_bound_is_named(question, field, said):
    """Before, 'seq len 200000000' and 'global batch 20000000' were dropped without a word (seq_len stayed
    the 4,096 default)."""
    d = ask_json(question)
    assert d["request"]["seq_len"] == 4096 and d["request"]["global_batch"] is None
    assert {"text": f"{field}: {2 * 10**8 if field == 'seq_len' else 2 * 10**7}", "reason": "bad_value"} in d[
        "interpretation"
    ]["ignored"]
    assert said in ask_text(question)


def test_a_value_at_its_bound_is_used():
    d = ask_json("7B 1T tokens on A100, seq len 100000000")
    assert d["request"]["seq_len"] == 100_000_000
    assert not [i for i in d["interpretation"]["ignored"] if i["reason"] == "bad_value"]
