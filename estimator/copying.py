"""A fast :func:`dataclasses.replace` for the estimator's plain dataclasses (part of the estimate's CPU
budget, issue 23 item 7: ``dataclasses.replace`` runs ``__init__`` with every field, ~20 µs for the
34 fields of :class:`estimator.training_result.TrainingResult`, and an answer made ~13 of them)."""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def replace(obj: T, /, **changes: Any) -> T:
    """A shallow copy of the dataclass instance ``obj`` with ``changes``: the same fields and values as
    :func:`dataclasses.replace` gives for a dataclass without ``__post_init__``, ``InitVar``,
    ``init=False`` fields or slots (the estimator's: tested in tests/test_estimate_speed.py), without
    running ``__init__`` (frozen ones included). An unknown field name raises TypeError, as there."""
    unknown = changes.keys() - obj.__dataclass_fields__.keys()  # type: ignore[attr-defined]
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field(s) {sorted(unknown)}")
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    new.__dict__.update(changes)
    return new
