"""The estimate's own pydantic values built without validating them again (issue 23 item 7: the
estimate's CPU budget; bench/RESULTS.md, session 17, part s17-sp-est).

The estimator validates what the user gives once, at the boundary (:class:`estimator.request.SizingRequest`);
the bands, table rows and ledger entries it then makes from its own floats were validated again on every
construction (~33 ``validate_python`` calls a 7B training estimate). Each builder here makes the same
instance pydantic's validation makes — the same ``__dict__`` (fields in their declared order, defaults
included), fields set and no extras — when every value already has the exact type the field declares
(``type(x) is float``: a float validates to itself), and otherwise calls the model, so a value of any
other type (an int, a numpy float, a bool) is coerced or refused exactly as before. Tested against the
validating constructors in tests/test_built.py.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from pydantic import BaseModel

from estimator.models import (
    Alternative,
    Assumption,
    Band,
    Checkpoint,
    Cost,
    Currency,
    DaysRow,
    DecodeSpeed,
    Note,
    Plan,
    PredictionInterval,
    PriceBand,
)

M = TypeVar("M", bound=BaseModel)

_new = object.__new__
_SLOT = BaseModel.__dict__  # BaseModel's __slots__ ('__dict__' and three member slots): their setters,
_set_dict = _SLOT["__dict__"].__set__  # called directly (object.__setattr__ looks each up in the MRO first)
_set_fields_set = _SLOT["__pydantic_fields_set__"].__set__
_set_extra = _SLOT["__pydantic_extra__"].__set__
_set_private = _SLOT["__pydantic_private__"].__set__
_SCALARS = frozenset((float, int, str, type(None)))
"""Exact types an ``Assumption.params`` value keeps through validation (``float | int | str | None``: a
value of one of them matches its own branch in strict mode, unchanged; a bool is coerced, not kept)."""
_VALUES = _SCALARS | {bool}
"""Exact types ``Assumption.value`` keeps (``float | int | str | bool | None``)."""
_STR = frozenset((str,))


def _made(cls: type[M], values: dict[str, Any], given: set[str]) -> M:
    """An instance of ``cls`` holding ``values`` (every field, in order) with ``given`` as its fields set."""
    made = _new(cls)
    _set_dict(made, values)
    _set_fields_set(made, given)
    _set_extra(made, None)
    _set_private(made, None)
    return made


def band(low: float, likely: float, high: float) -> Band:
    """``Band(low=low, likely=likely, high=high)``; validated only when a value is not a float."""
    if low.__class__ is float and likely.__class__ is float and high.__class__ is float:
        made = _new(Band)  # _made in place: an estimate makes ~4 bands (one call each fewer)
        _set_dict(made, {"low": low, "likely": likely, "high": high})
        _set_fields_set(made, {"low", "likely", "high"})
        _set_extra(made, None)
        _set_private(made, None)
        return made
    return Band(low=low, likely=likely, high=high)


_LAYOUT_TYPES = (int, int, int, int, str, int, bool, int)
"""Exact types of an :class:`estimator.setup.Layout`'s fields (tp, pp, dp, zero_stage, recompute, micro_batch,
offload, ep) that :class:`Plan`'s fields keep through validation (a bool is not an int here)."""


def plan(layout: tuple[Any, ...]) -> Plan:
    """``Plan(**layout._asdict())`` for an :class:`estimator.setup.Layout` (fields set: its eight); validated
    only when a value's exact type is not the one its field keeps (a bool TP, a str enum member …)."""
    if tuple(map(type, layout)) != _LAYOUT_TYPES:
        return Plan(**layout._asdict())  # type: ignore[attr-defined]
    tp, pp, dp, zero_stage, recompute, micro_batch, offload, ep = layout
    values = {"tp": tp, "pp": pp, "dp": dp, "ep": ep, "zero_stage": zero_stage, "recompute": recompute}
    values |= {"micro_batch": micro_batch, "offload": offload}
    values |= {"gradient_accumulation": None, "global_batch_sequences": None}
    made = _new(Plan)  # _made in place: a search makes ~3 plans an estimate
    _set_dict(made, values)
    _set_fields_set(made, {"tp", "pp", "dp", "ep", "zero_stage", "recompute", "micro_batch", "offload"})
    _set_extra(made, None)
    _set_private(made, None)
    return made


def checkpoint(weights: float, full_state: float) -> Checkpoint:
    """``Checkpoint(weights=weights, full_state=full_state)``; validated only when a value is not a float."""
    if weights.__class__ is float and full_state.__class__ is float:
        return _made(Checkpoint, {"weights": weights, "full_state": full_state}, {"weights", "full_state"})
    return Checkpoint(weights=weights, full_state=full_state)


_COST_TYPES = (float, float, float, float, Currency, float, float, int, str)
"""Exact types that :class:`Cost`'s fields (in declared order) keep through validation."""


def cost(
    *,
    low: float,
    high: float,
    low_with_mfu: float | None,
    high_with_mfu: float | None,
    currency: Currency,
    price_low: float,
    price_high: float,
    billed_gpu_hours: int,
    price_source: str,
) -> Cost:
    """``Cost(...)`` of every field; validated only when a value's exact type is not the one its field
    keeps (an int price, a None range, a currency as a plain str …)."""
    values = {"low": low, "high": high, "low_with_mfu": low_with_mfu, "high_with_mfu": high_with_mfu}
    values |= {"currency": currency, "price_low": price_low, "price_high": price_high}
    values |= {"billed_gpu_hours": billed_gpu_hours, "price_source": price_source}
    if tuple(map(type, values.values())) == _COST_TYPES:
        return _made(Cost, values, set(values))
    return Cost(**values)


_INTERVAL_TYPES = (float, float, float, int, float, list)
"""Exact types that :class:`PredictionInterval`'s fields (in declared order) keep (the list: of str)."""


def interval(
    *,
    level: float,
    low_factor: float,
    high_factor: float,
    runs: int,
    loo_coverage: float,
    widened_for: list[str],
) -> PredictionInterval:
    """``PredictionInterval(...)`` of every field (``widened_for``: a new list, as validation makes);
    validated only when a value's exact type is not the one its field keeps."""
    values = {"level": level, "low_factor": low_factor, "high_factor": high_factor, "runs": runs}
    values |= {"loo_coverage": loo_coverage, "widened_for": widened_for}
    if tuple(map(type, values.values())) != _INTERVAL_TYPES or set(map(type, widened_for)) - _STR:
        return PredictionInterval(**values)
    values["widened_for"] = list(widened_for)
    return _made(PredictionInterval, values, set(values))


def days_row(gpus: int, days: Band) -> DaysRow:
    """``DaysRow(gpus=gpus, days=days)`` (no GPU-hours or cost of its own); validated only when
    ``gpus`` is not an int or ``days`` not a Band (a nested model instance is kept as it is)."""
    if gpus.__class__ is int and days.__class__ is Band:
        values = {"gpus": gpus, "days": days, "gpu_hours": None, "cost": None, "mfu": None}
        made = _new(DaysRow)  # _made in place: a GPUs ↔ days table makes ~6 rows
        _set_dict(made, values)
        _set_fields_set(made, {"gpus", "days"})
        _set_extra(made, None)
        _set_private(made, None)
        return made
    return DaysRow(gpus=gpus, days=days)


_ASSUMPTION_FIELDS = frozenset(("field", "value", "why", "params", "also", "citation"))


def assumption(
    field: str, value: Any, why: str, params: dict[str, Any], also: Iterable[str], citation: str | None
) -> Assumption:
    """``Assumption(field=…, value=…, why=…, params=…, also=list(also), citation=…)``: validated only
    when a value's exact type is not one its field keeps (``params``: a new dict, as validation makes).
    The checks loop over the few params and reasons (most assumptions have none: nothing to check), not
    three ``set(map(type, …))`` comparisons (~6k instructions of the ~17k an assumption cost)."""
    also = list(also)
    exact = (
        field.__class__ is str
        and why.__class__ is str
        and value.__class__ in _VALUES
        and (citation is None or citation.__class__ is str)
    )
    if exact and params:
        for key, param in params.items():
            if key.__class__ is not str or param.__class__ not in _SCALARS:
                exact = False
                break
    if exact and also:
        for reason in also:
            if reason.__class__ is not str:
                exact = False
                break
    if not exact:
        return Assumption(field=field, value=value, why=why, params=params, also=also, citation=citation)
    values = {
        "field": field,
        "value": value,
        "why": why,
        "params": dict(params),
        "also": also,
        "citation": citation,
    }
    made = _new(Assumption)  # _made in place: an estimate records ~8 assumptions
    _set_dict(made, values)
    _set_fields_set(made, set(_ASSUMPTION_FIELDS))
    _set_extra(made, None)
    _set_private(made, None)
    return made


_NOTE_FIELDS = frozenset(("code", "params"))


def note(code: str, params: dict[str, Any]) -> Note:
    """``Note(code=code, params=params)``: validated only when ``code`` is not a str or a param's key
    or value is not of an exact type ``Note.params`` keeps (:data:`_SCALARS`: a bool or an enum is
    validated, as before); ``params``: a new dict, as validation makes. A validated note cost ~15k
    instructions (its params' union of four types); an answer makes 2–10."""
    if code.__class__ is not str:
        return Note(code=code, params=params)
    for key, param in params.items():
        if key.__class__ is not str or param.__class__ not in _SCALARS:
            return Note(code=code, params=params)
    return _made(Note, {"code": code, "params": dict(params)}, set(_NOTE_FIELDS))


def copied(model: M, update: dict[str, Any]) -> M:
    """``model.model_copy(update=update)`` (no validation there either) without pydantic's ``copy``
    calls, for a model of the estimator's (no extras, no private attributes) and field names; else
    ``model_copy`` itself."""
    if model.__pydantic_private__ is not None or model.__pydantic_extra__ is not None:
        return model.model_copy(update=update)
    if not update.keys() <= model.__class__.__pydantic_fields__.keys():
        return model.model_copy(update=update)
    made = _new(model.__class__)  # _made in place: ~3 copies an estimate
    _set_dict(made, {**model.__dict__, **update})
    _set_fields_set(made, model.__pydantic_fields_set__ | update.keys())
    _set_extra(made, None)
    _set_private(made, None)
    return made


def exactly(cls: type[M], values: dict[str, Any], types: tuple[type, ...], given: Iterable[str] = ()) -> M:
    """``cls(**values)``, ``values`` holding every field of ``cls`` in declared order (the fields set:
    ``given``, else all of them; the others hold their defaults), built when each value's exact type is
    its entry of ``types`` (one its field keeps through validation unchanged); else validated (from the
    fields set only), so any other value is coerced or refused as before."""
    given = set(given) or set(values)
    if tuple(map(type, values.values())) == types:
        made = _new(cls)  # _made in place
        _set_dict(made, values)
        _set_fields_set(made, given)
        _set_extra(made, None)
        _set_private(made, None)
        return made
    return cls(**{k: v for k, v in values.items() if k in given})


def price_band(low: float, high: float, currency: Currency) -> PriceBand:
    """``PriceBand(low=low, high=high, currency=currency)``, built when the values are floats and a
    :class:`Currency` (:func:`exactly`)."""
    return exactly(PriceBand, {"low": low, "high": high, "currency": currency}, (float, float, Currency))


def speed(
    per_sequence: float,
    aggregate: float,
    batch: int,
    bound: str,
    low: float | None = None,
    high: float | None = None,
    floor_ms: float | None = None,
) -> DecodeSpeed:
    """``DecodeSpeed(per_sequence=…, aggregate=…, batch=…, bound=…, per_sequence_low=low,
    per_sequence_high=high, fixed_floor_ms=floor_ms)`` (:func:`exactly`)."""
    values = {
        "per_sequence": per_sequence,
        "aggregate": aggregate,
        "batch": batch,
        "bound": bound,
        "per_sequence_low": low,
        "per_sequence_high": high,
        "fixed_floor_ms": floor_ms,
    }
    types = (float, float, int, str, type(low), type(high), type(floor_ms))
    # no band given: the four fields set, as DecodeSpeed(per_sequence=…, aggregate=…, batch=…, bound=…)
    given = _SPEED_FOUR if low is None and high is None and floor_ms is None else ()
    return exactly(DecodeSpeed, values, types, given)


_SPEED_FOUR = ("per_sequence", "aggregate", "batch", "bound")


def alternative(change: str, min_gpus: int | None) -> Alternative:
    """``Alternative(change=change, min_gpus=min_gpus)`` (no memory per GPU: None), :func:`exactly`."""
    values = {
        "change": change,
        "min_gpus": min_gpus,
        "per_gpu_bytes": None,
        "zero_stage": None,
        "gpu_hours": None,
        "host_ram_bytes": None,
    }
    kinds = (str, int, type(None), type(None), type(None), type(None))
    return exactly(Alternative, values, kinds, ("change", "min_gpus"))
