"""Session 49, part trial: fixes from a fresh-user trial (/work/notes/s49/trial_report.md).

1. A CPU-only machine whose RAM kind is said without a rate ('DDR5 双通道', 'dual-channel DDR4'): the decode
   bound uses that generation's common rates × the channels (estimator.host_ddr.ddr_band), as the GPU + CPU
   split already did, not the desktop range from DDR4-3200 (`report.cpu.bandwidth_kind` 'ddr').
2. 'fp8 的 KV cache', 'FP8 格式的 KV 缓存', 'an fp8 format KV cache': an FP8 KV cache (``kv_precision``), not
   FP8 weights (the weights stay the release's 16 bits).
3. The largest model a budget trains on a data size: when the plan it needs (full recompute, the scale-out)
   costs more than the budget at the middle of the price range, the size is shrunk and sized again, so the
   reply never answers 'the largest model $5,000 trains' with 'Over budget' (estimator.training).
4. '没有独显', '无独显' (no discrete card): a machine without a GPU, as 'no discrete GPU' (bot.parse.no_gpu).
"""

from __future__ import annotations

import json

import pytest


def _json(question: str) -> dict:
    from bot.cli import ask

    return json.loads(ask(question, None, "json")[0])


def _text(question: str) -> str:
    from bot.cli import ask

    return ask(question, None, "text")[0]


# 1. the RAM kind said on a machine with no GPU ---------------------------------------------------------

GB = 1e9


@pytest.mark.parametrize(
    ("text", "ddr", "channels", "low", "high"),
    [
        # 2 channels × 8 B × 4,800–5,600 MT/s = 76.8–89.6 GB/s
        (
            "没有显卡，只有一台 DDR5 双通道 32G 内存的台式机，llama.cpp 跑 Llama-3.1-8B 每秒多少 token？",
            5,
            2,
            76.8,
            89.6,
        ),
        (
            "No GPU here, 32GB of dual-channel DDR5: how fast does Mistral-7B run in llama.cpp?",
            5,
            2,
            76.8,
            89.6,
        ),
        # 2 × 8 B × 2,400–3,200 MT/s = 38.4–51.2 GB/s
        ("我的电脑没有显卡，16G DDR4 内存，用 ollama 跑 qwen2.5:7b 能有多快？", 4, None, 38.4, 51.2),
        (
            "No GPU, 64GB DDR4 RAM: how many tokens per second for Qwen2.5-14B with llama.cpp?",
            4,
            None,
            38.4,
            51.2,
        ),
    ],
)
def test_the_ram_kind_said_sets_the_cpu_bandwidth(
    text: str, ddr: int, channels: int | None, low, high
) -> None:
    """Must read: the DDR generation (and channels) said is the CPU run's bandwidth, named in the reply."""
    cpu = _json(text)["report"]["cpu"]
    assert cpu is not None
    assert cpu["bandwidth_kind"] == "ddr"
    assert cpu["ram_ddr"] == ddr and cpu["ram_channels"] == channels
    assert cpu["bandwidth_low"] == pytest.approx(low * GB) and cpu["bandwidth_high"] == pytest.approx(
        high * GB
    )
    assert cpu["tokens_per_s_low"] == pytest.approx(cpu["bandwidth_low"] * 0.65 / cpu["bytes_read_per_token"])


def test_the_ram_kind_is_worded_in_both_languages() -> None:
    zh = _text("没有显卡，只有一台 DDR5 双通道 32G 内存的台式机，llama.cpp 跑 Llama-3.1-8B 每秒多少 token？")
    assert "76.8–89.6 GB/s（你的内存：2 通道 DDR5，按常见频率 4,800–5,600 MT/s" in zh
    assert "DDR4-3200" not in zh.split("\n")[0]
    en = _text("No GPU here, 32GB of dual-channel DDR5: how fast does Mistral-7B run in llama.cpp?")
    assert (
        "76.8–89.6 GB/s of RAM bandwidth (your RAM: 2-channel DDR5 at its common speeds, 4,800–5,600 MT/s"
        in en
    )


@pytest.mark.parametrize(
    "text",
    [
        "没有显卡，32G 内存，llama.cpp 跑 Llama-3.1-8B 每秒多少 token？",
        "No GPU, 32GB of RAM: how fast does Llama-3.1-8B run in llama.cpp?",
    ],
)
def test_no_ram_kind_keeps_the_desktop_range(text: str) -> None:
    """Must not misread: no RAM kind or channels said keeps the desktop range (DDR4-3200 to DDR5-5600)."""
    cpu = _json(text)["report"]["cpu"]
    assert cpu["bandwidth_kind"] == "desktop" and cpu["ram_ddr"] is None
    assert cpu["bandwidth_low"] == pytest.approx(51.2 * GB) and cpu["bandwidth_high"] == pytest.approx(
        89.6 * GB
    )


@pytest.mark.parametrize(
    "text",
    [
        "没有显卡，DDR5 内存带宽 80GB/s，llama.cpp 跑 Llama-3.1-8B 多快？",
        "No GPU, DDR5 RAM, memory bandwidth 80 GB/s: how fast is Llama-3.1-8B in llama.cpp?",
    ],
)
def test_a_stated_bandwidth_wins_over_the_ram_kind(text: str) -> None:
    """Must not misread: a bandwidth stated is used as said, beside its DDR kind."""
    cpu = _json(text)["report"]["cpu"]
    assert cpu["bandwidth_kind"] == "stated" and cpu["bandwidth_low"] == pytest.approx(80 * GB)


# 2. an FP8 KV cache said with a particle or 'format' between ----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Llama-3.1-70B 128k 上下文 8 并发，fp8 的 KV cache 要占多少显存？",
        "部署 Qwen2.5-72B，FP8 格式的 KV 缓存，32k 上下文 20 并发要几张 H100？",
        "Serve Qwen2.5-72B with an fp8 format KV cache at 32k context for 20 users: how many H100s?",
        "Llama-3.1-70B at 128k context for 8 users with an FP8-format KV cache: how much memory?",
    ],
)
def test_an_fp8_kv_cache_is_not_fp8_weights(text: str) -> None:
    """Must read: the FP8 is the KV cache's; the weights stay 16-bit."""
    req = _json(text)["request"]
    assert req["kv_precision"] == "fp8"
    assert req["precision"] == "bf16"


@pytest.mark.parametrize(
    "text",
    [
        "部署 Qwen2.5-72B，权重 fp8，KV 缓存 bf16，32k 上下文 20 并发要几张 H100？",
        "Serve Qwen2.5-72B in fp8, KV cache in bf16, 32k context for 20 users: how many H100s?",
    ],
)
def test_fp8_weights_beside_a_16_bit_kv_cache_stay_weights(text: str) -> None:
    """Must not misread: FP8 said of the weights, a 16-bit KV cache said apart."""
    req = _json(text)["request"]
    assert req["precision"] == "fp8" and req["kv_precision"] == "bf16"


# 3. the largest model a budget trains is within that budget -------------------------------------------------


def _notes(report: dict) -> dict[str, dict]:
    return {w["code"]: w.get("params") or {} for w in report["warnings"]}


@pytest.mark.parametrize(
    "text",
    [
        "Budget $5,000: what is the biggest model I can fully fine-tune on 1B tokens renting H100s?",
        "预算5万美元，10亿token全参微调，用H100最大能训多大的模型？",
        "预算 20 万元，5 亿 token 全参微调，A100 上最大能训多大的模型？",
        "With a $20k budget, what is the largest model I can fully fine-tune on 500M tokens with A100s?",
    ],
)
def test_the_largest_model_a_budget_trains_is_within_it(text: str) -> None:
    """Must read: the size answered costs at most the budget at the middle of the quoted price range."""
    d = _json(text)
    notes = _notes(d["report"])
    assert "budget_max_params" in notes and "over_budget" not in notes
    cost, budget = d["report"]["shown"]["cost"], d["request"]["budget"]
    assert (cost["low"] + cost["high"]) / 2 <= budget * 1.001
    assert d["request"]["params_total"] == pytest.approx(notes["budget_max_params"]["params_total"])


@pytest.mark.parametrize(
    ("text", "params"),
    [
        # no recompute or scale-out beyond the count-free MFU: the inverse's size stands (6.6B, 1.4B)
        ("With a $200k budget and 2T tokens, what's the largest model I can pretrain on H100s?", 6.6e9),
        ("预算50万人民币，数据1万亿token，从头预训练，最大能训多大的模型？", 1.4e9),
    ],
)
def test_a_budget_size_that_fits_is_not_shrunk(text: str, params: float) -> None:
    """Must not misread: a size whose plan is within the budget stays the budget's inverse."""
    d = _json(text)
    assert d["request"]["params_total"] == pytest.approx(params, rel=0.05)
    assert "over_budget" not in _notes(d["report"])


# 4. no discrete card --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "我的电脑没有独显，16G DDR4 内存，用 ollama 跑 qwen2.5:7b 能有多快？",
        "笔记本无独显，32G内存，llama.cpp 跑 Llama-3.1-8B 多快？",
        "My laptop has no discrete GPU, 16GB DDR4: how fast is qwen2.5:7b in ollama?",
        "No dedicated GPU, 32GB of RAM: how fast does Llama-3.1-8B run in llama.cpp?",
    ],
)
def test_no_discrete_card_is_a_cpu_machine(text: str) -> None:
    """Must read: the machine has no GPU; the model is sized on its CPU (report.cpu)."""
    d = _json(text)
    assert d["interpretation"]["machine"] == "no_gpu_said"
    assert d["report"]["cpu"] is not None


@pytest.mark.parametrize(
    "text",
    [
        "没有独显经验，部署 Qwen2.5-7B 要几张卡",
        "我们还没有独显，部署 Qwen2.5-7B 需要几张卡？",
        "We have no discrete GPUs yet: how many GPUs to serve Qwen2.5-7B?",
        "No dedicated GPU experience on the team: how many GPUs to serve Qwen2.5-7B?",
    ],
)
def test_no_discrete_card_yet_or_as_a_modifier_is_a_gpu_question(text: str) -> None:
    """Must not misread: 'yet', a count asked or '经验' after it keep a GPU question (no CPU head)."""
    d = _json(text)
    assert d["interpretation"]["machine"] is None and d["report"]["cpu"] is None
