"""Session 48, part rigs (issue 24 item 3): a machine of three or more different cards, each written with its
count ('one 4090 24GB, one 3090 24GB and two T4 16GB', '一张 4090 24G、一张 3090 24G、两张 T4 16G', '2x 3090
+ 1x 4090 + 2x 3060'), is one rig (bot.parse.mixed_rig.counted_rig). Before, only two distinct cards were
read as a rig: the first card was sized and the third became an alternative sized apart ('T4: 5 GPUs').

How a rig is sized (bot.parse.mixed_rig.rig_choice): on llama.cpp, whose default split puts layers on each
card in proportion to its free memory (src/llama-model.cpp "default split, by free memory";
``--tensor-split`` for other proportions), the cards' memory is pooled; for training (tensor parallelism,
ZeRO/FSDP: each rank holds an equal share) the card with least memory bounds every share, so the rig is
sized as that many of the smallest card. Memories below are the catalog's (estimator/data/gpus.toml: RTX 4090
and RTX 3090 24 GiB, T4 16 GiB, RTX 3060 12 GiB) or as typed."""

from __future__ import annotations

import pytest

from estimator import catalog
from tests.cli_run import ask_in_process, named

RIG_EN = "I have one 4090 24GB, one 3090 24GB and two T4 16GB, can I serve Qwen2.5-32B with llama.cpp?"
RIG_ZH = "我有一张 4090 24G、一张 3090 24G、两张 T4 16G，用 llama.cpp 能跑 Qwen2.5-32B 吗"


def _mem(gpu_id: str) -> float:
    return float(catalog.gpu(gpu_id).memory_gib)


@pytest.mark.parametrize("text", [RIG_EN, RIG_ZH])
def test_three_counted_cards_on_llama_cpp_pool_their_memory(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    answer = ask_in_process(capsys, text)
    request = answer["request"]
    pooled = 24 + 24 + 2 * 16  # as typed: 4090 24GB + 3090 24GB + two T4 16GB = 80 GiB over 4 cards
    assert request["gpu_count"] == 4  # every card, the two T4s counted twice; never 1 (the first card alone)
    assert request["gpu_memory_gib"] == pooled / 4 == 20.0
    assert request["gpu"] == "RTX-3090"  # a 24 GiB card of the slower bandwidth (936 < 1,008 GB/s)
    assert answer["report"]["comparisons"] in (None, [])  # the T4 is part of the rig, not an alternative
    assert set(named(answer).values()) == {"mixed_rig_sum"}
    head = answer["reply"].splitlines()[0]
    assert "80 GiB" in head and "20 GiB" in head
    assert ("4 × RTX 3090" in head) or ("4 张 RTX 3090" in head)


@pytest.mark.parametrize(
    "text",
    [
        "I have one 4090 24GB, one 3090 24GB and two T4 16GB, LoRA fine-tune Qwen2.5-7B",
        "我有一张 4090 24G、一张 3090 24G、两张 T4 16G，LoRA 微调 Qwen2.5-7B",
    ],
)
def test_three_counted_cards_in_training_are_bounded_by_the_smallest(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    answer = ask_in_process(capsys, text)
    request = answer["request"]
    smallest = min(("RTX-4090", "RTX-3090", "T4"), key=_mem)
    assert (request["gpu"], request["gpu_count"], request["gpu_memory_gib"]) == (smallest, 4, _mem("T4"))
    assert named(answer) == {"RTX 4090": "mixed_rig", "RTX 3090": "mixed_rig"}
    head = answer["reply"]
    assert ("ZeRO/FSDP" in head) and ("4 × T4" in head or "4 张 T4" in head)


@pytest.mark.parametrize(
    "text",
    [
        "I have 2x 3090 + 1x 4090 + 2x 3060, serve Qwen2.5-32B with llama.cpp",
        "我有两张 3090、一张 4090 和两张 3060，用 llama.cpp 跑 Qwen2.5-32B",
    ],
)
def test_five_cards_of_three_kinds(capsys: pytest.CaptureFixture[str], text: str) -> None:
    answer = ask_in_process(capsys, text)
    request = answer["request"]
    pooled = 2 * _mem("RTX-3090") + _mem("RTX-4090") + 2 * _mem("RTX-3060")  # 96 GiB
    assert request["gpu_count"] == 5
    assert request["gpu_memory_gib"] == pytest.approx(pooled / 5)  # 19.2 GiB a card
    assert set(named(answer)) == {"RTX 4090", "RTX 3060"}
    assert f"{pooled:g} GiB" in answer["reply"].splitlines()[0]


@pytest.mark.parametrize(
    ("text", "alternatives"),
    [
        ("H100 or A100? serve Llama 3 70B", {"A100-SXM4-80GB"}),
        ("H100 还是 A100？部署 Llama 3 70B", {"A100-SXM4-80GB"}),
        ("compare a 4090 and a 3090 for Qwen2.5-14B", {"RTX-3090"}),
        ("4090 24G 和 3090 24G 哪个好，跑 Qwen2.5-14B", {"RTX-3090"}),
        ("We have 8 H100s, 4 A100s and 2 L40S, train a 7B model on 1T tokens", {"A100-SXM4-80GB", "L40S"}),
        ("我们有 8 张 H100、4 张 A100 和 2 张 L40S，训练一个 7B 模型 1T token", {"A100-SXM4-80GB", "L40S"}),
    ],
)
def test_options_and_fleets_are_not_one_rig(
    capsys: pytest.CaptureFixture[str], text: str, alternatives: set[str]
) -> None:
    """A choice ('or', '还是', 'compare', '哪个好') weighs options; 14 cards are more than one 8-GPU host
    holds (bot.parse.mixed_rig.HOST_CARDS): a fleet whose cards are sized apart, never one machine."""
    answer = ask_in_process(capsys, text)
    assert {c["gpu"] for c in answer["report"]["comparisons"]} == alternatives
    assert not {"mixed_rig", "mixed_rig_sum", "mixed_rig_largest"} & set(named(answer).values())


# Item 2 (review N1): a stated training EP degree is sized. Megatron-Core: each EP rank holds
# num_moe_experts // expert_model_parallel_size routed experts of every MoE layer
# (megatron/core/transformer/moe/moe_layer.py, num_local_experts), the rest of the model is replicated over
# EP within data parallelism, and the experts' states are sharded over the expert-data-parallel group,
# DP / EP (megatron/core/parallel_state.py). Mixtral 8x7B's config.json (mistralai/Mixtral-8x7B-v0.1:
# 32 layers, hidden 4096, intermediate 14336, 8 local experts, top-2; 46.7B parameters): routed experts =
# 32 × 8 × 3 × 4096 × 14336.
MIXTRAL_ROUTED = 32 * 8 * 3 * 4096 * 14336
MIXTRAL_TOTAL = 46.7e9


def _weights_per_gpu(plan: dict) -> float:
    """bf16 weights on one GPU of ``plan``: the dense part / (TP × PP), the routed experts / (TP × PP × EP),
    each ZeRO-3-sharded over its data-parallel group (DP, and DP / EP for the experts)."""
    tp_pp, ep, dp = plan["tp"] * plan["pp"], plan["ep"], plan["dp"]
    dense, experts = (MIXTRAL_TOTAL - MIXTRAL_ROUTED) / tp_pp, MIXTRAL_ROUTED / (tp_pp * ep)
    if plan["zero_stage"] == 3:
        dense, experts = dense / dp, experts / (dp // ep)
    return 2 * (dense + experts)


@pytest.mark.parametrize(
    "text",
    [
        "Full fine-tune Mixtral 8x7B with Megatron, EP=8",
        "Full fine-tune Mixtral 8x7B with Megatron, --expert-model-parallel-size 8",
        "用 Megatron 全参微调 Mixtral 8x7B，专家并行 8",
        "用 Megatron 全参微调 Mixtral 8x7B，8 路专家并行",
    ],
)
def test_a_stated_ep_shards_the_experts(capsys: pytest.CaptureFixture[str], text: str) -> None:
    answer = ask_in_process(capsys, text)
    assert answer["request"]["expert_parallel"] == 8
    memory = answer["report"]["memory"]
    plan = memory["plan"]
    assert plan["ep"] == 8 and plan["dp"] % 8 == 0  # the stated EP, carved out of the data-parallel ranks
    assert memory["breakdown"]["weights"] == pytest.approx(_weights_per_gpu(plan), rel=0.01)
    assert "expert_parallel" not in str(named(answer))
    assert "EP 8" in answer["reply"].splitlines()[0]


@pytest.mark.parametrize(
    "text",
    [
        "Train Mixtral 8x7B full fine-tune with Megatron on 16 H100, EP=8",
        "用 16 张 H100 全参微调 Mixtral 8x7B，EP=8",
    ],
)
def test_a_stated_ep_on_the_users_gpus(capsys: pytest.CaptureFixture[str], text: str) -> None:
    answer = ask_in_process(capsys, text)
    memory = answer["report"]["memory"]
    plan = memory["plan"]
    assert memory["plan_gpus"] == 16 and plan["ep"] == 8
    assert plan["tp"] * plan["pp"] * plan["dp"] == 16
    assert memory["breakdown"]["weights"] == pytest.approx(_weights_per_gpu(plan), rel=0.01)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Train Mixtral 8x7B full fine-tune with Megatron on 16 H100, EP=3", "ep_not_dividing"),  # 8 % 3
        ("用 16 张 H100 全参微调 Mixtral 8x7B，EP=32", "ep_not_dividing"),  # more than its 8 experts
        ("用 4 张 H100 全参微调 Mixtral 8x7B，专家并行 8", "ep_over_gpus"),
        ("Full fine-tune Mixtral 8x7B on 4 H100, EP=8", "ep_over_gpus"),
        ("Full fine-tune Llama 3 8B on 8 H100, EP=8", "ep_no_experts"),  # a dense model
        ("全参微调 Llama 3 8B，8 张 H100，EP=8", "ep_no_experts"),
        ("LoRA fine-tune Mixtral 8x7B on 8 H100 with EP=8", "expert_parallel_training"),  # no EP plan
        ("Serve Mixtral 8x7B with vLLM on 8 H100, EP=8", "expert_parallel"),  # serving: not a training EP
        ("用 vLLM 在 8 张 H100 上部署 Mixtral 8x7B，专家并行 8", "expert_parallel"),
    ],
)
def test_an_ep_that_cannot_be_used_is_named_with_why(
    capsys: pytest.CaptureFixture[str], text: str, reason: str
) -> None:
    answer = ask_in_process(capsys, text)
    n = 32 if "32" in text else 3 if "EP=3" in text else 8
    assert named(answer)[f"expert_parallel: {n}"] == reason
    plan = (answer["report"].get("memory") or {}).get("plan") or {}
    assert plan.get("ep", 1) != n
