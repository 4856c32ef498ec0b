"""A training fit that holds only with gradient checkpointing the user's stack leaves off (s50 verdict).

Where the user states no recompute mode and their tool does not turn one on by default, the search may still
switch on full recompute (gradient checkpointing) to fit their count (the ``recompute_chosen`` note,
:func:`estimator.training_plan._note_recompute_chosen`). The run they launch keeps its activations then:

- transformers ``TrainingArguments.gradient_checkpointing`` defaults to ``False`` (src/transformers/
  training_args.py: "If True, use gradient checkpointing to save memory at the expense of slower backward
  pass"); the HF Trainer (no tool named, :data:`DEFAULT_OFF_TOOLS`' "HF Trainer") and a plain PyTorch script
  under torchrun run without it unless told;
- axolotl: ``gradient_checkpointing`` defaults to ``False`` (src/axolotl/utils/schemas/config.py);
- OpenRLHF: ``--gradient_checkpointing`` is a ``store_true`` flag (openrlhf/cli/train_sft.py,
  train_dpo.py, train_ppo_ray.py), off unless passed.

Tools that turn it on themselves are left as they are: LLaMA-Factory, Unsloth and verl
(:attr:`estimator.training_tools.ToolLimits.default_recompute`, then ``setup.tool_recompute``), ms-swift
(``--gradient_checkpointing`` defaults to True in its command-line arguments), TRL (recent ``SFTConfig`` /
``DPOConfig`` turn it on; older releases do not: not assumed either way), Megatron-family tools (their
'selective' / 'full' is a layout choice the search makes), and QLoRA with no tool named — PEFT's
``prepare_model_for_kbit_training(model, use_gradient_checkpointing=True)`` (peft/utils/other.py), the
QLoRA recipe's own step (Dettmers et al. 2023, qlora.py ``--gradient_checkpointing True``).

Then a fit that needs it is no plain "fits": the verdict on the user's setup as configured (design §8) is
"borderline" ('recompute_unstated', the precedent of llama.cpp's unstated flash attention,
:func:`estimator.serving_verdict.flash_unstated`) when the same layout keeping its activations does not fit
within the headroom — its likely figure over 90 % of the card (:data:`estimator.plan.HEADROOM`) or its band's
high end over the card, the reasons ``recompute_chosen`` gives ('activations', 'high_edge', 'headroom').
A plan picking full recompute where keeping the activations fits too (a layout preference) stays "yes".
"""

from __future__ import annotations

from estimator.models import Method, SizingRequest
from estimator.setup import TrainingSetup

DEFAULT_OFF_TOOLS = frozenset({"HF Trainer", "PyTorch DDP", "axolotl", "OpenRLHF"})
"""Named tools whose gradient checkpointing is off unless set (module docstring, with sources); no tool named
counts as the HF Trainer."""


def unstated_verdict(req: SizingRequest, setup: TrainingSetup) -> tuple[str, str | None]:
    """The verdict of a fit whose plan switched on full recompute the user did not set, where the same layout
    keeping its activations does not fit within the headroom (the ``recompute_chosen`` note's reason,
    :func:`estimator.training_plan._note_recompute_chosen`, not None): ('borderline', 'recompute_unstated')
    where their stack leaves gradient checkpointing off (module docstring), else ('yes', None)."""
    tool = req.training_tool
    if setup.tool_recompute or (tool is not None and tool not in DEFAULT_OFF_TOOLS):
        return "yes", None
    if setup.method == Method.qlora and tool is None:  # PEFT's prepare_model_for_kbit_training turns it on
        return "yes", None
    return "borderline", "recompute_unstated"
