"""Session 37 part fixe: serving answers a second trial of the merged tree (s37-lead a2b4a70f) found wrong.

1. 'Will it start?' on llama.cpp (layers split, no pooled KV cache) printed 'its KV cache holds None
   tokens' and vLLM's max_model_len: it now names llama.cpp's own figure, the context (-c) it allocates the KV
   cache for. A sweep asserts no reply, in either language, holds a literal 'None'.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import ask


def _text(question: str, lang: str) -> str:
    out, _ = ask(question, lang, "text")
    return out


def _answer(question: str) -> dict[str, Any]:
    out, _ = ask(question, None, "json")
    return json.loads(out)


# -- 1. a runtime with no pooled KV cache: its own context, never 'None' -------------------------------------

_LLAMA = (
    "llama-server -m Meta-Llama-3.1-70B-Instruct-Q4_K_M.gguf -ngl 99 -c 8192 on two 3090s, will it start?"
)


def test_llama_cpp_start_names_its_context_en() -> None:
    head = _text(_LLAMA, "en").splitlines()[0]
    assert "llama.cpp starts with a context of 8,192 tokens" in head
    assert "max_model_len" not in head and "None" not in head


def test_llama_cpp_start_names_its_context_zh() -> None:
    head = _text(_LLAMA, "zh").splitlines()[0]
    assert "llama.cpp 以 8,192 token 的上下文启动" in head
    assert "max_model_len" not in head and "None" not in head


def test_vllm_start_still_counts_its_pool() -> None:
    """The vLLM start-up answer keeps its pooled KV figure (a number, not None)."""
    head = _text("will vLLM start with max_model_len 32768 on one L4 for qwen2.5 7b?", "en").splitlines()[0]
    assert "None" not in head and "KV cache" in head


_SWEEP = [
    _LLAMA,
    "llama-server -m Qwen2.5-32B-Instruct-Q4_K_M.gguf -ngl 99 -c 16384 on one 4090, will it start?",
    "ollama run llama3.1:70b on two 3090s with num_ctx 8192, will it start?",
    "用 llama.cpp 在两张 3090 上跑 Llama 3.1 70B Q4_K_M，-c 8192，能启动吗？",
    "ollama 跑 qwen2.5 32b，一张 4090，上下文 16k，能跑起来吗",
    "will vLLM start with max_model_len 32768 on one L4 for qwen2.5 7b?",
    "32B 推理用 24G 还是 48G 的卡",
    "部署 Qwen2.5-72B，QPS 5，输出 512 token，TTFT 小于 1 秒，要几张 H20",
    "glm4 9b 推理 3090 并发20 够吗",
    "deepseek-v3 inference on H200, memory per gpu?",
]


@pytest.mark.parametrize("question", _SWEEP)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_reply_prints_none(question: str, lang: str) -> None:
    assert "None" not in _text(question, lang)
