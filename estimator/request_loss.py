"""Whether the loss is computed without the whole vocabulary's logits, declared here and mixed into
:class:`estimator.request.SizingRequest` through :class:`estimator.request_optimizer.OptimizerStep` (the
request module stays within the 500-line limit of tests/test_layout.py)."""

from pydantic import Field

from estimator.request_provenance import Provenance
from estimator.request_setting import _setting


class LossKernel(Provenance):
    """A chunked (fused linear) cross-entropy when the user turns one on (JSON name as the field)."""

    chunked_loss: bool | None = Field(
        None,
        description="A cross-entropy that never holds the fp32 logits of the whole vocabulary, as the user "
        "stated it: Liger Kernel's fused linear cross-entropy (transformers/TRL/ms-swift use_liger_kernel, "
        "LLaMA-Factory enable_liger_kernel, verl actor_rollout_ref.model.use_liger; linkedin/Liger-Kernel "
        "src/liger_kernel/ops/fused_linear_cross_entropy.py computes the logits chunk by chunk, each chunk "
        "about the hidden states' size, and frees them before the next; Hsu et al. 2024, arXiv 2410.10989 "
        "§3.2). True: the loss's peak is a chunk's (estimator.transients: CHUNKED_LOSS_BYTES_PER_LOGIT); "
        "False or None: the tool's own loss (Unsloth chunks its own: estimator.training_tools)",
        json_schema_extra=_setting("training", json_order=80, echo="stage_suffix"),
    )
