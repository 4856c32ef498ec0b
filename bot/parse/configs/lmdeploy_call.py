"""lmdeploy's Python entry point pasted from a script: ``TurbomindEngineConfig(tp=…, session_len=…,
cache_max_entry_count=…)`` or ``PytorchEngineConfig(…)`` (``from lmdeploy import pipeline,
TurbomindEngineConfig``). Their keywords are the ``lmdeploy serve api_server`` flags with dashes for
underscores (lmdeploy/messages.py ``TurbomindEngineConfig``: "tp (int): the number of GPU cards used in
tensor parallelism, default to 1"; lmdeploy/cli/utils.py ``ArgumentHelper.tp``), so the call is read as
that command (:func:`bot.parse.configs.launchers.read_serving`): one that sets no ``tp`` runs on one GPU
however many the machine has, as a vLLM ``LLM(...)`` call does (:mod:`bot.parse.configs.vllm_call`).
Session 32: '三卡 2080ti … TurbomindEngineConfig(cache_max_entry_count=0.2) 还是 OOM，缓存好像只放在一张卡上'
was sized at TP 3."""

from __future__ import annotations

import json
import shlex

from bot.parse.configs.launchers import read_serving
from bot.parse.configs.model import StackConfig
from bot.parse.configs.python_args import _call_args, _keywords
from bot.parse.regex import compile_pattern

ENGINE_CONFIG_RE = compile_pattern(r"(?<![\w.])(?:lmdeploy\.)?(?:Turbomind|Pytorch)EngineConfig\s*\(")
"""``TurbomindEngineConfig(`` / ``PytorchEngineConfig(`` (lmdeploy's two backends' configs)."""


def find_lmdeploy_call(text: str, source: str) -> tuple[StackConfig, str] | None:
    """The first lmdeploy engine config call of ``text`` read as an ``lmdeploy serve api_server``
    command, and the text without it; None when there is none or it is not Python."""
    m = ENGINE_CONFIG_RE.search(text)
    found = _call_args(text, m.end() - 1) if m else None
    kwargs = _keywords(found[0]) if found else None
    if m is None or found is None or kwargs is None:
        return None
    argv = ["lmdeploy", "serve", "api_server"]
    for key, value in kwargs.items():
        if value is Ellipsis:
            continue
        text_value = json.dumps(value) if isinstance(value, dict | list) else str(value)
        argv += [f"--{key.replace('_', '-')}={text_value}"]
    cfg = StackConfig(tool="lmdeploy", tools=["lmdeploy"], format="python", source=source)
    cfg = read_serving(shlex.join(argv), "lmdeploy", cfg)
    return cfg, (text[: m.start()] + " " + text[found[1] :]).strip()
