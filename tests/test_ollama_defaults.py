"""Ollama's own defaults (a fresh-user trial: ``ollama run deepseek-r1:32b`` on a 4090 was sized at
bf16 and a 32K context, "does not fit, 4 cards"): an Ollama library tag is Q4_K_M, and a sequence
gets ``num_ctx`` = 4,096 tokens unless set (ollama/ollama ``envconfig/config.go``). Through the CLI."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import main
from estimator.runtimes.others import OLLAMA_DEFAULT_CONTEXT
from estimator.weights import BITS_PER_WEIGHT, Precision

QUESTIONS = {
    "zh": "ollama run deepseek-r1:32b 在我的 4090 上每秒多少 token",
    "en": "ollama run deepseek-r1:32b on my RTX 4090 - how many tokens/s?",
}


def ask(capsys: pytest.CaptureFixture[str], text: str, fmt: str = "json") -> Any:
    code = main(["ask", "--format", fmt, text])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out) if fmt == "json" else out


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_ollama_runs_its_q4_k_m_tag_at_num_ctx_4096_and_fits_one_4090(capsys, lang: str) -> None:
    data = ask(capsys, QUESTIONS[lang])
    inf = data["report"]["inference"]
    assert data["request"]["runtime"] == "Ollama"
    assert inf["weight_format"] == "q4_k_m"
    # DeepSeek-R1-Distill-Qwen-32B: 32.5e9 parameters × 4.85 bits (llama.cpp PR #1684)
    # the tensor mix since s23 (estimator.gguf_mix: 4.845 bits for this shape): within 0.2 % of the average
    assert inf["weights_bytes"] == pytest.approx(32.5e9 * BITS_PER_WEIGHT[Precision.q4_k_m] / 8, rel=2e-3)
    assert inf["context_tokens"] == OLLAMA_DEFAULT_CONTEXT == 4096
    assert inf["serving_gpus"] == 1
    assert data["report"]["feasible"] in ("yes", "borderline")
    said = ask(capsys, QUESTIONS[lang], "text")
    assert "num_ctx" in said  # the default is named, with how to change it


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_stated_num_ctx_or_precision_wins_over_ollamas_defaults(capsys, lang: str) -> None:
    extra = " num_ctx 16384, q8_0" if lang == "en" else "，num_ctx 16384，用 q8_0"
    inf = ask(capsys, QUESTIONS[lang] + extra)["report"]["inference"]
    assert inf["context_tokens"] == 16384
    assert inf["weight_format"] == "q8_0"
