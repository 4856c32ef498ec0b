"""estimator.built: the estimate's values built without validation are the instances validation makes
(same fields, values and their types, fields set, JSON), and anything else is still validated."""

from __future__ import annotations

import math

import pytest
from pydantic import ValidationError

from estimator import estimate
from estimator.built import assumption, band, copied, days_row, note
from estimator.models import Assumption, Band, Currency, DaysRow, Memory, Note, Plan
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


def test_note_is_the_validated_one():
    params = {"gpu": "A100", "gpus": 8, "ratio": 1.25, "none": None}
    fast = note("memory_tight", params)
    _same(fast, Note(code="memory_tight", params=params))
    assert fast.params is not params  # its own copy, as validation makes
    _same(note("no_price", {}), Note(code="no_price", params={}))


def test_note_with_a_coerced_or_refused_param_is_validated():
    made = note("x", {"flag": True, "currency": Currency.CNY})  # a bool: 1.0; an enum: its str value
    assert made.params == {"flag": 1.0, "currency": "CNY"}
    assert type(made.params["flag"]) is float and type(made.params["currency"]) is str
    with pytest.raises(ValidationError):
        note("x", {"bad": object()})


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


def test_plan_of_a_layout_is_the_validated_plan():
    from estimator.built import plan
    from estimator.setup import Layout

    layout = Layout(tp=2, pp=4, dp=8, zero_stage=1, recompute="selective", micro_batch=2, offload=False, ep=1)
    made = plan(layout)
    _same(made, Plan(**layout._asdict()))
    assert hash(made) == hash(Plan(**layout._asdict()))
    assert made.model_dump_json(exclude_unset=True) == Plan(**layout._asdict()).model_dump_json(
        exclude_unset=True
    )
    assert layout.to_plan() == made


def test_plan_of_other_types_is_validated():
    from estimator.built import plan
    from estimator.setup import Layout

    made = plan(Layout(tp=True, pp=1, dp=2.0, zero_stage=0, recompute="none", micro_batch=1, offload=0, ep=1))
    assert [type(made.tp), type(made.dp), type(made.offload)] == [
        int,
        int,
        bool,
    ]  # coerced, as Plan(...) does
    with pytest.raises(ValidationError):
        plan(Layout(tp=1, pp=1, dp=1.5, zero_stage=0, recompute="none", micro_batch=1, offload=False, ep=1))


def test_checkpoint_cost_and_interval_are_the_validated_ones():
    from estimator.built import checkpoint, cost, interval
    from estimator.models import Checkpoint, Cost, Currency, PredictionInterval

    _same(checkpoint(2.0e9, 1.6e10), Checkpoint(weights=2.0e9, full_state=1.6e10))
    assert type(checkpoint(2, 16).weights) is float  # ints: validated, coerced
    values = dict(
        low=1.0, high=2.0, low_with_mfu=0.5, high_with_mfu=3.0, currency=Currency.USD, price_low=1.5
    )
    values |= dict(price_high=2.5, billed_gpu_hours=10, price_source="list")
    _same(cost(**values), Cost(**values))
    for odd in (dict(currency="USD"), dict(low_with_mfu=None), dict(price_low=2)):
        _same(cost(**(values | odd)), Cost(**(values | odd)))  # not the exact types: validated
    widened = ["fp8", "moe"]
    kw = dict(level=0.8, low_factor=0.7, high_factor=1.4, runs=31, loo_coverage=0.81, widened_for=widened)
    made = interval(**kw)
    _same(made, PredictionInterval(**kw))
    assert made.widened_for is not widened  # a new list, as validation makes
    with pytest.raises(ValidationError):
        interval(**(kw | dict(widened_for=[1])))


def test_estimate_plans_are_built_plans():
    report = estimate(
        SizingRequest(stage="pretrain", model="Llama-2-7B", tokens=1e12, gpu="A100-SXM4-80GB", gpu_count=64)
    )
    got = report.memory.plan
    assert (got.tp, got.pp, got.dp, got.zero_stage, got.recompute) == (1, 1, 64, 1, "selective")
    assert got.gradient_accumulation == 16 and got.global_batch_sequences == 1024


def test_serving_values_are_the_validated_ones():
    from estimator.built import alternative, price_band, speed
    from estimator.models import Alternative, Currency, DecodeSpeed, PriceBand

    _same(price_band(1.5, 2.5, Currency.CNY), PriceBand(low=1.5, high=2.5, currency=Currency.CNY))
    _same(price_band(1, 2.5, "USD"), PriceBand(low=1, high=2.5, currency="USD"))  # validated: coerced
    _same(
        speed(30.5, 488.0, 16, "memory"),
        DecodeSpeed(per_sequence=30.5, aggregate=488.0, batch=16, bound="memory"),
    )
    _same(alternative("fp8", 2), Alternative(change="fp8", min_gpus=2))
    _same(alternative("int4", None), Alternative(change="int4", min_gpus=None))  # validated: same instance
    with pytest.raises(ValidationError):
        speed(30.5, 488.0, 1.5, "memory")
