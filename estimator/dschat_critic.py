"""DeepSpeed-Chat step 3's critic and reward models, each a model of its own (issue 24, s49 leftovers #3).

DeepSpeedExamples applications/DeepSpeed-Chat dschat/rlhf/rlhf_engine.py @144e9137:
``DeepSpeedRLHFEngine.__init__`` builds ``self.critic = self._init_critic(critic_model_name_or_path=…)`` and
``self.reward = self._init_reward(critic_model_name_or_path=…)``: both from the critic's path (the step-2
reward model), not the actor's. ``_init_critic`` puts LoRA on the critic only ``if
self.args.critic_lora_dim > 0`` (main.py's default 0), then gives ``get_optimizer_grouped_parameters`` of
the whole critic to Adam (FusedAdam, or DeepSpeedCPUAdam with ``--offload``): without critic LoRA the
critic trains in full — 16-bit weights, gradients and the fp32 AdamW states, as the actor's full training
is counted (:func:`estimator.model_states.model_state_bytes`). ``_init_reward`` loads the same path for
evaluation only: frozen 16-bit weights, ZeRO-3-partitioned only when the critic's stage is 3.

So the critic is no longer the actor's adapters under a LoRA actor (the model of TRL's PEFT path): its
size is the stated critic's (``SizingRequest.critic_params``, e.g. facebook/opt-350m), else the actor's; with
``--critic_lora_dim`` the critic is a frozen 16-bit copy plus adapters of that rank (their states counted as
the actor's adapters are, scaled by the critic's size over the actor's and by the ranks' ratio: the
adapters of a similar shape, an approximation said so).
"""

from __future__ import annotations

from estimator.catalog import ModelSpec
from estimator.models import Plan
from estimator.setup import Layout, TrainingSetup


def critic_parts(
    spec: ModelSpec, params: float, setup: TrainingSetup, plan: Plan | Layout
) -> dict[str, float]:
    """'critic' and 'reward' bytes per GPU for DeepSpeed-Chat step 3 (``setup.critic``: the critic's
    parameters or None for the actor's, and its LoRA rank, 0 = full training), on ``plan``'s TP × PP shard
    and ZeRO stage over DP, as the actor's states are placed."""
    from estimator.lora import lora_params
    from estimator.model_states import LORA_ADAPTER_BYTES_PER_PARAM, model_state_bytes

    own, rank = setup.critic or (None, 0)
    n = own or params
    shard, z3 = n / (plan.tp * plan.pp), plan.dp if plan.zero_stage >= 3 else 1
    if rank:  # LoRA on the critic: its frozen 16-bit weights and the adapters' states
        adapters = lora_params(spec, rank) * (n / params) * LORA_ADAPTER_BYTES_PER_PARAM / (plan.tp * plan.pp)
        critic = 2.0 * shard / z3 + adapters
    else:  # trained in full, as the actor's full training
        states = model_state_bytes(shard, setup.optimizer, plan.zero_stage, plan.dp, setup.master_weights)
        critic = sum(states.values()) - (states["optimizer"] if plan.offload else 0.0)
    return {"critic": critic, "reward": 2.0 * shard / z3}
