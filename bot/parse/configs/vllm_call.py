"""vLLM's offline entry point pasted from a script: ``LLM(model=…, tensor_parallel_size=…, …)``
(``from vllm import LLM``; its keywords are ``EngineArgs`` fields, the same as ``vllm serve``'s flags
with dashes for underscores, vllm/entrypoints/llm.py). Read as the equivalent ``vllm serve`` command
(:func:`bot.parse.configs.launchers.read_serving`), so a call that sets no ``tensor_parallel_size``
runs on one GPU, as vLLM does."""

from __future__ import annotations

import json
import re

from bot.parse.configs.launchers import read_serving
from bot.parse.configs.model import StackConfig
from bot.parse.configs.python_args import _call_args, _keywords
from bot.parse.regex import compile_pattern

LLM_CALL_RE = compile_pattern(r"(?<![\w.])(?:vllm\.)?LLM\s*\(")
"""``LLM(`` or ``vllm.LLM(`` (not ``ChatLLM(`` or ``self.LLM(``)."""
VLLM_WORD_RE = compile_pattern(r"vllm", re.I)
"""The message names vLLM: a bare ``LLM(...)`` is read only then (other libraries have an ``LLM`` too)."""


def find_vllm_call(text: str, source: str) -> tuple[StackConfig, str] | None:
    """The first ``LLM(...)`` call of a message that names vLLM, read as a ``vllm serve`` command, and
    the text without it; None when there is none (or it is not Python)."""
    if "EngineConfig(" in text:  # lmdeploy's TurbomindEngineConfig(…) / PytorchEngineConfig(…) (s32)
        from bot.parse.configs.lmdeploy_call import find_lmdeploy_call

        return find_lmdeploy_call(text, source)
    if not VLLM_WORD_RE.search(text):
        return None
    m = LLM_CALL_RE.search(text)
    found = _call_args(text, m.end() - 1) if m else None
    kwargs = _keywords(found[0]) if found else None
    if m is None or found is None or kwargs is None:
        return None
    argv = ["vllm", "serve"]
    for key, value in kwargs.items():
        if value is Ellipsis:
            continue  # 'model=...' as a thread writes it: nothing was said
        text_value = json.dumps(value) if isinstance(value, dict | list) else str(value)
        argv += [f"--{key.replace('_', '-')}={text_value}"]  # a variable (_Expr) is named bad_value
    cfg = StackConfig(tool="vllm", tools=["vllm"], format="python", source=source)
    import shlex  # here: a plain `ask` imports no shlex (s48-startup)

    cfg = read_serving(shlex.join(argv), "vllm", cfg)
    return cfg, (text[: m.start()] + " " + text[found[1] :]).strip()
