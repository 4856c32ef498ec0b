"""Trial s17 #5: 'Pretrain a 500 quadrillion parameter model on 10^30 tokens' named only the 1e30 and then
asked for the model size: 'quadrillion' (and '亿亿', '千万亿') were no magnitude words, so the size was
dropped without a word. They are read now, and a size beyond the estimator's bound is named as typed with
why (the 100T bound line), in both languages, as the other bounds are."""

from __future__ import annotations

import pytest

from bot.cli import main
from bot.parse import parse
from bot.parse.numbers import parse_number


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("500 quadrillion", 5e17),
        ("3 quintillion", 3e18),
        ("50亿亿", 5e17),
        ("2千万亿", 2e15),
        ("7 trillion", 7e12),
    ],
)
def test_magnitude_words(text, value):
    assert parse_number(text) == value


CASES = [
    ("Pretrain a 500 quadrillion parameter model on 10^30 tokens with H100s", "500 quadrillion",
     "I size models up to 100T parameters"),
    ("用 H100 预训练一个 30 亿亿参数的模型，训练 2 万亿 token", "30 亿亿", "我能估算的模型最大到 100T"),
    ("Train an 8 quadrillion-parameter LLM on 1T tokens, how many A100?", "8 quadrillion",
     "I size models up to 100T parameters"),
]  # fmt: skip


@pytest.mark.parametrize(("question", "typed", "why"), CASES)
def test_a_size_beyond_the_bound_is_named_as_typed(capsys, question, typed, why):
    p = parse(question)
    assert typed in p.ignored_numbers and p.request.params_total is None
    main(["ask", question])
    out = capsys.readouterr().out
    assert typed in out.splitlines()[0] and why in out
