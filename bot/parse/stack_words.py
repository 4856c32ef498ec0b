"""The tools a message names in prose (issue 24 items 2 and 3): training tools and serving engines.

The sizing does not model what a training tool allows (its layouts: issue 24 item 3), so a named
training tool is named as not used (``no_field``), exactly as the pasted-config reader names the tool
of a config (:data:`bot.parse.configs.TRAINING_TOOL_NAMES`). A serving engine whose own memory model
the sizing does not have (lmdeploy, TGI, ExLlama, TensorRT-LLM …) is named as
``runtime_not_modelled``, as the config reader names it for a pasted launch line; vLLM, SGLang,
llama.cpp (and Ollama on it) and transformers are read by :mod:`bot.parse.settings`.
"""

from __future__ import annotations

from bot.parse.regex import LazyPattern, rc

TRAINING_TOOLS: tuple[tuple[LazyPattern, str], ...] = (
    (rc(r"llama[\s\-_]*factory"), "LLaMA-Factory"),
    (rc(r"\baxolotl\b"), "axolotl"),
    (rc(r"\bunsloth\b"), "Unsloth"),
    (rc(r"\btorchtune\b"), "torchtune"),
    (rc(r"\bms[\s\-_]*swift\b|modelscope[\s\-_]*swift"), "ms-swift"),
    (rc(r"\bverl\b"), "verl"),
    (rc(r"\bopenrlhf\b"), "OpenRLHF"),
    (rc(r"\bxtuner\b"), "XTuner"),
    (rc(r"\bfastchat\b"), "FastChat"),
    (rc(r"\bmegatron(?:[\s\-_]*(?:lm|core|deepspeed))?\b"), "Megatron-LM"),
    (rc(r"\bnemo\b"), "NeMo"),
    (rc(r"\bcolossal[\s\-_]*ai\b"), "ColossalAI"),
    (rc(r"\bpaddlenlp\b"), "PaddleNLP"),
    (rc(r"\blmflow\b"), "LMFlow"),
    (rc(r"\btrl\b|sft[\s_]*trainer|dpo[\s_]*trainer|grpo[\s_]*trainer|hugging\s*face\s+trainer"), "TRL"),
    (rc(r"\bdeepspeed\b"), "DeepSpeed"),
)
"""Training tools by name, as people write them → the name the reply uses."""

RUNTIMES_NOT_MODELLED: tuple[tuple[LazyPattern, str], ...] = (
    (rc(r"\blmdeploy\b|turbomind"), "lmdeploy"),
    (rc(r"\btgi\b|text[\s\-_]*generation[\s\-_]*inference"), "TGI"),
    (rc(r"\bexllama(?:v2|\s*v2|2)?\b|\bexl2\b"), "ExLlama"),
    (rc(r"tensorrt[\s\-_]*llm|\btrt[\s\-_]*llm\b"), "TensorRT-LLM"),
    (rc(r"\bktransformers\b"), "KTransformers"),
    (rc(r"\bxinference\b"), "Xinference"),
    (rc(r"\bmlc[\s\-_]*llm\b"), "MLC-LLM"),
    (rc(r"\bairllm\b"), "AirLLM"),
)
"""Serving engines the sizing has no memory model of (named, never silently sized as another)."""


ANY_TOOL_RE = rc("|".join(p.pattern for p, _ in (*TRAINING_TOOLS, *RUNTIMES_NOT_MODELLED)))
"""One search first: most messages name no tool (speed)."""


def named_tools(s: str) -> list[tuple[str, str]]:
    """('training_tool: X', 'no_field') and ('runtime: Y', 'runtime_not_modelled') for the tools named
    in the normalized text ``s``, in a fixed order, each once."""
    if not ANY_TOOL_RE.search(s):
        return []
    out = [(f"training_tool: {name}", "no_field") for pattern, name in TRAINING_TOOLS if pattern.search(s)]
    out += [
        (f"runtime: {name}", "runtime_not_modelled")
        for pattern, name in RUNTIMES_NOT_MODELLED
        if pattern.search(s)
    ]
    return out
