"""s24 trial #2: a per-sample length written with no 'token' word ('1万条数据每条2k', '10k samples of 2k
each', '每条平均1.5k') is each sample's length (bot.parse.more_roles): the data is samples × that length,
not samples × the 512-token default (×4 too small before). A unit after it (元, 'per month') is no length."""

from __future__ import annotations

import pytest

from bot.parse import parse


@pytest.mark.parametrize(
    ("question", "samples", "each"),
    [
        ("全参微调Qwen2.5-7B，8张A800，1万条数据每条2k，要几个小时", 10_000, 2000),
        ("全参微调Qwen2.5-7B，8张A800，1万条数据，每条大概2k，要几个小时", 10_000, 2000),
        ("微调Qwen2.5-7B，8张A800，2万条数据每条平均1.5k，要多久", 20_000, 1500),
        ("full fine-tune Qwen2.5-7B on 8 A800, 10k samples of 2k each, how many hours", 10_000, 2000),
        ("fine-tune Qwen2.5-7B on 8 A800 with 10k samples averaging 2k, how long", 10_000, 2000),
        ("full fine-tune Qwen2.5-7B on 8 A800, 10k samples of ~2k tokens, how many hours", 10_000, 2000),
    ],
)
def test_bare_length_after_each_is_the_sample_length(question: str, samples: int, each: int) -> None:
    req = parse(question).request
    assert (req.num_samples, req.tokens_per_sample) == (samples, each)
    assert req.tokens == samples * each  # 1万 × 2k = 2000万 tokens, as '每条2k token' gives


@pytest.mark.parametrize(
    "question",
    [
        "微调Qwen2.5-7B，8张A800，1万条数据每条2k元，要多久",  # a price per sample
        "fine-tune Qwen2.5-7B on 8 A800 at 2k per month, 10k samples, how long",  # a monthly cost
    ],
)
def test_a_unit_after_it_is_no_length(question: str) -> None:
    req = parse(question).request
    assert req.num_samples == 10_000
    assert req.tokens_per_sample is None


def test_serving_each_is_not_a_training_sample() -> None:
    """In a serving question the rule does not run: a length there is a request's, read elsewhere."""
    req = parse("serve Qwen2.5-7B on 1 A100, 20 users, each 2k, how many tokens/s").request
    assert req.tokens_per_sample is None
