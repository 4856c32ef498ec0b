"""A checker for English prose in Chinese replies (issue #22 item 11): runs of four or more English
words outside names and citations of English sources.

A word is a run of Latin letters (``model``, ``non-embedding``); a token with a digit (``A100``,
``Qwen2.5``, ``2026-11``) is a name or a figure and ends a run, as does any CJK character or a
sentence mark. Names and citation titles in :data:`ALLOWED` are removed first.
"""

from __future__ import annotations

import html
import re

ALLOWED = (
    # tools, papers and parts of names that run to four words or more
    "PyTorch FSDP FULL_SHARD",
    "DeepSpeed ZeRO or PyTorch FSDP",
    "Hugging Face",
    "gpu_memory_utilization",
    "max_num_batched_tokens",
    "max_model_len",
    "max_num_seqs",
    "GPU Cloud Pricing",
    "AutoDL-class",
    "Infinity Fabric",
    "TensorRT-LLM",
    "Megatron-LM",
    "TRL / LLaMA-Factory (ZeRO/FSDP)",  # the stack assumed for LoRA/DPO with no tool named (s40 dponly2)
    "sudo sysctl iogpu.wired_limit_mb",
    "et al.",
    # words quoted from a cited English source
    "'legacy GPUs slid from $1.78 to $0.97'",
)
"""Names (tools, settings, citation titles) that are English by nature, not prose."""

_TAG_RE = re.compile(r"<[^>]*>")
_NAME_TOKEN_RE = re.compile(r"[\w.\-/]*\d[\w.\-/]*|\S+\.(?:json|toml|yaml|py)\b")
"""A token with a digit or a file name (``A100``, ``Qwen2.5``, ``config.json``): a name or a figure."""
_BREAK_RE = re.compile(r"[^A-Za-z\s,'’()\-/&\"“”]")
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’\-]*")


def english_runs(reply: str, min_words: int = 4) -> list[str]:
    """Runs of at least ``min_words`` English words in ``reply`` (HTML or text), names removed."""
    text = html.unescape(_TAG_RE.sub(" ", reply))
    for name in ALLOWED:
        text = text.replace(name, " | ")
    text = _NAME_TOKEN_RE.sub(" | ", text)
    runs = []
    for segment in _BREAK_RE.split(text):
        words = _WORD_RE.findall(segment)
        if len(words) >= min_words:
            runs.append(" ".join(words))
    return runs
