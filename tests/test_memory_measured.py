"""Memory verdicts against measurements published by other projects (issue 14).

The handed rows are ``tests/data/peer_rows.json`` (a copy of ``../shared/corpus/peer_rows.json``);
the others were found for this issue and are cited where they are used. Each test states the setup
the source ran — the stack's settings are inputs of the memory model, never constants fitted to the
rows — and the tolerance it allows, with the reason.

Units: the Qwen and ChatGLM READMEs print "G"/"GB". Qwen's figures are decimal GB: its Qwen-7B
full-parameter row on two A100-80G reads 162.0 G, 81.0 per card, which is more than 80 GiB cannot
be but 81 GB (< 85.9 GB) can. vLLM logs GiB.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from estimator import catalog, estimate
from estimator.architecture import shape_for_size
from estimator.inference import BITS_PER_WEIGHT
from estimator.memory import breakdown
from estimator.model_states import QUANTIZED_BASE_BITS
from estimator.models import Method, Plan, Precision, SizingRequest, Stage
from estimator.plan import training_memory
from estimator.runtimes import Load, Vllm
from estimator.serving_layout import kv_capacity_tokens
from estimator.setup import TrainingSetup

GIB = 2**30
ROWS = json.loads((Path(__file__).parent / "data" / "peer_rows.json").read_text())
A100 = catalog.gpu("A100-SXM4-80GB")

MEDIAN_ERROR = 1.10
"""Done-when of issue 14: the median of max(predicted/measured, measured/predicted) over the handed
measured rows."""


# -- the Qwen README's fine-tuning rows (QwenLM/Qwen README, "Profiling of Memory and Speed")


def qwen_setup(row: dict) -> TrainingSetup:
    """The setup each row ran (QwenLM/Qwen@2df8e8a: README "single A100-SXM4-80G … batch size of 1 …
    gradient checkpointing"; finetune.py LoRA r 64 on all linear layers, dropout 0.05):

    - LoRA: finetune_lora_single_gpu.sh — Hugging Face Trainer, bf16 autocast, no DeepSpeed;
    - Q-LoRA: finetune_qlora_single_gpu.sh — DeepSpeed ZeRO-2 in fp16 on the GPTQ Int4 checkpoint
      (group 128); Qwen-v1's remote code computes the loss in the model's 16-bit dtype;
    - full: finetune_ds.sh — DeepSpeed ZeRO-3 in bf16, the same 16-bit loss.
    """
    common = {"seq_len": row["seq"], "micro_batch": 1, "recompute": "full"}
    if row["method"] == "lora":
        return TrainingSetup(method=Method.lora, lora_rank=64, lora_dropout=0.05, **common)
    if row["method"] == "qlora":
        return TrainingSetup(
            method=Method.qlora,
            lora_rank=64,
            lora_dropout=0.05,
            zero_stage=2,
            fp32_loss=False,
            base_bits=BITS_PER_WEIGHT[Precision.int4],
            **common,
        )
    return TrainingSetup(method=Method.full, zero_stage=3, fp32_loss=False, **common)


def qwen_memory(row: dict):
    spec = catalog.model(row["model"])
    return training_memory(
        spec, spec.params_total, A100, qwen_setup(row), requested_gpus=1, with_alternatives=False
    )


def _error(predicted: float, measured: float) -> float:
    return max(predicted / measured, measured / predicted)


QWEN_ROWS = ROWS["qwen_v1_finetune"]["rows"]


@pytest.mark.parametrize("row", QWEN_ROWS, ids=lambda r: f"{r['model']}-{r['method']}-{r['seq']}")
def test_qwen_finetune_row_inside_the_band(row):
    """Tolerance: the reported band itself (low = tensors only, as PyTorch counts allocated memory;
    high = both peaks of the step added, + 15 % fragmentation + the CUDA context), and the likely figure
    within ×1.25 — the Qwen-1.8B full-parameter rows sit 8–12 GB above the model's tensors, which no
    ZeRO-3 buffer we can source explains (flagged, not fitted)."""
    mem = qwen_memory(row)
    measured = row["g"] * 1e9
    assert mem.fits_requested and mem.plan.recompute == "full"
    assert mem.per_gpu_bytes_low <= measured <= mem.per_gpu_bytes_high
    assert _error(mem.per_gpu_bytes, measured) <= 1.25


def test_qwen_finetune_rows_median_error():
    errors = [_error(qwen_memory(r).per_gpu_bytes, r["g"] * 1e9) for r in QWEN_ROWS]
    assert statistics.median(errors) <= MEDIAN_ERROR


def test_qwen_lora_slope_is_the_fp32_loss():
    """Per token, the LoRA rows grow by the fp32 loss's 12 bytes × 151,936 vocabulary entries + the layer
    inputs (2·h·L): 1.9 MB for Qwen-1.8B. Measured from 256 to 8,192 tokens: (21.8 − 6.7) GB / 7,936
    = 1.9 MB per token."""
    rows = {r["seq"]: r for r in QWEN_ROWS if r["model"] == "Qwen-1.8B" and r["method"] == "lora"}
    lo, hi = rows[256], rows[8192]
    predicted = (qwen_memory(hi).per_gpu_bytes - qwen_memory(lo).per_gpu_bytes) / (8192 - 256)
    measured = (hi["g"] - lo["g"]) * 1e9 / (8192 - 256)
    assert predicted == pytest.approx(measured, rel=0.15)


# -- ChatGLM2-6B inference rows (THUDM/ChatGLM2-6B README), the transformers runtime

GLM_ROWS = ROWS["chatglm2_inference"]["rows"]


def glm_required(precision: str, context: int, prompt: int) -> float:
    r = estimate(
        SizingRequest(
            stage=Stage.inference,
            model="ChatGLM2-6B",
            precision=Precision(precision),
            gpu="A100-SXM4-80GB",
            gpu_count=1,
            seq_len=context,
            prompt_tokens=prompt,
            concurrency=1,
            runtime="transformers",
        )
    )
    assert r.inference.runtime == "transformers"
    return r.inference.required_bytes


@pytest.mark.parametrize("row", GLM_ROWS, ids=lambda r: r["precision"])
def test_chatglm2_inference_rows(row):
    """ "编码 2048 长度" = one prompt of 2,048 tokens; "生成 8192 长度" = 8,192 tokens generated from a
    short prompt. transformers' memory: weights as ChatGLM ships them (int8/int4 linear layers, fp16
    embeddings and head), KV cache, one layer's activations, one dequantized matrix, the CUDA context.
    Tolerance 10 %: the FP16 rows equal the tensors alone (12.49 GB of weights + the prompt's logits),
    our figure adds the 1 GiB context nvidia-smi would show."""
    assert glm_required(row["precision"], 2048, 2048) == pytest.approx(row["encode_2048"] * 1e9, rel=0.10)
    assert glm_required(row["precision"], 8192, 1) == pytest.approx(row["generate_8192"] * 1e9, rel=0.10)


# -- vLLM start-up logs


def vllm(
    model: str, gpu: str, context: int, precision: Precision | None = None, utilization: float | None = None
):
    return estimate(
        SizingRequest(
            stage=Stage.inference,
            model=model,
            gpu=gpu,
            gpu_count=1,
            seq_len=context,
            precision=precision,
            gpu_memory_utilization=utilization,
            runtime="vLLM",
        )
    )


def test_vllm_row_kv_capacity_within_10pct():
    """peer_rows.json: Llama-3.1-70B-Instruct W8A8 on one 80 GB GPU, gpu_memory_utilization 0.98,
    max_model_len 2,048: "Loading model weights took 67.72 GiB", 1,381 blocks × 16 = 22,096 tokens,
    10.79× concurrency. Ours: V1's sampler over 1,024 rows (3.43 GiB) sets the profile."""
    [row] = ROWS["vllm_logs"]["rows"]
    r = vllm(
        "Llama-3.1-70B", "H100-SXM5-80GB", row["max_model_len"], Precision.int8, row["gpu_memory_utilization"]
    )
    assert r.inference.weights_bytes / GIB == pytest.approx(row["weights_gib"], rel=0.01)
    assert r.inference.kv_capacity_tokens == pytest.approx(row["kv_tokens"], rel=0.10)
    assert r.inference.kv_capacity_tokens // row["max_model_len"] == int(row["max_concurrency"])


@pytest.mark.parametrize(("context", "logged_tokens"), [(20_000, 1952 * 16), (29_000, 1478 * 16)])
def test_vllm_v0_profile_at_max_model_len(context, logged_tokens):
    """vllm-project/vllm#10517 (comment of 2024-12-02): Llama-3.1-8B-Instruct on one RTX 3090
    (total_gpu_memory 23.58 GiB, utilization 0.90): "# GPU blocks: 1952" at max_model_len 20,000 and
    1,478 at 29,000 — V0 profiles a whole max_model_len when chunked prefill is off. Within 10 %: the
    V0 engine (``Vllm(engine_v0=True)``, what a release before v0.8 or VLLM_USE_V1=0 runs)."""
    spec, gpu = catalog.model("Llama-3.1-8B"), catalog.gpu("RTX-3090")
    weights = vllm("Llama-3.1-8B", "RTX-3090", context).inference.weights_bytes
    v0 = Vllm(engine_v0=True)
    tokens = kv_capacity_tokens(spec, gpu, weights, 1, runtime=v0, load=Load(context))
    assert tokens == pytest.approx(logged_tokens, rel=0.10)
    assert tokens < 29_000 if context == 29_000 else tokens > 29_000  # "larger than … (23648)": refused


def test_vllm_v1_default_starts_where_v0_refused():
    """The same card and model under V1, the default engine since v0.8 (trial s26 #3): its profile is
    one 2,048-token chunk and the sampler over 256 rows (28 × 256 × 128,256 = 0.86 GiB) + 0.16 GiB,
    whatever max_model_len, so 0.9 × 23.58 GiB − 14.96 GiB of weights leaves 44,320 tokens: 29,000
    starts (V0 refused it, above); 50,000 does not, and the reply says why and what utilization 0.95
    would hold."""
    r = vllm("Llama-3.1-8B", "RTX-3090", 29_000)
    assert r.feasible in ("yes", "borderline") and r.inference.kv_capacity_tokens == 44_320
    refused = vllm("Llama-3.1-8B", "RTX-3090", 50_000)
    assert refused.feasible == "no"
    refuses = next(n for n in refused.warnings if n.code == "vllm_refuses")
    assert refuses.params == {"kv_tokens": 44_320, "max_model_len": 50_000}
    assert any(n.code == "vllm_starts_at_max_utilization" for n in refused.warnings)


def test_sglang_pool_within_10pct():
    """vllm-project/vllm#21348: Qwen3-235B-A22B-FP8 on 4 × H100 with SGLang ``--mem-fraction-static
    0.93``: "KV Cache is allocated. #tokens: 367404". Ours: 0.93 × (visible − context) − weights per GPU
    over 94 layers × 1 KV head per GPU × 128 × 2 × 2 bytes. Within 10 %."""
    r = estimate(
        SizingRequest(
            stage=Stage.inference,
            model="Qwen3-235B-A22B",
            precision=Precision.fp8,
            gpu="H100-SXM5-80GB",
            gpu_count=4,
            runtime="SGLang",
            gpu_memory_utilization=0.93,
        )
    )
    assert r.inference.runtime == "SGLang" and r.inference.tp == 4
    assert r.inference.kv_capacity_tokens == pytest.approx(367_404, rel=0.10)


def test_handed_rows_median_error():
    """Issue 14's done-when over every handed measured row: 28 Qwen fine-tuning rows, 6 ChatGLM2
    inference rows, the vLLM row's KV capacity."""
    errors = [_error(qwen_memory(r).per_gpu_bytes, r["g"] * 1e9) for r in QWEN_ROWS]
    for row in GLM_ROWS:
        errors.append(_error(glm_required(row["precision"], 2048, 2048), row["encode_2048"] * 1e9))
        errors.append(_error(glm_required(row["precision"], 8192, 1), row["generate_8192"] * 1e9))
    [row] = ROWS["vllm_logs"]["rows"]
    r = vllm("Llama-3.1-70B", "H100-SXM5-80GB", 2048, Precision.int8, 0.98)
    errors.append(_error(r.inference.kv_capacity_tokens, row["kv_tokens"]))
    assert len(errors) == 35
    assert statistics.median(errors) <= MEDIAN_ERROR


# -- LLaMA-Factory's rule of thumb (estimates, no sequence, batch or GPU stated)

LLAMAFACTORY_SETUPS = {
    "full_amp": TrainingSetup(),
    "full_pure_bf16": TrainingSetup(master_weights=False),
    "lora_16bit": TrainingSetup(method=Method.lora),
    "qlora_8bit": TrainingSetup(method=Method.qlora, base_bits=QUANTIZED_BASE_BITS[8]),
    "qlora_4bit": TrainingSetup(method=Method.qlora),
    "qlora_2bit": TrainingSetup(method=Method.qlora, base_bits=QUANTIZED_BASE_BITS[2]),
}


@pytest.mark.parametrize("row", ROWS["llamafactory_estimate"]["rows"], ids=lambda r: f"{r['params_b']}B")
def test_llamafactory_rule_of_thumb_within_2x(row):
    """A sanity band only (×2): the table states no sequence length, batch or GPU. Ours on one GPU,
    generic shape, our defaults (2,048 tokens, micro-batch 1, gradient checkpointing)."""
    n = row["params_b"] * 1e9
    spec = shape_for_size(n)
    for key, setup in LLAMAFACTORY_SETUPS.items():
        ours = sum(breakdown(spec, n, setup, Plan(recompute="full")).values()) / 1e9
        assert 0.5 <= ours / row[key] <= 2.0, key


# -- P-tuning v2 and freeze-tuning, from first principles


def test_ptuning_v2_chatglm6b_int4_published_figure_in_band():
    """THUDM/ChatGLM-6B@401bf3a ptuning/README.md: "在默认配置 quantization_bit=4、
    per_device_train_batch_size=1、gradient_accumulation_steps=16 下 … 最低只需 6.7G 显存", with
    train.sh's PRE_SEQ_LEN=128, max_source_length 64 + max_target_length 64, gradient checkpointing
    (main.py #367) and the fp32 loss of ChatGLM's code (``lm_logits.to(torch.float32)``).
    Ours: int4 linear layers + fp16 embedding (3.99 GB), the prefix 128 × 28 × 2 × 4,096 = 29.4 M
    parameters at 16 bytes (fp32 AdamW: main.py keeps ``prefix_encoder.float()``), every layer's
    input kept for a backward that runs through all layers. Tolerance: inside the band, the likely
    figure within 20 %: ChatGLM's int4 kernel also computes a weight-sized gradient for the frozen
    weights in the backward (``W8A16Linear.backward``: ``grad_weight = grad_output.t().mm(inp)``) and
    quantizes on the GPU at load, leaving cached blocks (quantization.py) — neither is counted.
    (ChatGLM2-6B's ptuning README repeats the sentence word for word; not counted as a second
    measurement.)"""
    r = estimate(
        SizingRequest(
            stage=Stage.finetune,
            method=Method.ptuning,
            model="ChatGLM-6B",
            precision=Precision.int4,
            gpu="A100-SXM4-80GB",
            gpu_count=1,
            seq_len=128,
            batch_size=1,
            prefix_tokens=128,
            recompute="full",
        )
    )
    m = r.memory
    assert m.breakdown["prefix"] == pytest.approx(16 * 128 * 28 * 2 * 4096)
    assert m.per_gpu_bytes_low <= 6.7e9 <= m.per_gpu_bytes_high
    assert m.per_gpu_bytes == pytest.approx(6.7e9, rel=0.20)


@pytest.mark.parametrize(("layers", "fits"), [(1, True), (3, False)])
def test_freeze_tuning_mistral_7b_on_a_3090(layers, fits):
    """hiyouga/LlamaFactory#2578: freeze-tuning Mistral-7B-Instruct-v0.2 on one RTX 3090 (24 GB) ran out
    of memory with the then-default trainable layers; the maintainer's answer: ``--num_layer_trainable
    1``. Qualitative (no figure published): 3 trained layers (3 × 218 M parameters at 16 bytes) do not
    fit, 1 does. Since s24 (fused AdamW step at ZeRO-0: −4 B/param likely, 3 × 218 M × 4 B = 2.4 GiB) 3
    layers are "borderline", not "no": the thread ran in 2024, when transformers' default ``adamw_torch``
    was the foreach step the high end keeps; an OOM agrees with "borderline" (tests/test_verdict_outcomes.py),
    never with "yes"."""
    r = estimate(
        SizingRequest(
            stage=Stage.finetune,
            method=Method.freeze,
            model="Mistral-7B",
            gpu="RTX-3090",
            gpu_count=1,
            seq_len=1024,
            batch_size=1,
            freeze_layers=layers,
        )
    )
    if fits:
        assert r.feasible in ("yes", "borderline")
    else:  # the band's high end (foreach's copy) is over the card's 24 GiB
        assert r.feasible in ("no", "borderline") and r.memory.per_gpu_bytes_high > 24 * 2**30


def test_freeze_tuning_keeps_every_layer_input_under_checkpointing():
    """With gradient checkpointing Hugging Face models make the embedding output require gradients
    (``enable_input_require_grads``; LLaMA-Factory's reentrant checkpointing), so all 32 layers keep
    their input; without it the backward stops at the 2 trained layers."""
    spec = catalog.model("Llama-3.1-8B")
    setup = TrainingSetup(method=Method.freeze, freeze_layers=2, seq_len=2048)
    full = breakdown(spec, spec.params_total, setup, Plan(recompute="full"))
    assert full["activations"] == pytest.approx(2 * 2048 * 4096 * 32)
    selective = breakdown(spec, spec.params_total, setup, Plan(recompute="selective"))
    assert selective["activations"] == pytest.approx(34 * 2048 * 4096 * 2)
