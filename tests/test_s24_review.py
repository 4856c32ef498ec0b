"""The s24 review's findings on answers (wording, order, labels), each in both languages where the words
differ. Sources with each test."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process, ask_quietly


def test_the_stated_zero_stage_is_said_once_in_the_headline() -> None:
    """#4: '(ZeRO-3) fits on 8 × A100 40G (ZeRO-3, ≈ 1/3 more compute …)' said the stage twice; the
    layout keeps only what the stage name does not say (full recompute's cost)."""
    en = ask_quietly("Can I full fine-tune Qwen2.5-14B with ZeRO-3 on 8 A100 40GB?").splitlines()[0]
    assert en.count("ZeRO-3") == 1
    assert "(≈ 1/3 more compute to save memory)" in en
    zh = ask_quietly("Qwen2.5-14B全参微调，ZeRO-3，8张A100 40G能跑吗").splitlines()[0]
    assert zh.count("ZeRO-3") == 1
    assert "（需要以约 1/3 的额外计算换显存）" in zh


def test_a_minimum_layout_leaves_out_the_stated_stage() -> None:
    line = ask_quietly("How many GPUs to full fine-tune llama 3 70B with ZeRO-3 on H100?").splitlines()[0]
    assert line.count("ZeRO-3") == 1


def test_llama_cpp_named_once_and_gguf_names_as_llama_cpp_writes_them() -> None:
    """#5: 'q4_k_m (llama.cpp) … fits (llama.cpp)': the type as llama.cpp's quantize tool names it
    (Q4_K_M) and the layer split (llama.cpp --split-mode layer, common/arg.cpp) where the runtime was
    already named."""
    en = ask_quietly("run qwen2.5 7b q4_k_m with llama.cpp on a 3060 12gb").splitlines()[0]
    assert en == "Qwen2.5 7B Q4_K_M (llama.cpp) inference on 1 × RTX 3060 12G: fits (all layers on one GPU)"
    two = ask_quietly("llama.cpp llama 3 70B Q4_K_M on 2x 3090").splitlines()[0]
    assert "fits (layers split over 2 GPUs)" in two and two.count("llama.cpp") == 1
    zh = ask_quietly("用llama.cpp跑qwen2.5-32b q4_k_m，4090够吗").splitlines()[0]
    assert zh == "Qwen2.5 32B Q4_K_M（llama.cpp） 推理，1 张 RTX 4090：放得下（所有层放在一张卡上）"


def test_an_assumed_llama_cpp_is_still_named() -> None:
    """No runtime named: the layout names llama.cpp, the runtime assumed for GGUF weights."""
    line = ask_quietly("qwen2.5 7b q4_k_m on a 3060").splitlines()[0]
    assert line.endswith("fits (llama.cpp)")


@pytest.mark.parametrize(
    ("question", "per_token"),
    [
        # Qwen2.5-7B: 28 layers × 4 KV heads × 128 × 2 (K, V) × 2 B (f16) = 57,344 B = 56 KiB
        ("run qwen2.5 7b q4_k_m with llama.cpp on a 3060 12gb", 57344),
        # Qwen2.5-14B: 48 layers × 8 × 128 × 2 × 2 B = 196,608 B = 192 KiB (Ollama's default f16 too)
        ("ollama qwen2.5 14b on a 4060 ti 16gb", 196608),
    ],
)
def test_llama_cpp_kv_cache_is_f16_by_default(
    capsys: pytest.CaptureFixture[str], question: str, per_token: int
) -> None:
    """#2: llama.cpp's cache is f16 unless -ctk/-ctv say otherwise (common/arg.cpp --cache-type-k/-v
    default f16; Ollama OLLAMA_KV_CACHE_TYPE default f16): it was labelled bf16."""
    answer = ask_in_process(capsys, question)
    inf = answer["report"]["inference"]
    assert inf["kv_precision"] == "fp16"
    assert inf["kv_bytes_per_token"] == per_token
    assert "KV cache (fp16)" in answer["reply"]


def test_a_server_keeps_the_model_dtype_cache(capsys: pytest.CaptureFixture[str]) -> None:
    """vLLM's kv_cache_dtype auto = the model dtype (Llama 3: bf16, its config.json torch_dtype)."""
    answer = ask_in_process(capsys, "serve llama 3 8b with vllm on one A100")
    assert answer["report"]["inference"]["kv_precision"] == "bf16"
