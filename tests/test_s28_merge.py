"""Readers added at the session 28 merge (from a try of the merged tree): a length a run is asked to reach
('能跑 32k 吗'), and '基于 X 做 finetune' naming X as the base model beside round 22's means slot."""

from __future__ import annotations

import pytest

from bot.parse import parse


@pytest.mark.parametrize(
    ("text", "seq_len"),
    [
        ("Qwen2.5-7B 用 LLaMA-Factory 做 LoRA 微调，单卡 3090 能跑 32k 吗", 32768),
        ("Qwen2.5-7B LoRA 微调，单卡 4090 能不能撑到 16k", 16384),
        ("4090 部署 Qwen2.5-7B，vLLM 能跑 8k 吗", 8192),
        ("chatglm3-6b-32k 做 LoRA，单卡 3090 能跑 32k 吗", 32768),  # the suffix is the release, the 32k asked
    ],
)
def test_a_length_a_run_is_asked_to_reach(text: str, seq_len: int) -> None:
    assert parse(text).request.seq_len == seq_len


@pytest.mark.parametrize(
    "text",
    [
        "4090 跑 8k 条数据 LoRA 微调 Qwen2.5-7B 要多久",  # samples
        "8 张 A100 跑 10k 步要多久，Qwen2.5-7B 全参",  # steps
        "4 张 4090 跑 2k 并发的 Qwen2.5-7B 服务够吗",  # requests
    ],
)
def test_counts_after_a_running_verb_are_no_length(text: str) -> None:
    assert parse(text).request.seq_len not in (8192, 10240, 2048)


def test_based_on_names_the_base_model() -> None:
    parsed = parse("基于 bar-chat-zh-v2.1 做 finetune，大概需要多大显存？")
    assert parsed.unknown_model == "bar-chat-zh-v2.1"
    tool = parse("用 FlagEmbedding 部署 bge-m3，要多少显存")  # round 22 zh: '用 X' stays the means
    assert tool.unknown_model == "bge-m3"


def _warning_codes(text: str) -> set[str]:
    from bot.core.pipeline import Context, answer

    report = answer(text, Context()).report
    return {n.code for n in report.warnings}


def test_a_release_matched_whole_is_its_long_context_release() -> None:
    parsed = parse("chatglm3-6b-32k 部署需要多少显存，32k上下文 10并发")
    assert (parsed.request.model, parsed.model_substitution) == ("ChatGLM3-6B", "long_context")
    assert parse("Qwen2.5-7B 部署要多少显存").model_substitution is None


def test_the_release_window_replaces_the_base_models_window_note() -> None:
    # ChatGLM3-6B was released for 8,192 tokens; its -32K release for 32K (THUDM's ChatGLM3-6B-32K card)
    assert "beyond_context_window" not in _warning_codes("chatglm3-6b-32k 部署需要多少显存，32k上下文 10并发")
    assert "beyond_context_window" in _warning_codes("chatglm3-6b-32k 部署需要多少显存，64k上下文")
    assert "beyond_context_window" in _warning_codes("chatglm3-6b 部署需要多少显存，32k上下文 10并发")


@pytest.mark.parametrize(
    "text",
    [
        "Can I run Llama-3.1-70B on a DGX Spark (GB10, 128 GB)? Q4, 32k context",
        "DGX Spark（GB10，128GB）能跑 Llama-3.1-70B 的 Q4 吗",
    ],
)
def test_a_systems_memory_in_its_brackets_without_a_memory_word(text: str) -> None:
    parsed = parse(text)
    assert parsed.request.gpu_memory_gib == 128 and not parsed.unused_numbers
