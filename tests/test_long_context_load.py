"""A context beyond 128K tokens with no load stated is sized for one sequence (trial 2026-12-02:
"Llama-4-Scout 10M 上下文推理要几张H200" was sized for a team's 16 sequences of 10M tokens: 384 H200)."""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json


def _concurrency(answer: dict) -> tuple[int, str]:
    a = next(a for a in answer["assumptions"] if a["field"] == "concurrency")
    return a["value"], a["why"]


@pytest.mark.parametrize(
    "question",
    ["Llama-4-Scout 10M 上下文推理要几张H200", "serve llama 4 scout at 1M context on H100, how many"],
)
def test_long_context_is_one_sequence(question: str) -> None:
    answer = answer_json(question)
    assert _concurrency(answer) == (1, "serve_concurrency_long_context")
    inf = answer["report"]["inference"]
    # Llama 4 Scout: 48 layers × 8 KV heads × 128 × 2 (K, V) × 2 B = 192 KiB per token
    assert inf["kv_bytes_per_token"] == 196_608
    assert inf["kv_bytes_total"] == pytest.approx(inf["kv_bytes_per_sequence"])


@pytest.mark.parametrize(
    ("question", "users"),
    [
        ("serve llama 3.1 70b at 128k context on H100, how many", 16),
        ("128K上下文 4个用户 部署 llama 4 scout 要几张 H200", 4),
    ],
)
def test_128k_or_a_stated_load_keeps_its_load(question: str, users: int) -> None:
    answer = answer_json(question)
    assert answer["report"]["inference"]["concurrency"] == users
    assert all(a["why"] != "serve_concurrency_long_context" for a in answer["assumptions"])
