"""Fixes on the user's own hardware come first (trial s19b #2): a change that fits on the user's stated
cards before one that needs fewer or other cards, a sharding change before CPU offload, and no 'choose a
card with more memory' while changed settings fit on the user's own card."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.renderer import render
from estimator.fit_sanity import fix_rank

OOM_ZH = "8卡A100 40G 全参 14B ZeRO-2 OOM 了，bf16，seq 4096，micro batch 1，开了梯度检查点，怎么办？"
OOM_EN = (
    "Full fine-tune of a 14B model on 8x A100 40GB with ZeRO-2 OOMs: bf16, seq 4096, micro batch 1, "
    "gradient checkpointing on. What should I do?"
)
YAML = """model_name_or_path: Qwen/Qwen2.5-7B-Instruct
stage: sft
finetuning_type: lora
lora_rank: 16
lora_target: all
cutoff_len: 2048
per_device_train_batch_size: 2
gradient_accumulation_steps: 8
bf16: true

"""
YAML_ZH = YAML + "这是现在的配置，cutoff_len 是 2048，我想改成 8192 跑长文本，单张 3090 24G 还放得下吗？"
YAML_EN = (
    YAML
    + "This is my config; I want cutoff_len 8192 instead of 2048. Does it still fit on one RTX 3090 24GB?"
)


@pytest.mark.parametrize(
    ("question", "head", "first", "second", "combo"),
    [
        (
            OOM_ZH,
            "；改用 ZeRO-3：8 张",
            "• 改用 ZeRO-3：8 张，每卡约 34.0 GiB",
            "• 开启 CPU offload：4 张",
            "• 在你的 8 张卡上",
        ),
        (
            OOM_EN,
            "; with ZeRO-3: 8 GPUs",
            "• With ZeRO-3: 8 GPUs, ≈ 34.0 GiB",
            "• With CPU offload: 4 GPUs",
            "• On your 8 GPUs",
        ),
    ],
)
def test_zero3_on_the_users_eight_cards_leads(
    question: str, head: str, first: str, second: str, combo: str
) -> None:
    text = render(answer(question), "text")
    assert text.split("\n")[0].endswith(head)  # was 'CPU offload: 4' (fewest GPUs), ZeRO-3 fits the user's 8
    lines = [ln for ln in text.split("\n") if ln.startswith("• ")]
    at = lines.index(next(ln for ln in lines if ln.startswith(first)))
    assert lines[at + 1].startswith(second)  # one change before the three-change line, offload after ZeRO-3
    assert lines[at + 2].startswith(combo)


@pytest.mark.parametrize(
    ("question", "warning", "bigger"),
    [
        (
            YAML_ZH,
            "⚠️ 按这些设置，这种卡多少张都放不下（最多查到 100,000 张）；下面的改法在你自己的卡上放得下。",
            "请换显存更大的卡",
        ),
        (
            YAML_EN,
            "⚠️ With these settings no number of these GPUs fits (up to 100,000); the changes below fit",
            "more memory",
        ),
    ],
)
def test_no_bigger_card_while_the_users_card_fits_with_changes(
    question: str, warning: str, bigger: str
) -> None:
    text = render(answer(question), "text")
    assert warning in text
    assert bigger not in text
    assert "QLoRA" in text.split(warning[:12], 1)[1]  # the same-card fix (micro-batch 1, Liger, QLoRA) below


def test_bigger_card_still_said_when_nothing_fits_the_users_card() -> None:
    text = render(answer("LoRA fine-tune Llama-3.1-405B on 1 RTX 3090 24GB, seq 8192, LLaMA-Factory"), "text")
    assert (
        "⚠️ No layout fits within 100,000 GPUs of this type, with LoRA already: choose a card with more"
        in text
    )
    assert "On your 1 GPU" not in text


def test_fix_rank_orders_own_cards_then_more_then_none() -> None:
    assert fix_rank("zero3", 8, 8) < fix_rank("cpu_offload", 4, 8)  # offload after a sharding change
    assert fix_rank("cpu_offload", 4, 8) < fix_rank("lora", 1, 8)  # the same job before another method
    assert fix_rank("lora", 1, 8) < fix_rank("adamw8bit", 16, 8)  # on the user's cards before more cards
    assert fix_rank("adamw8bit", 16, 8) < fix_rank("zero3", None, 8)  # fits nowhere: last
