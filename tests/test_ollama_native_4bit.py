"""Ollama's gpt-oss tags are MXFP4, the model's native format (session 9 fresh-user trial: Ollama sized it
as Q4_K_M, 70.8 GB, while llama.cpp and vLLM use MXFP4, 65.2 GB). The Ollama default tag (Q4_K_M) is
for models released in 16 bits; a model released in a 4-bit format keeps it. A stated tag still wins."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process, ask_quietly


def _inference(capsys: pytest.CaptureFixture[str], question: str) -> dict:
    return ask_in_process(capsys, question)["report"]["inference"]


def test_ollama_gpt_oss_is_mxfp4_as_llama_cpp(capsys: pytest.CaptureFixture[str]) -> None:
    ollama = _inference(capsys, "ollama run gpt-oss:120b on 3 RTX 5090")
    llama = _inference(capsys, "gpt-oss-120b llama.cpp on 3 RTX 5090")
    assert ollama["weight_format"] == llama["weight_format"] == "mxfp4"
    assert ollama["weights_bytes"] == llama["weights_bytes"]
    assert ollama["weights_bytes"] / 1e9 == pytest.approx(65.2, abs=0.05)


def test_ollama_gpt_oss_words_in_both_languages() -> None:
    en = ask_quietly("ollama run gpt-oss:120b on 3 RTX 5090")
    assert "mxfp4 (Ollama)" in en and "Weights: 65.2 GB" in en and "q4_k_m" not in en.lower()
    zh = ask_quietly("ollama 跑 gpt-oss:120b 要几张 4090")
    assert "mxfp4（Ollama）" in zh and "需要 3 张 RTX 4090" in zh and "权重：65.2 GB" in zh


def test_other_ollama_models_keep_the_q4_k_m_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert _inference(capsys, "ollama run qwen3:32b on one RTX 4090")["weight_format"] == "q4_k_m"
    stated = _inference(capsys, "ollama run gpt-oss:120b-q8_0 on 4 RTX 5090")
    assert stated["weight_format"] == "q8_0"
