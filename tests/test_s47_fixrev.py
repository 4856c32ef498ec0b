"""Session 47 fixrev: what session 46's review and trial left (issue 24 items 3–4, issue 23's layering).

1. GGUF K-quant mixes (Q6_K, Q3_K_L/M/S, Q2_K) are sized as themselves under llama.cpp, never as a GPTQ
   int4/int3 on vLLM (review B6): their size from llama.cpp's quantize table (tools/quantize/quantize.cpp
   ``QUANT_OPTIONS``, Llama-3-8B: 'Q3_K_M 3.74G', 'Q6_K 6.14G', 'Q2_K 2.96G'; G is GiB).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main

GIB = 2**30


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


def _inference(capsys, question: str) -> tuple[dict, dict]:
    out = _ask(capsys, question)
    return out, out["report"]["inference"]


@pytest.mark.parametrize(
    ("question", "fmt", "gib"),
    [
        ("Can Llama-3-8B Q3_K_M run on one A100 40GB?", "q3_k_m", 3.74),
        ("Llama-3-8B 的 Q3_K_M 量化版，一张 A100 40GB 能跑吗？", "q3_k_m", 3.74),
        ("Llama-3-8B Q6_K on an H100, how fast?", "q6_k", 6.14),
        ("Llama-3-8B 用 Q6_K 在 H100 上推理多快？", "q6_k", 6.14),
        ("Llama-3-8B Q2_K on one L40S", "q2_k", 2.96),
        ("一张 L40S 跑 Llama-3-8B 的 Q2_K", "q2_k", 2.96),
        ("Llama-3-8B Q3_K_L on one A10", "q3_k_l", 4.03),
        ("Llama-3-8B Q3_K_S 放到一张 A10 上", "q3_k_s", 3.41),
    ],
)
def test_gguf_mix_is_sized_as_itself_on_llama_cpp(capsys, question, fmt, gib):
    """A GGUF type with no runtime, on a data-centre card: llama.cpp's memory model (the only engine that
    loads it), the weights at the quantize table's file size for Llama-3-8B (± 1 %), used, not named."""
    out, inf = _inference(capsys, question)
    assert inf["runtime"] == "llama.cpp"
    assert inf["weight_format"] == fmt
    assert inf["weights_bytes"] / GIB == pytest.approx(gib, rel=0.01)
    assert not any("precision" in i["text"] for i in out["interpretation"]["ignored"])


@pytest.mark.parametrize(
    ("question", "runtime"),
    [
        ("Run Qwen2.5-32B Q6_K with Ollama on two L40S", "Ollama"),
        ("用 Ollama 在两张 L40S 上跑 Qwen2.5-32B 的 Q6_K", "Ollama"),
        ("Qwen2.5-32B Q3_K_M in LM Studio on an RTX 4090", "llama.cpp"),
        ("LM Studio 里跑 Qwen2.5-32B 的 Q3_K_M，显卡是 4090", "llama.cpp"),
    ],
)
def test_gguf_mix_with_a_local_runtime_keeps_its_format(capsys, question, runtime):
    _, inf = _inference(capsys, question)
    assert inf["runtime"] == runtime
    assert inf["weight_format"] in ("q6_k", "q3_k_m")


@pytest.mark.parametrize(
    "question",
    [
        "Llama-3.3-70B IQ2_XXS on one H100",
        "Llama-3.3-70B 的 IQ2_XXS 量化，一张 H100 够吗",
    ],
)
def test_an_i_quant_is_sized_as_the_next_wider_gguf_type_and_named(capsys, question):
    """IQ2_XXS (2.06 bits, quantize.cpp) is sized as Q2_K (3.17 bits), an upper bound, on llama.cpp: named."""
    out, inf = _inference(capsys, question)
    assert (inf["runtime"], inf["weight_format"]) == ("llama.cpp", "q2_k")
    assert any("iq2_xxs" in i["text"] for i in out["interpretation"]["ignored"])


@pytest.mark.parametrize(
    ("question", "fmt"),
    [
        ("Llama-3-70B AWQ int4 on two A100 80GB", "int4"),
        ("Llama-3-70B 的 AWQ 4bit 版本，两张 A100 80GB", "int4"),
        ("Llama-3-70B GPTQ 3-bit on two A100 80GB", "int3"),
        ("两张 A100 80GB 跑 Llama-3-70B 的 3bit GPTQ", "int3"),
    ],
)
def test_gptq_and_awq_stay_on_vllm(capsys, question, fmt):
    """Neighbours that must not move: a GPTQ/AWQ width is a vLLM checkpoint, not a GGUF file."""
    _, inf = _inference(capsys, question)
    assert inf["runtime"] == "vLLM"
    assert inf["weight_format"] == fmt


def test_gguf_rows_are_each_at_their_own_size_on_one_engine(capsys):
    """Review B6: 'Q4_K_M or Q3_K_M' rows on one engine, the Q3_K_M row smaller and not 'sized as INT4'."""
    out = _ask(capsys, "Qwen2.5-72B: Q4_K_M or Q3_K_M, which one fits an A100 40GB?")
    rows = {r["value"]: r for r in out["report"]["per_value"]}
    assert out["report"]["inference"]["runtime"] == "llama.cpp"
    assert rows["q3_k_m"]["fits"] != "no" and rows["q4_k_m"]["fits"] == "no"
    assert "INT4" not in out["reply"]
