"""The question corpus (``../shared/corpus/questions.json``) and how a parse is scored against it.

Shared by tests/test_parse.py and bench/parse_accuracy.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.parse import ParseResult
from estimator import catalog

# A copy of the project corpus (../shared/corpus/questions.json) so a fresh clone tests the same cases.
CORPUS = Path(__file__).resolve().parent / "data" / "questions.json"
SIZING_STAGES = {"pretrain", "continued_pretrain", "finetune", "inference"}

# corpus `expected` key → SizingRequest field
FIELDS: list[tuple[str, str]] = [
    ("params_total", "params_total"),
    ("params_active", "params_active"),
    ("tokens", "tokens"),
    ("gpu", "gpu"),
    ("gpu_count", "gpu_count"),
    ("time_limit_days", "deadline_days"),
    ("budget", "budget"),
    ("currency", "currency"),
    ("price_per_gpu_hour", "price_per_gpu_hour"),
    ("epochs", "epochs"),
    ("num_samples", "num_samples"),
    ("seq_len", "seq_len"),
    ("concurrency", "concurrency"),
    ("batch_size", "batch_size"),
    ("mfu", "mfu"),
]


def load_questions() -> list[dict[str, Any]]:
    return json.loads(CORPUS.read_text(encoding="utf-8"))


def question_texts() -> tuple[list[str], list[str]]:
    """(the corpus questions' texts, every tests/data/real_questions/*.json list's texts): the inputs the
    parser-scan tests run their patterns over."""
    real = [
        q["text"]
        for path in sorted((CORPUS.parent / "real_questions").glob("*.json"))
        for q in json.loads(path.read_text(encoding="utf-8"))
        if isinstance(q, dict) and isinstance(q.get("text"), str)
    ]
    return [q["text"] for q in load_questions()], real


def _family_key(name: str | None) -> str | None:
    return None if name is None else name.lower().replace(" ", "").replace("-", "")


def field_ok(expected_key: str, expected: Any, result: ParseResult) -> tuple[bool, Any]:
    """Whether the parsed field matches the corpus value (numbers within 1 %)."""
    req = result.request
    if isinstance(expected, list):  # a comparison: the first one is the request's
        expected = expected[0]
    if isinstance(expected, dict) and "min" in expected:  # a range: the parser keeps its lower end
        expected = expected["min"]
    field = dict(FIELDS)[expected_key]
    got = getattr(req, field)
    if expected_key == "gpu":
        families = {g.family for g in catalog.gpus().values()}
        if got is not None and got in catalog.gpus():
            got = catalog.gpu(got).family
        elif expected is not None and expected not in families and result.unknown_gpu:
            # Not in the catalog ("Apple M2 Ultra", "Kunpeng 920"): reported as unknown, with suggestions.
            return bool(result.gpu_suggestions), f"unknown:{result.unknown_gpu}"
        return _family_key(got) == _family_key(expected), got
    if expected_key == "currency":
        got = got.value if got is not None else None
        return got == expected, got
    if expected is None or got is None:
        return expected is None and got is None, got
    return abs(float(got) - float(expected)) <= 0.01 * abs(float(expected)), got
