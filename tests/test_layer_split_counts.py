"""llama.cpp / Ollama split a model's layers over any number of cards (``--split-mode layer``): no
tensor-parallel power of two, no head or expert divisibility (session 9 fresh-user trial: Qwen3-235B-A22B
Q4_K_M, 142 GB, on 6 RTX 5090 was "at least 8"). vLLM keeps its TP sizes."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process, ask_quietly


@pytest.mark.parametrize(
    ("question", "weights_gb", "min_gpus"),
    [
        ("Qwen3-235B-A22B q4_k_m llama.cpp on 6 RTX 5090", 142.5, 5),  # 142 GB over 5 × 31 GiB usable
        ("Qwen3-235B-A22B q4_k_m llama.cpp on 7 RTX 5090", 142.5, 5),
        ("gpt-oss-120b q4_k_m llama.cpp on 3 RTX 5090", 70.8, 3),
        (
            "Llama-3.3-70B q4_k_m llama.cpp on 3 RTX 3090",
            42.5,
            2,
        ),  # Q4_K_M tensor mix (s23): published 42.5 GB
        ("Llama-3.3-70B fp16 llama.cpp on 7 RTX 3090", 141.1, 6),  # 6 × 23 GiB usable
    ],
)
def test_layer_split_takes_any_count(
    capsys: pytest.CaptureFixture[str], question: str, weights_gb: float, min_gpus: int
) -> None:
    inf = ask_in_process(capsys, question)["report"]["inference"]
    assert inf["weights_bytes"] / 1e9 == pytest.approx(weights_gb, abs=0.1)
    assert inf["min_gpus"] == min_gpus and inf["runtime"] == "llama.cpp"


def test_the_fit_is_said_in_both_languages() -> None:
    en = ask_quietly("Qwen3-235B-A22B q4_k_m llama.cpp on 6 RTX 5090").splitlines()[0]
    assert en.endswith("on 6 × RTX 5090: fits (layers split over 6 GPUs)")  # llama.cpp named once (s24 #5)
    zh = ask_quietly("Qwen3-235B-A22B q4_k_m 用 llama.cpp 在 6 张 RTX 5090 上能跑吗").splitlines()[0]
    assert "6 张 RTX 5090" in zh and "放得下" in zh and "至少 8" not in zh
    short = ask_quietly("Qwen3-235B-A22B q4_k_m llama.cpp on 4 RTX 5090")
    # s20 #1: four cards one short with llama.cpp is llama.cpp's partial offload (the most layers that fit
    # the four cards, the rest in RAM), the fifth card only as the alternative
    assert "-ngl 88" in short.splitlines()[0] and "in CPU memory" in short.splitlines()[0]
    assert "Alternative, every layer on GPUs: 5 × RTX 5090" in short


def test_vllm_keeps_tensor_parallel_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    inf = ask_in_process(capsys, "Llama-3.3-70B fp16 vllm on 7 RTX 3090")["report"]["inference"]
    assert inf["min_gpus"] == 8 and inf["tp"] == 8
