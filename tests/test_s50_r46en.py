"""Session 50, round 46 en (issue 24): readers for what r46work en missed at its freeze, each tested on
sentences of our own (must-read and must-not-misread), in both languages.

- a GGUF/ggml type right after a version's digit and a dot ('mistral-7b-instruct-v0.2.Q4_K_M.gguf',
  'llama-2-7b-chat.ggmlv3.q4_0.bin') is the weights' format (bot.parse.precision_words.PRECISION_RE); before,
  the guard against '2.5'-style numbers dropped it and the weights were sized in bf16; a version number
  alone ('Qwen2.5') sets no format;
- a count of memory modules right before their size ('16 x 64GB DDR4 RDIMMs', '8 条 64G 内存') is the host's
  memory, their sum (bot.parse.gpu_layers._sticks); before, one module's size was read (and '16 条' as a
  sample count); a card count before the cards, or a size with no count, stays as it was.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json


def _request(text: str) -> dict[str, Any]:
    return answer_json(text)["request"]


@pytest.mark.parametrize(
    ("text", "precision"),
    [
        ("I load mistral-7b-instruct-v0.2.Q4_K_M.gguf in llama.cpp, how much VRAM?", "q4_k_m"),
        ("llama-2-13b-chat.ggmlv3.q4_0.bin on an RTX 3060 12GB with llama.cpp: will it fit?", "q4_0"),
        ("openchat-3.5.Q5_K_M.gguf in LM Studio on a 4060 8GB, how fast?", "q5_k_m"),
        ("我用 llama.cpp 加载 qwen2.5-7b-instruct-v0.1.Q5_K_M.gguf，需要多少显存？", "q5_k_m"),
        ("用 ollama 跑 mistral-7b-instruct-v0.2.Q4_K_M.gguf，一张 3090 够吗", "q4_k_m"),
    ],
)
def test_gguf_type_after_a_version_number_is_read(text: str, precision: str) -> None:
    assert _request(text)["precision"] == precision


@pytest.mark.parametrize(
    "text",
    [
        "Qwen2.5 7B on one RTX 4090 with vLLM: how many tokens per second?",
        "Serve Llama 3.1 8B in bf16 on an A100, how many concurrent users?",
        "Qwen2.5-7B 用 vLLM 部署在一张 4090 上，能跑多快？",
    ],
)
def test_a_version_number_alone_sets_no_gguf_type(text: str) -> None:
    assert _request(text)["precision"] in (None, "bf16", "fp16")


@pytest.mark.parametrize(
    ("text", "host"),
    [
        ("A server with 16 x 64GB DDR4 RDIMMs and 8 RTX 3090 runs DeepSeek V3 in llama.cpp", 1024.0),
        ("8 × 32GB DDR5-4800, two A6000, llama.cpp 70B q4_k_m: tokens per second?", 256.0),
        ("4x 16GB DDR4-3200 RAM and an RTX 3060 12GB, llama.cpp with 20 layers on GPU", 64.0),
        ("每台 16 条 64G 内存，8 张 3090，ollama 跑 DeepSeek V3 能多快", 1024.0),
        ("机器有 8 条 32G DDR5 内存，一张 4090，llama.cpp 跑 70B q4 要多久", 256.0),
    ],
)
def test_memory_modules_counted_are_summed(text: str, host: float) -> None:
    req = _request(text)
    assert req["host_memory_gib"] == host
    assert req.get("num_samples") is None


@pytest.mark.parametrize(
    ("text", "host", "count"),
    [
        ("2 x RTX 3090 and 64GB DDR5, ollama, llama 3 70B q4: how fast?", 64.0, 2),
        ("An RTX 4090 with 128GB DDR5 RAM, llama.cpp, Qwen2.5 72B q4_k_m", 128.0, 1),
        ("两张 3090，64G 内存，ollama 跑 llama 3 70B 能多快", 64.0, 2),
    ],
)
def test_a_card_count_or_a_size_alone_is_not_multiplied(text: str, host: float, count: int) -> None:
    req = _request(text)
    assert req["host_memory_gib"] == host
    assert req["gpu_count"] == count
