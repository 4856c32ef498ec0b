"""Session 47, part verdict (issue 24 items 3–4): runs that ran out of memory and still got "fits".

1. vLLM V1's start-up profiling of a vision-language model runs its vision encoder on the largest dummy
   image(s) its processor allows before the text model's dummy pass, and keeps their outputs cached through
   it (vllm/v1/worker/gpu_model_runner.py ``profile_run``; budget ``max(max_num_batched_tokens, the largest
   item)``, vllm/v1/core/encoder_cache_manager.py ``compute_mm_encoder_budget``; items
   ``MultiModalBudget.get_max_items``). Qwen2-VL / Qwen2.5-VL's processors allow max_pixels 12,845,056
   (preprocessor_config.json), 16,384 tokens and 65,536 patches of 14 px an image: the vllm maintainers'
   word in vllm-project/vllm#16570 — "vLLM V1 will profile the memory usage using the largest image
   possible", lower max_pixels to shrink it. zh10-024 (Qwen2.5-VL-7B-Instruct-AWQ under ``vllm serve`` on
   16 GB, OOM allocating the KV cache): its 128,000-token window no longer fits what is left.
2. A card named by its memory alone is named in the reply as typed ('GPU 16G'), never as the catalog card
   of that memory sized for its speed, which the substitution line names.
"""

from __future__ import annotations

import pytest

from estimator import catalog
from estimator.runtimes.vllm import (
    QWEN_VL_MAX_PIXELS,
    VLLM_NON_TORCH_BYTES,
    encoder_profile,
    vllm_profile_bytes,
)
from tests.cli_run import ask_json_in_process

QWEN25_VL_7B = "Qwen2.5-VL-7B"


def test_qwen_vl_largest_image_is_16384_tokens_of_65536_patches():
    """max_pixels 12,845,056 = 3,584² (Qwen2.5-VL-7B-Instruct preprocessor_config.json); 28 × 28 px a token
    (14-px patches merged 2 × 2)."""
    assert QWEN_VL_MAX_PIXELS == 3584**2
    spec, gpu = catalog.model(QWEN25_VL_7B), catalog.gpu("RTX-5080")
    mm = encoder_profile(spec, gpu, 1)
    assert mm is not None
    assert (mm.items, mm.item_tokens, mm.patches) == (1, 16_384, 65_536)
    # 65,536 patches × (8 × 1,280 + 6 × 3,420 + 2 B × 3 × 2 frames × 14²) — vision_config hidden 1,280,
    # intermediate 3,420 (config.json)
    assert mm.peak_bytes == 65_536 * (8 * 1280 + 6 * 3420 + 2352) == 2_170_028_032
    assert mm.output_bytes == 2 * 16_384 * 3584  # 16-bit embeddings at the text model's hidden 3,584


def test_encoder_budget_runs_more_images_only_when_the_batch_holds_them():
    """budget = max(max_num_batched_tokens, 16,384): one image at the defaults (2,048 or 8,192), two at
    --max-num-batched-tokens 40,000 (40,000 // 16,384)."""
    spec = catalog.model(QWEN25_VL_7B)
    h100 = catalog.gpu("H100-SXM5-80GB")
    assert encoder_profile(spec, h100, 1).items == 1  # type: ignore[union-attr]
    assert encoder_profile(spec, h100, 1, batched=40_000).items == 2  # type: ignore[union-attr]


def test_fixed_resolution_tower_runs_as_many_images_as_the_budget_holds():
    """LLaVA-1.5: 576 tokens an image (CLIP ViT-L/14 at 336 px, no merge): 8,192 // 576 = 14 images on an
    H100; each patch its 16-bit pixels 3 × 14² (one frame)."""
    spec = catalog.model("LLaVA-1.5-7B")
    mm = encoder_profile(spec, catalog.gpu("H100-SXM5-80GB"), 1)
    assert mm is not None and (mm.items, mm.item_tokens, mm.patches) == (14, 576, 576)
    assert mm.peak_bytes == 14 * 576 * (8 * 1024 + 6 * 4096 + 2 * 3 * 196)


def test_text_model_and_other_engines_have_no_encoder_term():
    """A text model has no encoder; the V1 profile other servers are counted with (``encoder`` off) and
    vLLM's V0 profile are unchanged."""
    text, gpu = catalog.model("Qwen2.5-7B"), catalog.gpu("RTX-5080")
    assert encoder_profile(text, gpu, 1) is None
    vl = catalog.model(QWEN25_VL_7B)
    plain = vllm_profile_bytes(vl, gpu, 1)  # the sampler's 28 × 256 rows × 152,064 + 0.16 GiB non-torch
    assert plain == 28 * 256 * 152_064 + VLLM_NON_TORCH_BYTES
    # the encoder's peak is above the text passes' plus its cached outputs (1.09 + 0.12 GB): it decides
    assert vllm_profile_bytes(vl, gpu, 1, encoder=True) == 2_170_028_032 + VLLM_NON_TORCH_BYTES
    assert vllm_profile_bytes(vl, gpu, 1, 4096, v0=True, encoder=True) == vllm_profile_bytes(
        vl, gpu, 1, 4096, v0=True
    )


@pytest.mark.parametrize(
    "question",
    [
        "vllm serve Qwen/Qwen2.5-VL-7B-Instruct-AWQ 到底需要多大显存？16G 都不够，能把它限制在 16G 以内吗？",
        "vllm serve Qwen/Qwen2.5-VL-7B-Instruct-AWQ on a 16GB GPU runs out of memory: how much does it need?",
    ],
)
def test_vl_model_at_its_own_window_no_longer_starts_on_16_gb(question):
    """zh10-024 (QwenLM/Qwen3-VL#1224): 128,000 tokens of 56 KiB no longer fit beside the 5.9 GB of int4
    weights and the encoder's 2.2 GB profile in 0.9 × 16 GiB."""
    data = ask_json_in_process(question)
    assert data["request"]["model"] == QWEN25_VL_7B
    assert data["report"]["feasible"] == "no"
    ws = next(a for a in data["assumptions"] if a["field"] == "workspace_bytes")
    assert ws["why"] == "vllm_workspace_vision"
    assert ws["params"]["mm_item_tokens"] == 16_384 and ws["params"]["mm_patches"] == 65_536
    reply = data["reply"]
    assert ("视觉编码器" in reply) if "显存" in question else ("vision encoder on 1 image(s)" in reply)


@pytest.mark.parametrize(
    "question",
    [
        "vllm serve Qwen/Qwen2.5-7B-Instruct-AWQ 到底需要多大显存？16G 都不够，能把它限制在 16G 以内吗？",
        "vllm serve Qwen/Qwen2.5-7B-Instruct-AWQ on a 16GB GPU runs out of memory: how much does it need?",
    ],
)
def test_text_model_of_the_same_size_keeps_its_fit(question):
    """Must not misread: the text Qwen2.5-7B (no encoder, a 32,768-token window) still starts on 16 GB."""
    data = ask_json_in_process(question)
    assert data["request"]["model"] == "Qwen2.5-7B"
    assert data["report"]["feasible"] == "yes"
    ws = next(a for a in data["assumptions"] if a["field"] == "workspace_bytes")
    assert ws["why"] == "vllm_workspace"


@pytest.mark.parametrize(
    "question",
    [
        "vllm serve Qwen/Qwen2.5-VL-7B-Instruct-AWQ --max-model-len 32768，16G 显存够吗？",
        "vllm serve Qwen/Qwen2.5-VL-7B-Instruct-AWQ --max-model-len 32768 on a 16GB GPU: enough?",
    ],
)
def test_vl_model_at_a_shorter_stated_length_still_fits(question):
    """Must not misread: the encoder's profile is counted, and 32,768 tokens (1.75 GiB of KV) still fit."""
    data = ask_json_in_process(question)
    assert data["report"]["feasible"] == "yes"
    ws = next(a for a in data["assumptions"] if a["field"] == "workspace_bytes")
    assert ws["why"] == "vllm_workspace_vision"


@pytest.mark.parametrize(
    ("question", "typed", "speed_card"),
    [
        ("Can I fine-tune Llama-3-8B with LoRA on my 16GB GPU?", "GPU 16G", "RTX 5080"),
        ("我的 16G 显卡能跑 Qwen2.5-7B 推理吗", "GPU 16G", "RTX 5080"),
        ("Llama-3-8B LoRA on 2 x 24GB, enough?", "GPU 24G", "RTX 4090"),
        ("两张 24G 的卡做 Llama-3-8B 的 LoRA 微调够吗", "GPU 24G", "RTX 4090"),
    ],
)
def test_memory_alone_is_named_as_typed_in_the_headline(question, typed, speed_card):
    """The headline names what was typed; the substitution line names the card whose speed times it."""
    data = ask_json_in_process(question)
    first, *under = data["reply"].splitlines()[:3]
    assert typed in first and speed_card not in first
    # s50-verdict: a 'recompute_unstated' borderline line may come first under the headline (the LoRA rows)
    assert speed_card in (under[1] if under[0].startswith("⚠️") else under[0])
    assert any(s["reason"] == "gpu_by_memory" for s in data["interpretation"]["substitutions"])


@pytest.mark.parametrize(
    ("question", "card"),
    [
        ("Llama-3-8B LoRA on 2 RTX 4090, enough?", "RTX 4090"),
        ("两张 4090 做 Llama-3-8B 的 LoRA 微调够吗", "RTX 4090"),
        ("Can I fine-tune Llama-3-8B with LoRA on 2 H800 80G?", "H800"),
    ],
)
def test_a_named_card_keeps_its_name(question, card):
    """Must not misread: a card the user typed (with or without its memory) is named as the card."""
    data = ask_json_in_process(question)
    first = data["reply"].splitlines()[0]
    assert card in first and "GPU 24G" not in first and "GPU 80G" not in first
    assert not any(s["reason"] == "gpu_by_memory" for s in data["interpretation"]["substitutions"])


@pytest.mark.parametrize(
    "question",
    [
        "vllm serve Qwen/Qwen2.5-VL-72B-Instruct --tensor-parallel-size 4 --limit-mm-per-prompt image=1 "
        "--mm_processor_kwargs '{\"max_pixels\":1048576}' on 4 A100 80GB: will it fit?",
        "用 vllm serve Qwen/Qwen2.5-VL-72B-Instruct --tensor-parallel-size 4 --limit-mm-per-prompt image=1 "
        "--mm_processor_kwargs '{\"max_pixels\":1048576}' 在 4 张 A100 80G 上部署，放得下吗？",
    ],
)
def test_the_images_profiled_are_named_as_changing_the_answer(question):
    """vllm-project/vllm#16570: max_pixels sets the image vLLM V1 profiles, so it is never 'it does not
    change the GPUs, memory or time'; the sizing keeps the processor's own 12,845,056 and says so."""
    data = ask_json_in_process(question)
    reasons = {i["text"].split(":")[0]: i["reason"] for i in data["interpretation"]["ignored"]}
    assert reasons["--mm_processor_kwargs"] == "no_field"
    assert reasons["--limit-mm-per-prompt"] == "no_field"


@pytest.mark.parametrize(
    "question",
    [
        "vllm serve Qwen/Qwen2.5-72B-Instruct --tensor-parallel-size 4 --enable-prefix-caching "
        "--served-model-name qwen on 4 A100 80GB: will it fit?",
        "用 vllm serve Qwen/Qwen2.5-72B-Instruct --tensor-parallel-size 4 --served-model-name qwen "
        "在 4 张 A100 80G 上部署，放得下吗？",
    ],
)
def test_other_serving_flags_keep_their_reasons(question):
    """Must not misread: a flag that names the served model changes nothing, as before."""
    data = ask_json_in_process(question)
    reasons = {i["text"].split(":")[0]: i["reason"] for i in data["interpretation"]["ignored"]}
    assert reasons.get("--served-model-name") == "not_sized"
