"""estimator.built: the estimate's values built without validation are the instances validation makes
(same fields, values and their types, fields set, JSON), and anything else is still validated."""

from __future__ import annotations

import math

import pytest
from pydantic import ValidationError

from estimator import estimate
from estimator.built import assumption, band, copied, days_row
from estimator.models import Assumption, Band, DaysRow, Memory, Plan
from estimator.request import SizingRequest


def _same(fast, slow) -> None:
    assert type(fast) is type(slow)
    assert fast == slow
    assert list(fast.__dict__) == list(slow.__dict__)  # field order, defaults included
    assert [type(v) for v in fast.__dict__.values()] == [type(v) for v in slow.__dict__.values()]
    assert fast.__pydantic_fields_set__ == slow.__pydantic_fields_set__
    assert fast.model_dump_json() == slow.model_dump_json()
    assert repr(fast) == repr(slow)


@pytest.mark.parametrize("values", [(1.5, 2.0, 3.25), (0.0, -0.0, 1e308), (math.inf, math.inf, math.inf)])
def test_band_of_floats_is_the_validated_band(values):
    slow = Band(low=values[0], likely=values[1], high=values[2])
    _same(band(*values), slow)
    assert hash(band(*values)) == hash(slow)


def test_band_of_other_types_is_validated():
    made = band(1, 2, True)  # ints and a bool: coerced to floats, as Band(...) does
    assert [type(v) for v in made.__dict__.values()] == [float, float, float]
    assert made.model_dump_json() == '{"low":1.0,"likely":2.0,"high":1.0}'
    with pytest.raises(ValidationError):
        band(1.0, "many", 2.0)


def test_days_row_is_the_validated_row():
    days = Band(low=1.0, likely=2.0, high=3.0)
    _same(days_row(64, days), DaysRow(gpus=64, days=days))
    assert hash(days_row(64, days)) == hash(DaysRow(gpus=64, days=days))
    assert days_row(64, days).days is days  # a nested instance is kept, as pydantic keeps it
    made = days_row(64.0, days)  # not an int: validated (64.0 → 64)
    assert made.gpus == 64 and type(made.gpus) is int
    with pytest.raises(ValidationError):
        days_row(64.5, days)


def test_assumption_is_the_validated_one():
    args = ("gpu_count", 64, "default_gpus", {"a": 3, "b": 2.0, "c": "x", "d": None}, ["why2"], "paper")
    slow = Assumption(
        field=args[0], value=args[1], why=args[2], params=args[3], also=args[4], citation=args[5]
    )
    fast = assumption(*args)
    _same(fast, slow)
    assert fast.params is not args[3] and fast.also is not args[4]  # own copies, as validation makes
    for value in (2.5, "bf16", True, None):  # the ledger gives every field
        slow = Assumption(field="x", value=value, why="w", params={}, also=[], citation=None)
        _same(assumption("x", value, "w", {}, [], None), slow)


def test_assumption_with_a_coerced_value_is_validated():
    made = assumption("x", 1, "w", {"flag": True}, [], None)  # a bool param: pydantic makes it 1.0
    assert made.params == {"flag": 1.0} and type(made.params["flag"]) is float
    with pytest.raises(ValidationError):
        assumption("x", object(), "w", {}, [], None)


def test_copied_is_model_copy():
    plan = Plan(tp=2, pp=1, dp=4, zero_stage=1)
    update = {"gradient_accumulation": 8, "global_batch_sequences": 32}
    _same(copied(plan, update), plan.model_copy(update=update))
    request = SizingRequest(
        stage="pretrain", model="Llama-2-7B", tokens=1e12, gpu="A100-SXM4-80GB", gpu_count=64
    )
    mem = estimate(request).memory
    assert isinstance(mem, Memory) and mem.plan is not None
    _same(copied(mem, {"fits_requested": None}), mem.model_copy(update={"fits_requested": None}))
    assert copied(plan, {}) == plan
