"""Each sample's length said beside the sample count or as an average (trial s24-2 #1, #7;
bot.parse.sample_at): '50k samples at ~800 tokens' is 800 tokens per sample (40M tokens of data, not
800 in all), '平均长度1500 token' is the average (sized at it, no 'upper bound' warning)."""

from __future__ import annotations

import pytest

from bot.parse import parse
from tests.cli_run import ask_quietly

LORA_EN = "LoRA rank 16 on Llama-3.1-8B with one RTX 4090, {}, 3 epochs — how long?"
LORA_ZH = "用LoRA微调Qwen2.5-7B，一张4090，{}，训3个epoch，要多久？"


@pytest.mark.parametrize(
    ("question", "samples", "each"),
    [
        (LORA_EN.format("50k samples at ~800 tokens"), 50_000, 800),
        (LORA_EN.format("50k samples at about 800 tokens"), 50_000, 800),
        (LORA_EN.format("50k samples at ≈800 tokens"), 50_000, 800),
        (LORA_EN.format("20k conversations with around 1.2k tokens"), 20_000, 1200),
        (LORA_EN.format("50k samples, average length 1500 tokens"), 50_000, 1500),
        (LORA_ZH.format("5万条数据，每条约800 token"), 50_000, 800),
        (LORA_ZH.format("5万条、800 token左右"), 50_000, 800),
        (LORA_ZH.format("5万条数据，800 token左右"), 50_000, 800),
        (LORA_ZH.format("数据5万条，平均长度1500 token"), 50_000, 1500),
    ],
)
def test_a_length_beside_the_sample_count_is_each_samples(question: str, samples: int, each: int) -> None:
    """The data is samples × each sample's length; the length is never the data's total."""
    req = parse(question).request
    assert (req.num_samples, req.tokens_per_sample) == (samples, each)
    assert req.tokens == samples * each


@pytest.mark.parametrize(
    ("question", "seq_len"),
    [
        # a context is the length trained at, not a sample's: 'at 8k context' stays the sequence length
        (LORA_EN.format("50k samples at 8k context"), 8192),
        # a rate is no length: 'at 800 tokens/s' was read as an 800-token sequence ('token' + 's/s')
        (LORA_EN.format("50k samples, runs at 800 tokens/s"), None),
        (LORA_EN.format("50k samples at 800 tokens per second"), None),
    ],
)
def test_a_context_or_a_rate_is_not_a_sample_length(question: str, seq_len: int | None) -> None:
    req = parse(question).request
    assert req.num_samples == 50_000
    assert (req.tokens_per_sample, req.tokens, req.seq_len) == (None, None, seq_len)


def test_total_tokens_above_the_sample_count_stay_the_data() -> None:
    """Only a total below the count of samples (under one token each) is read as a length: '2T tokens'
    beside 50k samples stays the data."""
    req = parse("pretrain a 7B on 50k samples at 2T tokens with 64 H100").request
    assert (req.tokens, req.tokens_per_sample) == (2e12, None)


@pytest.mark.parametrize(
    ("question", "data", "bound"),
    [
        (
            "用LoRA微调Qwen2.5-72B，4张A100 80G，数据5万条，平均长度1500 token，训2个epoch，要多久？",
            "1.5亿 token",
            "上限",
        ),
        (
            "LoRA on Qwen2.5-72B with 4 A100 80G, 50k samples, average length 1500 tokens, 2 epochs?",
            "150M tokens",
            "upper bound",
        ),
    ],
)
def test_a_stated_average_is_sized_as_the_average(question: str, data: str, bound: str) -> None:
    """50,000 × 1,500 × 2 epochs = 150M tokens trained, and no warning that the time is an upper bound
    at the longest length allowed (the user said the average, trial s24-2 #7)."""
    out = ask_quietly(question)
    assert data in out.splitlines()[0]
    assert bound not in out


@pytest.mark.parametrize(
    ("question", "completion"),
    [
        (
            "用verl做GRPO，Qwen2.5-7B，每个prompt 8条rollout，最长1024 token，1万条prompt，8张H800，需要多久",
            1024,
        ),
        (
            "用verl做GRPO，Qwen2.5-7B，每个prompt 8条rollout，response最长2048，1万条prompt，8张H800",
            2048,
        ),
    ],
)
def test_a_longest_after_the_rollouts_is_the_completions(question: str, completion: int) -> None:
    """'8条rollout，最长1024 token': the longest rollout (trl max_completion_length, verl
    data.max_response_length), not the whole sequence (trial s24-2 #8); the sequence is the prompt (512
    unless stated, bot.parse.configs.meaning) plus it, as 'response最长2048' already read."""
    req = parse(question).request
    assert (req.max_completion_length, req.num_generations) == (completion, 8)
    assert req.seq_len == completion  # the parse's: the default prompt is added when sized


def test_a_longest_rollout_sizes_prompt_plus_completion() -> None:
    """The headline's sequence is 512 + 1,024 = 1,536 with 'completions up to 1,024 tokens' said."""
    out = ask_quietly(
        "用verl做GRPO，Qwen2.5-7B，每个prompt 8条rollout，最长1024 token，1万条prompt，8张H800，需要多久"
    )
    assert "序列长度 1,536" in out.splitlines()[0] and "补全最长 1,024 token" in out.splitlines()[0]


@pytest.mark.parametrize(
    ("question", "completion"),
    [
        ("GRPO on Qwen2.5-7B with verl, 8 rollouts, up to 1024 tokens, 10k prompts on 8 H800", 1024),
        ("GRPO on Qwen2.5-7B, 8 generations, at most 512 tokens, 10k prompts on 8 H800", 512),
    ],
)
def test_a_maximum_after_the_rollout_count_is_the_completions(question: str, completion: int) -> None:
    """'8 rollouts, up to 1024 tokens': the rollout word is the count's and the completion's (it was read
    as 1K tokens of data in all, a 0.00001-hour answer); never each prompt's length nor the data."""
    req = parse(question).request
    assert (req.max_completion_length, req.num_generations, req.num_samples) == (completion, 8, 10_000)
    assert (req.tokens, req.tokens_per_sample) == (None, None)
