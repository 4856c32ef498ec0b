"""A compute budget in FLOPs, declared here and mixed into :class:`estimator.request.SizingRequest`
through :class:`estimator.request_rollout.RolloutSettings` (the request module stays within the 500-line
limit of tests/test_layout.py)."""

from pydantic import Field

from estimator.request_optimizer import OptimizerStep
from estimator.request_setting import _setting

COMPUTE_BUDGET_RANGE = (1e15, 1e28)
"""The FLOPs a user may state as a training budget: from a toy run to ~100× the largest reported runs
(Llama 3.1 405B ≈ 3.8e25 FLOPs, Dubey et al. 2024 §3.2.1); 1e27-scale budgets are real plans."""


class ComputeBudget(OptimizerStep):
    """A training budget in FLOPs (JSON name as the field)."""

    compute_budget_flops: float | None = Field(
        None,
        gt=0,
        description="a training compute budget C in FLOPs ('1e23 FLOPs', '算力预算3e22 FLOPs'): with no "
        "model and no data, the compute-optimal N = √(C / 120) and D = 20·N (Hoffmann et al. 2022 §3, "
        "C = 6·N·D; estimator.compute_budget); with a size and no data, D = C / (6·N)",
        json_schema_extra=_setting("training", json_order=77, stated=COMPUTE_BUDGET_RANGE),
    )
    zero3_max_live_parameters: float | None = Field(
        None,
        gt=0,
        description="DeepSpeed ZeRO-3 ``stage3_max_live_parameters`` (elements; default 1e9, "
        "deepspeed/runtime/zero/config.py): the most gathered parameters kept on a GPU in forward and "
        "backward, the ZeRO-3 gathered-weights term (estimator.transients.gathered_weights)",
        json_schema_extra=_setting("training", json_order=78),
    )
    largest_asked: bool | None = Field(
        None,
        description="a fine-tuning question asks the largest model its money budget trains on its data "
        "('$5000, biggest model we can full finetune on H100 for 1B tokens'): no model named, the size is "
        "the unknown, N = budget ÷ price × peak × MFU × 3600 ÷ (k·D), k = 6 full (Kaplan et al. 2020 §2.1), "
        "4 LoRA; without it a fine-tune with no model asks for the model (trial s35 #1)",
        json_schema_extra=_setting(json_order=93),  # a cue, as concurrency_asked: never "not used"
    )
    offload_params: bool | None = Field(
        None,
        description="whether a stated CPU offload moves the parameters too: False for DeepSpeed "
        "offload_optimizer with no offload_param ('ZeRO-3, offload_optimizer only', "
        "'只开 offload_optimizer'): "
        "the optimizer states alone — a LoRA/QLoRA run's are small, so its frozen base stays sharded on the "
        "GPUs and it is sized without offload; None: not said (an adapter run's offload under ZeRO-3/FSDP is "
        "its parameters', estimator.adapter_offload; trial s35 #4)",
        json_schema_extra=_setting("training", json_order=94),
    )
    reward_model: bool | None = Field(
        None,
        description="the model trained is a reward model ('reward model training', '训练奖励模型'; "
        "LLaMA-Factory stage rm): each record a comparison pair, a chosen and a rejected sequence "
        "put through the model (as `samples_are_pairs` counts them), scored by a scalar head in place "
        "of the vocabulary's logits (InstructGPT, Ouyang et al. 2022 §3.5; TRL RewardTrainer, "
        "AutoModelForSequenceClassification num_labels=1); no reference model",
        json_schema_extra=_setting("training", json_order=102),
    )
