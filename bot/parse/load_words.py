"""Serving load named by words, not numbers: '单用户', '单人使用', '自己一个人用' (one concurrent user).

A count of people ('20个人用', 'single user', '1 user') is a number and gets its role in
:mod:`bot.parse.roles`; this module reads only the phrasings that carry no numeral the scanner reads.
"""

from __future__ import annotations

from typing import Any

from bot.parse.regex import rc, words_gate

SINGLE_USER_RE = rc(
    r"单(?:个)?用户|单人(?:在)?(?:使用|用)|仅供?(?:我)?(?:自己|个人)(?:使用|用)|(?:我)?自己一个人(?:使用|用)"
    r"|独自(?:使用|用)"
)
"""'单用户', '单人使用', '仅供个人使用', '独自使用': one user, so one sequence at a time."""
_GATE = ("单", "自己", "个人", "独自")
_GATE_RE = words_gate(_GATE)


def single_user(s: str) -> bool:
    """True when the normalized text names one user by words (cheap substring gate first)."""
    return bool(_GATE_RE.search(s)) and bool(SINGLE_USER_RE.search(s))


# -- a batch size said of lmdeploy or TGI: their cap on running sequences (s32-gen) ----------

CAP_BATCH_ENGINES = frozenset({"lmdeploy", "TGI"})
"""Engines whose batch size is the cap on running sequences:
'lmdeploy 跑 qwen-7b，batch_size 4', 'lmdeploy with max_batch_size 16', 'TGI, max batch size 8'. lmdeploy's
``max_batch_size`` is the most sequences the engine runs at once (lmdeploy/messages.py
``TurbomindEngineConfig.max_batch_size`` and ``PytorchEngineConfig.max_batch_size``; its CLI
``--max-batch-size``, bot/recipes/flags/lmdeploy.json), as TGI's ``--max-batch-size`` is
(text-generation-inference launcher/src/main.rs); both are what vLLM calls ``max_num_seqs``. The prose
batch is then that cap (``max_num_seqs``), read as the CLI flag already is, and the concurrency sized."""


def engine_batch(f: dict[str, Any], concurrency: Any) -> Any:
    """The concurrency a serving request ``f`` with a batch size sizes: ``concurrency`` when one was read,
    else that batch; for an engine of :data:`CAP_BATCH_ENGINES` the batch is also its ``max_num_seqs``
    (set when none is)."""
    if f.get("runtime") in CAP_BATCH_ENGINES and f.get("max_num_seqs") is None:
        f["max_num_seqs"] = int(f["batch_size"])
    return f["batch_size"] if concurrency is None else concurrency
