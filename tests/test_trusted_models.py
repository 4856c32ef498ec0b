"""Issue 23 item 7 (the estimate stage's CPU, session 8): the bands and GPUs ↔ days rows a training
estimate builds by the dozen skip pydantic's validation (:meth:`estimator.models.Band.of`,
:meth:`estimator.models.DaysRow.of`) and are the same models: equal, the same fields set, the same JSON."""

from __future__ import annotations

import contextlib
import io

import pydantic
import pytest

from bot.cli import main
from estimator.models import Assumption, Band, DaysRow, Note


@pytest.mark.parametrize("values", [(1, 2, 3), (0.5, 1e22, 3.25), (float("inf"), 2**60, -0.0)])
def test_a_band_of_numbers_is_the_validated_band(values) -> None:
    low, likely, high = values
    fast, slow = Band.of(low, likely, high), Band(low=low, likely=likely, high=high)
    assert fast == slow and fast.model_fields_set == slow.model_fields_set
    assert fast.model_dump_json() == slow.model_dump_json()
    assert [type(v) for v in fast.model_dump().values()] == [float] * 3
    row, validated = DaysRow.of(64, fast), DaysRow(gpus=64, days=slow)
    assert row == validated and row.model_dump_json() == validated.model_dump_json()
    with pytest.raises(pydantic.ValidationError):  # a frozen model still
        row.gpus = 1  # type: ignore[misc]


def test_a_row_of_a_float_count_is_validated() -> None:
    """Not an int: validation decides (64.0 → 64), as before."""
    row = DaysRow.of(64.0, Band.of(1, 2, 3))  # type: ignore[arg-type]
    assert row.gpus == 64 and type(row.gpus) is int


@pytest.mark.parametrize(
    ("value", "params"),
    [
        (1, {"n": 2, "x": 0.5, "s": "a", "none": None}),
        (2.5, {}),
        (True, {"big": 2**70}),
        ("adamw", {"gpus": 8}),
        (None, {"flag": True}),  # a bool parameter: validation makes it 1.0
        ((1, 2), {}),  # not a plain value: validation refuses it, as before
    ],
)
def test_an_assumption_and_a_note_of_plain_values_are_the_validated_ones(value, params) -> None:
    try:
        slow = Assumption(field="f", value=value, why="w", params=params, also=["a"], citation=None)
    except pydantic.ValidationError:
        with pytest.raises(pydantic.ValidationError):
            Assumption.of("f", value, "w", dict(params), ["a"], None)
        return
    fast = Assumption.of("f", value, "w", dict(params), ["a"], None)
    assert fast == slow and fast.model_fields_set == slow.model_fields_set
    assert fast.model_dump_json() == slow.model_dump_json()
    assert [type(v) for v in fast.params.values()] == [type(v) for v in slow.params.values()]
    assert type(fast.value) is type(slow.value)
    note, validated = Note.of("c", dict(params)), Note(code="c", params=params)
    assert note == validated and note.model_dump_json() == validated.model_dump_json()


def test_a_pretraining_answer_validates_fewer_models(monkeypatch) -> None:
    """``sizing-bot ask`` on the 7B pre-training question: 38 models validated in the estimate at
    d3995d3 (with 12 bands, 5 rows and 9 assumptions); 10 now."""
    question = "7B模型1万亿token要多少A100"
    with contextlib.redirect_stdout(io.StringIO()):
        main(["ask", "--format", "json", "--", question])
    import estimator.sizing as sizing

    built: list[str] = []
    init = pydantic.BaseModel.__init__

    def counting(self, **data):  # type: ignore[no-untyped-def]
        built.append(type(self).__name__)
        init(self, **data)

    real = sizing.estimate

    def estimate(req):  # type: ignore[no-untyped-def]
        monkeypatch.setattr(pydantic.BaseModel, "__init__", counting)
        try:
            return real(req)
        finally:
            monkeypatch.setattr(pydantic.BaseModel, "__init__", init)

    monkeypatch.setattr(sizing, "estimate", estimate)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["ask", "--format", "json", "--", question]) == 0
    assert '"days_table"' in out.getvalue()
    assert not {"Band", "DaysRow", "Assumption", "Note"} & set(built), built
    assert 0 < len(built) <= 10, built
