"""A model's parameter count as training tools print it (round 14 en), written as the prose the size readers
know ('6742609920 parameters'). Before, each number was left unread and a generic size (or none) sized.

The lines, from each tool's source:

- PEFT ``print_trainable_parameters`` (peft/peft_model.py): "trainable params: 4,194,304 || all params:
  6,742,609,920 || trainable%: 0.0622" — the total after 'all params'.
- mlx-lm ``lora`` (mlx_lm/tuner/utils.py ``print_trainable_parameters``): "Trainable parameters: 1.045%
  (83.886M/8030.261M)" — the total after the slash; mlx-examples ``lora.py``: "Total parameters 7243.436M".
- nanoGPT ``model.py``: "number of parameters: 124.44M" (Megatron-LM's "number of parameters on (tensor,
  pipeline) model parallel rank (0, 0): …" is one rank's share, left alone).
- llm-foundry / Composer: "cfg.n_params=6.66e+09"; transformers ``Trainer``: "Number of trainable parameters =
  6,738,415,616" is the trainable part and left alone (LoRA trains a sliver of the model).

Each count keeps its unit ('M', 'B', 'e+09') and becomes '<count> parameters'; a trainable count is never
the model's size."""

from __future__ import annotations

import re

from bot.parse.regex import rc

_COUNT = r"(?P<n>\d[\d,]*(?:\.\d+)?(?:e\+?\d{1,2})?)\s*(?P<u>[kmb](?![a-z]))?"
PARAM_LOG_RE = rc(
    r"(?:(?<![a-z])all[\s_]params|total[\s_]param(?:eter)?s|(?<![a-z])n_params|num_params"
    r"|number\s+of\s+parameters(?!\s+on))"
    rf"\s*[:=]?\s*{_COUNT}"
)
"""A total parameter count as a tool logs it (the module docstring's lines)."""
MLX_TRAINABLE_RE = rc(
    rf"trainable\s+parameters\s*[:=]?\s*[\d.]+\s*%\s*\(\s*[\d.]+\s*[kmb]?\s*/\s*{_COUNT}\s*\)"
)
"""mlx-lm's 'Trainable parameters: 1.045% (83.886M/8030.261M)': the total after the slash."""
_UNITS = {"k": 1e3, "m": 1e6, "b": 1e9, None: 1.0}


def _parameters(m: re.Match[str]) -> str:
    value = float(m.group("n").replace(",", "")) * _UNITS[m.group("u")]
    return f" a model of {value:.0f} parameters " if value >= 1e6 else m.group(0)


def param_logs(s: str) -> str:
    """The normalized text ``s`` with each logged total parameter count written '<count> parameters'
    (:data:`PARAM_LOG_RE`); called behind the substring gate 'param'."""
    s = PARAM_LOG_RE.sub(_parameters, s)
    return MLX_TRAINABLE_RE.sub(_parameters, s) if "trainable" in s else s
