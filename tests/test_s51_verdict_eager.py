"""s51 verdict: a serving "fits" on a card without FlashAttention-2 (Volta, Turing, Pascal) with no runtime
named holds only where one layer of eager attention's fp32 scores also fits (estimator.eager_unstated);
else "borderline", reason 'eager_unstated', with the note of the same code. Sentences of our own."""

from __future__ import annotations

import json

import pytest

from bot.cli import ask
from estimator.eager_unstated import NO_FA2_GENERATIONS, eager_score_bytes
from estimator.serving_verdict import NO_FA2

LLAMA2_7B_HEADS = 32  # meta-llama/Llama-2-7b-hf config.json num_attention_heads


def _report(text: str) -> dict:
    return json.loads(ask(text, None, "json")[0])


def _eager(rep: dict) -> dict | None:
    return next((w["params"] for w in rep["report"]["warnings"] if w["code"] == "eager_unstated"), None)


def test_generations_kept_in_step():
    assert set(NO_FA2) == NO_FA2_GENERATIONS


@pytest.mark.parametrize(
    "text",
    [
        "2 张 T4 推理 Llama-2-7B，上下文 8k，够吗？",
        "Can two T4 16GB cards serve Llama 2 7B at 8k context?",
    ],
)
def test_turing_card_without_runtime_is_borderline(text):
    rep = _report(text)
    assert rep["request"]["gpu"] == "T4" and rep["request"]["gpu_count"] == 2
    assert rep["request"]["runtime"] is None
    assert (rep["report"]["feasible"], rep["report"]["feasible_reason"]) == ("borderline", "eager_unstated")
    note = _eager(rep)
    assert note == {"scores_bytes": 6.0 * LLAMA2_7B_HEADS * 8192**2, "context": 8192}


@pytest.mark.parametrize(
    "text",
    [
        "2 张 A10 推理 Llama-2-7B，上下文 8k，够吗？",  # Ampere: FlashAttention-2 runs
        "Can two A10 cards serve Llama 2 7B at 8k context?",
        "Can one V100 32GB serve Llama 2 7B at 2k context?",  # the scores fit beside it
        "1 张 V100 32G 推理 Llama-2-7B，上下文 2k，够吗？",
        "4 张 V100 推理 Qwen1.5-72B-Chat int4，上下文 10k，用 vLLM 部署，够吗？",  # a runtime named
        "Can two T4 cards serve Llama 2 7B at 8k context with llama.cpp?",
    ],
)
def test_no_hedge_where_flash_runs_scores_fit_or_runtime_named(text):
    rep = _report(text)
    assert rep["report"]["feasible_reason"] != "eager_unstated" and _eager(rep) is None


def test_scores_formula():
    class Spec:
        heads = 64

    assert eager_score_bytes(Spec(), 10_000, 1) == 6.0 * 64 * 10_000**2
    assert eager_score_bytes(Spec(), 1_000, 4) == 4 * 6.0 * 64 * 1_000**2


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("2 张 T4 推理 Llama-2-7B，上下文 8k，够吗？", ("FlashAttention-2", "eager attention", "12.9 GB")),
        (
            "Can two T4 16GB cards serve Llama 2 7B at 8k context?",
            ("FlashAttention-2", "eager attention", "12.9 GB"),
        ),
    ],
)
def test_note_said_in_both_languages(text, words):
    reply = ask(text, None, "text")[0]
    for word in words:
        assert word in reply, (word, reply)
    if "张" in text:
        assert "这张卡不支持 FlashAttention-2" in reply
    else:
        assert "This card has no FlashAttention-2" in reply
