"""The reasons of a training rate of the whole cluster (s42 zhleft #2, bot.parse.cluster_rate) in words,
kept apart from :mod:`bot.render.ignored_texts` (at its 500-line cap), which merges them into
``IGNORED_TEXTS``."""

from __future__ import annotations

from bot.render.i18n import N_

CLUSTER_RATE_TEXTS = {
    "cluster_rate": N_(
        "a training speed of all your cards together: say how many GPUs ran it (or give the rate per GPU) "
        "and the run is timed with it"
    ),
    "cluster_rate_used": N_(
        "your cards' measured training speed together: divided by their count, it is the rate per GPU this "
        "answer times the job with"
    ),
}
"""``cluster_rate`` (no GPU count to divide it by: not used) and ``cluster_rate_used`` (÷ the job's GPU count:
the measured rate per GPU the answer times with) → words."""
