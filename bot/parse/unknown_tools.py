"""A tool named by a name no table has (issue 24, round 9: 'fine-tune Qwen2-72B … with EasyContext',
'fine-tune the Mixtral version of SPHINX with LLaMA2-Accessory'): named as typed, never dropped in silence.

The tool tables (:data:`bot.parse.stack_words.TRAINING_TOOLS`, ``RUNTIMES_NOT_MODELLED``) know the tools
people name most; a repository's own trainer or server is named as often and no table can list them all.
Such a name is read from the message as typed (case kept, so only the raw text can tell it): a word
after 'with', 'using', 'via', 'through', 'in' (用, 使用, 基于, 通过, 借助) that is written the way
software is named and words are not — CamelCase with a lower-case run between capitals ('EasyContext',
'OpenDiLoCo'), or a name and a capitalized word joined by a hyphen ('LLaMA2-Accessory'). Names the
parser knows otherwise are left to their readers: a tool of a table, a model of the catalog or its
family ('DeepSeek', 'MiniCPM'), and the libraries, methods and services people write the same way
(:data:`NOT_TOOLS`). A training job names it as its training tool, a serving job as its runtime; the
sizing has a model of neither.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc
from bot.parse.stack_words import ANY_TOOL_RE, SERVING_ENGINE_RE
from estimator import catalog

_NAME = (
    r"[A-Z][a-z]+(?:[A-Z][a-z0-9]+)+|[A-Za-z][A-Za-z]*[A-Z][A-Za-z]*\d*(?:-[A-Z][a-z]{2,})+"
    r"|[a-z]{2,}[A-Z][A-Za-z0-9]*"
)
"""CamelCase ('EasyContext', 'EasyR1'), a name joined to a capitalized word ('LLaMA2-Accessory'), or —
round 10 (s15) — a lower-case run then capitals ('trlX', 'nanoGPT'): how projects write their names."""
UNKNOWN_TOOL_RE = re.compile(
    r"(?:\b(?:with|using|via|through|in)\s+(?:the\s+|its\s+|their\s+)?|(?:用|使用|基于|通过|借助)\s*)"
    rf"(?P<name>{_NAME})(?![\w\-])"
    rf"|\b(?P<owner>{_NAME})(?=['’]s\s)"
)
"""A software-like name after a preposition of means ('with', '用'), or — round 10 (s15) — as the owner of
what the asker runs ("replicate trlX's experiments", "EasyContext's script"), in the raw text (case kept)."""
_GATE = rc(
    r"\b(?:with|using|via|through|in)\s+(?:the\s+|its\s+|their\s+)?[a-z]|(?:用|基于|通过|借助)\s*[a-z]"
    r"|[a-z0-9]['’]s\s"
)
"""The preposition before a word, or a possessive, at all (lower-cased text): most messages stop here."""
NOT_TOOLS = frozenset(
    {
        "galore", "pytorch", "flashattention", "huggingface", "sagemaker", "runpod", "openai", "chatgpt",
        "github", "youtube", "macbook", "geforce", "deepseek", "jupyterlab", "powershell", "wandb",
        "tensorboard", "tensorflow", "langchain", "llamaindex", "nvlink", "infiniband", "openwebui",
        "lmstudio", "googlecolab", "modelscope", "autodl", "lambdalabs", "vastai", "docker", "kubernetes",
        "bitsandbytes", "autogptq", "autoawq", "pagedattention", "ringattention", "xformers", "safetensors",
        "thebloke", "outofmemory", "macos", "ipados", "watchos", "iphone", "ipad", "linkedin",
        "chatglm", "openrlhf", "paddlepaddle", "colab", "kaggle", "nvidia", "gitlab",
    }
)  # fmt: skip
"""Libraries, kernels, methods, services and companies written like a tool's name: not the job's tool."""
MODEL_SUFFIXES = frozenset(
    {
        "instruct", "chat", "base", "coder", "math", "vision", "guard", "large", "small", "medium", "mini",
        "preview", "thinking", "turbo", "pro", "plus", "max", "lite", "flash", "air", "next", "omni",
        "distill",
    }
)  # fmt: skip
"""A model's release suffixes ('Qwen2-Instruct', 'Mistral-Large'): a hyphenated model, not a tool."""
CLASS_NAME_RE = re.compile(r"(?:Error|Exception|Warning|Config|Arguments|Args|Trainer|Engine|Model)$")
"""A class of a library ('RuntimeError', 'TurbomindEngineConfig', 'DPOTrainer'): code, not a tool."""


def unknown_tools(raw: str, s: str, training: bool) -> list[tuple[str, str]]:
    """('training_tool: X', 'no_field') — or ('runtime: X', 'runtime_not_modelled') when not ``training``
    — for each name in ``raw`` no table has (see the module docstring); ``s``: its normalized text."""
    if not raw or not _GATE.search(s):
        return []
    out: list[tuple[str, str]] = []
    for m in UNKNOWN_TOOL_RE.finditer(raw):
        name = m.group("name") or m.group("owner")
        item = (f"training_tool: {name}", "no_field")
        item = item if training else (f"runtime: {name}", "runtime_not_modelled")
        if not _known(name) and item not in out:
            out.append(item)
    return out


def _known(name: str) -> bool:
    """Whether another reader knows ``name``: a tool of a table, a model or family, or a word of
    :data:`NOT_TOOLS` / a model's suffix."""
    key = re.sub(r"[^a-z0-9]", "", name.lower())
    if key in NOT_TOOLS or name.rsplit("-", 1)[-1].lower() in MODEL_SUFFIXES or CLASS_NAME_RE.search(name):
        return True
    if ANY_TOOL_RE.search(name.lower()) or SERVING_ENGINE_RE.search(name.lower()):
        return True
    if catalog.family_of(name) is not None:
        return True
    return any(key in re.sub(r"[^a-z0-9]", "", m.lower()) for m in catalog.models())
