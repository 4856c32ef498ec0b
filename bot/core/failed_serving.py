"""A serving deployment the user says ran out of memory at a GPU count: a lower bound (session 18).

"vLLM OOMs on 2 A100s serving Llama-3.1-70B", "vLLM 在 2 张 A100 上 32k 上下文 OOM 了": the count is what
failed (:mod:`bot.parse.count_failed`). As for training (:mod:`bot.core.failed_counts`) the request is
sized at the count that failed, to learn whether the estimate agrees, then at the fewest count above it
(or the estimate's recommended count when more); the answer's fewest and recommended counts are raised to
it. The estimate agrees when the weights and one full-context sequence do not fit on that count
(``min_gpus`` above it) or no sequence of the context fits (``max_concurrency`` 0); else it disagrees, and
the note names what a server reserves that the estimate did not, in the runtime's own settings
(:mod:`bot.core.runtime_keys`: vLLM's ``--max-model-len``, TGI's ``--max-total-tokens``, llama.cpp's ``-c``).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.core.runtime_keys import runtime_keys
from estimator.models import Note, SizingReport, SizingRequest
from estimator.units import GIB

SERVING_AGREES = "serving_count_failed"
"""Note: serving ran out of memory at a count, and the estimate agrees (nothing fits there)."""
SERVING_DISAGREES = "serving_count_failed_fit"
"""Note: serving ran out of memory at a count, but the estimate holds the weights and sequences there."""
SERVING_EDGE = "serving_count_failed_edge"
"""Note: serving ran out of memory at a count where llama.cpp fits only with flash attention, which the user
did not state (``feasible_reason`` 'flash_unstated', :func:`estimator.serving_verdict.flash_unstated`):
the build without it agrees with the run (s33)."""

SERVING_SHARE = "serving_count_failed_share"
"""Note: serving ran out of memory at a count where a stated lmdeploy before v0.2.2 cannot allocate the KV
share it takes of the card's total memory (``feasible_reason`` 'lmdeploy_total_share',
:mod:`estimator.lmdeploy_release`): the estimate agrees with the run (s42)."""

Sized = tuple[SizingReport, dict[str, str]]
"""A report and where the values filled before estimating came from (:func:`bot.core.pipeline._size`)."""


def serving_above_failed(
    request: SizingRequest, probe: Sized, above: int, size: Callable[[SizingRequest], Sized | None]
) -> Sized | None:
    """``request`` (serving, ``gpu_count`` up to ``gpu_count_max`` failed) sized above what failed; ``probe``
    is it sized at the largest count that failed, ``above`` the fewest count the layout search tries above
    it (:func:`bot.core.failed_counts.fewest_above`), ``size`` sizes one request. None when it cannot."""
    inf = probe[0].inference
    failed = request.gpu_count_max or request.gpu_count
    if inf is None or failed is None:
        return None
    agrees = inf.min_gpus > failed or inf.max_concurrency < 1
    params = {
        "gpu_count": failed,
        "weights_gib": (inf.weights_bytes / failed + inf.workspace_bytes_per_gpu) / GIB,  # TP over them
        "usable_gib": inf.usable_bytes_per_gpu / GIB,
        "kv_tokens": inf.kv_capacity_tokens or 0,
        "max_concurrency": inf.max_concurrency,
        "context": inf.context_tokens,
        "feasible": probe[0].feasible,  # the verdict at the count that failed (fidelity checks read it)
    }
    code = SERVING_AGREES if agrees else SERVING_DISAGREES
    if not agrees:  # the runtime's own settings named (s33 #f: not vLLM's for every runtime)
        params |= runtime_keys(getattr(request.runtime, "value", request.runtime))
    flash = ("flash_unstated", "flash_unstated_ollama")  # llama.cpp's, Ollama's (s33 fix A)
    scores = next((n.params for n in probe[0].warnings if n.code in flash), None)
    if not agrees and probe[0].feasible_reason in flash and scores:
        code, params = SERVING_EDGE, params | scores  # scores_bytes, context
    if not agrees and probe[0].feasible_reason == "lmdeploy_total_share":  # s42: the engine's share
        code = SERVING_SHARE
    if agrees:
        above = max(above, inf.recommended_gpus, inf.min_gpus)
    # More GPUs after an OOM are for more memory per model copy: tensor-parallel over all of them, never
    # replicas no larger than the copy that failed (2 failed → 'TP=1 × 4 replicas' would hold less); a
    # TP the user stated stays theirs.
    tp = request.tp if request.tp is not None else above
    sized = size(request.model_copy(update={"gpu_count": above, "gpu_count_max": None, "tp": tp}))
    if sized is None or sized[0].inference is None:
        return None
    report, sources = sized
    now = report.inference
    assert now is not None
    raised = {k: above for k in ("min_gpus", "recommended_gpus") if getattr(now, k) <= failed}
    report = report.model_copy(update={"inference": now.model_copy(update=raised)})
    note = Note(code=code, params={**params, "next_gpus": above})
    older = None if agrees else _older_lmdeploy(request, failed, size) or _older_tgi(request)
    notes = [note, older] if older is not None else [note]
    return report.model_copy(update={"warnings": [*notes, *report.warnings]}), sources


OLDER_LMDEPLOY = "lmdeploy_share_unstated"
"""Note: the estimate fits where lmdeploy ran out of memory, no release stated, and the rule of lmdeploy
v0.2.0 and v0.2.1 (the KV share taken of the card's total memory: :mod:`estimator.lmdeploy_release`) does
not fit there — a likely cause the reply names without assuming the release (s42: InternLM/lmdeploy#978,
#1001 and #1019, three OOM reports on those releases in January 2024)."""


def _older_lmdeploy(
    request: SizingRequest, failed: int, size: Callable[[SizingRequest], Sized | None]
) -> Note | None:
    """:data:`OLDER_LMDEPLOY` with the figures of that rule at the count that failed, when lmdeploy is the
    runtime, no release is stated and a v0.2.1 run would not fit there; else None."""
    if getattr(request.runtime, "value", request.runtime) != "lmdeploy" or request.lmdeploy_version:
        return None
    update = {"gpu_count": failed, "gpu_count_max": None, "lmdeploy_version": "0.2.1"}
    sized = size(request.model_copy(update=update))
    found = [n.params for n in sized[0].warnings if n.code == "lmdeploy_total_share"] if sized else []
    if not found:
        return None
    return Note(code=OLDER_LMDEPLOY, params={k: v for k, v in found[0].items() if k != "release"})


OLDER_TGI = "tgi_headroom_unstated"
"""Note: the estimate fits where TGI ran out of memory and no release is stated: TGI v0.9.4 to v1.4.0 kept no
memory back beyond its warm-up (:mod:`estimator.tgi_release`) — a likely cause the reply names without
assuming the release (s43: huggingface/text-generation-inference#653 and #1374, both on those releases)."""


def _older_tgi(request: SizingRequest) -> Note | None:
    """:data:`OLDER_TGI` when TGI is the runtime and no release is stated; else None."""
    if getattr(request.runtime, "value", request.runtime) != "TGI" or request.tgi_version:
        return None
    return Note(code=OLDER_TGI, params={})
