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
    split, whole = _parts(spec, precision, kept)
    return split + whole


def _parts(spec: ModelSpec, precision: Precision | None, kept: str) -> tuple[float, float]:
    """(bytes a rank splits over its attention TP, bytes it keeps whole whatever that TP): SGLang splits
    the attention projections over ``attn_tp_size`` and keeps the token embedding whole
    (``VocabParallelEmbedding(..., enable_tp=not is_dp_attention_enabled())``); vLLM's rank splits every
    weight it keeps over its own TP, the embedding and head too (``VocabParallelEmbedding`` over the
    rank's TP group)."""
    from estimator.architecture import attention_params, count_params, embedding_params, routed_expert_params
    from estimator.weights import bytes_per_param

    b = bytes_per_param(precision) if precision is not None else 2.0
    if kept == ATTENTION:
        return spec.layers * attention_params(spec) * b, float(spec.vocab * spec.hidden) * 2.0
    embeddings = embedding_params(spec)
    rest = count_params(spec)[0] - routed_expert_params(spec) - embeddings
    return rest * b + embeddings * 2.0, 0.0


def replicated_per_gpu(
    spec: ModelSpec, precision: Precision | None, kept: str, group: tuple[int, int], attn_tp: int = 1
) -> float:
    """Bytes per GPU above the weights ÷ (TP × PP) that DP attention keeps on ``group`` = (TP, PP) GPUs
    whose ranks split their attention over ``attn_tp`` GPUs (SGLang ``attn_tp_size = tp_size // dp_size``,
    python/sglang/srt/layers/dp_attention.py; vLLM each DP engine's TP): one stage's share (÷ PP) of the
    kept weights, their split part ÷ ``attn_tp`` and their whole part, less the 1/TP of both the split
    counted. 0 when ``attn_tp`` ≥ TP (no data parallelism left inside the group)."""
    tp, pp = group
    split, whole = _parts(spec, precision, kept)
    a = max(1, min(attn_tp, tp))
    return max(0.0, (split / a + whole - (split + whole) / tp) / pp)


KEPT_BY_ENGINE = {"SGLang": ATTENTION, "vLLM": NON_EXPERT}
"""The runtime's name (``Inference.runtime``) → what its DP-attention ranks keep whole."""


def note_replicated(spec: ModelSpec, inf: Inference, ledger: Ledger, attn_tp: int = 1) -> None:
    """The note ``dp_attention_replicated_sglang`` / ``_vllm``: the bytes of the weights each GPU keeps whole
    (``whole_bytes``) and the bytes per GPU above the weights ÷ TP (``extra_bytes``), on ``inf``'s TP × PP
    (counted in its figures by :meth:`estimator.runtimes.ServingRuntime.replicated_bytes`); with ranks of
    ``attn_tp`` > 1 GPUs, ``dp_attention_split_sglang`` / ``_vllm`` with the share each GPU keeps of them
    (``whole_bytes``) and ``attn_tp`` (s45). Nothing for an engine not in :data:`KEPT_BY_ENGINE`, a group
    of one GPU, or ranks as large as the group."""
    from estimator.models import Precision

    kept = KEPT_BY_ENGINE.get(inf.runtime or "")
    if kept is None or inf.tp <= 1 or attn_tp >= inf.tp:
        return
    fmt = inf.weight_format
    precision = Precision(fmt) if fmt in Precision._value2member_map_ else None
    split, whole = _parts(spec, precision, kept)
    kept_bytes = split / max(1, attn_tp) + whole
    extra = replicated_per_gpu(spec, precision, kept, (inf.tp, inf.pp), attn_tp)
    share = {"whole_bytes": kept_bytes / inf.pp, "extra_bytes": extra, "tp": inf.tp}
    if attn_tp > 1:
        code = "dp_attention_split_sglang" if kept == ATTENTION else "dp_attention_split_vllm"
        ledger.note(code, attn_tp=attn_tp, **share)
        return
    code = "dp_attention_replicated_sglang" if kept == ATTENTION else "dp_attention_replicated_vllm"
    ledger.note(code, **share)
