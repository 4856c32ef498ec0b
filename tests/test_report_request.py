"""estimator.report_request: the report's request built from the user's request and the filled values
is the instance ``SizingRequest.model_validate(req.model_dump() | filled)`` makes (same fields, values
and their types, fields set, JSON), on every corpus question; anything else is still validated."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

import estimator.sizing as sizing_module
from bot.parse import parse
from estimator import estimate
from estimator.catalog import models
from estimator.models import Stage
from estimator.report_request import _FIELDS, with_filled
from estimator.request import SizingRequest

CORPUS = Path(__file__).parent / "data" / "questions.json"


def _validated(req: SizingRequest, filled: dict) -> SizingRequest:
    values = req.model_dump()
    values.update(filled)
    return SizingRequest.model_validate(values)


def _same(fast: SizingRequest, slow: SizingRequest) -> None:
    assert fast == slow
    assert list(fast.__dict__) == list(slow.__dict__)  # field order
    assert [type(v) for v in fast.__dict__.values()] == [type(v) for v in slow.__dict__.values()]
    assert fast.model_fields_set == slow.model_fields_set
    assert fast.model_dump_json() == slow.model_dump_json()
    assert fast.model_dump_json(exclude_unset=True) == slow.model_dump_json(exclude_unset=True)


def test_every_corpus_answer_s_request_is_the_validated_one(monkeypatch) -> None:
    seen: list[bool] = []

    def checked(req, filled):
        made = with_filled(req, filled)
        _same(made, _validated(req, filled))
        seen.append(made.__class__ is SizingRequest)
        return made

    monkeypatch.setattr(sizing_module, "with_filled", checked)
    for q in json.loads(CORPUS.read_text(encoding="utf-8")):
        estimate(parse(q["text"]).request)
    assert len(seen) >= 120, len(seen)  # every question (125 in the corpus at s18)


def test_filled_values_of_other_types_are_validated_as_before() -> None:
    req = SizingRequest(stage="pretrain", model="Llama-2-7B", gpu_count=8, lora_targets=["q_proj"])
    for filled in (
        {"params_total": 7e9, "stage": Stage.pretrain, "gpu": "A100"},
        {"deadline_days": 30},  # an int for a float field: the float validation makes
        {"concurrency": 16.0},  # a whole float for an int field: coerced by validation
        {"gpu_count": True},  # a bool for an int field
        {"stage": "pretrain"},  # a plain str for an enum field
        {"hours": None},
    ):
        _same(with_filled(req, filled), _validated(req, filled))
    made = with_filled(req, {"params_total": 7e9})
    assert made.lora_targets == ["q_proj"] and made.lora_targets is not req.lora_targets  # a new list
    assert type(with_filled(req, {"deadline_days": 30}).deadline_days) is float


def test_a_value_out_of_bounds_is_refused_as_before() -> None:
    req = SizingRequest(stage="pretrain", model="Llama-2-7B")
    assert "params_total" in _FIELDS and _FIELDS["params_total"][1]  # a bounded field taken the short way
    for bad in ({"params_total": -1.0}, {"params_total": float("nan")}, {"gpu_count": 0}):
        with pytest.raises(ValidationError):
            with_filled(req, bad)


def test_a_request_with_an_architecture_is_validated() -> None:
    req = SizingRequest(stage="pretrain", architecture=next(iter(models().values())), tokens=1e12)
    made = with_filled(req, {"params_total": 7e9})
    _same(made, _validated(req, {"params_total": 7e9}))
    assert made.architecture is not req.architecture  # rebuilt by validation, as before
