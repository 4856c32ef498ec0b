"""A fast :func:`dataclasses.replace` for the estimator's plain dataclasses (part of the estimate's CPU
budget, issue 23 item 7: ``dataclasses.replace`` runs ``__init__`` with every field, ~20 µs for the
34 fields of :class:`estimator.training_result.TrainingResult`, and an answer made ~13 of them)."""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")

_new = object.__new__
_set = object.__setattr__  # a frozen dataclass's own __setattr__ refuses '__dict__'


def replace(obj: T, /, **changes: Any) -> T:
    """A shallow copy of the dataclass instance ``obj`` with ``changes``: the same fields and values as
    :func:`dataclasses.replace` gives for a dataclass without ``__post_init__``, ``InitVar``,
    ``init=False`` fields or slots (the estimator's: tested in tests/test_estimate_speed.py), without
    running ``__init__`` (frozen ones included). An unknown field name raises TypeError, as there.

    The copy's ``__dict__`` is ``obj.__dict__.copy()`` updated with ``changes`` (the same keys in the
    same order as filling an empty one: the dict's C copy, not 34 inserts), and the names are checked
    with a subset test of the few changed keys (not a set difference over every field): ~9.5k
    instructions a copy of :class:`estimator.training_result.TrainingResult` instead of ~25k (callgrind,
    bench/RESULTS.md session 21, part s21-spest)."""
    fields = obj.__dataclass_fields__  # type: ignore[attr-defined]
    if not changes.keys() <= fields.keys():
        raise TypeError(f"{type(obj).__name__} has no field(s) {sorted(changes.keys() - fields.keys())}")
    values = obj.__dict__.copy()
    values.update(changes)
    new = _new(type(obj))
    _set(new, "__dict__", values)
    return new
