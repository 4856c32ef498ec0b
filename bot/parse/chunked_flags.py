"""The settings that decide how an engine keeps Llama 4's chunked-attention KV (s45,
:mod:`estimator.chunked_kv`), read from the normalized message where their own words are in it
(the caller's gate):

- vLLM's ``VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=1|0`` (vllm/envs.py: ``"1"``/``"true"`` is on,
  anything else off), in a pasted command, an ``export`` line or prose ('… set to 0'), and its
  ``--disable-hybrid-kv-cache-manager`` flag (vllm/engine/arg_utils.py; the hybrid manager off, every layer
  keeps the whole context): ``chunked_hybrid_kv``;
- SGLang's ``--hybrid-kvcache-ratio [r]`` (python/sglang/srt/server_args.py: ``nargs='?'``, ``const=0.5``,
  a float in [0, 1]): ``hybrid_kvcache_ratio``.
"""

from __future__ import annotations

from typing import Any

from bot.parse.regex import rc

ENV_RE = rc(
    r"vllm_allow_chunked_local_attn_with_hybrid_kv_cache[\"']?\s*(?:[=:]|\s(?:set\s+)?(?:to|is|为|设为|设置为|=)?)"
    r"\s*[\"']?(1|0|true|false)(?![\w.])"
)
"""The variable and its value: '…_KV_CACHE=1', 'export …_KV_CACHE="0"', '…_KV_CACHE: true', '… set to 0'."""
DISABLE_HMA_RE = rc(r"(?<![\w-])--?disable[-_]hybrid[-_]kv[-_]cache[-_]manager(?![\w-])(?!\s*[=:]?\s*false)")
"""vLLM's switch off of the hybrid KV cache manager (a bare flag, or '=true')."""
RATIO_RE = rc(r"(?<![\w-])-{0,2}hybrid[-_]kvcache[-_]ratio(?:\s*[=:]?\s*(\d*\.?\d+)(?![\d.]))?")
"""SGLang's flag, with its value or bare (then 0.5: ``const``)."""
SGLANG_BARE_RATIO = 0.5
"""``--hybrid-kvcache-ratio`` without a value: argparse's ``const`` in SGLang's server_args.py."""


def chunked_settings(s: str) -> tuple[dict[str, Any], list[tuple[int, int]]]:
    """The request fields the normalized text ``s`` states for chunked attention: ``chunked_hybrid_kv``
    (bool) and/or ``hybrid_kvcache_ratio`` (0–1), and the (start, end) spans read, for the caller to mask
    (their numbers are no count or size); a ratio outside [0, 1] is not read. ({}, []) when none."""
    out: dict[str, Any] = {}
    spans: list[tuple[int, int]] = []
    if "chunked_local" in s:
        m = ENV_RE.search(s)
        if m is not None:
            out["chunked_hybrid_kv"] = m.group(1) in ("1", "true")
            spans.append(m.span())
    if "chunked_hybrid_kv" not in out and "hybrid" in s:
        m = DISABLE_HMA_RE.search(s)
        if m is not None:
            out["chunked_hybrid_kv"] = False
            spans.append(m.span())
    if "kvcache" in s:
        m = RATIO_RE.search(s)
        if m is not None:
            value = float(m.group(1)) if m.group(1) else SGLANG_BARE_RATIO
            if 0 <= value <= 1:
                out["hybrid_kvcache_ratio"] = value
                spans.append(m.span())
    return out, spans


COMMAND_FLAGS = {
    "sglang": frozenset({"--hybrid-kvcache-ratio", "--hybrid_kvcache_ratio"}),
    "vllm": frozenset({"--disable-hybrid-kv-cache-manager", "--disable_hybrid_kv_cache_manager"}),
}
"""The flags of a pasted serving command read here (:func:`command_flag`), by tool."""


def command_flag(cfg: Any, flag: str, value: Any) -> None:
    """One of :data:`COMMAND_FLAGS` in a pasted command, into ``cfg`` (a
    :class:`bot.parse.configs.model.StackConfig`): a ratio outside [0, 1] or a value that is no number is
    named as not used (``bad_value``); a bare ratio flag is 0.5; '--disable-hybrid-kv-cache-manager'
    (bare or true) is the hybrid manager off."""
    if "ratio" in flag:
        ratio = SGLANG_BARE_RATIO if value is True else value
        ok = isinstance(ratio, int | float) and not isinstance(ratio, bool) and 0 <= ratio <= 1
        if ok:
            cfg.set(flag, "hybrid_kvcache_ratio", float(ratio))
        else:
            cfg.skip(flag, value, "bad_value")
        return
    if value in (True, "true", "True", 1):
        cfg.set(flag, "chunked_hybrid_kv", False)


def command_env(text: str, cfg: Any) -> None:
    """``VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=…`` before a pasted vLLM command (or in its
    ``export`` lines) into ``cfg``; a flag that turned the hybrid manager off wins."""
    low = text.lower()
    if "chunked_local" not in low or "chunked_hybrid_kv" in cfg.values:
        return
    m = ENV_RE.search(low)
    if m is not None:
        on = m.group(1) in ("1", "true")
        cfg.set("VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE", "chunked_hybrid_kv", on)
