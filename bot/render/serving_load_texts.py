"""Why a stated serving load (users, request rates, an engine's cap on sequences at once) was not used
as typed, in words: the load reasons of ``interpretation.ignored`` (bot.core.interpretation), kept apart from
:mod:`bot.render.ignored_texts` (at its 500-line cap), which merges them into ``IGNORED_TEXTS``."""

from __future__ import annotations

from bot.render.i18n import N_

SERVING_LOAD_TEXTS: dict[str, str] = {
    "users_active_share": N_(
        "the people the service is for, not sequences at once: sized at one in ten of them with a request in "
        "flight — say the concurrency if you know it"
    ),
    "users_at_once": N_("as sequences at once; if it counts people, say 'employees': one in ten at once"),
    "per_card_load": N_(
        "the concurrency you see one card hold: a measurement, not the load — the other value is sized; "
        "compare it with the estimate per GPU below"
    ),
    "rate_times_output": N_(
        "the request rate × the output tokens per request: the output tokens per second sized"
    ),
    "cap_not_load": N_("a cap on the sequences run at once, not the load: your stated concurrency is sized"),
    "qps_needs_output": N_(
        "a request rate becomes tokens per second only with the output tokens per request: give those (or "
        "a tokens/s target) and it is sized; the answer below is at the load shown"
    ),
    "per_user_rate": N_(
        "a rate for each user: say how many users send it, and the service's load is that rate × the users"
    ),
    "volume_not_load": N_(
        "a request volume, not the requests run at once: the concurrency you gave is sized"
    ),
    "users_not_load": N_(
        "the number of people who use the service, not the requests run at once: the concurrency you "
        "gave is sized"
    ),
    "current_load": N_(
        "the load you have now: capacity is planned for the peak or target you gave, which is sized"
    ),
    "measured_load": N_(
        "a load of the run you measured, beside its figures: one load of your sweep is sized; compare your "
        "figures at each load with the estimate"
    ),
    "per_user_speed": N_(
        "a speed per user, not the service's throughput: compare it with the decode speed per sequence below"
    ),
    "cap_at_load": N_(
        "the engine's cap on the sequences it runs at once, the same as your load: both are sized"
    ),
    "cap_as_load": N_(
        "the engine's cap on the sequences it runs at once; with no other load stated, that many sequences "
        "at once are sized"
    ),
    "cap_only": N_(
        "a cap on the sequences run at once, not a load: the answer gives how many fit at once on your GPUs; "
        "the engine runs fewer than the cap when its KV cache holds fewer"
    ),
    "load_above_cap": N_(
        "your stated concurrency is above this cap: the engine runs at most this many sequences at once "
        "and queues the rest; your concurrency is sized"
    ),
}
"""Serving-load reasons of ``interpretation.ignored`` → words (users and their share at once, request rates
and volumes, per-card and per-user figures, an engine's cap on sequences at once)."""

QPS_AT_LOAD = N_(
    "a request rate becomes tokens per second only with the output tokens per request (the number missing): "
    "give those (or a tokens/s target) and it is sized; the answer below assumes %(n)s concurrent sequences"
)
"""A request rate with no output length on an answer that assumed its load (no concurrency stated)."""
