"""A tensor-parallel flag said to be left out ('没加 --tp', '没有设置 --tensor-parallel-size', 'no --tp
flag', 'without --tp', "didn't pass --tp"): the engine runs its default, TP 1, for vLLM, SGLang and lmdeploy
(:data:`bot.parse.configs.launchers.TP_DEFAULT_ONE`: vLLM ``EngineArgs.tensor_parallel_size = 1``, SGLang
``ServerArgs.tp_size = 1``, lmdeploy/cli/utils.py ``ArgumentHelper.tp`` default 1), as a pasted command
with no TP flag does. TGI shards over every visible GPU by default, so it is not read there. Session 32:
'lmdeploy serve … 没加 --tp' on two cards was sized at TP 2."""

from __future__ import annotations

from typing import Any

from bot.parse.configs.launchers import TP_DEFAULT_ONE
from bot.parse.regex import rc

_FLAG = r"`?-{1,2}(?:tp(?:[\-_]size)?|tensor[\-_]parallel[\-_]size)(?![a-z0-9\-_])`?"
TP_UNSET_RE = rc(
    r"(?:没(?:有)?|未|不|忘了|忘记)\s*(?:加|设置?|写|指定|传|给|开)(?:上|过)?\s*(?:参数\s*)?"
    + _FLAG
    + r"|(?<![a-z])(?:no|without(?:\s+(?:a|any|the))?"
    r"|didn'?t\s+(?:set|pass|add|use|give)(?:\s+(?:a|any|the))?"
    r"|not\s+(?:setting|passing|using)(?:\s+(?:a|any|the))?|left\s+out(?:\s+the)?)\s+"
    + _FLAG
    + r"|"
    + _FLAG
    + r"\s*(?:(?:flag|参数|这个参数)\s*)?(?:没(?:有)?(?:加|设置?|写|指定|传)|未(?:设置?|指定)|is\s+not\s+set"
    r"|(?:was\s+)?left\s+out|not\s+set|unset)"
)
"""The TP flag with a word that says it was not given, before or after it."""


def tp_left_unset(s: str, tool: str | None) -> dict[str, Any]:
    """``{"tp": 1}`` where the normalized text ``s`` says the TP flag of ``tool`` (a
    :data:`bot.parse.configs.launchers.RUNTIMES` key) was left out, else ``{}``."""
    return {"tp": 1} if tool in TP_DEFAULT_ONE and TP_UNSET_RE.search(s) else {}
