"""The memory a LoRA merge needs, before the reply (s46 trial #2: 'how much memory to merge a LoRA adapter
into Llama 3.1 70B?' was answered with a LoRA fine-tuning plan).

PEFT's ``LoraModel.merge_and_unload`` adds each adapter's scaled B·A into its base layer's weight in place
(peft/tuners/lora/layer.py ``merge``: ``base_layer.weight.data += delta_weight``) and returns the base model:
no gradients, optimizer states or activations. The memory is the base loaded at 16 bits, 2 bytes a parameter
(``torch_dtype=torch.bfloat16`` in the usual merge scripts; transformers before v5 loads fp32 when no dtype is
given, twice that) plus the adapter when its rank is stated, in CPU RAM or spread over GPUs
(``device_map="auto"``); the merged model saved is the same 2 bytes a parameter on disk. Imported by
bot.render.renderer only for a request with ``merge_asked``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.fmt import fmt_for
from bot.render.i18n import N_, translate

if TYPE_CHECKING:
    from bot.core.answer import Answer

MERGE_HEAD = N_(
    "Merging a LoRA adapter into this %(params)s model: ≈ %(gb)s (%(gib)s) of memory, CPU RAM or GPUs — the "
    "base's 16-bit weights (2 B × %(params)s parameters; PEFT merge_and_unload adds each adapter's B·A "
    "into its layer: no gradients, optimizer states or activations). Load the base with "
    "torch_dtype=torch.bfloat16: transformers before v5 loads fp32 when none is given, twice this. The "
    "merged model is %(gb)s on disk."
)
MERGE_ADAPTER = N_(
    "With your rank %(rank)s adapter: %(adapter)s more (%(adapter_params)s parameters, r × (d_in + d_out) on "
    "each adapted matrix, at 16 bits), ≈ %(total)s (%(total_gib)s) in all."
)
"""The adapter's own bytes when its rank is stated (estimator.lora.lora_params: Hu et al. 2021 §4, A r × d_in
and B d_out × r on each targeted matrix; PEFT saves them in the training dtype, 16-bit assumed)."""
MERGED_BELOW = N_("Below: serving the merged model.")
BYTES_16 = 2
"""bf16/fp16 bytes a parameter: the base as merge scripts load it (module doc)."""


def merge_head(text: str, answer: Answer) -> str:
    """``text`` (a rendered reply) with the merge's memory before its first line; unchanged without a
    parameter count."""
    params = answer.report.request.params_total if answer.report is not None else None
    if not params:
        return text
    f = fmt_for(answer.lang)
    nbytes = params * BYTES_16
    head = translate(answer.lang, MERGE_HEAD, params=f.params(params), gb=f.gb(nbytes), gib=f.gib(nbytes))
    adapter = _adapter_params(answer)
    if adapter:
        extra, total = adapter * BYTES_16, nbytes + adapter * BYTES_16
        rank = f.int(answer.report.request.lora_rank)
        head += ("" if answer.lang == "zh" else " ") + translate(  # zh joins with no space (s46 review N5)
            answer.lang,
            MERGE_ADAPTER,
            rank=rank,
            adapter=f.gb(extra),
            adapter_params=f.params(adapter),
            total=f.gb(total),
            total_gib=f.gib(total),
        )
    return head + "\n" + translate(answer.lang, MERGED_BELOW) + "\n\n" + text


def merge_json(answer: Answer) -> dict[str, float | None] | None:
    """The JSON's ``report.merge`` (s46 review N5): ``bytes`` (the base's 16-bit weights, 2 B × parameters:
    the merge's memory and the merged model's size on disk), ``adapter_bytes`` (a stated-rank adapter's
    16-bit bytes, :func:`_adapter_params`; None without a rank or a catalog shape), ``total_bytes`` (their
    sum); None without a parameter count."""
    params = answer.report.request.params_total if answer.report is not None else None
    if not params:
        return None
    adapter = _adapter_params(answer)
    extra = adapter * BYTES_16 if adapter else None
    base = params * BYTES_16
    return {"bytes": base, "adapter_bytes": extra, "total_bytes": base + (extra or 0)}


def _adapter_params(answer: Answer) -> float | None:
    """The stated-rank adapter's parameters on the catalog model's shape (its targets, else all linear
    layers, PEFT's all-linear); None without a rank or a catalog shape."""
    req = answer.report.request
    if not req.lora_rank or not req.model:
        return None
    from estimator.catalog import model as catalog_model
    from estimator.lora import lora_params

    try:
        spec = catalog_model(req.model)
    except (KeyError, ValueError):
        return None
    return lora_params(spec, int(req.lora_rank), req.lora_targets) if spec is not None else None
