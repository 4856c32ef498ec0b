"""Values derived from a frozen catalog entry, kept on the entry (issue 23 items 5 and 7: a search reads a
model's head width or a card's addressable bytes ~15 times an estimate; each read was a property's
Python call).

A derived value is a :class:`functools.cached_property` of a frozen pydantic model: computed on the first
read and stored in the instance's ``__dict__``, where every later read finds it without a call (a
``cached_property`` is a non-data descriptor). Pydantic serializes, hashes and compares fields only
(``model_dump`` skips the extra key; ``BaseModel.__eq__`` filters ``__dict__`` to the fields when they
differ: pydantic/main.py v2.13), but its copies and its iteration take the whole ``__dict__``. A copy
made with an update (``model_copy(update={"memory_gib": …})``, estimator/colocate.py) must derive afresh:
:class:`KeepsDerived` drops the kept values from every copy and iterates the fields only."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


def _fields_only(model: BaseModel) -> BaseModel:
    """``model`` with every ``__dict__`` key that is not a field removed (the kept derived values)."""
    held = model.__dict__
    for name in held.keys() - type(model).__pydantic_fields__.keys():
        del held[name]
    return model


class KeepsDerived(BaseModel):
    """A pydantic base for frozen models with ``cached_property`` values: ``copy.copy``,
    ``copy.deepcopy`` and ``model_copy`` (which calls either) give a copy holding its fields only, and
    ``iter(model)`` / ``dict(model)`` yield the fields only, as for a model without kept values."""

    def __copy__(self) -> Any:
        return _fields_only(super().__copy__())

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Any:
        return _fields_only(super().__deepcopy__(memo))

    def __iter__(self) -> Any:
        fields = type(self).__pydantic_fields__
        return iter([(k, v) for k, v in super().__iter__() if k in fields])
