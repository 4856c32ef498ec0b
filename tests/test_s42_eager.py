"""Session 42, part eager: training with eager attention, a stated setting that was listed as not used
(estimator.attention_scores, bot.parse.attention_impl, the config conversion attn_impl).

Eager attention keeps each layer's micro-batch × heads × s × s scores for the backward pass:
transformers' ``eager_attention_forward`` saves the fp32 softmax output (4 B) and its 16-bit copy that the
P·V matmul saves (2 B) — 6 B a score; Megatron-LM's fused softmax with attention dropout keeps Korthikanti
et al. 2022 Table 2's 5·a·s/h term — 5 B a score. Model shapes from each release's config.json: Llama-2-7B
32 layers × 32 heads, hidden 4096; gpt2-large 36 layers × 20 heads, hidden 1280.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

GIB = 2**30


def _parse(question: str):
    from bot.parse import parse

    return parse(question)


def _ask(question: str, fmt: str = "text") -> str:
    from bot.cli import ask

    return ask(question, None, fmt)[0]


# 1. the setting read, in words, keys and configs ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "impl"),
    [
        (
            "Full fine-tune Llama-2-7B on 8x A100 80GB, seq len 4096, micro batch 4, flash attn off, eager",
            "eager",
        ),
        (
            "Full fine-tune Llama-2-7B on 8x A100 80GB, seq 4096, transformers 4.33, without flash attention",
            "eager",
        ),
        (
            "Full fine-tune Llama-2-7B on 8 A100 with Megatron-LM, seq 4096, flash attention is disabled",
            "eager",
        ),
        ('LoRA Gemma-2-9B on one A100 80GB, seq 4096, attn_implementation="eager"', "eager"),
        ("LoRA Llama-2-7B on one A100 80GB, seq 4096, using eager attention", "eager"),
        ("LoRA Llama-2-7B on one A100, seq 4096, attn_implementation='sdpa'", "sdpa"),
        ("全参微调 Llama-2-7B，8 张 A100 80GB，序列长度 4096，没开 flash attention，用 eager", "eager"),
        (
            "全参微调 Llama-2-7B，8 张 A100 80GB，序列长度 4096，transformers 4.34，flash attention 关了",
            "eager",
        ),
        ("Megatron-LM 全参微调 Llama-2-7B，8 张 A100，序列 4096，不用 flash-attn", "eager"),
        ("用 eager attention 训练 Gemma-2-9B LoRA，一张 A100 80GB，序列 4096", "eager"),
        (
            "llamafactory-cli train --model_name_or_path meta-llama/Llama-2-7b-hf --stage sft "
            "--finetuning_type lora --flash_attn disabled --cutoff_len 4096 on 2 A100",
            "eager",
        ),
        (
            "llamafactory-cli train --model_name_or_path meta-llama/Llama-2-7b-hf --stage sft "
            "--finetuning_type lora --flash_attn fa2 --cutoff_len 4096 on 2 A100",
            "flash_attention_2",
        ),
        ("axolotl qlora Llama-2-7B on a 4090, sequence_len 4096, eager_attention: true", "eager"),
        ("axolotl qlora Llama-2-7B 一张 4090，sequence_len 4096，sdp_attention: true", "sdpa"),
    ],
)
def test_attention_read(text: str, impl: str) -> None:
    assert _parse(text).request.attention_implementation == impl


@pytest.mark.parametrize(
    "text",
    [
        "Full fine-tune Llama-2-7B on 8x A100 80GB, seq 4096, flash attention 2 installed",
        "全参微调 Llama-2-7B，8 张 A100，装了 flash attention 2",
        "Fine-tune Llama-2-7B LoRA on a 4090 with PyTorch eager mode, seq 2048",
        "Llama-2-7B LoRA 微调，一张 4090，PyTorch eager 模式，序列 2048",
        "axolotl qlora Llama-2-7B on a 4090, sequence_len 4096, eager_attention: false",
        "Fine-tune Llama-2-7B LoRA on a 4090, seq 2048, with flash attention 2",
        "Llama-2-7B LoRA 微调，一张 4090，开了 flash attention",
    ],
)
def test_not_eager(text: str) -> None:
    """Must not misread: FA2 installed or on, PyTorch's eager mode (no attention named), axolotl's false."""
    assert _parse(text).request.attention_implementation in (None, "sdpa", "flash_attention_2")


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama-3-8B GGUF with llama.cpp -fa off on a 4090, 32k context",
        "用 llama.cpp 部署 Llama-3-8B GGUF，一张 4090，32k 上下文，不开 flash attention",
    ],
)
def test_llama_cpp_fa_off_stays_the_serving_setting(text: str) -> None:
    req = _parse(text).request
    assert req.flash_attention is False and req.attention_implementation is None


@pytest.mark.parametrize(
    "text",
    [
        "GRPO Qwen2.5-7B with TRL on 8 H100, vLLM rollouts with --enforce-eager, seq 4096",
        "用 TRL 做 GRPO，Qwen2.5-7B，8 张 H100，vLLM 推理开了 enforce_eager=True，序列 4096",
    ],
)
def test_vllm_enforce_eager_is_not_attention(text: str) -> None:
    """vLLM's --enforce-eager turns CUDA graphs off; it says nothing of the training attention."""
    assert _parse(text).request.attention_implementation is None


_LF_YAML = """model_name_or_path: meta-llama/Llama-2-7b-hf
stage: sft
finetuning_type: full
deepspeed: examples/deepspeed/ds_z3_config.json
cutoff_len: 4096
per_device_train_batch_size: 2
flash_attn: {value}
bf16: true
"""


@pytest.mark.parametrize(
    ("value", "impl"), [("disabled", "eager"), ("sdpa", "sdpa"), ("fa2", "flash_attention_2"), ("auto", None)]
)
def test_llamafactory_yaml_flash_attn(value: str, impl: str | None) -> None:
    """LLaMA-Factory configure_attn_implementation: disabled → eager, sdpa, fa2; auto (default) sets none."""
    text = "LLaMA-Factory on 8x A100 40GB, will it fit?\n" + _LF_YAML.format(value=value)
    out = json.loads(_ask(text, "json"))
    assert out["request"]["attention_implementation"] == impl
    if value == "auto":  # named: the tool's own choice, not a setting
        assert any("flash_attn" in item["text"] for item in out["interpretation"]["ignored"])


# 2. the sizing: the scores' bytes from the model's config ---------------------------------------------


def _job(recompute: str, eager: bool, megatron: bool = False):
    from estimator.catalog import model
    from estimator.setup import Layout, TrainingSetup

    spec = model("Llama-2-7B") if not megatron else model("GPT-2-774M")
    seq, mb = (4096, 4) if not megatron else (1024, 4)
    setup = TrainingSetup(seq_len=seq, micro_batch=mb, eager_attention=eager, megatron_layers=megatron)
    plan = Layout(1, 1, 8, 3, recompute, mb, False, 1)
    return spec, setup, plan


def test_scores_kept_every_layer_without_recompute() -> None:
    """Llama-2-7B, s 4096, micro-batch 4, TP 1: 6 B × 4 × 32 heads × 4096² = 12 GiB a layer, × 32 layers."""
    from estimator.transients import kept_activations

    spec, setup, plan = _job("none", True)
    assert (spec.heads, spec.layers) == (32, 32)
    base = kept_activations(spec, replace(setup, eager_attention=False), plan)
    eager = kept_activations(spec, setup, plan)
    per_layer = 6 * 4 * 32 * 4096**2
    assert per_layer == 12 * GIB
    assert eager.likely - base.likely == pytest.approx(32 * per_layer)
    assert eager.low - base.low == pytest.approx(32 * per_layer)


def test_full_recompute_keeps_one_layer_of_scores() -> None:
    """Gradient checkpointing rebuilds one layer's scores during its backward: 12 GiB in the workspace, the
    kept layer inputs unchanged."""
    from estimator.transients import kept_activations, layer_workspace

    spec, setup, plan = _job("full", True)
    plain = replace(setup, eager_attention=False)
    assert kept_activations(spec, setup, plan) == kept_activations(spec, plain, plan)
    diff = layer_workspace(spec, 6.7e9, setup, plan).likely - layer_workspace(spec, 6.7e9, plain, plan).likely
    assert diff == pytest.approx(12 * GIB)


def test_megatron_scores_are_korthikanti_five_bytes() -> None:
    """gpt2-large (20 heads, 36 layers) on Megatron-LM, s 1024, micro-batch 4: 5·a·s²·b = 400 MiB a layer."""
    from estimator.attention_scores import kept_score_bytes

    spec, setup, plan = _job("none", True, megatron=True)
    assert (spec.heads, spec.layers) == (20, 36)
    assert kept_score_bytes(spec, setup, plan) == 36 * 5 * 20 * 1024**2 * 4 == 36 * 400 * 2**20


def test_no_scores_unless_stated() -> None:
    from estimator.attention_scores import live_score_bytes

    spec, setup, plan = _job("none", False)
    assert live_score_bytes(spec, setup, plan) == 0.0


# 3. the reply names it, both languages, and the JSON carries it -------------------------------------------

_EN = (
    "Full fine-tune Llama-2-7B on 8x A100 80GB, seq len 4096, micro batch 4, no gradient checkpointing, "
    "flash attention off, attn_implementation eager. How much memory per GPU?"
)
_ZH = (
    "全参微调 Llama-2-7B，8 张 A100 80GB，序列长度 4096，micro batch 4，不开梯度检查点，"
    "没开 flash attention，eager 模式的 attention，每卡显存多少？"
)


def test_reply_names_the_scores_en() -> None:
    # at the layout the answer shows (TP 8): 6 × 4 × 32/8 × 4096² × 32 layers = 48 GiB
    out = json.loads(_ask(_EN, "json"))
    memory = out["report"]["memory"]
    tp = memory["plan"]["tp"]
    assert memory["attention_scores_bytes"] == pytest.approx(6 * 4 * 32 / tp * 4096**2 * 32)
    assert out["request"]["attention_implementation"] == "eager"
    assert not any("flash" in i["text"] for i in out["interpretation"]["ignored"])
    head = _ask(_EN).split("\n")[0]
    assert (
        f"eager attention: +{memory['attention_scores_bytes'] / GIB:.0f} GiB of attention scores per GPU"
        in head
    )


def test_reply_names_the_scores_zh() -> None:
    head = _ask(_ZH).split("\n")[0]
    assert "eager 注意力：每卡多 48 GiB 注意力分数" in head


def test_unstated_answer_unchanged() -> None:
    """Without the setting the same question has no scores and no echo."""
    q = _EN.replace(", flash attention off, attn_implementation eager", "")
    out = json.loads(_ask(q, "json"))
    assert out["request"]["attention_implementation"] is None
    assert out["report"]["memory"]["attention_scores_bytes"] is None
    assert "eager" not in _ask(q).split("\n")[0]


def test_sdpa_offered_first_when_eager_is_borderline() -> None:
    """The stated eager attention is sized first; the change that removes its scores (no time cost) is
    offered before micro-batch 1 or gradient checkpointing, in both languages."""
    out = json.loads(_ask(_EN, "json"))
    changes = out["report"]["memory"]["fit_change"]
    assert changes and changes[0]["setting"] == "attention_implementation" and changes[0]["value"] == "sdpa"
    assert "SDPA or FlashAttention-2 instead of eager attention" in _ask(_EN)
    assert "改用 SDPA 或 FlashAttention-2，不用 eager 注意力" in _ask(_ZH)


def test_megatron_v100_without_flash_attention_does_not_fit() -> None:
    """NVIDIA/Megatron-LM#525 (en-120's thread) with the run's own settings: GPT-2 large, micro-batch 4,
    1,024 tokens, no recompute, no flash attention on a V100-32GB — it ran out of memory (28.82 GiB
    allocated). The scores, 36 layers × 5 B × 20 heads × 1024² × 4 = 14.1 GiB, make it not fit."""
    q = (
        "I'm training gpt2 large (774M) with Megatron-LM on a single V100-32GB, micro batch size 4, "
        "seq length 1024, no activation recomputation. No flash attention since V100 doesn't support it. "
        "How much memory?"
    )
    out = json.loads(_ask(q, "json"))
    memory = out["report"]["memory"]
    assert memory["attention_scores_bytes"] == 36 * 5 * 20 * 1024**2 * 4
    assert memory["fits_requested"] is False
    assert "eager attention: +14.1 GiB of attention scores per GPU" in _ask(q).split("\n")[0]
