"""The report's request: the user's request with what the estimate filled in (issue 23 item 7: the
estimate's CPU budget; bench/RESULTS.md, session 18, part s18-sp-est).

:func:`estimator.sizing.estimate` reported ``SizingRequest.model_validate(req.model_dump() | filled)``:
every one of the request's 73 fields dumped and validated again (~15 µs of a ~600 µs estimate) to
add a handful of values. :func:`with_filled` makes the same instance — the same ``__dict__`` in field
order, every field set (as a full dict validates), new lists — from the request's own values, which
validation keeps as they are (the request was validated when made), when each filled value has an exact
type its field keeps (``float`` for ``float | None``, the enum for ``Stage | None``, ``None``) and meets
its field's bounds (``Gt``, ``Ge``, ``Le``, ``Lt``); an int for a float field is made the float that
validation makes of it. Anything else — a bound not met, a field of another kind, a request holding an
architecture (validation makes a new ModelSpec) — goes the old way, coerced or refused as before.
Tested against the old way in tests/test_report_request.py.
"""

from __future__ import annotations

import operator
from enum import Enum
from types import NoneType, UnionType
from typing import Any, Union, get_args, get_origin

from annotated_types import Ge, Gt, Le, Lt

from estimator.built import _made
from estimator.request import SizingRequest

_SCALARS = (float, int, str, bool, NoneType)
_BOUNDS = {Gt: ("gt", operator.gt), Ge: ("ge", operator.ge), Le: ("le", operator.le), Lt: ("lt", operator.lt)}


def _exact_types(annotation: Any) -> frozenset[type] | None:
    """The exact types a field of ``annotation`` keeps through validation (strict matches of a union
    of scalars and enums), or None for any other kind of field (lists, literals, models)."""
    args = get_args(annotation) if get_origin(annotation) in (Union, UnionType) else (annotation,)
    if all(a in _SCALARS or (isinstance(a, type) and issubclass(a, Enum)) for a in args):
        return frozenset(args)
    return None


def _fields() -> dict[str, tuple[frozenset[type], tuple[tuple[Any, Any], ...]]]:
    """Per field of :class:`SizingRequest` taken the short way: (exact types, (bound, compare) pairs)."""
    out = {}
    for name, info in SizingRequest.model_fields.items():
        kinds = _exact_types(info.annotation)
        if kinds is None or any(type(m) not in _BOUNDS for m in info.metadata):
            continue
        bounds = tuple((getattr(m, _BOUNDS[type(m)][0]), _BOUNDS[type(m)][1]) for m in info.metadata)
        out[name] = (kinds, bounds)
    return out


_FIELDS = _fields()
_ALL = frozenset(SizingRequest.model_fields)
_LISTS = tuple(k for k, f in SizingRequest.model_fields.items() if "list[" in str(f.annotation))
"""The request's list fields (``lora_targets``, ``methods``): validation makes each a new list."""


_EXACT_INT = 2**53
"""The largest |n| a float holds exactly (pydantic's lax int → float keeps it as ``float(n)``)."""


def with_filled(req: SizingRequest, filled: dict[str, Any]) -> SizingRequest:
    """``SizingRequest.model_validate(req.model_dump() | filled)``, built from ``req``'s own values when
    every filled value is one its field keeps — its exact type (an int in a float field first made the
    float validation makes of it, when a float holds it exactly) within its bounds; else that validation
    itself. One loop over the filled values (no comprehension or generator frames: ~30 fewer Python
    calls an estimate)."""
    exact = req.architecture is None and req.__pydantic_private__ is None and req.__pydantic_extra__ is None
    kept = {}
    for name, value in filled.items():
        field = _FIELDS.get(name)
        if field is not None and value.__class__ is int and int not in field[0] and float in field[0]:
            value = float(value) if -_EXACT_INT <= value <= _EXACT_INT else value  # as lax mode does
        kept[name] = value
        if not exact:
            continue
        if field is None or value.__class__ not in field[0]:  # kept as it is: exact type, bounds
            exact = False
        elif value is not None:
            for bound, compare in field[1]:
                if not compare(value, bound):
                    exact = False
                    break
    if exact:
        values = dict(req.__dict__)
        for name in _LISTS:  # validation makes each list field a new list
            if values[name].__class__ is list:
                values[name] = list(values[name])
        values.update(kept)
        return _made(SizingRequest, values, set(_ALL))
    values = req.model_dump()
    values.update(filled)
    return SizingRequest.model_validate(values)
