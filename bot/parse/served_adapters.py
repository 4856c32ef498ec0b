"""LoRA adapters served beside their base model (issue 24, round 24): vLLM's ``--enable-lora`` /
``--lora-modules`` / ``max_loras`` (vllm/engine/arg_utils.py), multi-LoRA serving, 'each request has its
own LoRA adapter'. A serving question's method word is no job of its own (a tuned model served), so it was
dropped; adapters loaded at serving time are a setting the sizing has no field for (their weights, rank ×
(d_in + d_out) per adapted matrix, and vLLM's slots for ``max_loras`` adapters of ``max_lora_rank``), so
'method: lora' is named as such (``no_field``), never dropped in silence."""

from __future__ import annotations

from bot.parse.regex import rc

SERVED_ADAPTERS_RE = rc(
    r"(?<![a-z0-9])(?:-{0,2}enable[\-_]lora|lora[\-_]modules|max[\-_]loras|multi[\s\-_]?loras?"
    r"|lora[\s\-_]+adapters?|own\s+lora)(?![a-z0-9])"
)
"""The ways a served adapter is written: vLLM's flags and argument, 'multi-LoRA', 'LoRA adapter(s)',
'its own LoRA'."""


def served_adapters(s0: str, named: list[tuple[str, str]]) -> None:
    """Name 'method: lora' (``no_field``) in ``named`` when the normalized serving question ``s0`` serves
    LoRA adapters (:data:`SERVED_ADAPTERS_RE`); always None: the served model's method is no job."""
    if SERVED_ADAPTERS_RE.search(s0) and ("method: lora", "no_field") not in named:
        named.append(("method: lora", "no_field"))
