"""Session 14 readings checked on phrasings rephrased from public threads (each source cited): plural
cards, full recompute, a finished run's days, two loads, card slots."""

from __future__ import annotations

import pytest

from bot.parse import parse


@pytest.mark.parametrize(
    ("question", "gpu", "count"),
    [
        # https://github.com/lm-sys/FastChat/issues/2556 ("32GB V100s to fine-tuning Vicuna-7B with Lora")
        (
            "Out of memory when I use 32GB V100s to LoRA fine-tune Llama-2-7B; how many do I need?",
            "V100-SXM2-32GB",
            None,
        ),
        (
            "Using 8 V100s (32GB) for LoRA on Llama-2-7B at 2048 length runs out of memory; how many V100s?",
            "V100-SXM2-32GB",
            8,
        ),
        # https://github.com/liucongg/ChatGLM-Finetuning/issues/23 (Tesla V100 32GB, LoRA OOM), in Chinese
        ("两块 V100s 32G 跑 ChatGLM-6B 的 LoRA 微调爆显存，要几块？", "V100-SXM2-32GB", 2),
    ],
)
def test_plural_v100s(question: str, gpu: str, count: int | None) -> None:
    req = parse(question).request
    assert (req.gpu, req.gpu_count) == (gpu, count)


@pytest.mark.parametrize(
    "question",
    [
        # https://github.com/IEIT-Yuan/Yuan-2.0/issues/18 (激活值重计算, selective vs full 模式)
        "2B 模型从头预训练，激活值重计算开 full 模式，PP 4，32 张 A800，100B token 几天",
        # https://github.com/NVIDIA/Megatron-LM/issues/1300 ('--recompute-granularity full', uniform method)
        "Megatron pretraining a 2B with --recompute-granularity full --recompute-method uniform, 32 A800, "
        "100B tokens: how long?",
    ],
)
def test_full_recompute_in_threads(question: str) -> None:
    req = parse(question).request
    assert (req.stage, req.recompute, req.gpu_count, req.tokens) == ("pretrain", "full", 32, 100e9)


@pytest.mark.parametrize(
    ("question", "count", "hours"),
    [
        # https://github.com/zai-org/GLM-130B/issues/75 ("spent ~60 days … 400B tokens using 96 DGX A100")
        (
            "We spent ~60 days training a 130B on 400B tokens using 96 DGX A100 (8x40G). What did that cost?",
            768,
            1440.0,
        ),
        # https://github.com/OpenBMB/MiniCPM/issues/190 ("使用160张A100 GPU训练两周", 1.1T tokens)
        ("我们用 160 张 A100 预训练了两周，1.1T token，2B 模型，花了多少钱？", 160, 336.0),
        # https://github.com/JiuhaiChen/BLIP3o/issues/76 ("32 H200 … For pretraining, it takes one week")
        ("Pretraining took one week on 32 H200 for a 4B model on 400B tokens; what did it cost?", 32, 168.0),
        # https://github.com/ChunyuanLI/Optimus/issues/10 ("It takes 5 days … with 8 V100 GPUs")
        ("It took 5 days to pretrain a 1B model on 8 V100 GPUs over 20B tokens; what did it cost?", 8, 120.0),
    ],
)
def test_a_finished_runs_days(question: str, count: int, hours: float) -> None:
    req = parse(question).request
    assert (req.stage, req.gpu_count, req.hours, req.deadline_days) == ("pretrain", count, hours, None)


def test_a_target_load_from_a_thread() -> None:
    # https://github.com/huggingface/text-generation-inference/issues/439 ("deploy for 10 000 users")
    res = parse(
        "We run Llama-2-13B on TGI with 2 A100 80GB for about 50 concurrent users today; we want to deploy "
        "for 500 concurrent users eventually. How many A100s?"
    )
    assert (res.request.concurrency, res.request.runtime) == (500, "TGI")
    assert ("50", "current_load") in res.unused_numbers


@pytest.mark.parametrize(
    ("question", "typed"),
    [
        # https://github.com/ROCm/legacy-rocm-build/issues/125 ("You have 4 PCIe Slots")
        (
            "My motherboard has 4 PCIe slots. How many RTX 3090 do I need to serve Llama-2-70B in 4-bit?",
            "4 pcie slots",
        ),
        ("我的主板只有 4 个 PCIe 插槽，用 3090 跑 Llama-2-70B 4bit 推理要几张", "4 个 pcie 插槽"),
    ],
)
def test_card_slots_from_a_thread(question: str, typed: str) -> None:
    res = parse(question)
    assert (res.request.gpu, res.request.gpu_count, res.request.count_asked) == ("RTX-3090", None, True)
    assert (typed, "card_slots") in res.unused_numbers
