"""s50 verdict: a training fit that holds only with gradient checkpointing the user's stack leaves off is
"borderline" ('recompute_unstated', estimator.recompute_default): transformers'
``TrainingArguments.gradient_checkpointing`` defaults to False; LLaMA-Factory, Unsloth, verl and ms-swift turn
it on, QLoRA through PEFT's ``prepare_model_for_kbit_training(use_gradient_checkpointing=True)`` too."""

from __future__ import annotations

import json

import pytest

from bot.cli import ask
from estimator.recompute_default import DEFAULT_OFF_TOOLS


def _report(text: str) -> dict:
    return json.loads(ask(text, None, "json")[0])["report"]


@pytest.mark.parametrize(
    "text",
    [
        "I fine-tune Llama-2-7B with LoRA on one RTX 4090 at batch size 1, seq 2048. Does it fit?",
        "用一张 4090 做 Llama-2-7B 的 LoRA 微调，batch 1，长度 2048，够吗？",
        "LoRA fine-tune Llama-2-7B with axolotl on one RTX 4090, batch 1, sequence length 2048: enough?",
        "用 axolotl 在一张 4090 上 LoRA 微调 Llama-2-7B，batch 1，序列长度 2048，显存够吗？",
    ],
)
def test_fit_only_with_unstated_checkpointing_is_borderline(text):
    report = _report(text)
    assert report["memory"]["plan"]["recompute"] == "full"
    assert (report["feasible"], report["feasible_reason"]) == ("borderline", "recompute_unstated")
    # the same layout keeping its activations: 28.8 GiB on a 24 GiB card (the recompute_chosen note)
    note = next(w for w in report["warnings"] if w["code"] == "recompute_chosen")
    assert note["params"]["without_gib"] > 24


@pytest.mark.parametrize(
    "text",
    [
        # the user turns it on
        "LoRA fine-tune Llama-2-7B on one RTX 4090 with gradient checkpointing, seq 2048, batch 1: enough?",
        "开了梯度检查点，用一张 4090 LoRA 微调 Llama-2-7B，batch 1，长度 2048，够吗？",
        # a tool that turns it on by default
        "LoRA fine-tune Llama-2-7B with LLaMA-Factory on one RTX 4090, batch 1, seq 2048: enough?",
        "用 LLaMA-Factory 在一张 4090 上 LoRA 微调 Llama-2-7B，batch 1，长度 2048，够吗？",
        # enough memory without it: no recompute needed
        "LoRA fine-tune Llama-2-7B on one A100 80GB at batch 1, seq 2048: enough?",
        "一张 A100 80G LoRA 微调 Llama-2-7B，batch 1，长度 2048，够吗？",
    ],
)
def test_stated_or_default_on_checkpointing_keeps_fits(text):
    report = _report(text)
    assert report["feasible"] == "yes"
    assert report["feasible_reason"] != "recompute_unstated"


def test_qlora_with_no_tool_keeps_peft_default():
    """PEFT's prepare_model_for_kbit_training turns gradient checkpointing on: never 'recompute_unstated'."""
    for text in (
        "QLoRA fine-tune Llama-2-13B on one RTX 4090, seq 2048, batch 1: enough?",
        "一张 4090 QLoRA 微调 Llama-2-13B，长度 2048，batch 1，够吗？",
    ):
        assert _report(text)["feasible_reason"] != "recompute_unstated"


def test_default_off_tools_are_named_tools():
    from estimator.training_tools import TRAINING_TOOL_LIMITS

    assert set(TRAINING_TOOL_LIMITS) >= DEFAULT_OFF_TOOLS
    assert not any(TRAINING_TOOL_LIMITS[t].default_recompute for t in DEFAULT_OFF_TOOLS)


def test_wording_in_both_languages():
    en = ask(
        "I fine-tune Llama-2-7B with LoRA on one RTX 4090 at batch size 1, seq 2048. Does it fit?",
        None,
        "text",
    )
    zh = ask("用一张 4090 做 Llama-2-7B 的 LoRA 微调，batch 1，长度 2048，够吗？", None, "text")
    assert "set gradient_checkpointing=True" in en[0] and "Borderline" in en[0]
    assert "梯度检查点" in zh[0] and "请设置 gradient_checkpointing=True" in zh[0]
