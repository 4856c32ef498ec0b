"""Prefix caching named in prose (s45 trial leftover): 'with prefix caching', '开prefix caching',
'开启前缀缓存', 'enable automatic prefix caching'. Before, the words were neither used nor named.

It changes no figure of the sizing: vLLM's V1 engine turns automatic prefix caching on by default
(``enable_prefix_caching`` None → True for the V1 engine, vllm/engine/arg_utils.py), SGLang's RadixAttention
is on unless ``--disable-radix-cache``, and the cached prefixes live in the same KV pool
(``gpu_memory_utilization`` sizes it either way); a hit only skips the prefill of the shared prefix. So it is
named ``prefix_caching`` as typed, with that reason (nothing masked: it holds no number)."""

from __future__ import annotations

from bot.parse.regex import rc

PREFIX_CACHING_RE = rc(
    r"(?:automatic\s+|auto[\s\-]+)?prefix[\s\-_]*cach(?:e|ing)(?![a-z])|前缀缓存|前缀\s*cache|radix[\s\-_]*cache"
)
"""'prefix caching', 'prefix-caching', 'automatic prefix caching', 'prefix cache', '前缀缓存', 'radix
cache' on the normalized (lower-case) text; a pasted ``--enable-prefix-caching`` flag is the command reader's
(:mod:`bot.parse.configs.launchers`), never here."""


def prefix_caching(s: str, raw: str = "") -> list[tuple[str, str]]:
    """The first prefix-caching phrase of ``s`` named as ``prefix_caching``, as typed in ``raw`` when the two
    align (same length), or []. Callers test for 'prefix', '前缀' or 'radix' first. A flag
    ('--enable-prefix-caching', '--disable-radix-cache') is left to the command reader."""
    for m in PREFIX_CACHING_RE.finditer(s):
        if s[max(0, m.start() - 9) : m.start()].endswith(("enable-", "disable-", "no-")):
            continue
        text = raw[m.start() : m.end()] if len(raw) == len(s) else m.group(0)
        return [(text, "prefix_caching")]
    return []
