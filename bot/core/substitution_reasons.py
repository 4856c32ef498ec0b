"""The reasons of ``interpretation.substitutions`` (:mod:`bot.core.interpretation`): what was used in
place of what was typed. Split from bot/core/interpretation.py at its 500-line cap (s36)."""

from __future__ import annotations

from typing import Any

SUBSTITUTION_REASONS = (
    "card_generation",  # a card with a generation or form word its catalog entry lacks: that card, said
    "rtx_6000_assumed",  # a bare 'RTX 6000': the RTX 6000 Ada Generation, said (also the Quadro's name)
    "unknown_gpu_default",  # a GPU not in the catalog, no memory given: the default GPU
    "gpu_by_memory",  # only a memory size: the catalog card most likely meant
    "card_assumed",  # a GPU count with no card nor memory ('on 2 GPUs'): the verdict is the assumed card's
    "latest_release",  # a family and size without a version: the latest release
    "generic_shape",  # a model not in the catalog: a generic shape of its size
    "speech_model_shape",  # 'Whisper large-v3': a speech model, not an LLM: a generic shape of its size (s47)
    "tool_inferred",  # a training tool not named, read from its settings ('cutoff_len': LLaMA-Factory)
    "fp16_no_bf16",  # bf16 stated for a card without bf16 (V100, T4): sized in fp16
    "vague_amount",  # '几十亿 token', 'tens of billions of tokens': a rough amount, sized at its middle
    "ji_ka_each",  # '2机4卡': 2 machines × 4 cards = 8 GPUs
    "ji_ka_total",  # '2机16卡': more than a machine holds, so 16 GPUs in all
    "dgx_gpus",  # 'a DGX H100', '2 DGX A100 nodes': 8 GPUs a system, said (s28 review L1)
    "dgx_no_card",  # '2台DGX': 8 GPUs a system, its generation not named: the assumed card, said (s38)
    "chassis_gpus",  # '一台8卡服务器', 'an 8-GPU server': the GPUs its slots hold, said (s28 review L1)
    "card_sku",  # '910B2': a SKU of a catalog card, sized on that card
    "lower_bound_context",  # '上下文至少 16k', 'at least 16k context': sized at the least value
    "lower_bound_concurrency",  # '至少 10 个并发', 'at least 50 concurrent users': sized at the least
    "vision_language_llm",  # 'Qwen2.5-VL-72B': its language model sized, the vision encoder not counted
    "model_alias",  # 'llama 30b': the release the catalog lists under another size (LLaMA-33B)
    "speech_llm",  # 'GLM-4-Voice': its language model sized, the speech tokenizer and decoder not counted
    "long_context_release",  # 'chatglm3-32k': a long-context release, its model's weights sized
    "fine_tune_base",  # 'vicuna-13b-v1.5-16k': a fine-tune sized as its base's architecture (s46)
    "same_architecture_release",  # 'DeepSeek-V3.2': sized as the catalog's V3.2-Exp, the same architecture
    "price_per_day",  # '3090一天50块', '$48 per GPU per day': the rent ÷ 24 hours, per GPU-hour (s36)
    "price_per_month",  # 'A100 一个月3000块': the rent ÷ 730 hours (the average month), per GPU-hour
    "typo_read",  # 'usres': one edit from 'users', a word the answer turns on, read as it and said (s36)
    "peft_as_lora",  # 'fine-tune with PEFT', '参数高效微调' without a LoRA word: sized as LoRA, said (s43)
    "price_per_server_month",  # '8卡A100服务器一个月3万': ÷ (8 cards × 730 hours), per GPU-hour
    "runtime_gguf",  # 'Q2_K with vLLM': GGUF weights sized as llama.cpp runs them, said (s47 B7)
    "runtime_unified_memory",  # 'vLLM on an M2 Ultra': unified memory sized as llama.cpp runs it, said
)


def runtime_not_sized(report: Any) -> str | None:
    """The substitution reason when a serving answer names a server (vLLM, SGLang, TGI…) but is sized under
    llama.cpp's memory model (:func:`estimator.runtimes.runtime_for` sends GGUF formats and unified-memory
    cards there, whatever the runtime named): ``runtime_unified_memory`` on a unified-memory card, else
    ``runtime_gguf``; None when the runtime named is the one sized, or none is named (s47 review B7: the
    headline said '(vLLM)' and 'fits (llama.cpp)', the named runtime replaced silently)."""
    named, inf = report.request.runtime, report.inference
    if named is None or inf is None or not inf.runtime or not inf.runtime.startswith("llama.cpp"):
        return None
    if named.value in ("llama.cpp", "Ollama"):
        return None
    from estimator.runtimes import GGUF_FORMATS  # loaded with every serving answer already

    return "runtime_gguf" if report.request.precision in GGUF_FORMATS else "runtime_unified_memory"
