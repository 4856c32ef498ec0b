"""Which AdamW implementation runs the optimizer step, declared here and mixed into
:class:`estimator.request.SizingRequest` through :class:`estimator.request_compute.ComputeBudget` (the
request module stays within the 500-line limit of tests/test_layout.py)."""

from typing import Literal

from pydantic import Field

from estimator.request_loss import LossKernel
from estimator.request_setting import _setting

ADAMW_IMPLEMENTATIONS = {
    "adamw_torch": "foreach",
    "adamw_torch_fused": "fused",
    "adamw_apex_fused": "fused",
}
"""Hugging Face ``optim`` names (transformers/training_args.py ``OptimizerNames``) → the torch AdamW
implementation they run: ``adamw_torch`` builds ``torch.optim.AdamW`` without ``fused``, which on CUDA
tensors runs the foreach implementation (torch/optim/optimizer.py ``_default_to_fused_or_foreach``:
foreach when neither is given); ``adamw_torch_fused`` passes ``fused=True`` (transformers/trainer.py
``Trainer.get_optimizer_cls_and_kwargs``); ``adamw_apex_fused`` is apex's ``FusedAdam``, one kernel per
tensor list as well. The other names (``adamw_hf``, 8-bit, paged) keep the step they had."""

OTHER_OPTIMIZERS = ("adafactor", "galore", "lion", "muon", "sgd")
"""Optimizers people name that are not AdamW (transformers/training_args.py ``OptimizerNames``: adafactor,
sgd, lion_32bit / lion_8bit / paged_lion_*, galore_adamw*; Muon): the request's ``optimizer_other``."""


def other_optimizer(name: object) -> str | None:
    """The family of a named optimizer that is not AdamW ('paged_lion_8bit' → 'lion', 'galore_adamw' →
    'galore', 'Adafactor' → 'adafactor'), None for AdamW's names and any other."""
    lower = str(name).lower()
    return next((o for o in OTHER_OPTIMIZERS if o in lower), None)


class OptimizerStep(LossKernel):
    """AdamW's implementation when the user names it (JSON name as the field)."""

    optimizer_impl: Literal["foreach", "fused"] | None = Field(
        None,
        description="AdamW's implementation the user named: 'foreach' (HF optim adamw_torch: "
        "torch.optim.AdamW's _multi_tensor_adamw, whose _foreach_sqrt keeps a copy of the second moments, "
        "+4 B/param at ZeRO-0) or 'fused' (adamw_torch_fused, transformers' default on torch >= 2.8: no "
        "such copy); None: fused likely, foreach at the high end (estimator.transients.step_bytes)",
        json_schema_extra=_setting("training", json_order=79, echo="stage_suffix"),
    )
    optimizer_other: Literal["sgd", "adafactor", "lion", "muon", "galore"] | None = Field(
        None,
        description="an optimizer the user named that is not AdamW ('optim adafactor', 'Lion'): the states "
        "are sized as AdamW's and the name is listed as not used; no optimizer change (fused or 8-bit "
        "AdamW) is offered over it (estimator.fit_change, s26 review #2)",
        json_schema_extra=_setting(json_order=87),  # a cue, as memory_asked: never "not used" itself
    )
