"""Session 43 fresh-user trial, high findings (docs/notes s43 fixtrial): serving flags that change the sizing
are sized or named with the true reason, never as 'it does not change the GPUs, memory or time'.

Real values: DeepSeek-R1/V3's MLA latent is (kv_lora_rank 512 + qk_rope_head_dim 64) × 61 layers × 2 bytes
= 70,272 bytes per token (deepseek-ai/DeepSeek-V3 config.json); vLLM's data-parallel + expert-parallel
deployment keeps each sequence's latent on one DP rank (vLLM docs, serving/data_parallel_deployment.md),
while plain --tensor-parallel-size keeps the whole latent on every rank (vllm MLA backend), so the DP pool
holds about TP = 8 times the tokens.
"""

from __future__ import annotations

import pytest

from bot.cli import ask
from tests.real_questions import answer_json

NOT_CHANGE = ("does not change the GPUs, memory or time", "不影响卡数、显存或时长")
DP_EP = (
    "vllm serve deepseek-ai/DeepSeek-R1 --data-parallel-size 8 --enable-expert-parallel --max-model-len 32768"
)
SGL = "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3"
SPEC = (
    "vllm serve Qwen/Qwen2.5-7B-Instruct --speculative-config "
    '\'{"model": "Qwen/Qwen2.5-0.5B-Instruct", "num_speculative_tokens": 5}\''
)
TP8 = "vllm serve deepseek-ai/DeepSeek-R1 --tensor-parallel-size 8 --max-model-len 32768"


def _ignored(data: dict) -> dict[str, str]:
    return {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}


@pytest.mark.parametrize(
    "tail",
    [
        "  on 8x H20 96GB, 50 concurrent users at 32k, does it start and how many fit?",
        "  8张H20 96G，50并发、32k上下文，能启动吗，能放几条？",
    ],
)
def test_vllm_data_and_expert_parallel_is_sized_as_its_layout(tail: str) -> None:
    dp = answer_json(DP_EP + tail)
    tp = answer_json(TP8 + tail)
    assert (dp["request"]["gpu_count"], dp["request"]["dp_attention"]) == (8, True)
    assert tp["request"]["dp_attention"] is None
    assert not any("expert-parallel" in t or "data-parallel" in t for t in _ignored(dp))
    assert dp["report"]["inference"]["kv_bytes_per_token"] == 70_272.0
    per_rank, pooled = (
        tp["report"]["inference"]["kv_capacity_tokens"],
        dp["report"]["inference"]["kv_capacity_tokens"],
    )
    assert 7.9 * per_rank <= pooled <= 8.1 * per_rank  # every rank's latent copy under plain TP, one under DP
    reply = ask(DP_EP + tail, None, "plain")[0]
    assert not any(s in reply for s in NOT_CHANGE)


@pytest.mark.parametrize(
    ("text", "flag", "said"),
    [
        (
            f"{SPEC}  one RTX 4090, enough?",
            "--speculative-config",
            "speculative decoding is not modelled",
        ),
        (
            f"{SPEC}  一张4090 能跑吗",
            "--speculative-config",
            "投机解码没有建模",
        ),
        (
            "python -m sglang.launch_server --model-path Qwen/Qwen3-32B --tp 2 "
            "--speculative-algorithm EAGLE3 "
            "--speculative-draft-model-path Tengyunw/qwen3_32b_eagle3  on 2 H100s, enough?",
            "--speculative-draft-model-path",
            "speculative decoding is not modelled",
        ),
        (
            f"{SGL} --tp 8 --ep-size 8  8张H200 够吗",
            "--ep-size",
            "专家并行没有按它自己的布局建模",
        ),
        (
            f"{SGL} --tp 8 --ep-size 8  on 8 H200s?",
            "--ep-size",
            "expert parallelism is not modelled as its own layout",
        ),
        (
            "vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 --enable-expert-parallel  8 H200s?",
            "--enable-expert-parallel",
            "expert parallelism is not modelled as its own layout",
        ),
    ],
)
def test_a_flag_that_changes_the_sizing_is_named_with_the_true_reason(
    text: str, flag: str, said: str
) -> None:
    data = answer_json(text)
    reasons = {t.split(":")[0]: r for t, r in _ignored(data).items()}
    assert reasons[flag] in ("speculative_not_modelled", "expert_parallel")
    reply = ask(text, None, "plain")[0]
    first = reply.splitlines()[1]
    assert said in first and flag in first
    assert not any(f"{flag}: " in part and s in part for part in first.split("；") for s in NOT_CHANGE)


@pytest.mark.parametrize(
    "text",
    [
        f"{SGL} --tp 8 --node-rank 0 --spec-trace-dir /tmp  on 8 H200s?",
        f"{SGL} --tp 8 --node-rank 0  8张H200 够吗",
    ],
)
def test_flags_that_change_nothing_keep_their_reason(text: str) -> None:
    """A rank or a trace folder changes no memory or speed: still 'not_sized' (the new reasons are not a
    blanket)."""
    reasons = {t.split(":")[0]: r for t, r in _ignored(answer_json(text)).items()}
    assert reasons["--node-rank"] == "not_sized"
    assert reasons.get("--spec-trace-dir", "not_sized") == "not_sized"
