"""ColossalAI Chat (Coati) training scripts' own flags (s45 round 41, en41-011): ``--strategy`` and
``--accimulation_steps``, which TRL's rows (the rows its other flags are read with) do not have.

Source: hpcaitech/ColossalAI ``applications/Chat/examples/train_sft.py`` (and its ``train_reward_model.py``,
``train_prompts.py``):

- ``--strategy``: ``naive`` / ``ddp`` → no sharding (ZeRO stage 0); ``colossalai_zero1`` /
  ``colossalai_zero2`` → ``ColossalAIStrategy(stage=1|2, placement_policy='cuda')``; ``colossalai_gemini`` →
  ``ColossalAIStrategy(stage=3, placement_policy='cuda')``; a ``_cpu`` suffix → ``placement_policy='cpu'``
  (parameters and optimizer states kept in CPU memory: CPU offload).
- ``--accimulation_steps`` (spelled so in the script: ``accimulation_steps=args.accimulation_steps``): the
  gradient accumulation steps.

A strategy the table does not know is left to the generic rows (named as not used, as before).
"""

from __future__ import annotations

from typing import Any

from bot.parse.configs.model import StackConfig

COATI_STRATEGIES: dict[str, int] = {
    "naive": 0, "ddp": 0, "colossalai_zero1": 1, "colossalai_zero2": 2, "colossalai_gemini": 3,
}  # fmt: skip
"""Coati ``--strategy`` → the ZeRO stage it shards by (a ``_cpu`` suffix adds CPU offload)."""


def coati_flags(flat: dict[str, Any], cfg: StackConfig) -> None:
    """Read ``--strategy`` and ``--accimulation_steps`` of a ColossalAI Chat script from ``flat`` (its
    flags, dashes dropped) into ``cfg``; each key read is taken out of ``flat``."""
    strategy = str(flat.get("strategy", "")).strip().lower()
    base = strategy.removesuffix("_cpu")
    if base in COATI_STRATEGIES:
        cfg.set("strategy", "zero_stage", COATI_STRATEGIES[base])
        if strategy.endswith("_cpu"):
            cfg.values["offload"] = True
        flat.pop("strategy")
    steps = flat.get("accimulation_steps")
    if isinstance(steps, int) and not isinstance(steps, bool) and steps > 0:
        cfg.accumulation, cfg.accumulation_key = steps, "accimulation_steps"
        flat.pop("accimulation_steps")
