"""The weights every GPU of a data-parallel-attention group keeps whole (s44 fixserve #2): with DP attention
each rank runs its own sequences' attention, so the attention weights are not split over the group the way
tensor parallelism splits them — per GPU they are a whole copy (attention TP 1), while the routed experts
stay split over the group (EP or TP). Before, the whole model was divided by the group: DeepSeek-V3 FP8 on 8
GPUs 84.1 GB each, where SGLang keeps 95.7 GB and vLLM 99.6 GB. Sizes in bytes.

What a rank holds whole, by engine (attention TP = 1: SGLang's DP = TP, the layout sized; vLLM's
``--tensor-parallel-size 1`` per DP rank):

- SGLang ``--enable-dp-attention``: the attention projections (``python/sglang/srt/layers/dp_attention.py``
  ``compute_dp_attention_world_info``: ``attn_tp_size = tp_size // dp_size``) and the token embedding
  (``models/deepseek_v2.py``: ``VocabParallelEmbedding(..., enable_tp=not is_dp_attention_enabled())``);
  the output head (``ParallelLMHead`` over the whole TP group unless ``--enable-dp-lm-head``), the dense
  MLPs (``--moe-dense-tp-size`` None: the whole group) and the shared experts stay split.
- vLLM ``--data-parallel-size`` with ``--enable-expert-parallel``: "model weights are replicated across
  separate instances/GPUs" and "expert layers form a tensor parallel group of size DP × TP" (vLLM docs,
  serving/data_parallel_deployment.md): every weight but the routed experts — attention, dense MLPs, shared
  experts, router, embedding and output head — is whole on each rank.

Counts from the catalog shape (:func:`estimator.architecture.attention_params`, ``count_params``,
``routed_expert_params``); the projections at the weights' bytes per parameter, the embedding and head at 16
bits as the checkpoints ship them (:func:`estimator.weights.weight_bytes`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from estimator.catalog import ModelSpec
    from estimator.ledger import Ledger
    from estimator.models import Inference, Precision

ATTENTION = "attention"
"""SGLang's: the attention projections and the token embedding whole on each rank."""
NON_EXPERT = "non_expert"
"""vLLM's: every weight but the routed experts whole on each rank."""


def whole_copy_bytes(spec: ModelSpec, precision: Precision | None, kept: str) -> float:
    """Bytes of the weights each rank of a DP-attention group keeps whole (``kept``: :data:`ATTENTION` or
    :data:`NON_EXPERT`), the projections at ``precision``'s bytes per parameter (None: 2, 16-bit) and the
    embedding (and vLLM's output head) at 2."""
    from estimator.architecture import attention_params, count_params, embedding_params, routed_expert_params
    from estimator.weights import bytes_per_param

    b = bytes_per_param(precision) if precision is not None else 2.0
    embed = float(spec.vocab * spec.hidden)
    if kept == ATTENTION:
        return spec.layers * attention_params(spec) * b + embed * 2.0
    embeddings = embedding_params(spec)
    rest = count_params(spec)[0] - routed_expert_params(spec) - embeddings
    return rest * b + embeddings * 2.0


def replicated_per_gpu(spec: ModelSpec, precision: Precision | None, kept: str, tp: int, pp: int) -> float:
    """Bytes per GPU above the weights ÷ (TP × PP) that DP attention keeps on a group of ``tp`` GPUs per
    stage: the whole copy of one stage's share (÷ ``pp``) less the 1/``tp`` of it the split counted."""
    return whole_copy_bytes(spec, precision, kept) / pp * (1.0 - 1.0 / tp)


KEPT_BY_ENGINE = {"SGLang": ATTENTION, "vLLM": NON_EXPERT}
"""The runtime's name (``Inference.runtime``) → what its DP-attention ranks keep whole."""


def note_replicated(spec: ModelSpec, inf: Inference, ledger: Ledger) -> None:
    """The note ``dp_attention_replicated_sglang`` / ``_vllm``: the bytes of the weights each GPU keeps whole
    (``whole_bytes``) and the bytes per GPU above the weights ÷ TP (``extra_bytes``), on ``inf``'s TP × PP
    (counted in its figures by :meth:`estimator.runtimes.ServingRuntime.replicated_bytes`). Nothing for an
    engine not in :data:`KEPT_BY_ENGINE` or a group of one GPU."""
    from estimator.models import Precision

    kept = KEPT_BY_ENGINE.get(inf.runtime or "")
    if kept is None or inf.tp <= 1:
        return
    fmt = inf.weight_format
    precision = Precision(fmt) if fmt in Precision._value2member_map_ else None
    whole = whole_copy_bytes(spec, precision, kept)
    extra = replicated_per_gpu(spec, precision, kept, inf.tp, inf.pp)
    code = "dp_attention_replicated_sglang" if kept == ATTENTION else "dp_attention_replicated_vllm"
    ledger.note(code, whole_bytes=whole / inf.pp, extra_bytes=extra, tp=inf.tp)
