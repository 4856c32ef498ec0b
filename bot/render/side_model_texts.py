"""Words for the reasons of s46's round-42 readers (split off :mod:`bot.render.ignored_texts`, near its
500-line cap, which merges them into ``IGNORED_TEXTS``)."""

from __future__ import annotations

from bot.render.i18n import N_

SIDE_MODEL_TEXTS: dict[str, str] = {
    "retrieval_model": N_(
        "the embedding or reranker model of your retrieval pipeline: not part of this sizing, which is the "
        "language model's; ask about it on its own to size it"
    ),
    "apple_gpu_cores": N_(
        "the GPU cores of the Apple chip, not a number of devices: the chip's unified memory and bandwidth "
        "size the answer"
    ),
    "other_card_job": N_(
        "the other card does another job: this answer sizes the model on the one card you gave it; ask about "
        "that job on its own to size it"
    ),
    "currency_unsupported": N_(
        "an amount in a currency the sizing does not convert (it prices in yuan and US dollars): not used; "
        "give it in yuan or dollars to compare the cost with it"
    ),
}
"""Reason → msgid (bot.parse.retrieval_models, bot.parse.foreign_money, bot.parse.other_card_job)."""
