"""A stated context beyond any model's window, in words (moved out of bot/render/ignored_texts.py, s40, to
keep it within 500 lines; re-exported there)."""

from __future__ import annotations

from bot.render.i18n import N_, translate

WINDOW_BEYOND = N_(
    "beyond any model's context window: the longest published, Llama 4 Scout's, holds about 10M tokens"
)
"""A stated context above the longest a setting may take (``seq_len`` over its declared 10⁸): no model reads
that much (s36 fixe #2, '上下文 10000000k')."""
SEQ_TYPED = N_("context %(value)s")
SEQ_MAX = 100_000_000  # the most seq_len may take (estimator.request.bounds, tests/test_s36_fixe.py)


def seq_typed(text: str, lang: str) -> str:
    """'seq_len: 10000000000' → 'context 10,000,000K' (thousands, as contexts are written: '8k', '128K'; a
    value of no whole thousands as it is)."""
    value = float(text[9:])
    shown = f"{int(value) // 1000:,}K" if value >= 1000 and value % 1000 == 0 else f"{int(value):,}"
    return translate(lang, SEQ_TYPED, value=shown)
