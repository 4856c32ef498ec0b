"""KV-cache layers beside a serving engine (issue 24, round 12: 'serving … with vLLM and LMCache', 'vLLM 0.9.0
and LMCache 0.3.2 … CPU offload'): a store the engine hands its KV cache to (CPU memory, disk, another node),
named as typed and as not modelled — never dropped in silence, and never the engine that is sized.

The vocabulary is vLLM's own list of KV connectors (``vllm/distributed/kv_transfer/kv_connector/factory.py``:
``LMCacheConnectorV1``, ``LMCacheMPConnector``, ``NixlConnector``, ``MooncakeConnector``,
``MooncakeStoreConnector``, ``FlexKVConnectorV1``, ``HF3FSKVConnector``, ``MoRIIOConnector``), each named by
the project behind it (LMCache, NIXL, Mooncake, FlexKV, 3FS, MoRI-IO); SGLang's HiCache storage backends
are the same projects (mooncake, hf3fs, nixl). The sizing keeps the whole KV cache in GPU memory, as the
engine itself does for the requests in flight, so the layer changes no figure of the answer (reason
``kv_cache_layer``).
"""

from __future__ import annotations

from bot.parse.regex import LazyPattern, rc

KV_CACHE_LAYERS: tuple[tuple[LazyPattern, str], ...] = (
    (rc(r"(?<![a-z0-9])lm[\s\-_]?cache(?:[\s\-_]*connector\w*)?(?![a-z0-9])"), "LMCache"),
    (rc(r"(?<![a-z0-9])nixl(?:[\s\-_]*connector\w*)?(?![a-z0-9])"), "NIXL"),
    (rc(r"(?<![a-z0-9])mooncake(?:[\s\-_]*(?:store|connector)\w*)*(?![a-z0-9])"), "Mooncake"),
    (rc(r"(?<![a-z0-9])flex[\s\-_]?kv(?:[\s\-_]*connector\w*)?(?![a-z0-9])"), "FlexKV"),
    (rc(r"(?<![a-z0-9])(?:hf3fs(?:kv)?(?:[\s\-_]*connector\w*)?|3fs)(?![a-z0-9])"), "3FS"),
    (rc(r"(?<![a-z0-9])mori[\s\-_]?io(?:[\s\-_]*connector\w*)?(?![a-z0-9])"), "MoRI-IO"),
)
"""KV-cache layers by name, as people write them (also as their vLLM connector's name) → the name the reply
uses."""

KV_LAYER_RE = rc("|".join(f"(?:{p.pattern})" for p, _ in KV_CACHE_LAYERS))
"""Any KV-cache layer, in one search (parse cost: one call for a message that names none)."""


def kv_cache_layers(s: str) -> list[tuple[str, str]]:
    """('runtime: LMCache', 'kv_cache_layer') for each KV-cache layer named in the normalized text ``s``, in
    the table's order, each once; [] when none is (one search)."""
    if not KV_LAYER_RE.search(s):
        return []
    return [(f"runtime: {name}", "kv_cache_layer") for pattern, name in KV_CACHE_LAYERS if pattern.search(s)]
