"""s27-fix2: recompute wording after s27-hfsel. The ``memory_tight`` note suggests activation recompute
only when the plan does not already recompute every layer (else ``memory_tight_recomputing``: shorter
sequences, a smaller micro-batch or more GPUs); the Formulas sentence for a tool that checkpoints by
default (LLaMA-Factory, Unsloth, verl: ``ToolLimits.default_recompute``) says the rule
:func:`estimator.plan.recommended` applies to it (the tool's full recompute, off where the activations fit
without it), not "no full recompute on NVLink GPUs"."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_json

TIGHT = {
    "en": (
        "Qwen2.5-72B LoRA with LLaMA-Factory on A100 80G",
        "Memory is tight (99.6% of the card) even with full recompute: shorter sequences, a smaller "
        "micro-batch or more GPUs leave headroom.",
        "Recommended size: at most 90% of the card; full recompute as LLaMA-Factory runs by default",
    ),
    "zh": (
        "用LLaMA-Factory对Qwen2.5-72B做LoRA，A100 80G",
        "显存很紧（占单卡的 99.6%），且已开全量重计算：缩短序列、减小微批次或增加卡数可以留出余量。",
        "推荐卡数：显存最多用到单卡的 90%；按 LLaMA-Factory 的默认开全量重计算",
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_recomputing_plan_is_not_told_to_recompute(lang: str) -> None:
    question, tight, rule = TIGHT[lang]
    answer = ask_json(question)
    memory = answer["report"]["memory"]
    assert memory["plan"]["recompute"] == "full" and memory["min_gpus"] == 2  # 2 × A100 80G, ZeRO-3
    notes = {n["code"]: n["params"] for n in answer["report"]["warnings"]}
    assert notes["memory_tight_recomputing"] == {"ratio": pytest.approx(0.996, abs=0.001)}
    assert "memory_tight" not in notes
    assert tight in answer["reply"]
    assert rule in answer["reply"]
    assert "no full recompute on NVLink" not in answer["reply"]


@pytest.mark.parametrize(
    ("question", "rule"),
    [
        ("Qwen2.5-7B full fine-tune with verl GRPO on H100", "full recompute as verl runs by default"),
        (
            "Qwen2.5-72B LoRA with HF Trainer on A100 80G",
            "unless keeping the activations needs no more nodes",
        ),
        ("Qwen2.5-72B LoRA on A100 80G", "no full recompute on NVLink GPUs"),
    ],
)
def test_the_formulas_say_each_tools_rule(question: str, rule: str) -> None:
    assert rule in ask_json(question)["reply"]
