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


def drop_mixin_defaults(model: type) -> None:
    """Delete the ``Field(...)`` class attributes of ``model``'s plain mixins (``SizingRequest``'s settings
    mixins: :mod:`estimator.request_provenance` … :mod:`estimator.request_local`), once pydantic has
    collected them into ``model``'s own fields, so that ``SizingRequest.users`` is an ``AttributeError``
    as for any pydantic field (pydantic deletes a field's attribute from the model it builds, not from a
    plain base). Each field's declaration stays on ``model.model_fields`` (``_original_assignment``: what
    pydantic rebuilds a field from).

    The mixins are plain classes (session 44, bench/RESULTS.md): as pydantic models each one collected and
    copied every field of the mixins above it again (11 models, ~105 fields, ~18M instructions of
    ``sizing-bot ask``), and none is ever validated alone (tests/test_startup_s28.py)."""
    from pydantic import BaseModel
    from pydantic.fields import FieldInfo

    fields = model.__pydantic_fields__  # type: ignore[attr-defined]
    for base in model.__mro__:
        if base is not object and not issubclass(base, BaseModel):
            for name in [n for n, v in vars(base).items() if n in fields and isinstance(v, FieldInfo)]:
                delattr(base, name)
