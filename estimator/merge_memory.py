"""The memory a LoRA merge needs (s46 trial #2: 'how much memory to merge a LoRA adapter into Llama 3.1
70B?').

PEFT's ``LoraModel.merge_and_unload`` adds each adapter's scaled B·A into its base layer's weight in place
(peft/tuners/lora/layer.py ``merge``: ``base_layer.weight.data += delta_weight``) and returns the base model:
no gradients, optimizer states or activations. The memory is the base loaded at 16 bits, 2 bytes a parameter
(``torch_dtype=torch.bfloat16`` in the usual merge scripts; transformers before v5 loads fp32 when no dtype is
given, twice that) plus the adapter when its rank is stated; the merged model saved is the same 2 bytes a
parameter on disk."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from estimator.models import SizingRequest

BYTES_16 = 2
"""bf16/fp16 bytes a parameter: the base as merge scripts load it, and the adapter as PEFT saves it in the
training dtype (16-bit assumed)."""


class MergeMemory(NamedTuple):
    """A merge's memory, bytes: ``bytes`` the base's 16-bit weights (also the merged model on disk),
    ``adapter_params`` / ``adapter_bytes`` a stated-rank adapter's (None without a rank or a catalog shape),
    ``total_bytes`` their sum."""

    bytes: float
    adapter_params: float | None
    adapter_bytes: float | None
    total_bytes: float


def merge_memory(request: SizingRequest) -> MergeMemory | None:
    """The merge's memory for ``request`` (its ``params_total``, and ``lora_rank`` / ``lora_targets`` on the
    catalog ``model``'s shape: estimator.lora.lora_params, Hu et al. 2021 §4, A r × d_in and B d_out × r on
    each targeted matrix, all linear layers when no targets are given, PEFT's all-linear); None without a
    parameter count."""
    if not request.params_total:
        return None
    base = request.params_total * BYTES_16
    adapter = _adapter_params(request)
    extra = adapter * BYTES_16 if adapter else None
    return MergeMemory(base, adapter or None, extra, base + (extra or 0))


def _adapter_params(request: SizingRequest) -> float | None:
    if not request.lora_rank or not request.model:
        return None
    from estimator.catalog import model as catalog_model
    from estimator.lora import lora_params

    try:
        spec = catalog_model(request.model)
    except (KeyError, ValueError):
        return None
    return lora_params(spec, int(request.lora_rank), request.lora_targets) if spec is not None else None
