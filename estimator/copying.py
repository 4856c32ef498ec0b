"""A fast :func:`dataclasses.replace` for the estimator's plain dataclasses (part of the estimate's CPU
budget, issue 23 item 7: ``dataclasses.replace`` runs ``__init__`` with every field, ~20 µs for the
34 fields of :class:`estimator.training_result.TrainingResult`, and an answer made ~13 of them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel

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


def model_copy(self: Any, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Any:
    """pydantic's ``BaseModel.model_copy`` (v2.13: ``__copy__`` then the update) for a model without
    private attributes, extra values or ``extra='allow'`` — the estimator's frozen models and the parse's
    result, whose class bodies bind it — in one Python frame: pydantic's takes six (``model_copy``,
    ``__copy__``, three ``copy.copy`` and ``_copy_immutable``), ~4 copies an answer (s40-speed). The copy:
    ``__dict__`` and the fields set copied and updated, ``__pydantic_extra__`` and
    ``__pydantic_private__`` None, as pydantic's (tests/test_s40_speed.py compares the two). Any other
    case (``deep``, private or extra values) goes pydantic's way."""
    if (
        deep
        or getattr(self, "__pydantic_private__", None) is not None
        or self.__pydantic_extra__ is not None
        or self.model_config.get("extra") == "allow"
    ):
        return BaseModel.model_copy(self, update=update, deep=deep)
    cls = type(self)
    copied = cls.__new__(cls)
    values = self.__dict__.copy()
    fields_set = self.__pydantic_fields_set__.copy()
    if update:
        values.update(update)
        fields_set.update(update.keys())
    _set(copied, "__dict__", values)
    _set(copied, "__pydantic_extra__", None)
    _set(copied, "__pydantic_fields_set__", fields_set)
    _set(copied, "__pydantic_private__", None)
    return copied
