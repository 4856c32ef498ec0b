"""lmdeploy (TurboMind) releases before v0.2.2: ``cache_max_entry_count`` is a share of the card's TOTAL
memory, not of the memory left free after the weights load (s42 fidelity). Sizes in bytes, counts in GPUs.

Source: InternLM/lmdeploy ``src/turbomind/models/llama/BlockManager.cc`` ``BlockManager::GetBlockCount``
at v0.2.0 and v0.2.1 (line 89): ``cudaMemGetInfo(&free, &total); return static_cast<size_t>(total * ratio) /
block_size;`` — the KV blocks take ``ratio`` × total whatever the weights hold; ``lmdeploy/messages.py``
``TurbomindEngineConfig.cache_max_entry_count: float = 0.5`` ("the percentage of gpu memory occupied by
the k/v cache, default to 0.5"), and ``lmdeploy/turbomind/deploy/target_model/base.py``
``cache_chunk_size: int = -1``: all blocks are allocated at start-up (v0.1.x: the same share of the total,
``cache_chunk_size = 1``, allocated as the cache fills). Commit 0f324a4cf, "fix OOM in BlockManager"
(InternLM/lmdeploy#973, 2024-01-26, first in v0.2.2), changed it to ``free * ratio``; v0.2.2 also raised the
default to 0.8 (:data:`estimator.runtimes.others.LMDEPLOY_CACHE_MAX_ENTRY_COUNT`). The thread it answers:
InternLM/lmdeploy#978 (lmdeploy 0.2.0, internlm2-chat-7b on one RTX 3090, "CUDA runtime error: out of
memory"), where the maintainer's fix is ``TurbomindEngineConfig(cache_max_entry_count=0.2)``: 15.5 GB of
fp16 weights + 0.5 × 24 GiB of KV blocks exceed the card; 0.2 × 24 GiB beside them fits.
"""

from __future__ import annotations

from estimator import defaults
from estimator.catalog import GpuSpec, ModelSpec
from estimator.ledger import Ledger
from estimator.models import Inference, SizingRequest
from estimator.runtimes.base import visible_bytes
from estimator.runtimes.others import Lmdeploy

LMDEPLOY_FREE_SHARE = (0, 2, 2)
"""The first lmdeploy release whose ``cache_max_entry_count`` is a share of the free memory (#973)."""
LMDEPLOY_TOTAL_SHARE_DEFAULT = 0.5
"""``cache_max_entry_count``'s default before v0.2.2 (``lmdeploy/messages.py`` at v0.2.0 and v0.2.1;
``target_model/base.py`` at v0.1.0): half of the card's total memory."""


def release_tuple(version: str) -> tuple[int, int, int]:
    """'major.minor[.patch]' as a tuple of three ints; a patch not written is taken as the minor release's
    latest (999): 'lmdeploy v0.2' may be v0.2.5, so only a minor line wholly before v0.2.2 (0.1) counts."""
    parts = [int(p) for p in version.split(".")[:3]] + [999]
    return parts[0], parts[1], parts[2]


def shares_total(version: str | None) -> bool:
    """Whether lmdeploy ``version`` (as stated) takes its KV share of the card's total memory: a stated
    release before :data:`LMDEPLOY_FREE_SHARE` ('0.2.1', '0.1'; not '0.2', which may be a later patch).
    None (not stated): False, the current releases' rule."""
    return bool(version) and release_tuple(version) < LMDEPLOY_FREE_SHARE


def total_share_verdict(
    req: SizingRequest,
    inf: Inference,
    card: tuple[ModelSpec, GpuSpec, Lmdeploy],
    verdict: tuple[str | None, str | None],
    ledger: Ledger,
) -> tuple[str | None, str | None]:
    """('no', 'lmdeploy_total_share') when a stated lmdeploy before v0.2.2 cannot allocate its KV blocks,
    else ``verdict``. Each GPU must hold its weights (``inf.weights_bytes`` ÷ TP × PP), the CUDA context,
    one prefill's activations (:meth:`Lmdeploy.needed_workspace`) and ``share`` × the memory CUDA reports
    (the user's ``cache_max_entry_count``, else :data:`LMDEPLOY_TOTAL_SHARE_DEFAULT`). Noted with the share,
    the bytes per GPU it takes and the largest share that fits (0 when even the weights do not): internlm2
    7B (15.5 GB fp16) on a 3090 at 0.5 needs 28.8 GB of 25.8 (no); the largest share is 0.31, so 0.2 fits."""
    spec, gpu, runtime = card
    if verdict[0] not in ("yes", "borderline") or not shares_total(req.lmdeploy_version):
        return verdict
    total = visible_bytes(gpu)
    share = runtime.utilization or LMDEPLOY_TOTAL_SHARE_DEFAULT
    beside = (
        inf.weights_bytes / max(1, inf.tp * inf.pp)
        + defaults.CUDA_CONTEXT_BYTES.value
        + runtime.needed_workspace(spec, gpu, inf.tp)
    )
    if beside + share * total <= total:
        return verdict
    largest = max(0.0, (total - beside) / total)
    ledger.note(
        "lmdeploy_total_share",
        release=req.lmdeploy_version,
        share=share,
        kv_bytes=share * total,
        beside_bytes=beside,
        total_bytes=total,
        largest_share=int(largest * 100) / 100,
    )
    return "no", "lmdeploy_total_share"
