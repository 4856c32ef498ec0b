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
    r"|lora[\s\-_]+adapters?|own\s+lora)(?![a-z0-9])|多个\s*(?:q?lora|适配器)"
    r"|挂着?\s*(?:q?lora\s*)?适配器|lora\s*(?:不要|不用|无需|不需要|别)\s*(?:合并|融合)"
)
"""The ways a served adapter is written: vLLM's flags and argument, 'multi-LoRA', 'LoRA adapter(s)',
'its own LoRA', '多个 LoRA'; s48 review B3: '挂着适配器', 'LoRA 不要合并'."""


def served_adapters(s0: str, named: list[tuple[str, str]]) -> None:
    """Name 'method: lora' (``no_field``) in ``named`` when the normalized serving question ``s0`` serves
    LoRA adapters (:data:`SERVED_ADAPTERS_RE`); always None: the served model's method is no job. A LoRA
    merged into its base ('merge the LoRA then serve it', 'LoRA 合并后部署') is one model served, no adapter
    (PEFT ``LoraModel.merge_and_unload`` adds each B·A into its layer): named only when the adapters are
    kept apart (:data:`KEPT_APART_RE`; s48, review N2)."""
    m = SERVED_ADAPTERS_RE.search(s0)
    if m is None or ("method: lora", "no_field") in named:
        return
    if ("merg" in s0 or "合并" in s0 or "融合" in s0) and not _kept_apart(s0):
        return  # s48: a LoRA merged into its base is one model served (PEFT merge_and_unload), no adapter
    named.append(("method: lora", "no_field"))


NOT_MERGED_RE = rc(
    r"\b(?:not|without|no|never|don'?t|do\s+not)\s+(?:be\s+|being\s+)?merg|\bun-?merged\b"
    r"|(?:不|不要|不用|无需|不需要|未|没有?|别)\s*(?:合并|融合)"
)
"""A merge said not to be done (s48 review B3): 'serve it without merging', 'unmerged', 'LoRA 不要合并，
挂着适配器部署': the adapter is served beside its base, no merge asked (bot.parse.merge_asked reads it too;
s49: one declaration, was written out in both)."""
KEPT_APART_RE = rc(
    r"(?<![a-z0-9])(?:-{0,2}enable[\-_]lora|lora[\-_]modules|max[\-_]loras|multi[\s\-_]?loras?|own\s+lora)(?![a-z0-9])"
    r"|\b(?:several|multiple|many|different|\d+)\s+(?:q?lora\s+)?(?:adapters|loras)\b|多个\s*(?:q?lora|适配器)"
    rf"|{NOT_MERGED_RE.pattern}"
)
"""Adapters kept apart from their base, each loaded beside it at serving time (vLLM's flags, 'multi-LoRA',
'several adapters', '多个 LoRA', 'not merged'; s48 review B3: 'without merging it', 'unmerged', '不要合并'):
served adapters even when a merge is also named."""


def _kept_apart(s0: str) -> bool:
    """Whether ``s0`` serves adapters kept apart (:data:`KEPT_APART_RE`), a merge word beside them or not."""
    return KEPT_APART_RE.search(s0) is not None
