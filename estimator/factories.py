"""Default factories for pydantic fields: ``Field(default_factory=empty_list)``, not ``list``.

Pydantic asks ``inspect.signature`` of each field's default factory when it builds a model's schema
(does it take the validated data?). For a builtin type such as ``list`` that means parsing its text
signature: ~0.25 ms per field, 7.7 ms of ``sizing-bot ask``'s first answer for 32 such fields (issue 23
item 7, bench/RESULTS.md), and again in ``model_construct``. A Python function answers in
microseconds; the value is the same (a new empty list).
"""

from __future__ import annotations

from typing import Any


def empty_list() -> list[Any]:
    """A new empty list: the default of a list field (pydantic ``default_factory``)."""
    return []


def empty_dict() -> dict[str, Any]:
    """A new empty dict: the default of a dict field (pydantic ``default_factory``)."""
    return {}
