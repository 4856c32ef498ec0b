"""A serving flag typed as a prefix of the flag it means ('--max-num-seq 2' for vLLM's ``--max-num-seqs``).

Python's argparse accepts any unique prefix of a long option unless the parser turns ``allow_abbrev`` off
(docs.python.org/3/library/argparse.html, "Argument abbreviations (prefix matching)"; default True), and
the engines below build their CLIs on argparse (vLLM ``FlexibleArgumentParser``, SGLang ``ServerArgs``,
lmdeploy ``ArgumentParser``). A thread's command run that way (vllm-project/vllm#3872: ``--max-num-seq=2``)
set the flag, so the sizing reads it as that flag rather than naming it as a key the tool has not.
"""

from __future__ import annotations

ARGPARSE_ENGINES = frozenset({"vllm", "sglang", "lmdeploy"})
"""Serving engines whose launch flags are parsed by argparse with its default prefix matching."""


def expand_prefix(tool: str, flag: str) -> str | None:
    """The one flag of ``tool`` (its table in ``bot/recipes/flags/<tool>.json``) that ``flag`` is a proper
    prefix of ('--max-num-seq' → '--max-num-seqs'), or None: not an argparse engine, no long flag, a flag
    the tool has, or a prefix of several flags (argparse rejects it as ambiguous)."""
    if tool not in ARGPARSE_ENGINES or not flag.startswith("--") or len(flag) < 5:
        return None
    typed = flag.replace("_", "-")
    from bot.parse.configs.vocab import keys

    if typed in keys(tool):
        return None
    from bot.parse.configs.vocab import keys

    hits = [k for k in keys(tool) if k.startswith(typed) and k != typed]
    return hits[0] if len(hits) == 1 else None
