"""Session 21 (issue 24, part gen): readers of how people write, one per kind of fault left on the working
splits of the real questions — each rule in both languages, with sentences written for these tests (none is
from the real-question corpus), through the CLI (``sizing-bot ask --format json``, in process).

- A KV cache's type in words: 'an FP16 KV cache', 'the KV cache quantized to q4_0', 'KV 缓存设为 bf16'
  (:mod:`bot.parse.kv_cache_types`; before, the type was read as the weights' format), and LMDeploy's
  ``--quant-policy 8`` in a command named as the int8 KV cache it sets (lmdeploy/cli/utils.py: 0 none,
  4 int4 KV, 8 int8 KV).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import ask_in_process, named


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    return ask_in_process(capsys, text)


KV_IN_WORDS = [
    ("Serve Llama-3.1-8B with vLLM on one L40S with an FP16 KV cache and 32k context.", "fp16", "bf16"),
    ("Qwen2.5-32B Q4_K_M on llama.cpp with the KV cache quantized to q8_0, 64k context, one 4090.", "q8_0", "q4_k_m"),
    ("Qwen2.5-7B on vLLM on an A10, KV cache in bf16: how many users at 8k?", "bf16", "bf16"),
    ("Qwen2.5-14B 用 llama.cpp 跑，KV cache 量化成 q4_0，一张 4090，上下文 32k。", "q4_0", "q8_0"),
    ("Qwen2.5-7B 用 vLLM 部署在 A10 上，fp16 的 KV 缓存，能撑多少并发？", "fp16", "bf16"),
    ("Qwen2.5-7B 在 A10 上用 vLLM 推理，KV 缓存设为 bf16，32k 上下文。", "bf16", "bf16"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "kv", "weights"), KV_IN_WORDS)
def test_a_kv_cache_type_in_words_is_the_caches_not_the_weights(
    capsys: pytest.CaptureFixture[str], text: str, kv: str, weights: str
) -> None:
    request = ask(capsys, text)["request"]
    assert request["kv_precision"] == kv
    assert request["precision"] == weights  # the weights keep their own (or the engine's default) format


KV_NOT_A_TYPE = [
    "Qwen2.5-7B fp16 on vLLM, KV cache at 32k context, one A10: how many users?",
    "Qwen2.5-7B 用 fp16 部署，KV 缓存大概多少？A10 上 vLLM 32k。",
    "Llama-3.1-8B in FP16 weights with an FP8 KV cache on vLLM, one L40S.",
]


@pytest.mark.parametrize("text", KV_NOT_A_TYPE)
def test_weights_precision_beside_a_kv_cache_word_stays_the_weights(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    request = ask(capsys, text)["request"]
    assert request["precision"] == "fp16"
    assert request.get("kv_precision") in (None, "fp8")


QUANT_POLICY_IN_A_COMMAND = [
    "lmdeploy serve api_server ./Qwen2.5-14B-Instruct-AWQ --model-format awq --tp 2 --quant-policy 8 on two 3090s",
    "命令：lmdeploy serve api_server ./internlm2-chat-20b --tp 2 --quant-policy 4，两张 A10，能开多长上下文？",
    "Two A10s: lmdeploy serve api_server Qwen/Qwen2.5-7B-Instruct --quant-policy 8 --session-len 32768",
]


@pytest.mark.parametrize("text", QUANT_POLICY_IN_A_COMMAND)
def test_lmdeploys_quant_policy_flag_names_the_kv_caches_integer_type(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    bits = "8" if "policy 8" in text else "4"
    assert named(ask(capsys, text)).get(f"kv_precision: int{bits} (--quant-policy {bits})") == "no_field"
