"""Serving flags written in prose (issue 24, round 4): the flags of the engine a message serves with, read
through the serving-command reader's own table (:data:`bot.parse.configs.launchers.SERVE_FLAGS`: vLLM,
SGLang, lmdeploy, TGI, llama.cpp) wherever a sentence writes them — '--tp-size 2', 'tp-size 2',
'num-shard to 2', 'context-length=32768', 'session_len: 16384', '-c 16384' — so a flag learned for pasted
commands is read in prose too. Before, 'SGLang … tp-size 2, context-length 32768' named both numbers as
unread and sized one GPU per copy at the default context.

It reads what the prose rules left, for the engine named (a flag of another engine is not its), and never
sets a field the prose read already; the load flags (``--max-num-seqs`` & co.) and the model stay with the
prose rules that tell a cap from a load (:mod:`bot.parse.prose_forms`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bot.parse.configs.launchers import RUNTIMES, SERVE_FLAGS, _convert, slot_context
from bot.parse.normalize import mask
from bot.parse.regex import rc

_TOOLS = {name: tool for tool, name in RUNTIMES.items()}
_SKIP_FIELDS = frozenset({"concurrency", "model"})
FLAG_RE = rc(
    r"(?<![a-z0-9_\-])(?P<flag>-{1,2}[a-z][a-z0-9\-_]*|[a-z][a-z0-9]*(?:[\-_][a-z0-9]+)+)"
    r"(?:\s*[=:]\s*|\s+(?:(?:set\s+)?to|of|at|is|=)\s+|\s+)(?P<v>\d+(?:\.\d+)?(?!\d|\.\d)(?![a-z])|[a-z][a-z0-9_\-]*)"
)
"""A flag ('--tp-size', '-c') or a flag-like word ('tp-size', 'session_len') and its value."""
TGI_SHARDED_RE = rc(r"(?<![a-z_])-{0,2}sharded\s*[=:]?\s*true(?![a-z])")
"""TGI's ``--sharded true`` / ``SHARDED=true`` without ``--num-shard``: "By default text-generation-inference
will use all available GPUs to run the model" (launcher/src/main.rs, ``sharded``): its TP is the GPUs."""
_GATE = re.compile(r"[a-z]-[a-z]|[a-z]_[a-z]|(?:^|\s)-{1,2}[a-z]")
TOKEN_BUDGET_FLAGS = frozenset(
    {
        "--max-num-batched-tokens", "--max-batch-prefill-tokens", "--max-batch-total-tokens",
        "--chunked-prefill-size", "--max-prefill-tokens", "--max-num-tokens",
    }
)  # fmt: skip
"""The engines' token budget of one forward pass or batch (vLLM --max-num-batched-tokens, TGI
--max-batch-prefill-tokens / --max-batch-total-tokens, SGLang --chunked-prefill-size / --max-prefill-tokens,
TensorRT-LLM --max_num_tokens): no request field holds it, so written in prose ('--max-num-batched-tokens
8192', TGI's 'MAX_BATCH_PREFILL_TOKENS 128' environment) it is named as not used (``no_field``), as a pasted
command's is (:data:`bot.parse.configs.launchers.SERVE_NO_FIELD`); s37-gen, issue 24: it was left unread."""


@dataclass
class Flags:
    """What :func:`read_inline_flags` found."""

    s: str
    fields: dict[str, Any] = field(default_factory=dict)
    computed_from: tuple[int, ...] = ()  # a value a field was computed from: llama.cpp's -c (all slots)
    unused: list[tuple[str, str]] = field(default_factory=list)  # a token budget named (no_field)


def _spec(table: dict[str, tuple[str, str]], written: str) -> tuple[str, str] | None:
    name = written.lstrip("-").replace("_", "-")
    spec = table.get("--" + name) or (table.get("-" + name) if written.startswith("-") else None)
    return None if spec is None or spec[0] in _SKIP_FIELDS else spec


def _key(text: str) -> str:
    return text.split(":")[0].strip().lstrip("-").replace("-", "_")


def read_inline_flags(
    s: str, runtime: str | None, taken: dict[str, Any], named: list[tuple[str, str]] = ()
) -> Flags:
    """The flags of ``runtime`` left in the normalized text ``s``; a field set in ``taken`` is kept, and a
    flag the prose named already (``named``: 'cache_max_entry_count: 0.6') is not read again from a later
    mention (another setup's, 'Llama-3.2-3B 同样 cache_max_entry_count=0.5')."""
    out = Flags(s)
    if runtime == "vLLM" and "vllm" in s:  # s36: its stated release gates the CUDA-graph check
        from bot.parse.engines_named import stated_vllm_version

        out.fields["vllm_version"] = stated_vllm_version(s)
    elif runtime == "lmdeploy" and "lmdeploy" in s:  # s42: before v0.2.2 its KV share is of the total
        from bot.parse.engines_named import stated_lmdeploy_version

        out.fields["lmdeploy_version"] = stated_lmdeploy_version(s)
    elif runtime == "TGI" and ("tgi" in s or "generation" in s):  # s43: v0.9.4–v1.4.0 keep no headroom
        from bot.parse.engines_named import stated_tgi_version

        out.fields["tgi_version"] = stated_tgi_version(s)
    if ("chunked_local" in s or "kvcache" in s or "hybrid-kv" in s) and runtime in (None, "vLLM", "SGLang"):
        from bot.parse.chunked_flags import chunked_settings  # s45: Llama 4's chunked-attention KV

        said, spans = chunked_settings(out.s)
        out.fields.update(said)
        if "chunked_hybrid_kv" in said:  # the variable's 0/1 is no count: read (bot.parse.left_behind)
            out.computed_from += (int(said["chunked_hybrid_kv"]),)
        for start, end in spans:
            out.s = mask(out.s, start, end, " ")
    tool = _TOOLS.get(runtime or "")
    xinference = "xinference" in s  # Xinference's launch flags beside its engine's (s13: '--n-gpu 2')
    budgets = "-tokens" in s or "_tokens" in s or "prefill" in s  # s37-rev: a token budget, no engine named
    if (tool is None and not xinference and not budgets) or not _GATE.search(s):
        return out
    table = {**SERVE_FLAGS.get(tool or "", {}), **(SERVE_FLAGS["xinference"] if xinference else {})}
    seen = {_key(text) for text, _ in named}
    for m in FLAG_RE.finditer(s):
        spec = _spec(table, m.group("flag"))
        if spec is None and m.group("v").isdigit():  # s37-gen: a token budget, named
            budget = "--" + m.group("flag").lstrip("-").replace("_", "-")
            if budget in TOKEN_BUDGET_FLAGS and _key(budget) not in seen:
                out.unused.append((f"{budget}: {m.group('v')}", "no_field"))
                out.s = mask(out.s, m.start(), m.end(), " ")
        if spec is None or _key(m.group("flag")) in seen:
            continue
        field_name, kind = spec
        raw = m.group("v")
        value = _convert(kind, float(raw) if "." in raw else int(raw) if raw.isdigit() else raw)
        if value is None or (taken.get(field_name) is not None and taken[field_name] != value):
            continue
        if kind == "slots_context":  # llama.cpp -c: the KV cache of all -np slots together
            out.computed_from += (value,)
            value, limit = slot_context(value, taken.get("concurrency"))
            if limit:
                out.fields.setdefault("max_model_len", limit)
        out.fields.setdefault(field_name, value)
        out.s = mask(out.s, m.start(), m.end(), " ")
    if "tp" not in out.fields and taken.get("tp") is None and ("-tp" in s or "-tensor" in s):
        from bot.parse.tp_unset import tp_left_unset

        out.fields.update(tp_left_unset(s, tool))  # '没加 --tp': the engine's default TP 1 (s32)
    return out


def sharded_tp(f: dict[str, Any], s: str) -> Any:
    """The TP of the request fields ``f`` of the normalized text ``s``: TGI's ``SHARDED=true`` with no
    ``--num-shard`` on a count of cards is TP over all of them (:data:`TGI_SHARDED_RE`; round 10, s15)."""
    count = f.get("gpu_count")
    if f.get("runtime") == "TGI" and f.get("tp") is None and isinstance(count, int | float) and count > 1:
        return int(count) if float(count).is_integer() and TGI_SHARDED_RE.search(s) else None
    return f.get("tp")
