"""KV-cache types of llama.cpp and Ollama are sized, not only named (session 19, trial 19b item 2).

ggml's block sizes (ggml/src/ggml.c type_traits: 32 values a block; q8_0 34 bytes, q4_0 18 bytes):
1.0625 and 0.5625 bytes per value, against 2 for f16. Qwen2.5-32B: 64 layers × 8 KV heads × 128 × 2 (K, V)
= 131,072 values a token = 256 KiB at 16 bits, 136 KiB at q8_0; Qwen2.5-14B: 48 layers → 192 KiB at 16
bits, 54 KiB at q4_0 (Qwen/Qwen2.5-32B and -14B config.json)."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process, named

OLLAMA = (
    "I have a 4090 plus a 3060 12GB in the same box. Can I run Qwen2.5-32B Q4_K_M in Ollama with "
    "32k context? I set OLLAMA_KV_CACHE_TYPE=q8_0."
)
LAUNCH = "llama-server -m qwen2.5-14b-instruct-q4_k_m.gguf -ngl 99 -c 32768 -ctk q4_0 -ctv q4_0 -fa on"


def test_ollama_kv_cache_type_q8_0_is_sized(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask_in_process(capsys, OLLAMA)
    assert answer["request"]["kv_precision"] == "q8_0"
    assert answer["report"]["inference"]["kv_bytes_per_token"] == pytest.approx(131072 * 1.0625)
    assert not any(k.startswith("kv_precision") for k in named(answer))
    assert "KV cache (q8_0): 136 KiB per token" in answer["reply"]


def test_llama_cpp_ctk_ctv_q4_0_are_sized(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask_in_process(capsys, LAUNCH + ", one RTX 4070 12GB enough?")
    assert answer["request"]["kv_precision"] == "q4_0"
    assert answer["report"]["inference"]["kv_bytes_per_token"] == pytest.approx(48 * 8 * 128 * 2 * 0.5625)
    assert not any(k.startswith("-ct") for k in named(answer))


def test_k_and_v_of_different_types_are_each_sized(capsys: pytest.CaptureFixture[str]) -> None:
    """s20 #2: K at q4_0, V at q8_0 (src/llama-kv-cache.cpp: each its own type), no longer both at q8_0:
    Qwen2.5-14B 48 × 8 × 128 = 49,152 values each of K and V a token: × (0.5625 + 1.0625) = 79,872 B."""
    answer = ask_in_process(capsys, LAUNCH.replace("-ctv q4_0", "-ctv q8_0"))
    assert answer["request"]["kv_precision"] == "q4_0" and answer["request"]["kv_precision_v"] == "q8_0"
    assert answer["report"]["inference"]["kv_bytes_per_token"] == pytest.approx(79872)
