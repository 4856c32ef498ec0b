"""Session 42, part eagerfix: prose 'flash attention off' is eager attention only where eager is what runs.

transformers >= 4.36 loads a model with no ``attn_implementation`` as SDPA (modeling_utils.py
``PreTrainedModel._autoset_attn_implementation``, later ``_check_and_adjust_attn_implementation``),
and so does every trainer built on it (HF Trainer, TRL, LLaMA-Factory's ``auto``, axolotl, ms-swift,
Unsloth): PyTorch's flash / memory-efficient kernels keep no s×s scores. So 'without flash attention'
alone adds nothing and is named with that reason. It is eager (each layer's b × heads × s² scores:
6 B a score in transformers' ``eager_attention_forward``, 5 B in Megatron-LM, Korthikanti et al. 2022
Table 2) where the message says eager, names a Megatron-family tool or a transformers release before
4.36, or sets LLaMA-Factory's ``flash_attn: disabled`` (configure_attn_implementation → eager).
Llama-2-7B: 32 layers × 32 heads (config.json).
"""

from __future__ import annotations

import json

import pytest


def _parse(question: str):
    from bot.parse import parse

    return parse(question)


def _ask(question: str, fmt: str = "text") -> str:
    from bot.cli import ask

    return ask(question, None, fmt)[0]


def _ignored(out: dict) -> list[str]:
    return [i["text"] for i in out["interpretation"]["ignored"]]


@pytest.mark.parametrize(
    "text",
    [
        "Full fine-tune Llama-2-7B on 8 A100, seq 4096, flash attention off, attn_implementation eager",
        "Full fine-tune Llama-2-7B on 8 A100, seq 4096, without flash attention (eager attention)",
        "Full fine-tune Llama-2-7B on 8 A100 with transformers==4.35.2, seq 4096, flash attention off",
        "Pretrain Llama-2-7B with Megatron-LM on 8 A100, seq 4096, no flash attention",
        "Train Llama-2-7B with MindSpeed on 8 A100, seq 4096, flash attention disabled",
        "Pretrain a 7B GPT with NeMo on 8 A100, seq 4096, flash attention off",
        "全参微调 Llama-2-7B，8 张 A100，序列 4096，没开 flash attention，用的 eager 模式的 attention",
        "全参微调 Llama-2-7B，8 张 A100，序列 4096，transformers 版本 4.31，flash attention 关了",
        "用 Megatron-LM 预训练 Llama-2-7B，8 张 A100，序列 4096，不开 flash attention",
        "用 MindSpeed-LLM 训练 Llama-2-7B，8 张 910B，序列 4096，flash attention 关了",
        "llamafactory-cli train --model_name_or_path meta-llama/Llama-2-7b-hf --stage sft "
        "--finetuning_type lora --flash_attn disabled --cutoff_len 4096 on 2 A100",
    ],
)
def test_eager_where_eager_runs(text: str) -> None:
    assert _parse(text).request.attention_implementation == "eager"


@pytest.mark.parametrize(
    "text",
    [
        "Full fine-tune Llama-2-7B on 8 A100, seq 4096, flash attention off",
        "Full fine-tune Llama-2-7B on 8 A100, seq 4096, without flash attention",
        "Full fine-tune Llama-2-7B on 8 A100 with transformers 4.36, seq 4096, flash attention off",
        "Full fine-tune Llama-2-7B on 8 A100 with transformers 4.40.1, seq 4096, no flash attention",
        "GRPO Qwen2.5-7B with TRL on 8 H100, vLLM --enforce-eager, seq 4096, without flash attention",
        "Full SFT Mistral-Nemo-12B on 8 H100, seq 4096, without flash attention",
        "SFT Qwen3-30B-A3B on 8 H100, transformers 5.0, experts_implementation: eager, no flash attention",
        "全参微调 Llama-2-7B，8 张 A100，序列 4096，没开 flash attention",
        "全参微调 Llama-2-7B，8 张 A100，序列 4096，transformers 4.45，flash attention 关了",
        "用 TRL 做 GRPO，Qwen2.5-7B，8 张 H100，vLLM 开了 enforce_eager，不开 flash attention",
        "全参微调 Mistral-Nemo-12B，8 张 H100，序列 4096，没开 flash attention",
    ],
)
def test_sdpa_where_transformers_runs(text: str) -> None:
    """Must not misread: no eager cue (vLLM's enforce-eager, Mistral-Nemo the model, transformers ≥ 4.36)."""
    parsed = _parse(text)
    assert parsed.request.attention_implementation is None
    assert ("flash_attention: off", "sdpa_default") in parsed.unused_numbers


_EN = "Full fine-tune Llama-2-7B on 8x A100 80GB, seq len 4096, micro batch 4, no gradient checkpointing, {}."
_ZH = "全参微调 Llama-2-7B，8 张 A100 80GB，序列长度 4096，micro batch 4，不开梯度检查点，{}。"


@pytest.mark.parametrize(
    ("template", "plain", "eager"),
    [
        (_EN, "flash attention off", "flash attention off, eager attention"),
        (_ZH, "没开 flash attention", "没开 flash attention，eager 模式的 attention"),
    ],
)
def test_scores_only_where_eager_runs(template: str, plain: str, eager: str) -> None:
    """The same run: SDPA adds no scores; eager adds 6 B × micro-batch 4 × 32/TP heads × 4096² × 32 layers."""
    sdpa = json.loads(_ask(template.format(plain), "json"))
    assert sdpa["report"]["memory"]["attention_scores_bytes"] is None
    assert "flash_attention: off" in _ignored(sdpa)
    out = json.loads(_ask(template.format(eager), "json"))
    memory = out["report"]["memory"]
    assert memory["attention_scores_bytes"] == pytest.approx(6 * 4 * 32 / memory["plan"]["tp"] * 4096**2 * 32)
    assert "flash_attention: off" not in _ignored(out)


def test_reply_names_the_sdpa_reason_en() -> None:
    text = _ask(_EN.format("without flash attention"))
    assert "without FlashAttention, transformers uses SDPA by default: no attention scores kept" in text
    assert "eager attention: +" not in text


def test_reply_names_the_sdpa_reason_zh() -> None:
    text = _ask(_ZH.format("没开 flash attention"))
    assert "不开 FlashAttention 时，transformers 默认用 SDPA：不保存注意力分数" in text
    assert "eager 注意力：" not in text
