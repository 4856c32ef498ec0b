"""A tool named in lower case in a tool's slot (session 19, s19-fix item 9): 'opensloth', 'mytrainer'.

:mod:`bot.parse.unknown_tools` reads a name no table has only where it is written the way software is
named (CamelCase, 'LLaMA2-Accessory'), since a lower-case word after 'with' is most often no tool ('with
lora', 'with care'). People type tool names in lower case too ('用 opensloth 训练', 'using mytrainer to
fine-tune'); in the narrow slot of the job's means — the word right between '用 / 使用 / 基于 / 通过 /
借助' and a job word ('训练', '微调', '部署', …), or between 'using / with / via' and 'to fine-tune /
train / serve / deploy' — a lower-case word is the tool, named as typed. The tools of the tables are read
case-insensitively already (their patterns run on the lower-cased text: 'llamafactory', 'unsloth',
'swift', 'xtuner'); words of the job's settings in that slot ('用 lora 微调', 'using deepspeed to train',
'with 8 gpus') are not tools (:data:`SETTING_WORD_RE`), nor names another reader knows (``known``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

LOWER_TOOL_RE = re.compile(
    r"(?:用|使用|基于|通过|借助)\s*(?P<zh>[a-z][a-z0-9_\-]{2,30})\s*(?:在\s*[^，。,;；!?！？\n]{1,24}?上\s*)?"
    r"(?:来\s*)?(?:训练|微调|预训练|部署|推理|跑|做|全参|全量)"
    r"|\b(?:using|with|via|use|uses|used)\s+(?P<en>[a-z][a-z0-9_\-]{2,30})\s+to\s+"
    r"(?:fine[\s\-]?tune\b|finetune\b|train\b|pre[\s\-]?train\b|serve\b|deploy\b|sft\b)"
    r"|\b(?i:rl|grpo|ppo|dpo|sft|rlhf|pre-?train(?:ed|ing)?|trained|training|fine-?tuned|fine-?tuning|pretrained|served|serving"
    r"|fine-?tune|train|serve|run|running|ran|deploy|deploying|deployed)"
    r"\s+(?:[\w.\-]+\s+){0,8}?(?:with|using|via)\s+(?P<on>[a-z][a-z0-9_\-]{2,30})(?:\s+on\s+(?:an?\s+)?"
    r"(?=\d|[A-Za-z][\w.\-]*\d|[A-Z][A-Za-z]{1,5}\s+[A-Za-z]{0,3}\d)|\s*(?=[?!;]|\.(?:\s|$)))"
    r"|(?:跑|运行|执行)\s*(?P<of>[a-z][a-z0-9_\-]{2,30})\s*的\s*(?:pretrain|sft|预训练|微调|训练|推理)"
    r"|\b(?i:with|using)\s+(?P<lead>[a-z][a-z0-9_\-]{2,30}),?\s+(?i:i|we)\s+(?:could|can|was\s+able\s+to"
    r"|were\s+able\s+to|managed\s+to)\s+(?:fine[\s\-]?tune|finetune|train|pre[\s\-]?train|serve|run)\b"
)
"""A lower-case word right in the job's means slot (the raw text, case kept: a capital is read elsewhere).
Session 19 review: in English only 'using / with / via X to <job>' ('to' required) — 'with distributed
training', 'with minimal serving cost' name an adjective, not a tool. s20: 'use X to <job>' too, and 'X' in
'<job word> … with X on <a model or a count>' ('RL with slime on Qwen3-8B', 'trained with q27 on 8 A100s').
s42 (issue 24, working misses): in Chinese, the card the job runs on between ('用 gpt-fast 在 RTX 4090 上跑');
in English, the bare verbs of the job too ('Running Llama-2 7B with gpt-fast on an RTX
4090', 'fine-tune GPT-NeoX 20B with mesh-transformer-jax on TPU v3-8s'), a hyphenated model name between
(up to eight words, s42 swap: 'pretrain a 7B model on 1T tokens with paxml on 64 H100s'), and a card
written as a capitalized word, a space and its number ('RTX 4090', 'TPU v3').
Round 15: that slot closing the sentence ('can it be fine-tuned with opensloth?'), and 'with X, I could train'
before its subject ('With lolcats I could train the Llama 8B model …'). Round 18: a project's own stage run
('跑 minimind 的 pretrain': the pretrain script of the minimind repository)."""
ADJECTIVE_RE = re.compile(
    r"[a-z]+(?:ed|al|ive|ent|ant|ised|ized|ic|ous|ful|less|able|ible|ing)"
    r"|[a-z]+(?:ation|ment|ness|ism)"  # s42: a noun of an act or a state ('quantization'), no tool's name
    r"|(?:multi|full|single|low|high|mixed|half|non|semi|self|parameter|instruction|continued|supervised)"
    r"-[a-z\-]+|[a-z]+-(?:efficient|based|aware|level|node|gpu|parameter|scale|tuned|trained|free)"
)
"""A word shaped as an adjective ('distributed', 'continued', 'supervised', 'minimal', 'efficient') or a
hyphenated one ('multi-node', 'full-parameter', 'parameter-efficient'): never a tool's name in that slot."""
PLATFORM_RE = re.compile(r"colab|kaggle|autodl|runpod|modal|lambda|paperspace|sagemaker|vertex|featurize")
"""Notebook and rental platforms ('在 colab 里跑', '用 kaggle 训练'): where a job runs, not its tool nor its
runtime (session 19 review)."""
SETTING_WORD_RE = re.compile(
    r"(?:q?lora|dora|full|sft|dpo|grpo|ppo|rlhf|orpo|kto|bf16|fp16|fp8|fp32|int[248]|nf4|zero\d?|fsdp\d?"
    r"|bnb|bitsandbytes|awq|gptq|gguf|rocm|metal|vulkan|opencl|sycl|batching"  # s42: quantizers, backends
    r"|offload\w*|gpus?|cards?|data|datasets?|it|this|that|them|these|those|my|our|the|your|one|two|some"
    r"|pytorch|torch|python|cuda|docker|peft|adapters?|freeze|prefix|p-tuning|pipeline|tensor|cpu|gpu"
    r"|nodes?|machines?|servers?|vllm|sglang|ollama|transformers|accelerate|deepspeed|megatron"
    r"|warm-?up|flash[\-_]?attn\w*|xformers|sdpa|eager|cosine|adamw?\w*|sgd|dropout|compile"  # s42: the gap
    r"|i?q[1-8](?:_[a-z0-9_]+)?|care|ease|success)",
)
"""Words of the job's settings or of its hardware that can stand in that slot ('用 lora 微调', 'with one
to train'): never a tool name."""


def lower_tools(raw: str, training: bool, known: Callable[[str], bool]) -> list[tuple[str, str]]:
    """('training_tool: x', 'no_field') — ('runtime: x', 'runtime_not_modelled') when not ``training`` —
    for each lower-case word in a tool's slot of ``raw`` (:data:`LOWER_TOOL_RE`) that is neither a setting
    word nor a name ``known`` (a tool of the tables, a model, …) knows."""
    out: list[tuple[str, str]] = []
    for m in LOWER_TOOL_RE.finditer(raw):
        name = m.group("zh") or m.group("en") or m.group("on") or m.group("lead") or m.group("of")
        if SETTING_WORD_RE.fullmatch(name) or ADJECTIVE_RE.fullmatch(name) or PLATFORM_RE.fullmatch(name):
            continue
        if known(name) or _method_words_only(name):
            continue
        item = tool_item(name, training)
        if item not in out:
            out.append(item)
    return out


def _method_words_only(name: str) -> bool:
    """'peft-lora', 'sft_lora': a name of method words only describes a method, not a tool (the codebase
    reader's rule, :data:`bot.parse.codebases.METHOD_WORDS`)."""
    from bot.parse.codebases import METHOD_WORDS

    parts = re.split(r"[\-_]", name)
    return len(parts) > 1 and all(p in METHOD_WORDS for p in parts)


def tool_item(name: str, training: bool) -> tuple[str, str]:
    """The 'not used' item of a tool named as typed: ('training_tool: x', 'no_field') in a training
    question, ('runtime: x', 'runtime_not_modelled') in a serving one (one wording for every tool reader:
    this module's, :mod:`bot.parse.port_names`', :mod:`bot.parse.tool_slots`' callers)."""
    return (
        (f"training_tool: {name}", "no_field") if training else (f"runtime: {name}", "runtime_not_modelled")
    )


PEER_TOOL_RE = re.compile(
    r"\b(?i:compared?|comparing)\s+(?P<a>[A-Za-z][\w\-.]{1,30}?)\s+(?i:with|to|against|and)\s+"
    r"(?P<b>[A-Za-z][\w\-]{1,30})|\b(?P<c>[A-Za-z][\w\-]{1,30})\s+(?i:vs\.?|versus)\s+(?P<d>[A-Za-z][\w\-]{1,30})"
    r"|(?:对比|比较)了?\s*(?P<e>[A-Za-z][\w\-]{1,30})\s*(?:和|与|跟)\s*(?P<f>[A-Za-z][\w\-]{1,30})"
)
"""Two names compared ('I compared ROLL with verl', 'opensloth vs Unsloth', '对比了 ROLL 和 verl'): when one
is a tool a table knows, the other is a tool of the same kind (round 15: en13-005's ROLL was dropped beside
verl)."""


def peer_tools(
    raw: str, training: bool, known_tool: Callable[[str], bool], known: Callable[[str], bool]
) -> list[tuple[str, str]]:
    """The 'not used' item of each name compared with a tool a table knows (:data:`PEER_TOOL_RE`), named as
    typed; never a setting word, a known name (a model, a card, …) or a word shaped as an adjective."""
    out: list[tuple[str, str]] = []
    for m in PEER_TOOL_RE.finditer(raw):
        a, b = next((m.group(x), m.group(y)) for x, y in (("a", "b"), ("c", "d"), ("e", "f")) if m.group(x))
        for name, other in ((a, b), (b, a)):
            low = name.lower()
            if not known_tool(other) or known(name) or SETTING_WORD_RE.fullmatch(low):
                continue
            if ADJECTIVE_RE.fullmatch(low) or PLATFORM_RE.fullmatch(low) or not re.search(r"[a-z]", low):
                continue
            item = tool_item(name, training)
            if item not in out:
                out.append(item)
    return out
