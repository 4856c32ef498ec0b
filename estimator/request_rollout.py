"""The RL rollout engine's placement, declared once here and mixed into
:class:`estimator.request.SizingRequest` (kept apart so the request module stays within the 500-line limit
of tests/test_layout.py): its share of each GPU and whether it shares the training GPUs
(:mod:`estimator.colocate`)."""

from pydantic import Field

from estimator.request_compute import ComputeBudget
from estimator.request_setting import _setting


class RolloutSettings(ComputeBudget):
    """Where the RL rollout engine runs (JSON names as the fields)."""

    rollout_gpu_memory_utilization: float | None = Field(
        None,
        gt=0,
        le=1,
        description="the RL rollout engine's share of each GPU (verl rollout.gpu_memory_utilization, ms-swift"
        "/OpenRLHF vllm_gpu_memory_utilization): its usable memory (estimator.rollout.engine_usable_bytes)",
        json_schema_extra=_setting("training", json_order=61, echo="stage_suffix", stated=(0.01, 1)),
    )
    rollout_colocated: bool | None = Field(
        None,
        description="the rollout engine runs on the training GPUs (TRL GRPOConfig vllm_mode='colocate'): its "
        "share of each card is counted against the training memory (estimator.colocate); False: a separate "
        "vLLM server (vllm_mode='server', TRL's default), on GPUs of its own",
        json_schema_extra=_setting("training", json_order=70),
    )
    rollout_sleep_mode: bool | None = Field(
        None,
        description="the colocated rollout engine sleeps during training steps (TRL GRPOConfig "
        "vllm_enable_sleep_mode=True: 'offload weights/cache during the optimizer step', "
        "trl/trainer/grpo_config.py): its share is then not taken from the training memory "
        "(estimator.colocate)",
        json_schema_extra=_setting("training", json_order=71),
    )
    kl_beta: float | None = Field(
        None,
        ge=0,
        le=100,
        description="the RL KL coefficient stated (TRL GRPOConfig beta): 0 loads no reference model, > 0 one "
        "(estimator.rl_reference; TRL's GRPO default is 0.0, trl/trainer/grpo_config.py L671 at v1.9.0)",
        json_schema_extra=_setting("training", json_order=84),
    )
    ds3_gather_for_generation: bool | None = Field(
        None,
        description="the RL trainer gathers the ZeRO-3-partitioned policy to generate its own rollouts (TRL "
        "GRPOConfig / ms-swift ds3_gather_for_generation, default True: trl/trainer/grpo_config.py, "
        "swift/trainers/arguments.py); False: generation runs on the partitions, no whole copy per GPU "
        "(estimator.trainer_generation)",
        json_schema_extra=_setting("training", json_order=85, echo="stage_suffix"),
    )
    rollout_batch: int | None = Field(
        None,
        gt=0,
        le=10_000_000,
        description="prompts one RL rollout samples, counted as OpenRLHF counts its --rollout_batch_size "
        "('Batch size for make experience', openrlhf/cli/train_ppo_ray.py @021d1b0): each gives "
        "num_generations (--n_samples_per_prompt) responses, decoded at once, then trained in steps of "
        "global_batch (--train_batch_size, counted in responses): estimator.rollout_batch",
        json_schema_extra=_setting("training", json_order=89, stated=(1, 10_000_000)),
    )
    reference_copy: bool | None = Field(
        None,
        description="the RL trainer loads its frozen reference model as a whole copy of the base even when "
        "the policy trains LoRA adapters (DeepSpeed-Chat step 3: dschat/rlhf/rlhf_engine.py _init_ref loads "
        "actor_model_name_or_path again, convert_linear_layer_to_lora touches the actor only): counted at "
        "the base's 16-bit size (estimator.model_states); None/False: with LoRA the reference is the base "
        "with its adapters switched off (TRL, PEFT disable_adapter)",
        json_schema_extra=_setting("training", json_order=130),
    )
    critic_params: float | None = Field(
        None,
        gt=0,
        le=1e13,
        description="parameters of DeepSpeed-Chat step 3's critic, a model of its own ("
        "--critic_model_name_or_path,"
        " the step-2 reward model; the reward model is loaded from the same path: dschat/rlhf/rlhf_engine.py "
        "_init_critic / _init_reward @144e9137): counted at that size (estimator.dschat_critic); None: the "
        "actor's size",
        json_schema_extra=_setting("training", json_order=132),
    )
    critic_lora_dim: int | None = Field(
        None,
        ge=0,
        le=65536,
        description="DeepSpeed-Chat step 3's --critic_lora_dim (default 0: the critic trains in full, its own"
        " AdamW states; > 0: LoRA adapters on a frozen critic, rlhf_engine.py _init_critic): "
        "estimator.dschat_critic",
        json_schema_extra=_setting("training", json_order=133, stated=(0, 65536)),
    )
