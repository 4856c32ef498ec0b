"""How a request field is declared (:func:`_setting`): its scope, methods, echo, JSON position and the
values a user may state. Kept apart from :mod:`estimator.request` (which re-exports it) so the request
module stays within the 500-line limit of tests/test_layout.py."""

from __future__ import annotations

from typing import Any

SCOPES = ("training", "serving")
ECHOES = ("stage_suffix", "serving_suffix")


def _setting(
    scope: str | None = None,
    *,
    json_order: int,
    methods: tuple[str, ...] = (),
    runtimes: tuple[str, ...] = (),
    echo: str | None = None,
    stated: tuple[float, float] | None = None,
) -> dict[str, Any]:
    """A stated setting's declaration, kept in its field's ``json_schema_extra``.

    ``scope``: "training" (a serving answer has no use for it), "serving" (a training answer has none),
    None (both). ``json_order``: its position in the ``request`` object of the JSON contract (schema 1:
    append only). ``methods``: the fine-tuning methods it belongs to (empty: all). ``runtimes``: the
    serving engines whose setting it is (empty: any; a follow-up onto another engine drops it:
    :mod:`estimator.runtime_scope`). ``echo``: where the
    reply names it — "stage_suffix" (bot.render.stated.stated_settings), "serving_suffix"
    (serving_settings), None (not echoed next to the stage). ``stated``: (lowest, highest) value a user
    may state, both ends included (:func:`bounds`); the estimator itself takes any value its field allows."""
    assert scope in (None, *SCOPES) and echo in (None, *ECHOES)
    out = {"scope": scope, "json_order": json_order, "methods": [str(m) for m in methods], "echo": echo}
    out["runtimes"] = [str(r) for r in runtimes]
    return out | ({"stated": stated} if stated else {})
