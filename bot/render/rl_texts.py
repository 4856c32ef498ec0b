"""Ledger sentences of RL trainers (their own generation, :mod:`estimator.trainer_generation`; a run with
no reference model), merged into :data:`bot.render.ledger_texts.WHY_TEXTS` (split from it at 500 lines;
``tests/test_i18n.py`` checks each has a Chinese translation)."""

from bot.render.i18n import N_

RL_WHY_TEXTS: dict[str, str] = {
    # a vLLM fork (Aphrodite) is named in its own ledger lines, sized as the engine it forks (s38-fixs2 #3)
    "own_cards_context": N_(
        "the longest context (prompt + output) that starts on the number of cards you named (%(gpu_count)s): "
        "the weights and one sequence's KV cache within the engine's share of the card, --max-model-len "
        "%(max_model_len)s (its KV cache's tokens rounded down to whole 1,024s); the %(seq_len)s otherwise "
        "assumed does not fit them"
    ),
    "fork_utilization": N_(
        "%(runtime)s default gpu_memory_utilization = 0.9 (a fork of %(upstream)s, with its default)"
    ),
    "fork_workspace": N_(
        "what %(runtime)s's start-up profiling keeps besides weights and KV cache, sized as in "
        "%(upstream)s, which it forks: one forward pass of max_num_batched_tokens and the sampler's logits "
        "for max_num_seqs rows, plus non-torch memory; the CUDA context and CUDA graphs sit outside "
        "gpu_memory_utilization"
    ),
    "flops_no_reference": N_(
        "derived: LoRA/QLoRA need no weight gradients for frozen weights (4ND); GRPO/RLOO add the generation "
        "forward pass (2ND); no reference model is loaded (a KL coefficient of 0: %(setting)s), so no "
        "reference forward"
    ),
    "flops_no_reference_ppo": N_(
        "derived: LoRA/QLoRA need no weight gradients for frozen weights (4ND); PPO also trains a critic of "
        "the policy's size and adds the reward-model and generation forward passes (2ND each); no reference "
        "model is loaded (a KL coefficient of 0: %(setting)s), so no reference forward"
    ),
    "trainer_generation_batch": N_(
        "sequences each GPU generates at once in %(tool)s's own generate when no batch is given: its "
        "per_device_train_batch_size default × steps_per_generation (= gradient_accumulation_steps, "
        "%(steps)s); "
        "their KV cache is held beside the model while it generates"
    ),
    "rl_tool_global_batch": N_(
        "%(tool)s's own step when no batch is given: per_device_train_batch_size %(per_device)s × the GPUs × "
        "gradient_accumulation_steps 1, one generation batch per optimizer step (steps_per_generation)"
    ),
    "trl_rl_seq_len": N_(
        "tokens of each trained sequence when no length is given: TRL's own max_prompt_length (%(prompt)s) "
        "+ max_completion_length (%(completion)s), the longest prompt and completion a GRPO/RLOO step "
        "trains on (trl/trainer/grpo_config.py @35def3e)"
    ),
    "verl_rl_seq_len": N_(
        "tokens of each trained sequence when no length is given: verl's own data.max_prompt_length "
        "(%(prompt)s) + data.max_response_length (%(completion)s), the longest prompt and response a "
        "GRPO/RLOO step trains on (verl/trainer/config/data/legacy_data.yaml @09d3a66b)"
    ),
    "trainer_generation_context": N_(
        "tokens of each generated sequence when no length is given: the prompt (%(prompt)s) and the "
        "completion (%(completion)s) by the tool's own max lengths"
    ),
}
"""Reason key → the sentence shown in the ledger (%-parameters from the assumption)."""

FULL_FLOPS_TEXTS: dict[str, str] = {
    "flops_per_param_token": N_(
        "derived: training every weight costs 6ND (a forward pass 2ND, the backward 4ND; Kaplan et al. "
        "2020); DPO adds the reference model's forward pass (2ND), GRPO/RLOO the reference and generation "
        "forward passes (2ND each), PPO a critic of the policy's size trained beside it (6ND) and the "
        "reference, reward-model and generation forward passes (2ND each)"
    ),
    "flops_no_reference": N_(
        "derived: training every weight costs 6ND (Kaplan et al. 2020); GRPO/RLOO add the generation "
        "forward pass (2ND); no reference model is loaded (a KL coefficient of 0: %(setting)s), so no "
        "reference forward"
    ),
    "flops_no_reference_ppo": N_(
        "derived: training every weight costs 6ND (Kaplan et al. 2020); PPO also trains a critic of the "
        "policy's size (6ND) and adds the reward-model and generation forward passes (2ND each); no "
        "reference model is loaded (a KL coefficient of 0: %(setting)s), so no reference forward"
    ),
}
"""The FLOPs-per-token reasons of a run that trains every weight (``trained`` = "all", estimator.training
._k): s42 trial #16, a full GRPO run read 'LoRA/QLoRA need no weight gradients' under k = 8."""

ADAPTER_SFT_FLOPS = N_(
    "derived: LoRA/QLoRA need no weight gradients for the frozen weights: the forward pass (2ND) and the "
    "backward pass's activation gradients (2ND), 4ND"
)
"""k = 4 of an adapter run with no reference, reward or generation passes (supervised fine-tuning)."""


def flops_text(key: str, trained: object, value: object) -> str | None:
    """The method's own FLOPs-per-token reason for ``key`` (a ``flops_*`` reason): every weight trained →
    :data:`FULL_FLOPS_TEXTS`; adapters at k = 4 (SFT) → :data:`ADAPTER_SFT_FLOPS`; else None (the
    reason's own sentence, which covers adapters with preference or RL passes)."""
    if trained == "all":
        return FULL_FLOPS_TEXTS.get(key)
    if trained == "adapters" and key == "flops_per_param_token" and value == 4.0:
        return ADAPTER_SFT_FLOPS
    return None
