"""A known config key whose value is not one the tool takes (issue 24 item 1, s39 fixc: ``finetuning_type:
lroa`` was sized as full fine-tuning and named "does not change the answer"): the closest value of the
tool's own list is read in its place, and named as not understood ("did you mean lora?").

Value lists, each from the tool's source:

- LLaMA-Factory ``finetuning_type``: ``bot/recipes/flags/llamafactory.json`` ``finetuning_types``
  (FinetuningArguments, Literal['lora', 'oft', 'freeze', 'full'], v0.9.5);
- LLaMA-Factory ``stage``: the same file's note (Literal['pt', 'sft', 'rm', 'ppo', 'dpo', 'kto']);
- LLaMA-Factory ``quantization_bit``: 8, 4 (bitsandbytes), 3, 2 (HQQ) — the bits
  :func:`bot.parse.configs.training._method` sizes (model_args.py ``quantization_bit``);
- DeepSpeed ``zero_optimization.stage``: 0–3 (deepspeed/runtime/zero/config.py ``ZeroStageEnum``).

A text value is close when its edit distance (insertions, deletions, substitutions and swaps of two
neighbouring letters: the optimal-string-alignment distance) to exactly one value is the smallest and at
most 2, and below the value's length; a number when exactly one value is one away. Otherwise nothing is
read in its place (the key keeps the reason it had: ``bad_value``).
"""

from __future__ import annotations

from typing import Any

VALUES: dict[str, tuple[Any, ...]] = {
    "finetuning_type": ("lora", "oft", "freeze", "full"),
    "stage": ("pt", "sft", "rm", "ppo", "dpo", "kto"),
    "quantization_bit": (8, 4, 3, 2),
    "zero_optimization.stage": (0, 1, 2, 3),
}
"""Key → the values the tool takes (sources in the module docstring)."""
TOOL_KEYS = {
    "llamafactory": ("finetuning_type", "stage", "quantization_bit"),
    "deepspeed": ("zero_optimization.stage",),
}
"""The keys each tool's own list gives (a 'stage' of another tool means something else: axolotl has none)."""
MAX_DISTANCE = 2
"""Edits a typed value may be from the value it is read as (one swap 'lroa' → 'lora' counts 1)."""


def distance(a: str, b: str) -> int:
    """Optimal-string-alignment distance: insertions, deletions, substitutions, adjacent swaps."""
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            row[j] = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


def closest(key: str, value: Any) -> Any:
    """The one value of ``key``'s list closest to ``value`` (a value the tool does not take), or None."""
    values = VALUES.get(key)
    if values is None or isinstance(value, bool) or value is None:
        return None
    if isinstance(values[0], int):
        try:
            number = float(value)
        except (TypeError, ValueError):
            return None
        near = [v for v in values if abs(v - number) == 1]
        return near[0] if len(near) == 1 and number.is_integer() and number not in values else None
    text = str(value).strip().lower()
    if not text or text in values:
        return None
    scored = sorted((distance(text, v), v) for v in values)
    best, value_of = scored[0]
    tie = len(scored) > 1 and scored[1][0] == best
    return value_of if best <= MAX_DISTANCE and best < len(value_of) and not tie else None


def read_close(flat: dict[str, Any], tool: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """(``flat`` with each close value read in place of the typed one, {key: the value as typed}, {key:
    a value the tool does not take and close to none of its values})."""
    typed: dict[str, Any] = {}
    far: dict[str, Any] = {}
    for key in TOOL_KEYS.get(tool, ()):
        value = flat.get(key)
        if value is None or _takes(key, value):
            continue
        if closest(key, value) is not None:
            typed[key] = value
        elif key == "finetuning_type":  # no handler names it (the others' handlers say bad_value)
            far[key] = value
    if not typed:
        return flat, typed, far
    return {**flat, **{k: closest(k, v) for k, v in typed.items()}}, typed, far


def _takes(key: str, value: Any) -> bool:
    """Whether ``value`` is one of ``key``'s values (text in any case; a number as written)."""
    values = VALUES[key]
    if isinstance(values[0], int):
        return not isinstance(value, bool) and str(value).strip() in {str(v) for v in values}
    return str(value).strip().lower() in values


def suggestion(text: str) -> tuple[str, str] | None:
    """('lora', 'lora, oft, freeze, full') for an ignored item 'finetuning_type: lroa', or None."""
    key, sep, value = text.partition(": ")
    near = closest(key, value) if sep else None
    if near is None:
        return None
    return str(near), ", ".join(map(str, VALUES[key]))
