"""The reasons of a serving flag that changes the sizing but is not modelled (s43 trial #3/#4,
bot.parse.configs.serve_flag_reasons) in words, kept apart from :mod:`bot.render.ignored_texts` (at its
500-line cap), which merges them into ``IGNORED_TEXTS``."""

from __future__ import annotations

from bot.render.i18n import N_

SERVE_FLAG_TEXTS = {
    "speculative_not_modelled": N_(
        "speculative decoding is not modelled: the draft model's weights and KV cache also take GPU memory "
        "(not counted above), and the decode speed shown is without it — its speed-up depends on how many "
        "drafted tokens are accepted"
    ),
    "speculative_draft": N_(
        "the draft model of your speculative decoding, not another setup: its weights and KV cache also take "
        "GPU memory (not counted above), and the decode speed shown is without speculation"
    ),
    "expert_parallel": N_(
        "expert parallelism is not modelled as its own layout: the experts are sized split over the same "
        "GPUs by tensor parallelism (each GPU holds about the same bytes of them either way); the "
        "all-to-all exchange of tokens between GPUs is not in the speed"
    ),
}
"""``speculative_not_modelled``, ``speculative_draft`` (s43 fixserve2 #2) and ``expert_parallel`` →
words (sources in :mod:`bot.parse.configs.serve_flag_reasons`)."""
