"""A size asked about alone after a catalog model of a family ('LLaMA 7B runs in int8, but 13B goes out of
memory: can a 4090 run 13B?', 'Qwen2.5 7B 在 4090 上能跑，14B 能跑吗？'; s28): the family's release of that
size when the catalog has it (LLaMA-13B, Qwen2.5-14B), never a generic dense shape of that size. The model
the message named is still named as another setup (bot.parse.field_steps, ``other_setup``).

A family named without a size and a size said apart with a model word ('ChatGLM 用 lora 微调，6B 模型要多少
显存？', 'Llama with LoRA: how much for the 70B model?'; s29) are one model when the family has a release of
that size: the family is named as typed and the size sized, as '微调 ChatGLM，模型 6B' already was — the
family never dropped for the size alone (bot.parse.model_names.MODEL_WORD_AFTER_RE lets it be read).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from estimator import catalog

_SIZE_IN_ID = re.compile(r"(?<![\d.])\d+(?:\.\d+)?B(?![A-Za-z0-9])")
"""A size in a catalog id ('Llama-2-7B' → '7B'); ids with two (an MoE's 'A3B') are not siblings by size."""


def sibling_id(model_id: str, params: float) -> str | None:
    """The catalog id of ``model_id``'s release of ``params`` parameters ('Llama-2-7B', 13e9 →
    'Llama-2-13B'), or None: no such id, the same id, or an id with no single size in it."""
    sizes = _SIZE_IN_ID.findall(model_id)
    if len(sizes) != 1 or not 1e8 <= params < 1e13:
        return None
    other = _SIZE_IN_ID.sub(f"{params / 1e9:g}B", model_id)
    return other if other != model_id and other in catalog.models() else None


def family_size(found: list[Any], asked: Any) -> Any:
    """``asked`` (a :class:`bot.parse.asked_model.Candidate`) as the family's release when it is a size
    said alone and another candidate is a catalog model with a sibling of that size (the first such);
    else ``asked`` unchanged (None stays None)."""
    if asked is None or asked.mention is not None or asked.role is None:
        return asked
    if len(found) == 2 and _family_of(next(c for c in found if c is not asked).mention, asked.role.value):
        return None  # 'ChatGLM … 6B 模型': one model, the usual order (the family named, the size sized)
    for c in found:
        mm = c.mention
        other = sibling_id(mm.model_id, asked.role.value) if mm is not None and mm.model_id else None
        if other is not None:
            sized = replace(mm, model_id=other, size=None, active=None, substitution=None)
            return replace(asked, mention=sized, starts=list(asked.starts))
    return asked


def _family_of(mm: Any, params: float) -> bool:
    """Whether the mention ``mm`` is a family named without a size (``family_only``) whose suggested
    releases include one within 10 % of ``params`` (ChatGLM: ChatGLM3-6B at 6.24e9 for '6B')."""
    if mm is None or mm.model_id is not None or mm.size is not None or not mm.family_only:
        return False
    models = catalog.models()
    sizes = [models[i].params_total for i in mm.suggestions if i in models]
    return any(abs(n - params) <= 0.1 * max(n, params) for n in sizes)
