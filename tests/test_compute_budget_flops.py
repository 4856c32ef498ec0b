"""Trial s22 #1: a training budget in FLOPs ('a compute budget of 1e23 FLOPs', '算力预算3e22 FLOPs') was
dropped as 'far larger than any real model' and the question answered with the help text. It is read as
``compute_budget_flops`` (C) and answered as the money budget's largest model is: the compute-optimal
N = √(C / 120), D = 20·N (Hoffmann et al. 2022 §3, C = 6·N·D; estimator.compute.compute_optimal_params),
and the GPU-hours C takes on the stated or default card (C ÷ (peak × MFU × 3600)). Through ``sizing-bot
ask --format json``, both languages."""

from __future__ import annotations

import json
import math

import pytest

from bot.cli import main
from bot.parse import parse


def ask(capsys, text: str) -> dict:
    assert main(["ask", "--format", "json", text]) == 0
    return json.loads(capsys.readouterr().out)


CASES = [  # (question, C, N in billions as the reply rounds it, D as the reply shows it)
    (
        "I have a compute budget of 1e23 FLOPs, what's the compute-optimal model size and token count?",
        1e23,
        "28.9B",
        "577B tokens",
    ),
    ("compute budget of 5e21 FLOPs: optimal model size?", 5e21, "6.5B", "129B tokens"),
    ("算力预算3e22 FLOPs，按Chinchilla最优应该训多大的模型", 3e22, "15.8B", "3162亿 token"),
]


@pytest.mark.parametrize("text,c,size,data", CASES)
def test_a_flops_budget_gives_the_compute_optimal_model_and_data(capsys, text, c, size, data):
    out = ask(capsys, text)
    req, rep = out["request"], out["report"]
    n = math.sqrt(c / 120)  # C = 6·N·(20·N)
    assert req["compute_budget_flops"] == c
    assert req["params_total"] == pytest.approx(n, rel=1e-9)
    assert req["tokens"] == pytest.approx(20 * n, rel=1e-9)
    assert out["interpretation"]["ignored"] == []  # no longer 'far larger than any real model'
    flops = rep["flops"]
    assert flops == pytest.approx(c, rel=1e-9)  # the run spends the budget: 6·N·D = C
    head = out["reply"].splitlines()[0]
    assert size in head and data in head
    hours = c / (rep["peak_flops"] * rep["mfu"]["likely"] * 3600)  # C ÷ (peak × MFU × 3600 s)
    assert rep["gpu_hours"]["likely"] == pytest.approx(hours, rel=1e-6)


def test_the_compute_optimal_line_says_the_rule_in_each_language(capsys):
    en = ask(capsys, CASES[0][0])["reply"]
    # s23: the budget passed as a number (estimator.compute_budget), formatted in bot/render: 1×10²³
    assert "Compute-optimal for 1×10²³ FLOPs (Chinchilla, C = 6·N·D with D ≈ 20·N): a ≈ 28.9B model" in en
    zh = ask(capsys, CASES[2][0])["reply"]
    said = "3×10²² FLOPs 的算力最优配置（Chinchilla，C = 6·N·D，D ≈ 20·N）：约 15.8B 模型、约 3162亿 token"
    assert said in zh


def test_the_flops_note_param_is_a_number(capsys):
    """The note carries C as a number (formatting belongs to bot/render, FLOPS_KEYS): 1e23, not '1e23'."""
    notes = ask(capsys, CASES[0][0])["report"]["warnings"]
    note = next(n for n in notes if n["code"] == "compute_budget_optimal")
    assert note["params"]["flops"] == pytest.approx(1e23, rel=1e-12)


def test_a_flops_budget_with_a_size_gives_the_tokens_it_trains(capsys):
    """13B and 1e24 FLOPs: D = C / (6·N) = 1e24 / 7.8e10 ≈ 12.8T tokens, on the H100 named."""
    out = ask(capsys, "1e24 FLOPs on H100, 13B model: how many tokens and how long?")
    assert out["request"]["tokens"] == pytest.approx(1e24 / (6 * 13e9), rel=1e-9)
    assert out["report"]["flops"] == pytest.approx(1e24, rel=1e-9)
    assert "12.8T tokens" in out["reply"].splitlines()[0]
    assert "Not used" not in out["reply"]


@pytest.mark.parametrize(
    "text,c",
    [("a 3e26 FLOPs training budget: compute-optimal size?", 3e26), ("1e27 FLOPs compute-optimal?", 1e27)],
)
def test_frontier_scale_budgets_are_real(text, c):
    """Bounds: up to ~1e27 FLOPs are real plans (Llama 3.1 405B ≈ 3.8e25, Dubey et al. 2024 §3.2.1)."""
    r = parse(text)
    assert r.request.compute_budget_flops == c and r.ignored_numbers == []


@pytest.mark.parametrize("text", ["A100 (312 TFLOPS) for a 7B model on 1T tokens", "989e12 FLOPS/s H100 7B"])
def test_a_rate_is_not_a_budget(text):
    """A peak rate (a prefix, or '/s') is never read as a FLOPs budget."""
    assert parse(text).request.compute_budget_flops is None
