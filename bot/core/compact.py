"""Compact storage of frozen pydantic models for the remembered turns (issue 23 item 7: ``sizing-bot
run`` ≤ 120 MiB after 10,000 updates).

A :class:`~estimator.request.SizingRequest` or :class:`~bot.parse.result.ParseResult` carries ~50
fields, almost all at their defaults; its ``__dict__`` alone is ~2.3 kB. :func:`pack` keeps only the
fields that differ from the default (and which fields were set), :func:`unpack` rebuilds an equal
model as ``model_construct`` would (no validation: the values were validated when first built), in
~10 µs. Measured with ``bench/memory.py``'s questions: a remembered turn went from ~7.1 kB to
~1.8 kB (tracemalloc, 2,000 turns).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from enum import Enum
from typing import Any, NamedTuple

from pydantic import BaseModel

from estimator.factories import empty_dict, empty_list

_MISSING = object()


class Packed(NamedTuple):
    """A model's class, its ``model_fields_set`` and its non-default fields as (name, value) pairs
    (a nested model value is itself :class:`Packed`)."""

    cls: type[BaseModel]
    fields_set: frozenset[str]
    items: tuple[tuple[str, Any], ...]


_DEFAULTS: dict[type[BaseModel], dict[str, Any]] = {}
_EMPTY_FACTORIES = (list, dict, set, tuple, empty_list, empty_dict)
"""Default factories whose value, when still empty, is not kept (``model_construct`` calls them)."""

_FIELD_SETS: dict[frozenset[str], frozenset[str]] = {}
MAX_FIELD_SETS = 4096
"""Distinct ``model_fields_set`` kept once and shared (a set of 33 names is ~2.3 kB; turns repeat them)."""


def _defaults(cls: type[BaseModel]) -> dict[str, Any]:
    """The default of every field of ``cls`` that has one: a plain default, or the empty value of a
    ``list``/``dict``/``set``/``tuple`` factory (required fields and other factories: none)."""
    out = _DEFAULTS.get(cls)
    if out is None:
        out = {}
        for name, info in cls.model_fields.items():
            if info.default_factory is None and not info.is_required():
                out[name] = info.default
            elif info.default_factory in _EMPTY_FACTORIES:
                out[name] = info.default_factory()  # type: ignore[call-arg]
        _DEFAULTS[cls] = out
    return out


def _shared(fields_set: set[str]) -> frozenset[str]:
    key = frozenset(fields_set)
    got = _FIELD_SETS.get(key)
    if got is None:
        if len(_FIELD_SETS) >= MAX_FIELD_SETS:
            return key
        got = _FIELD_SETS[key] = key
    return got


def pack(model: BaseModel) -> Packed:
    """``model`` without its default-valued fields; :func:`unpack` gives back an equal model."""
    cls = type(model)
    defaults = _defaults(cls)
    items = []
    for name, value in model.__dict__.items():
        default = defaults.get(name, _MISSING)
        if default is not _MISSING and type(value) is type(default) and value == default:
            continue
        items.append((name, pack(value) if isinstance(value, BaseModel) else value))
    return Packed(cls, _shared(model.model_fields_set), tuple(items))


def unpack(packed: Packed) -> Any:
    """The model :func:`pack` was given (equal field by field, same ``model_fields_set``, fields in
    declaration order). What ``model_construct`` does, without its per-field signature inspection of
    ``default_factory`` (~4 ms for a ParseResult, against ~0.05 ms here); a class with private
    attributes, a post-init hook, extra fields or a factory other than an empty container goes through
    ``model_construct`` itself."""
    cls = packed.cls
    values = {k: unpack(v) if isinstance(v, Packed) else v for k, v in packed.items}
    fill = _fillers(cls)
    if fill is None:
        return cls.model_construct(_fields_set=set(packed.fields_set), **values)
    fields = {}
    for name, make in fill:
        fields[name] = values[name] if name in values else make()
    model = cls.__new__(cls)
    object.__setattr__(model, "__dict__", fields)
    object.__setattr__(model, "__pydantic_fields_set__", set(packed.fields_set))
    object.__setattr__(model, "__pydantic_extra__", None)
    object.__setattr__(model, "__pydantic_private__", None)
    return model


_FILLERS: dict[type[BaseModel], list[tuple[str, Callable[[], Any]]] | None] = {}


def _fillers(cls: type[BaseModel]) -> list[tuple[str, Callable[[], Any]]] | None:
    """(field, maker of its default) in declaration order, or None when ``cls`` needs
    ``model_construct`` (see :func:`unpack`)."""
    if cls in _FILLERS:
        return _FILLERS[cls]
    out: list[tuple[str, Callable[[], Any]]] | None = []
    plain = (
        not cls.__private_attributes__
        and not cls.__pydantic_post_init__
        and not cls.__pydantic_root_model__
        and cls.model_config.get("extra") != "allow"
    )
    for name, info in cls.model_fields.items():
        if not plain or out is None:
            out = None
            break
        if info.default_factory is None:
            default = info.default
            if type(default) in _IMMUTABLE or isinstance(default, Enum):
                out.append((name, lambda d=default: d))
            else:
                out.append((name, lambda d=default: copy.deepcopy(d)))
        elif info.default_factory in _EMPTY_FACTORIES:
            out.append((name, info.default_factory))  # type: ignore[arg-type]
        else:
            out = None
    _FILLERS[cls] = out
    return out


_IMMUTABLE = (type(None), bool, int, float, str, bytes, frozenset)
