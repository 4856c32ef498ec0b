"""TGI releases v0.9.4 to v1.4.0: the KV blocks take all the memory free at the warm-up's peak, none kept
back (s43 fidelity). Sizes in bytes.

Source: huggingface/text-generation-inference ``server/text_generation_server/models/flash_causal_lm.py``
``FlashCausalLM.warmup`` at v0.9.4 (lines 742-753) through v1.4.0: after the warm-up prefill of
``--max-batch-prefill-tokens``, ``free_memory = max(0, total_free_memory - (1 - MEMORY_FRACTION) *
total_gpu_memory)`` and ``num_blocks = int(free_memory // total_cache_size) + CACHE_MANAGER.num_blocks`` —
every byte CUDA reports free becomes KV blocks; ``router/src/main.rs`` at v0.9.4 (lines 224-236) then
ignores a stated ``--max-batch-total-tokens`` for flash-attention models ("`--max-batch-total-tokens` is
deprecated for Flash Attention models", commit fe80f536, PR #630, first in v0.9.4). Commit 0d794af6
(PR #1428, 2024-02-12, first in v1.4.1) keeps 5 % back ("Leave 5% for some wiggle room":
``free_memory * 0.95``); later releases keep ``TGI_WIGGLE_ROOM`` (:data:`estimator.runtimes.others.
TGI_WIGGLE_ROOM`), which the sizing models. A run on those releases has no memory beyond what its warm-up
allocated: any request that allocates more (another shape, the allocator's fragmentation) runs out of
memory — huggingface/text-generation-inference#653 (v0.9.x, Llama-2-7B on one A10G: "overwrites the max
batch total tokens to 16224 and takes up all of the 22Gb") and #1374 (v1.3.3, CodeLlama-34B EETQ on one
A100 40GB: warm-up passes, a 4,000-token request "Tried to allocate 42.00 MiB … 31.94 MiB is free").
"""

from __future__ import annotations

from estimator.ledger import Ledger

TGI_NO_HEADROOM = ((0, 9, 4), (1, 4, 1))
"""The releases whose KV blocks fill the memory free at the warm-up's peak: from v0.9.4 (PR #630, the
inferred max_batch_total_tokens) to before v1.4.1 (PR #1428, 5 % kept back)."""
TGI_NO_HEADROOM_SOURCE = (
    "huggingface/text-generation-inference server/text_generation_server/models/flash_causal_lm.py warmup "
    "(v0.9.4–v1.4.0: num_blocks from all the free memory; PR #1428, v1.4.1: 5 % kept back)"
)
"""The ledger's citation of :data:`TGI_NO_HEADROOM`."""


def release_tuple(version: str) -> tuple[int, int, int]:
    """'major.minor[.patch]' as three ints; a patch not written is the minor line's first (0): a minor
    line counts as it starts — 'TGI 1.4' is v1.4.0 here, inside the range, since the fix came in a patch."""
    parts = [int(p) for p in version.split(".")[:3]] + [0, 0]
    return parts[0], parts[1], parts[2]


def no_headroom(version: str | None) -> bool:
    """Whether TGI ``version`` (as stated) fills all the memory free at its warm-up with KV blocks:
    v0.9.4 up to v1.4.0 ('1.3.3', '1.0', '0.9.4'; not '0.9.3', '1.4.1', '2.0.4'). None (not stated):
    False, the current releases' rule."""
    if not version:
        return False
    low, high = TGI_NO_HEADROOM
    return low <= release_tuple(version) < high


def release_share(version: str | None) -> float | None:
    """The share of ``--cuda-memory-fraction`` × the card that TGI ``version`` (as stated) lets its KV
    blocks fill (:attr:`estimator.runtimes.Tgi.wiggle_room`): 1.0 for v0.9.4–v1.4.0 (:func:`no_headroom`:
    ``free_memory = max(0, total_free_memory - (1 - MEMORY_FRACTION) * total_gpu_memory)`` in
    ``flash_causal_lm.py`` ``warmup``, every free byte); None for any other or no release, whose share the
    sizing keeps (``TGI_WIGGLE_ROOM``)."""
    return 1.0 if no_headroom(version) else None


def no_headroom_verdict(
    version: str | None, verdict: tuple[str | None, str | None], ledger: Ledger
) -> tuple[str | None, str | None]:
    """('borderline', 'tgi_no_headroom') for a "fits" on a stated TGI v0.9.4–v1.4.0
    (:func:`no_headroom`): the engine keeps nothing back beyond its warm-up, so the fit is as tight as a
    card can be (the note names the release and the fix); else ``verdict``."""
    if verdict != ("yes", None) or not no_headroom(version):
        return verdict
    ledger.note("tgi_no_headroom", release=version)
    return "borderline", "tgi_no_headroom"
