"""What the reply says of each substitution of the interpretation (split off :mod:`bot.render.understood`,
session 39): what was used in place of what was typed, by reason (bot.core.substitution_reasons). msgids
(English) marked with N_ for extraction; translated at render time.
"""

from __future__ import annotations

from bot.render.i18n import N_

SUBSTITUTION_TEXTS: dict[str, str] = {
    "gpu_by_memory": N_(
        "No card named, only “%(typed)s”: sized as a card of that memory, timed at the speed of %(used)s "
        "(the card of that memory most people mean) — name your card to size its own speed."
    ),
    "card_assumed": N_(
        "Your %(typed)s GPUs' card is not named: the verdict is for %(used)s, the card assumed here — name "
        "your card or its memory for a verdict on your own."
    ),
    "latest_release": N_(
        "Read “%(typed)s” as %(used)s: the latest release of that size — name the version to choose another."
    ),
    "vision_language_llm": N_(
        "“%(typed)s” is a vision-language model: sized as its language model, %(used)s — the vision encoder "
        "(its weights and the image tokens) is not counted."
    ),
    "model_alias": N_("Read “%(typed)s” as %(used)s parameters: the same release, known by both sizes."),
    "speech_llm": N_(
        "“%(typed)s” is a speech model: sized as its language model, %(used)s — the speech tokenizer and "
        "decoder are not counted."
    ),
    "long_context_release": N_(
        "Read “%(typed)s” as %(used)s: its long-context release has the same weights, sized at the context "
        "you give."
    ),
    "fine_tune_base": N_(
        "Sized “%(typed)s” as %(used)s: a fine-tune keeps its base model's architecture, so its memory is "
        "the base's."
    ),
    "same_architecture_release": N_(
        "Sized “%(typed)s” as %(used)s: the same architecture, so the same memory and speed."
    ),
    "speech_model_shape": N_(
        "“%(typed)s” is a speech-recognition model, not an LLM I size: only its memory and its text decoding "
        "are estimated, with a generic shape of its size (%(used)s)."
    ),
    "generic_shape": N_(
        "Sized “%(typed)s” with a generic shape of its size (%(used)s): it is not in my catalog."
    ),
    "tool_inferred": N_(
        "Read “%(typed)s” as %(used)s's setting: sized for what %(used)s can run — name your tool if it is "
        "another."
    ),
    "vague_amount": N_(
        "Read “%(typed)s” as %(used)s tokens: a rough amount, sized at its middle — give the number to size "
        "it exactly."
    ),
    "atlas_server": N_(
        "Read “%(typed)s” as %(used)s: an Atlas 800 (A2) server holds 8 Ascend 910B NPUs; sized on my "
        "catalog's 64 GB Ascend 910B — name the exact NPU if yours differs."
    ),
    "ji_ka_each": N_("Read “%(typed)s” as machines × cards per machine: %(used)s GPUs."),
    "weights_size": N_(
        "Read “%(typed)s” as the size of the model's weights: ≈ %(used)s parameters (the bytes ÷ the bytes "
        "per parameter of the format sized, 2 for bf16) — name the model or its format to size it exactly."
    ),
    "peft_as_lora": N_(
        "Read “%(typed)s” as %(used)s: the method of Hugging Face PEFT's quick-start (LoraConfig) and of "
        "most PEFT runs — name yours if it differs (IA3, prefix tuning, P-tuning)."
    ),
    "card_generation": N_(
        "Read “%(typed)s” as %(used)s: no card of that name has that generation or board form in my "
        "catalog, so the %(used)s is sized — name the exact card if you meant another."
    ),
    "rtx_6000_assumed": N_(
        "Read “%(typed)s” as the RTX 6000 Ada Generation (48 GB): the name is also the Turing Quadro RTX "
        "6000's (24 GB) — write 'Quadro RTX 6000' or '24GB' for that one, 'RTX PRO 6000' for the 96 GB "
        "Blackwell."
    ),
    "card_sku": N_(
        "Read “%(typed)s” as %(used)s: a SKU of that card, sized at its catalog speed (and your memory, if "
        "given)."
    ),
    "dgx_gpus": N_("Read “%(typed)s” as %(used)s GPUs: a DGX or HGX system holds 8."),
    "dgx_no_card": N_(
        "Read “%(typed)s” as %(used)s GPUs: a DGX or HGX system holds 8. Its generation (A100, H100, H200, "
        "B200) is not named, so the card is the assumed one below — name it for another."
    ),
    "chassis_gpus": N_("Read “%(typed)s” as %(used)s GPUs: the cards its slots hold."),
    "ji_ka_total": N_(
        "Read “%(typed)s” as %(used)s GPUs in all: more cards than one machine holds, so spread over the "
        "machines."
    ),
    "lower_bound_context": N_(
        "Read “%(typed)s” as a lower bound on the context: sized at the least you stated, %(used)s tokens "
        "— a longer context needs more KV cache."
    ),
    "lower_bound_concurrency": N_(
        "Read “%(typed)s” as a lower bound on the load: sized at the least you stated, %(used)s concurrent "
        "sequences — more need more KV cache."
    ),
    "fp16_no_bf16": N_(
        "%(gpu)s has no bf16: your “%(typed)s” is sized in %(used)s (vLLM runs 16-bit weights in fp16 there, "
        "the same 2 bytes per weight)."
    ),
    "runtime_gguf": N_(
        "GGUF weights: sized under llama.cpp's memory model, not %(typed)s's (vLLM loads a single-file GGUF "
        "only experimentally) — name a format %(typed)s serves (AWQ, GPTQ, FP8, bf16) to size it there."
    ),
    "runtime_unified_memory": N_(
        "%(gpu)s has unified memory: sized under llama.cpp's memory model (all of it but the runtime's "
        "context), not %(typed)s's — these figures are llama.cpp's (or MLX's)."
    ),
    "typo_read": N_("Read “%(typed)s” as “%(used)s”."),
    "price_per_day": N_("Read “%(typed)s” as a rent per GPU per day: %(used)s per GPU-hour (÷ 24 hours)."),
    "price_per_month": N_(
        "Read “%(typed)s” as a rent per GPU per month: %(used)s per GPU-hour (÷ 730 hours, the average "
        "month)."
    ),
    "price_per_server_month": N_(
        "Read “%(typed)s” as the server's rent per month: %(used)s per GPU-hour (÷ its cards × 730 hours, "
        "the average month)."
    ),
}
"""Reasons of ``interpretation.substitutions`` → a sentence (the unknown GPU has its own line)."""


BASE_NO_GQA = N_("%(name)s, its base: %(layers)d layers, no grouped KV (%(kv)d KV heads)")
"""A fine-tune's base with multi-head attention (a KV head per query head: Llama 2 7B/13B, LLaMA)."""
BASE_GQA = N_("%(name)s, its base: %(layers)d layers, %(kv)d KV heads for %(heads)d query heads")
"""A fine-tune's base with grouped-query attention (Mistral 7B: 8 KV heads for 32)."""


def base_shape(name: str, model_id: str, lang: str) -> str:
    """What a fine-tune was sized as ('Meta Llama 2 13B, its base: 40 layers, no grouped KV (40 KV heads)'):
    ``name`` (the catalog model's name) with its config.json layers and heads from the catalog entry
    ``model_id``; ``name`` alone when the catalog lacks it."""
    from bot.render.i18n import translate
    from estimator import catalog

    spec = catalog.models().get(model_id)
    if spec is None:
        return name
    text = BASE_NO_GQA if spec.kv_heads == spec.heads else BASE_GQA
    return translate(lang, text, name=name, layers=spec.layers, kv=spec.kv_heads, heads=spec.heads)
