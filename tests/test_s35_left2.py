"""s35-left2: questions the bot did not read, each tested with sentences of our own (must-read and
must-not-misread), in both languages where the form exists.

1. Budget-to-model questions: the budget (or the cards) is the given and the model size the unknown.
   A fine-tune that asks the largest model its money budget trains on its data
   ('$5000, biggest model we can full finetune on H100 for 1B tokens') is sized at
   N = budget ÷ price × 3600 × peak × MFU ÷ (k·D), k = 6 full (Kaplan et al. 2020 §2.1), 4 LoRA
   (request.largest_asked); 'what can I serve on 2x4090 for 50 users' / '两张4090能部署什么' asks which
   model the cards serve (report.largest_served: weights + KV cache of the load).
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.parse import parse
from tests.real_questions import answer_json

H100_PEAK = 989.4e12  # H100 SXM dense BF16 FLOP/s (NVIDIA H100 datasheet), estimator/data/gpus.toml
MIDDLE_PRICE = 2.5  # US$ per H100-hour: the middle of the catalog's $1.50–3.50 (estimator/data/prices.toml)


def _json(text: str) -> dict[str, Any]:
    return answer_json(text)


# 1. budget → the largest model ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "k"),
    [
        ("$5000, biggest model we can full finetune on H100 for 1B tokens", 6),
        ("预算5000美元，用H100全参微调1B token，最大能训多大的模型", 6),
        ("$5000, biggest model we can LoRA finetune on H100 for 1B tokens", 4),
    ],
)
def test_largest_model_a_finetune_budget_trains(text: str, k: int) -> None:
    d = _json(text)
    r = d["request"]
    assert d["answered"] == "sized"
    assert r["stage"] == "finetune" and r["largest_asked"] is True
    assert r["budget"] == 5000 and r["currency"] == "USD" and r["tokens"] == 1e9
    assert "params_total" in r["assumed_fields"]
    # N = $5000 ÷ $2.5 × 3600 s × 989.4 TFLOP/s × MFU ÷ (k × 1e9 tokens); full at MFU 0.28: 332.4B
    hours = 5000 / MIDDLE_PRICE
    assert r["params_total"] == pytest.approx(hours * 3600 * H100_PEAK * r["mfu"] / (k * 1e9), rel=1e-6)
    if k == 6:
        assert r["params_total"] == pytest.approx(332.4e9, rel=1e-3)


def test_a_finetune_budget_without_the_question_still_asks_for_the_model() -> None:
    d = _json("$5000 full finetune on H100 for 1B tokens, how many GPUs?")
    assert d["request"]["largest_asked"] is None
    assert d["answered"] != "sized"
    assert "need the model" in d["reply"]


@pytest.mark.parametrize(
    ("text", "count", "load"),
    [
        ("what can I serve on 2x4090 for 50 users", 2, 50),
        ("what could we run on one 4090?", 1, None),
        ("两张4090能部署什么，50个并发", 2, 50),
        ("两张4090能跑什么模型？", 2, None),
    ],
)
def test_what_the_cards_serve(text: str, count: int, load: int | None) -> None:
    d = _json(text)
    assert d["answered"] == "sized"
    assert d["request"]["gpu"] == "RTX-4090" and d["request"]["gpu_count"] == count
    if load:
        assert d["request"]["concurrency"] == load
    rows = d["report"]["largest_served"]
    assert rows and all(row["params_max"] > 1e9 and row["examples"] for row in rows)


def test_what_the_cards_serve_values() -> None:
    """2 × 24 GB at 50 sequences of 4K context: 16-bit weights up to ≈ 7.9B, 4-bit ≈ 16B (the KV cache of
    the load takes the rest); one sequence on the same cards holds more."""
    rows = {
        row["precision"]: row["params_max"]
        for row in _json("what can I serve on 2x4090 for 50 users")["report"]["largest_served"]
    }
    one = {
        row["precision"]: row["params_max"]
        for row in _json("what can I serve on 2x4090")["report"]["largest_served"]
    }
    assert rows["bf16"] < 2 * 24e9 / 2  # below the weights-only bound: 48 GB ÷ 2 B per parameter
    assert rows["bf16"] < one["bf16"] and rows["q4_k_m"] < one["q4_k_m"]


@pytest.mark.parametrize(
    "text",
    [
        "4090能跑什么速度",
        "what can I run to speed up Llama 3 8B on 4090",
        "what can I do with a 7B model on an A100?",
        "A100 上 Llama 3 8B 能跑什么 batch size",
    ],
)
def test_not_a_largest_question(text: str) -> None:
    assert parse(text).asks_largest is False
