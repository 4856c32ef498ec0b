"""A batch size said in prose for an RL framework whose batch key is the global batch (s21, issue 24):
'GRPO with verl on 2 A800s, batch size 1024', 'verl 跑 GRPO，batch size 256'.

verl's ``data.train_batch_size`` is the prompts sampled per training iteration across all GPUs
(verl/trainer/config/ppo_trainer.yaml; docs "Config Explanation": "Batch size sampled for one training
iteration of different RL algorithms"), split into ``ppo_mini_batch_size`` updates and per-GPU
``ppo_micro_batch_size_per_gpu`` passes; OpenRLHF's ``--train_batch_size`` is the "Global training batch
size" and ``--micro_train_batch_size`` the one per GPU (openrlhf/cli/train_ppo_ray.py). A batch size said
of either with no per-GPU word is that global batch: the micro-batch stays the default (before, 1024
sequences per GPU were sized).

In any RL run, a batch counted in prompts ('batch 8 prompts', '8 prompts per step', '每步 8 个 prompt') is the
prompts of one step over all GPUs, each sampled ``num_generations`` times (TRL ``GRPOConfig``: "the
effective batch size must be divisible by num_generations"; trial s28 H3: read as a micro-batch of 8, the
'1000 steps' were left unused and no time was given).
"""

from __future__ import annotations

import re
from typing import Any

EVAL_BATCH_KEYS = (
    r"(?:per_device_)?(?:eval|test|val|valid|validation)_batch_size"
    r"|(?:测试|验证|评估)集?\s*(?:的)?\s*(?:batch_size|batch|bs|批大小)"
)
"""The batch of an evaluation pass by any of its key names ('eval_batch_size', 'test_batch_size 2',
'val_batch_size', '测试集 batch size 2'): no training micro-batch, so named (no_field) beside the rollout
batches (bot.parse.vocab_patterns.ROLLOUT_BATCH_RE); s37-gen, issue 24: 'test_batch_size 2' was sized as the
micro-batch."""
GLOBAL_BATCH_TOOLS = frozenset({"verl", "OpenRLHF"})
"""RL frameworks whose plain batch size is the global batch (see the module docstring)."""
PER_GPU_RE = re.compile(
    r"(?:micro|mini)[\s_\-]*(?:train[\s_\-]*)?batch|batch[\w\s\-]{0,12}(?:per[\s_\-]*(?:device|gpu|card)|/\s*gpu)"
    r"|per[\s_\-]*(?:device|gpu|card)[\s_\-]*(?:train[\s_\-]*)?batch|(?:每卡|单卡|每张卡)\s*(?:的\s*)?batch"
)
"""A batch said per GPU, or a micro- or mini-batch ('micro batch size 4', 'batch size 8 per GPU', '每卡 batch
size 8'): then the prose batch is not the global one ('ppo_max_token_len_per_gpu' names no batch)."""


PROMPT_BATCH_RE = re.compile(
    r"batch(?:[\s_\-]*size)?\s*(?:of|=|:|为|是)?\s*(?P<a>\d+)\s*(?:个|条)?\s*(?:prompts?\b|提示词?|问题)"
    r"|(?P<b>\d+)\s*(?:个|条)?\s*(?:prompts?|提示词?|问题)\s*(?:per|a|each|/|every)\s*(?:training\s*)?(?:step|batch|iteration)"
    r"|每\s*(?:步|个\s*step|批|次迭代)\s*(?P<c>\d+)\s*(?:个|条)?\s*(?:prompts?\b|提示词?|问题)",
    re.I,
)
"""A batch counted in prompts (module doc): its number in group ``a``, ``b`` or ``c``."""
RL_ALGORITHMS = frozenset({"grpo", "rloo", "ppo"})
"""Algorithms that sample completions of each prompt in the step (:mod:`estimator.rl_reference`)."""


def rl_batch_is_global(f: dict[str, Any], s: str, accumulated: bool) -> list[tuple[str, str]]:
    """Move ``f``'s batch_size to global_batch when the training tool is one of :data:`GLOBAL_BATCH_TOOLS`,
    no global batch, accumulation nor per-GPU word was said (``s``: the normalized text); the batch size as
    typed is named (``tool_global_batch``: read as the global batch, the micro-batch left at its default)."""
    if f.get("stage") in (None, "inference"):
        return []
    if str(f.get("algorithm") or "") in RL_ALGORITHMS and prompts_per_step(
        f, s
    ):  # 'batch 8 prompts' (s28 H3)
        return []
    if ("accum" in s or "梯度累" in s) and not PER_GPU_RE.search(s):  # s32-gen: the accumulation asked
        from bot.parse.accum_asked import batch_for_accumulation

        if batch_for_accumulation(f, s, accumulated):
            return []
    if f.get("training_tool") not in GLOBAL_BATCH_TOOLS:
        return []
    if not f.get("batch_size") or f.get("global_batch") or accumulated or PER_GPU_RE.search(s):
        return []
    f["global_batch"], f["batch_size"] = f["batch_size"], None
    return [(f"train_batch_size: {f['global_batch']:g}", "tool_global_batch")]  # its key


def prompts_per_step(f: dict[str, Any], s: str) -> bool:
    """Move ``f``'s batch_size (or, for '8 prompts per step', the sample count read from it) to global_batch
    when the run is RL (:data:`RL_ALGORITHMS`) and the text counts that batch in prompts
    (:data:`PROMPT_BATCH_RE`); True when moved."""
    if str(f.get("algorithm") or "") not in RL_ALGORITHMS or f.get("global_batch"):
        return False
    m = PROMPT_BATCH_RE.search(s)
    n = float(m.group("a") or m.group("b") or m.group("c")) if m is not None else None
    if n is not None and n == f.get("batch_size"):
        f["global_batch"], f["batch_size"] = f["batch_size"], None
        return True
    if n is not None and m.group("a") is None and n == f.get("num_samples") and not f.get("tokens"):
        f["global_batch"], f["num_samples"] = int(n), None  # '8 prompts per step': no data size
        return True
    return False


def rollout_batch_read(f: dict[str, Any], unused: list[tuple[str, str]], s: str, key: str, n: int) -> None:
    """A rollout batch read in the named tool's unit (s32 fixf 1): OpenRLHF's ``--rollout_batch_size`` (or no
    tool named): prompts a rollout (``f["rollout_batch"]``, :mod:`estimator.rollout_batch`); verl's rollout
    batch is its ``data.train_batch_size``, the prompts of one step (verl/trainer/config/ppo_trainer.yaml),
    read as the global batch unless one is stated (``s``: the normalized text; the reply's note
    ``global_batch_prompts`` says it in prompts × rollout.n); any other tool generates its own batch each
    step: named in ``unused``, not used."""
    tool = f.get("training_tool")
    if tool in (None, "OpenRLHF"):
        f["rollout_batch"] = n
    elif tool == "verl" and "train_batch" not in s and "global_batch" not in f:
        f["global_batch"] = n
    else:
        unused.append((f"{key}: {n}", "rollout_batch_other_tool"))


def global_meant(m: re.Match[str]) -> bool:
    """Whether a match of :data:`bot.parse.lexicon.GLOBAL_BATCH_RE` is the global batch: a key
    ('train_batch_size', 'global batch'), or prose 'train batch size 512' in an RL job, where the tools'
    train_batch_size is the prompts of a step (verl data.train_batch_size, OpenRLHF --train_batch_size);
    elsewhere prose 'train batch 4' is the micro-batch, as '训练 batch 4' is (s37-rev)."""
    if not m.group("prose"):
        return True
    s = m.string
    return (
        "grpo" in s
        or "ppo" in s
        or "rloo" in s
        or "dapo" in s
        or "verl" in s
        or "openrlhf" in s
        or "rollout" in s
    )
