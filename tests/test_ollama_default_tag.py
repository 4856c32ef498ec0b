"""Ollama library tags through ``sizing-bot ask``: a tag with no quantization suffix ('deepseek-r1:32b') is
the library's default, Q4_K_M (ollama/ollama issue #1543: "The default is now q4_k_m"), said in the
assumptions; a tag with its own suffix ('-q8_0', '-fp16') keeps that precision."""

from __future__ import annotations

import pytest

from estimator.models import Precision
from estimator.weights import BITS_PER_WEIGHT
from tests.cli_run import ask_in_process, ask_quietly


@pytest.mark.parametrize(
    "text", ["ollama run deepseek-r1:32b, how much VRAM?", "ollama run deepseek-r1:32b 需要多少显存"]
)
def test_untagged_library_model_is_q4_k_m(capsys: pytest.CaptureFixture[str], text: str) -> None:
    data = ask_in_process(capsys, text)
    assert data["request"]["runtime"] == "Ollama"
    assert data["request"]["precision"] == "q4_k_m"  # was bf16 (65 GB of weights)
    whys = {a["field"]: a["why"] for a in data["assumptions"]}
    assert whys["precision"] == "ollama_default_tag"
    inf = data["report"]["inference"]
    # DeepSeek-R1-Distill-Qwen-32B: 32.5e9 parameters × 4.85 bits (llama.cpp's Q4_K_M) = 19.7 GB
    assert BITS_PER_WEIGHT[Precision.q4_k_m] == 4.85
    # since s23 laid out tensor by tensor (estimator.gguf_mix): 4.845 bits for this shape, 19.68 GB
    assert inf["weights_bytes"] == pytest.approx(32.5e9 * 4.85 / 8, rel=0.002)
    assert round(inf["weights_bytes"] / 1e9, 1) == 19.7


@pytest.mark.parametrize(
    ("text", "precision"),
    [("ollama run qwen2.5:32b-instruct-q8_0", "q8_0"), ("ollama run llama3.3:70b-instruct-fp16", "fp16")],
)
def test_tag_suffix_keeps_its_precision(
    capsys: pytest.CaptureFixture[str], text: str, precision: str
) -> None:
    data = ask_in_process(capsys, text)
    assert data["request"]["precision"] == precision
    assert "ollama_default_tag" not in {a["why"] for a in data["assumptions"]}


def test_default_tag_said_in_both_languages() -> None:
    zh = ask_quietly("ollama run deepseek-r1:32b 需要多少显存")
    assert "Ollama 的标签里没写量化：它的模型库默认标签是 Q4_K_M" in zh
    en = ask_quietly("ollama run deepseek-r1:32b, how much VRAM?")
    assert "its library's default tags are Q4_K_M (ollama/ollama #1543)" in en
