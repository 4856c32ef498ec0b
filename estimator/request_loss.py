"""Whether the loss is computed without the whole vocabulary's logits, which transformers runs an MoE's
experts (s41 fixtrain #5) and a training run's attention (s42 eager), declared here and mixed into
:class:`estimator.request.SizingRequest` through :class:`estimator.request_optimizer.OptimizerStep` (the
request module stays within the 500-line limit of tests/test_layout.py)."""

from typing import Literal

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
    transformers_version: str | None = Field(
        None,
        pattern=r"^\d{1,2}(?:\.\d{1,3}){0,2}$",
        description="The transformers release the user runs ('5.0', '4.57.1'), as stated. From v5 an MoE's "
        "experts run torch._grouped_mm by default (transformers modeling_utils.py "
        "get_correct_experts_implementation: 'grouped_mm' when none is requested, 'eager' only where "
        "torch._grouped_mm cannot dispatch, PyTorch < 2.9; integrations/moe.py grouped_mm_experts_forward), "
        "so the calibrated MoE rate stands; before v5 the modeling files loop over the experts a batch hit "
        "(estimator.training_tools.runs_eager_experts, estimator.training_rate.eager_moe_slowdown)",
        json_schema_extra=_setting("training", json_order=105),
    )
    experts_implementation: Literal["eager", "grouped_mm", "batched_mm"] | None = Field(
        None,
        description="transformers v5's experts_implementation as the user set it (from_pretrained "
        "experts_implementation=..., config._experts_implementation; integrations/moe.py ExpertsInterface): "
        "'grouped_mm' keeps the calibrated MoE rate; 'eager' (the per-expert loop) and 'batched_mm' (one "
        "bmm per routed token, gathering its expert's weights: a decode path) keep the eager floor "
        "(estimator.training_rate.eager_moe_slowdown); None: the release's default",
        json_schema_extra=_setting("training", json_order=106),
    )
    attention_implementation: Literal["eager", "sdpa", "flash_attention_2"] | None = Field(
        None,
        description="The training run's attention as the user set it: transformers attn_implementation "
        "('eager', 'sdpa', 'flash_attention_2'), LLaMA-Factory flash_attn (disabled → eager, sdpa, fa2; "
        "llamafactory/model/model_utils/attention.py configure_attn_implementation; 'auto', its default, "
        "is not a setting), axolotl eager_attention / sdp_attention / flash_attention: true, or words "
        "('flash attention off', '没开 flash attention'). 'eager' keeps each layer's b × heads × s × s "
        "scores (estimator.attention_scores: Korthikanti et al. 2022 Table 2's 5·a·s/h term); 'sdpa' and "
        "'flash_attention_2' keep none, the default count. None: not stated (SDPA / FlashAttention)",
        json_schema_extra=_setting("training", json_order=109, echo="stage_suffix"),
    )
    expert_parallel: int | None = Field(
        None,
        gt=0,
        le=1024,
        description="The expert-parallel degree (EP) the user stated for MoE training ('EP=8', Megatron-LM "
        "--expert-model-parallel-size 8, '专家并行 8'): each EP rank holds num_experts / EP routed experts "
        "of every MoE layer (Megatron-Core megatron/core/transformer/moe/moe_layer.py: num_local_experts = "
        "num_moe_experts // expert_parallel_size), the rest of the model replicated over EP within data "
        "parallelism "
        "(megatron/core/parallel_state.py: expert-data-parallel group = DP / EP). Used by the MoE "
        "full-training plan (estimator.expert_parallel.stated_ep); named not usable where it does not "
        "divide the routed experts, exceeds the GPUs, or the job has no expert layers to split",
        json_schema_extra=_setting("training", json_order=131),
    )
