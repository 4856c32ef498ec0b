"""The reasons of ``interpretation.ignored`` that session 44's reading leftovers added (issue 24), in words,
kept apart from :mod:`bot.render.ignored_texts` (at its 500-line cap), which merges them into
``IGNORED_TEXTS``."""

from __future__ import annotations

from bot.render.i18n import N_

READ_TEXTS = {
    "product_not_count": N_(
        "a product in brackets that is not the GPU count before it: the count you stated is sized"
    ),
    "asked_alternative": N_(
        "an option you ask whether you need, not a setting of your run: sized without it, your run as stated"
    ),
    "memory_target": N_(
        "the memory per GPU you want to reach, not a card's size: compare it with the memory per GPU "
        "estimated below"
    ),
}
"""``asked_alternative`` ('do I need QLoRA / int8 / int4?': bot.parse.asked_method.need_asked_spans);
``product_not_count`` ('16 A100 (4x8)': 4 × 8 = 32 is not 16; :func:`bot.parse.written_names.unequal_note`)
``memory_target`` ('bring it down to 48GB per GPU', '降到 48G 以下': bot.parse.memory_target, s46) → words."""
