"""Visual tokens of a vision-language fine-tune's images (s40 fixt #1, #2: '图片分辨率 1280x720，
每条数据一张图' was sized at the 512-token text default, the resolution dropped).

A Qwen2-VL / Qwen2.5-VL release (``[model.vision]`` with ``pixels_per_token``: 14-px patches merged 2 × 2
into one LLM token, so one token per 28 × 28 pixels) resizes each image with its processor's
``smart_resize`` before the vision tower (QwenLM/Qwen2.5-VL ``qwen-vl-utils/src/qwen_vl_utils/
vision_process.py``; the same function in transformers ``models/qwen2_vl/image_processing_qwen2_vl.py``):

- each side rounded to the nearest multiple of ``factor`` = patch_size × spatial_merge = 28;
- above ``max_pixels`` (16384 × 28 × 28 = 12,845,056, the default there and in the released
  preprocessor_config.json) both sides scaled by √(h·w / max_pixels) and floored to the factor; below
  ``min_pixels`` (4 × 28 × 28 = 3,136) scaled up and ceiled;
- tokens = h̄ · w̄ / 28², between the ``<|vision_start|>`` and ``<|vision_end|>`` tokens (2 more).

1280 × 720: 720 / 28 = 25.7 → 26 → 728, 1280 / 28 = 45.7 → 46 → 1,288; 728 · 1,288 / 784 = 1,196 tokens,
1,198 with the two markers. The tower runs on the patches before the merge (4 per token) and is frozen
(estimator.vision): a forward of ≈ 2 · N_vision FLOPs per patch, said beside C = 6·N·D, not in it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from estimator.catalog import ModelSpec
    from estimator.ledger import Ledger
    from estimator.models import SizingRequest

MIN_PIXELS = 4 * 28 * 28
"""qwen_vl_utils vision_process.py MIN_PIXELS (3,136 = 56 × 56, transformers' min_pixels default)."""
MAX_PIXELS = 16384 * 28 * 28
"""qwen_vl_utils vision_process.py MAX_PIXELS (12,845,056: the released preprocessor_config.json's)."""
MARKERS = 2
"""<|vision_start|> and <|vision_end|> around each image's pad tokens."""
SOURCE = (
    "QwenLM/Qwen2.5-VL qwen-vl-utils vision_process.py smart_resize (IMAGE_FACTOR 28, MIN_PIXELS 4·28·28, "
    "MAX_PIXELS 16384·28·28); transformers models/qwen2_vl/image_processing_qwen2_vl.py smart_resize"
)


def smart_resize(height: int, width: int, factor: int = 28) -> tuple[int, int]:
    """(height, width) the processor feeds the tower: multiples of ``factor`` within the pixel bounds."""
    h, w = max(factor, round(height / factor) * factor), max(factor, round(width / factor) * factor)
    if h * w > MAX_PIXELS:
        beta = math.sqrt(height * width / MAX_PIXELS)
        h, w = math.floor(height / beta / factor) * factor, math.floor(width / beta / factor) * factor
    elif h * w < MIN_PIXELS:
        beta = math.sqrt(MIN_PIXELS / (height * width))
        h, w = math.ceil(height * beta / factor) * factor, math.ceil(width * beta / factor) * factor
    return h, w


def with_image_tokens(req: SizingRequest, spec: ModelSpec | None, ledger: Ledger) -> SizingRequest:
    """``req`` with each sample's tokens = its text tokens + images × visual tokens, for a release whose
    tower sets the tokens by resolution; said in the ledger with the vision tower's forward FLOPs. With no
    resolution the processor reads, the user's ``tokens_per_image`` when stated (:func:`_stated_tokens`).
    ``req`` as it is for any other model (the resolution is then named as not used:
    bot.core.interpretation)."""
    v = spec.vision if spec is not None else None
    reads = bool(req.image_pixels and v is not None and v.pixels_per_token)  # the processor's count wins
    if req.tokens_per_image and req.images_per_sample and not reads:  # the user's own (s46 review B7)
        return _stated_tokens(req, req.tokens_per_image, ledger)
    if v is not None and v.tokens_per_image and req.images_per_sample:
        return _fixed_tokens(req, v.tokens_per_image, v.params, ledger)
    if not req.image_pixels or v is None or not v.pixels_per_token:
        return req
    from estimator.reasons import Why

    width, height = req.image_pixels
    factor = v.patch_size * v.spatial_merge
    h, w = smart_resize(height, width, factor)
    per_image = h * w // (factor * factor) + MARKERS
    images = req.images_per_sample or 1
    text = req.tokens_per_sample or 0.0
    total = text + images * per_image
    patches = images * h * w // (v.patch_size * v.patch_size)
    ledger.assume(
        "tokens_per_sample", total, Why.image_tokens, citation=SOURCE, images=images,
        image=f"{width}×{height}", resized=f"{w}×{h}", per_image=per_image, length=int(text),
        tokens_per_sample=int(total), vision_params=v.params, flops=2 * v.params * patches,
    )  # fmt: skip
    return req.model_copy(update={"tokens_per_sample": total})


FIXED_SOURCE = (
    "Liu et al. 2023 (Improved Baselines with Visual Instruction Tuning, LLaVA-1.5) §3: CLIP ViT-L/14 at "
    "336 px, (336 / 14)² = 24 × 24 = 576 patches, each one LLM token through the MLP projector; "
    "llava-hf/llava-1.5-*-hf config.json vision_config image_size 336, patch_size 14"
)


def _fixed_tokens(req: SizingRequest, per_image: int, vision_params: float, ledger: Ledger) -> SizingRequest:
    """``req`` with each sample's tokens = its text tokens (stated, else
    :data:`estimator.defaults.TOKENS_PER_SAMPLE`) + images × ``per_image``, for a tower that resizes
    every image to one resolution (LLaVA-1.5: 576 = (336/14)², ``[model.vision] tokens_per_image``; trial
    s43 q05_en: 600k image-text samples were sized at 512 text tokens, the 576 image tokens dropped). The
    frozen tower's forward, ≈ 2 · N_vision FLOPs per patch (one patch per token: no merge), is said, not in
    C = 6ND."""
    from estimator import defaults
    from estimator.reasons import Why

    images = req.images_per_sample or 1
    text = req.tokens_per_sample or defaults.TOKENS_PER_SAMPLE.value
    total = text + images * per_image
    ledger.assume(
        "tokens_per_sample", total, Why.image_tokens_fixed, citation=FIXED_SOURCE, images=images,
        per_image=per_image, length=int(text), tokens_per_sample=int(total), vision_params=vision_params,
        flops=2 * vision_params * images * per_image,
    )  # fmt: skip
    return req.model_copy(update={"tokens_per_sample": total})


def _stated_tokens(req: SizingRequest, per_image: int, ledger: Ledger) -> SizingRequest:
    """``req`` with each sample's tokens = its text tokens (stated, else
    :data:`estimator.defaults.TOKENS_PER_SAMPLE`) + images × ``per_image``, the user's own count of one
    image's tokens ('about 752 tokens per image'; s46 review B7: 5 images × 752 = 3,760 tokens a sample were
    sized at 512). Said in the ledger, reason image_tokens_stated."""
    from estimator import defaults
    from estimator.reasons import Why

    images = req.images_per_sample or 1
    text = req.tokens_per_sample or defaults.TOKENS_PER_SAMPLE.value
    total = text + images * per_image
    ledger.assume(
        "tokens_per_sample", total, Why.image_tokens_stated, images=images, per_image=per_image,
        length=int(text), tokens_per_sample=int(total),
    )  # fmt: skip
    return req.model_copy(update={"tokens_per_sample": total})


REQUEST_SOURCE = (
    "LLaVA-1.5: Liu et al. 2023 §3, (336 / 14)² = 576 tokens an image; Qwen2-VL/Qwen2.5-VL: qwen-vl-utils "
    "vision_process.py smart_resize, one token per 28 × 28 pixels + <|vision_start|>/<|vision_end|>"
)


def tokens_per_image(spec: ModelSpec | None, pixels: list[int] | None) -> int | None:
    """LLM tokens one image takes in ``spec``'s prompt: the tower's fixed count (LLaVA-1.5: 576), or a
    dynamic-resolution release's (Qwen2-VL/Qwen2.5-VL) ``pixels`` [width, height] after :func:`smart_resize`,
    h̄·w̄ / 28² + :data:`MARKERS`; None where it is not known (no tower, a dynamic one without a resolution)."""
    v = spec.vision if spec is not None else None
    if v is None:
        return None
    if v.tokens_per_image:
        return v.tokens_per_image
    if not pixels or not v.pixels_per_token:
        return None
    factor = v.patch_size * v.spatial_merge
    h, w = smart_resize(pixels[1], pixels[0], factor)
    return h * w // (factor * factor) + MARKERS


def with_request_images(req: SizingRequest, spec: ModelSpec | None, ledger: Ledger) -> SizingRequest:
    """A served request's images in its prompt (s44): ``prompt_tokens`` + images × :func:`tokens_per_image`,
    and the context (``seq_len``) by as much unless it is the engine's stated ``max_model_len``; said in the
    ledger (reason image_tokens_request). ``req`` unchanged where the tokens are not known (the images are
    then named as not counted: bot.core.unused_local.unused_request_images)."""
    per_image = tokens_per_image(spec, req.image_pixels) or req.tokens_per_image  # the user's: s46 B7
    if per_image is None or not req.images_per_request:
        return req
    from estimator.reasons import Why

    images = req.images_per_request * per_image
    text = req.prompt_tokens or 0
    prompt = text + images
    seq = req.seq_len
    if seq is not None and not (req.max_model_len and seq == req.max_model_len):
        seq += images
    ledger.assume(
        "prompt_tokens", prompt, Why.image_tokens_request, citation=REQUEST_SOURCE,
        images=req.images_per_request, per_image=per_image, length=text, prompt_tokens=prompt,
    )  # fmt: skip
    return req.model_copy(update={"prompt_tokens": prompt, "seq_len": seq})
