"""Session 47 (s47-speedparse, issue 23 item 7): the parse's ``SizingRequest`` built field by field.

From the parse's second message on, :func:`bot.parse.request_fields.build_request` makes the request with
:func:`bot.parse.request_build.sizing_request`: each stated field validated by its own field's validator
(the model's core schema), the instance the defaults updated with those values. Inside a parse that is
~26-39 µs a request against ~64-93 µs for ``SizingRequest(**fields)`` (bench/parse_insitu.py, the shared
box, bench/RESULTS.md session 47). It must be the same instance and raise where the model raises: checked
here over the corpus's requests and on stated values the model's bounds reject, in both languages."""

from __future__ import annotations

import subprocess
import sys

import pytest
from pydantic import ValidationError

import bot.parse  # noqa: F401  (bot.parse.request_fields loaded)
from bot.parse import parse
from bot.parse import request_fields as rf
from bot.parse.request_fields import sizing_request
from estimator.models import SizingRequest
from tests.cli_run import CORPUS_QUESTIONS
from tests.startup_probe import ROOT


def _same(a: SizingRequest, b: SizingRequest) -> None:
    assert list(a.__dict__.items()) == list(b.__dict__.items())
    assert [type(v) for v in a.__dict__.values()] == [type(v) for v in b.__dict__.values()]
    assert a.model_fields_set == b.model_fields_set
    assert a.model_dump_json() == b.model_dump_json()
    assert a == b and repr(a) == repr(b)
    assert b.__pydantic_extra__ is None and b.__pydantic_private__ is None


@pytest.fixture(scope="module")
def requests_made() -> list[dict]:
    """The fields of every request the parse builds over the corpus questions (the path on)."""
    for q in CORPUS_QUESTIONS[:3] * 2:
        parse(q)
    assert rf._BY_FIELD, "the field-by-field path is on from the second message"
    made: list[dict] = []
    fast = rf._BY_FIELD[0]

    def spy(fields: dict) -> SizingRequest:
        made.append(dict(fields))
        return fast(fields)

    rf._BY_FIELD[0] = spy
    try:
        for q in CORPUS_QUESTIONS:
            parse(q)
    finally:
        rf._BY_FIELD[0] = fast
    return made


def test_each_corpus_request_is_the_models(requests_made: list[dict]) -> None:
    assert len(requests_made) >= len(CORPUS_QUESTIONS)
    rejected = 0
    for fields in requests_made:
        try:
            expected = SizingRequest(**fields)
        except ValidationError:
            rejected += 1
            with pytest.raises(ValidationError):
                sizing_request(fields)
            continue
        _same(expected, sizing_request(fields))
    assert rejected < len(requests_made)


@pytest.mark.parametrize(
    "fields",
    [
        {"stage": "pretrain", "params_total": 7e9, "tokens": 1e12, "gpu": "A100-SXM4-80GB"},
        {"stage": "inference", "concurrency": 64, "seq_len": 8192, "gpu_count": 8},  # ints stay ints
        {"method": "qlora", "params_total": 7e9, "gpu_count": 1, "gpu": "RTX-4090"},
        {"stage": "finetune", "epochs": 3, "num_samples": 20_000, "samples_are_pairs": True},
    ],
)
def test_a_valid_request_is_the_same_instance(fields: dict) -> None:
    _same(SizingRequest(**fields), sizing_request(fields))


@pytest.mark.parametrize(
    "fields",
    [
        {"hours": 1_720_000.0},  # le=1e6 (estimator.request: a run's hours)
        {"gpu_count": 0},  # gt=0
        {"params_total": -7e9},  # gt=0
        {"stage": "train-it"},  # no Stage of that name
        {"gpu_count": 8, "not_a_field": 1},  # extra='forbid'
    ],
)
def test_a_value_the_model_rejects_is_rejected(fields: dict) -> None:
    with pytest.raises(ValidationError):
        SizingRequest(**fields)
    with pytest.raises(ValidationError):
        sizing_request(fields)


@pytest.mark.parametrize(
    "question",
    [
        "7B模型1万亿token要多少A100",
        "How many A100s to pretrain a 7B model on 1T tokens?",
        "用8张4090做Qwen2-7B的LoRA微调，3个epoch，2万条数据要多久",
        "LoRA fine-tune Qwen2-7B on eight 4090s, 3 epochs over 20k samples: how long?",
        "我们跑了 1720000 小时，8 张 H100",  # a run's hours past the cap: the fallback path names it
        "We ran 1,720,000 hours on 8 H100s",
    ],
)
def test_a_question_reads_the_same_request_either_way(question: str) -> None:
    parse(question)  # the path is on from the second message
    fast = parse(question)
    kept = rf._BY_FIELD[:]
    rf._BY_FIELD.clear()
    try:
        slow = parse(question)
    finally:
        rf._BY_FIELD[:] = kept
    assert kept, "the field-by-field path was on"
    _same(slow.request, fast.request)
    assert fast.model_dump_json() == slow.model_dump_json()


PROBE = """
from bot.parse import parse
from bot.parse import request_fields as rf
parse("7B模型1万亿token要多少A100")
print(len(rf._BY_FIELD), len(rf._FIELD_VALIDATORS))
second = parse("How many A100s to pretrain a 7B model on 1T tokens?")
print(len(rf._BY_FIELD), sorted(rf._FIELD_VALIDATORS) == sorted(second.request.model_fields_set))
"""


def test_the_first_message_never_reads_the_schema() -> None:
    """A one-message ``ask`` pays nothing for it (start-up: bench/RESULTS.md); the second message on."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split() == ["0", "0", "1", "True"]  # the second message's stated fields, validated
