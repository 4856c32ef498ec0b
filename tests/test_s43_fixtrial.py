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
    # s44: vLLM's DP ranks keep every weight but the routed experts whole (estimator.dp_replicated: 16.6 GB a
    # GPU above 1/8 of them), so 8 H20 96GB hold DeepSeek-R1's FP8 weights under plain TP 8 but not under
    # DP 8 + EP (before: a pool of 8 × plain TP's, every weight split over the 8)
    assert tp["report"]["inference"]["kv_capacity_tokens"] > 0
    assert dp["report"]["inference"]["kv_capacity_tokens"] == 0 and dp["report"]["feasible"] == "no"
    assert "dp_attention_replicated_vllm" in [w["code"] for w in dp["report"]["warnings"]]
    reply = ask(DP_EP + tail, None, "plain")[0]
    assert not any(s in reply for s in NOT_CHANGE)


@pytest.mark.parametrize(
    ("text", "flag", "said"),
    [
        (
            f"{SPEC}  one RTX 4090, enough?",
            "--speculative-config",
            "speculative decoding's speed-up is not modelled",  # s44: its catalog draft's memory counted
        ),
        (
            f"{SPEC}  一张4090 能跑吗",
            "--speculative-config",
            "投机解码的加速没有建模",  # s44: its catalog draft's memory counted
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
    assert reasons[flag] in ("speculative_not_modelled", "speculative_speed", "expert_parallel")
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


# 2. SGLang '--tp 16 --dp 16 --enable-dp-attention' of DeepSeek-V3 on Ascend 910B (no FP8: bf16 weights,
# 1,342 GB): SGLang's reserve on a 64 GiB card is 9.5 + 0.5 × (TP × PP) GiB + 4 GiB with DP attention
# (sglang/srt/server_args.py _handle_mem_fraction_static, v0.5.2), so no pipeline with DP attention holds
# it; the fewest without it are TP 8 × PP 5 = 40, as the same line without the DP flags says (q14b).
DP_LINE = (
    "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 16 --dp 16 "
    "--enable-dp-attention --ep-size 16 --nnodes 2 --node-rank 0"
)
NO_DP_LINE = "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 16 --nnodes 2"


@pytest.mark.parametrize(
    ("tail", "no_and_then", "note"),
    [
        (
            "  两台昇腾910B能跑吗？不行的话两台H200呢",
            ("• Ascend 910B：需要 40 张", "• H200 141G：16 张"),
            "开数据并行注意力时，多少张 Ascend 910B 都放不下这个模型",
        ),
        (
            "  can two Ascend 910B nodes run it? if not, two H200 nodes?",
            ("• Ascend 910B: 40 needed", "• H200 141G: 16 GPUs"),
            "With data-parallel attention no number of Ascend 910B cards holds the model",
        ),
    ],
)
def test_dp_attention_that_never_fits_gives_the_fewest_without_it(
    tail: str, no_and_then: tuple[str, str], note: str
) -> None:
    data = answer_json(DP_LINE + tail)
    assert (data["request"]["gpu_count"], data["request"]["tp"], data["request"]["dp_attention"]) == (
        16,
        16,
        True,
    )
    inf = data["report"]["inference"]
    assert inf["weights_bytes"] == 1_342e9 and inf["min_without_dp_attention"] is True
    plain = answer_json(NO_DP_LINE + tail)["report"]["inference"]
    assert inf["min_gpus"] == plain["min_gpus"] == 40 and plain["min_without_dp_attention"] is False
    reply = ask(DP_LINE + tail, None, "plain")[0]
    assert "488" not in reply
    lines = reply.splitlines()
    first, then = (next(i for i, line in enumerate(lines) if line.startswith(p)) for p in no_and_then)
    assert first < then  # 910B answered first, then H200
    assert note in reply and ("40 张" in reply or "are 40." in reply)


def test_dp_attention_that_fits_is_unchanged() -> None:
    """On H200 the DP-attention layout holds the fp8 weights (673 GB) on 16 GPUs: no fallback, no note."""
    data = answer_json(DP_LINE + "  两台H200能跑吗")
    inf = data["report"]["inference"]
    assert inf["min_without_dp_attention"] is False and inf["min_gpus"] == 8
    assert not any(w["code"] == "dp_attention_never_fits" for w in data["report"]["warnings"])


# 1. 'H20 141G': no public NVIDIA page gives the 141 GB part's bandwidth (a reseller's comparison says it is
# "not explicitly stated by the manufacturer": apetops-us.com, 'H20 different memory versions'), so it is not
# added to the catalog; the card is sized at the 141 GiB stated, never at the 96 GB part's memory, and the
# assumption names the catalog's figures it keeps.
@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "DeepSeek-R1 671B 满血版部署，用H20 141G，想要支持50并发、上下文32k，要几台机器？",
            "按你说的每卡 141 GiB 估算（目录里这张卡是 96 GiB）",
        ),
        (
            "Deploy DeepSeek-R1 671B on H20 141GB cards, 50 concurrent at 32k context: how many machines?",
            "sized at the 141 GiB per card you stated (the catalog's card has 96 GiB)",
        ),
    ],
)
def test_h20_141g_is_sized_at_its_stated_memory(text: str, said: str) -> None:
    data = answer_json(text)
    assert data["request"]["gpu_memory_gib"] == 141.0
    assert data["report"]["hardware"]["memory_gib"] == 141.0
    assert data["report"]["hardware"]["catalog_memory_gib"] == 96.0
    reply = ask(text, None, "plain")[0]
    assert said in reply and "H20 141G" in reply and "H20 96G" not in reply


# 3/4 in words: speculative decoding and expert parallelism said in a serving question are named with the
# true reason; 'EAGLE-3' is a method's name, never an unread '3'; 'single-stream' is one sequence at a time.
@pytest.mark.parametrize(
    ("text", "item", "reason"),
    [
        (
            "Qwen2.5-72B 用投机解码（EAGLE-3）部署在 4 张 H100 上，单用户能到多少 token/s？",
            "EAGLE-3",
            "speculative_not_modelled",
        ),
        (
            "Llama-3.1-70B on 4x H100 with speculative decoding using Llama-3.2-1B as the draft model: "
            "what single-stream tokens/s can I expect vs without?",
            "speculative decoding",
            "speculative_speed",  # s44: the draft Llama-3.2-1B counted, the speed-up not modelled
        ),
        (
            "DeepSeek-R1 671B 满血版部署，用H20 141G，想要支持50并发、上下文32k，要几台机器？用EP专家并行",
            "专家并行",
            "expert_parallel",
        ),
        (
            "DeepSeek-R1 on one node of 8x H200 with SGLang, expert parallelism: how many concurrent at 8k?",
            "expert parallelism",
            "expert_parallel",
        ),
    ],
)
def test_serving_methods_in_words_are_named(text: str, item: str, reason: str) -> None:
    data = answer_json(text)
    ignored = _ignored(data)
    assert ignored.get(item) == reason
    assert "3" not in ignored  # EAGLE-3's digit is no number
    if "single-stream" in text or "单用户" in text:
        assert data["request"]["concurrency"] == 1


@pytest.mark.parametrize(
    "text",
    [
        "Qwen2.5-72B 部署在 4 张 H100 上，3 个并发能到多少 token/s？",
        "serve Llama-3.1-70B on 4x H100 for our expert team of analysts, 8 concurrent",
        "部署 Qwen3-32B，两张 H100，流式输出（stream），16 并发",
    ],
)
def test_look_alikes_name_no_serving_method(text: str) -> None:
    """'3 个并发' is a load, an 'expert team' no parallelism, 'stream' no single stream."""
    data = answer_json(text)
    assert not {"speculative_not_modelled", "expert_parallel"} & set(_ignored(data).values())
    assert data["request"]["concurrency"] != 1


def test_the_call_site_cues_are_the_readers() -> None:
    from bot.parse.field_steps import SERVING_METHOD_CUES
    from bot.parse.serving_methods import CUES

    assert CUES is SERVING_METHOD_CUES  # one table, declared at the call site
