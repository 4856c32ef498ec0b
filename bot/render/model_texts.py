"""Ledger sentences of a catalog model's own parts (s31): a vision-language release's vision tower, counted
in its weights and frozen in fine-tuning (estimator.vision). Merged into
:data:`bot.render.ledger_texts.WHY_TEXTS` through :data:`bot.render.card_texts.CARD_WHY_TEXTS` (ledger_texts
is at the module cap); ``tests/test_i18n.py`` checks each has a Chinese translation."""

from bot.render.i18n import N_

MODEL_WHY_TEXTS: dict[str, str] = {
    "vision_tower_served": N_(
        "%(model)s is a vision-language model: its vision encoder and projector "
        "(%(vision_params)s parameters, %(depth)s blocks) are counted in the weights, not in the bytes each "
        "token reads (they run on image tokens only, and images are not read here); image tokens count in "
        "the context you give"
    ),
    "vision_tower_images": N_(
        "%(model)s is a vision-language model: its vision encoder and projector "
        "(%(vision_params)s parameters, %(depth)s blocks) are counted in the weights, not in the bytes each "
        "token reads (they run on the images only); each request's images are in its prompt's tokens"
    ),
    "vllm_workspace_vision": N_(
        "what vLLM's start-up profiling keeps besides weights and KV cache: %(model)s is a vision-language "
        "model, so vLLM V1 first runs its vision encoder on %(mm_items)s image(s) of the largest size its "
        "processor allows (%(mm_item_tokens)s tokens, %(mm_patches)s patches each; lower max_pixels in "
        "--mm-processor-kwargs to shrink it), %(encoder_bytes)s at the encoder's peak, and keeps their "
        "outputs cached through one forward pass of max_num_batched_tokens and the sampler's logits; plus "
        "non-torch memory; the CUDA context and CUDA graphs sit outside gpu_memory_utilization"
    ),
    "vision_tower_frozen": N_(
        "%(model)s is a vision-language model: its vision encoder and projector "
        "(%(vision_params)s parameters, %(depth)s blocks) are counted as frozen 16-bit weights — not "
        "trained, as LLaMA-Factory (freeze_vision_tower) and ms-swift (freeze_vit) run it by default; its "
        "FLOPs are not counted (it runs on image tokens only, and images are not read here)"
    ),
    "image_tokens": N_(
        "Each sample's tokens: %(images)s × %(image)s image → %(per_image)s visual tokens each "
        "(the "
        "processor resizes it to %(resized)s, multiples of 28 px: 14-px patches merged 2 × 2 into one token, "
        "plus the vision start and end tokens) + %(length)s text tokens = %(tokens_per_sample)s. The frozen "
        "vision tower (%(vision_params)s parameters) runs forward on the patches, ≈ %(flops)s FLOPs per "
        "sample, not counted in C = 6ND"
    ),
    "image_tokens_fixed": N_(
        "Each sample's tokens: %(images)s × %(per_image)s visual tokens (every image resized to the tower's "
        "one resolution: LLaVA-1.5's CLIP ViT-L/14 at 336 px, 24 × 24 patches) + %(length)s text tokens = "
        "%(tokens_per_sample)s. The frozen vision tower (%(vision_params)s parameters) runs forward on them, "
        "≈ %(flops)s FLOPs per sample, not counted in C = 6ND"
    ),
    "image_tokens_stated": N_(
        "Each sample's tokens: %(images)s images × %(per_image)s tokens an image, your count, + %(length)s "
        "text tokens = %(tokens_per_sample)s"
    ),
    "image_tokens_request": N_(
        "Each request's prompt: %(images)s images × %(per_image)s visual tokens + %(length)s text tokens = "
        "%(prompt_tokens)s tokens, the images counted in the context and the prefill"
    ),
}
"""Reason key → the ledger sentence (%-parameters from the assumption: estimator.vision.note)."""
