"""A Mac named by its product line with its memory ('128G的 Mac Studio'): unified memory of that size on
an assumed, named chip (the path of 'M3 Ultra 256GB'), never replaced by A100s with the memory unread
(session 9 fresh-user trial: "需要 2 张 A100 80G", “128” not used, the Mac not named)."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process, ask_quietly

ZH = "ollama run qwen3:235b 128G的 Mac Studio 能跑吗"


def _gpu_assumption(data: dict) -> dict:
    return next(a for a in data["assumptions"] if a["field"] == "gpu")


def test_mac_studio_128g_is_an_m4_max_of_128g(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask_in_process(capsys, ZH)
    assert data["request"]["gpu"] == "Apple-M4-Max-128GB" and data["request"]["gpu_memory_gib"] == 128
    gpu = _gpu_assumption(data)
    assert gpu["why"] == "mac_chip_assumed"
    assert gpu["params"] == {"device": "Mac Studio", "chip": "M4 Max", "bandwidth": "546"}
    inf = data["report"]["inference"]
    # Qwen3-235B-A22B at Q4_K_M is 142 GB: more than Metal's 3/4 working set of 128 GiB (96 GiB)
    assert inf["weights_bytes"] / 1e9 == pytest.approx(142.5, abs=0.1) and inf["min_gpus"] > 1
    assert "128" not in data["interpretation"]["ignored"]


def test_the_mac_and_the_chip_are_said_zh() -> None:
    text = ask_quietly(ZH)
    assert "“Mac Studio”，128 GB 统一内存，没说芯片：按 M4 Max 估算（内存带宽 546 GB/s）。" in text
    assert "A100" not in text and "没找到 GPU" not in text


def test_a_256gb_mac_studio_is_an_m3_ultra_en(capsys: pytest.CaptureFixture[str]) -> None:
    q = "ollama run qwen3:235b on a 256GB Mac Studio"
    data = ask_in_process(capsys, q)
    assert data["request"]["gpu"] == "Apple-M3-Ultra-256GB"
    assert _gpu_assumption(data)["params"]["bandwidth"] == "819"
    text = ask_quietly(q)
    # s25: Ollama named (the headline says "(Ollama)"): the layout, not "(llama.cpp / MLX)" — Ollama runs
    # GGUF through llama.cpp's offload, never MLX (s24 trial 2 #20)
    assert text.splitlines()[0].endswith("on 1 × M3 Ultra 256G: fits (all layers in unified memory)")
    assert "“Mac Studio” with 256 GB of unified memory, its chip not named: sized as the M3 Ultra" in text


def test_a_macbook_pro_with_its_memory(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask_in_process(capsys, "ollama run qwen3:32b on a 64GB MacBook Pro")
    assert (
        data["request"]["gpu"] == "Apple-M4-Max-64GB" and _gpu_assumption(data)["why"] == "mac_chip_assumed"
    )


def test_a_named_chip_is_kept(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask_in_process(capsys, "ollama run qwen3:235b on a Mac Studio M3 Ultra 256GB")
    assert data["request"]["gpu"] == "Apple-M3-Ultra-256GB" and _gpu_assumption(data)["why"] == "apple_config"


@pytest.mark.parametrize(
    "question",
    [
        "I have a Mac Studio that has 192GB, can it run Llama 3.1 70B?",
        "我有一台 Mac Studio，192G 统一内存，能跑 Llama 3.1 70B 吗",
    ],
)
def test_a_mac_studio_memory_after_its_name(capsys: pytest.CaptureFixture[str], question: str) -> None:
    """Before, named as host memory and the job sized on A100s; now the M3 Ultra at 192 GB (a Mac Studio
    above 128 GB: the M3 Ultra, 819 GB/s)."""
    data = ask_in_process(capsys, question)
    assert (data["request"]["gpu"], data["request"]["gpu_memory_gib"]) == ("Apple-M3-Ultra-192GB", 192)
    assert data["request"]["gpu_count"] == 1 and not data["interpretation"]["ignored"]
    assert _gpu_assumption(data)["params"]["chip"] == "M3 Ultra"
