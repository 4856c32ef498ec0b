"""Session 33, verdicts against real runs: llama.cpp (or Ollama) with flash attention not stated.

llama.cpp runs flash attention by default since build b6327 (2025-08-31, ``-fa auto``); older builds and
``-fa off`` keep one layer's fp32 KQ scores in each device's compute buffer, ``n_ctx × n_ubatch × n_head ×
4`` bytes (``build_attn_mha``'s non-flash branch, src/llama-graph.cpp at ggml-org/llama.cpp@00395eb2;
estimator.runtimes.llama_cpp.kq_score_bytes). The user's build is unknown when they do not say, so "fits"
needs 10 % of the cards free with those scores too (estimator.serving_verdict.flash_unstated); else
"borderline" ('flash_unstated'), with a note giving the scores a GPU.

Hand computation from Qwen/Qwen2-72B ``config.json`` (64 attention heads, 8 KV heads, head size 128, 80
layers): at n_ctx 32,000 and llama.cpp's default n_ubatch 512 the scores are 32,000 × 512 × 64 × 4 =
4,194,304,000 bytes a GPU. On 3 × RTX 3090 (24 GiB less llama.cpp's 1 GiB context: 24,696,061,952 usable
each) the Q4_K_M weights (47,363,095,645 bytes) and one 32,000-token sequence of KV cache (80 layers × 8
KV heads × 128 × 2 (K and V) × 2 bytes = 327,680 bytes a token: 10,485,760,000) take 58.0 GB of the 66.7 GB
that 90 % of three cards leaves; with the scores, 3 × 4.19 GB more, 70.6 GB: past 90 % (en-047, a working
split record: 'Qwen2-72B-Instruct-Q4_K_M.gguf with num_ctx=32000 on llama.cpp … runs out of memory on my
3 GPUs of 24GB each', which said "fits").
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator import catalog
from estimator.runtimes.llama_cpp import kq_score_bytes
from estimator.units import GIB

SCORES = 32_000 * 512 * 64 * 4
"""One layer's fp32 KQ scores of Qwen2-72B at n_ctx 32,000, n_ubatch 512: bytes a GPU."""
assert SCORES == 4_194_304_000
USABLE = 24 * GIB - GIB
"""An RTX 3090 under llama.cpp: 24 GiB less 1 GiB of CUDA context and buffers."""
KV_TOKEN = 80 * 8 * 128 * 2 * 2
"""Qwen2-72B's fp16 KV cache a token: layers × KV heads × head size × (K, V) × 2 bytes."""
assert KV_TOKEN == 327_680


def _ask(capsys, question: str, fmt: str = "json") -> dict | str:
    main(["ask", "--format", fmt, "--", question])
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


def test_qwen2_72b_scores_are_the_hand_computation():
    spec = catalog.model("Qwen2-72B")
    assert (spec.heads, spec.kv_heads, spec.layers) == (64, 8, 80)
    assert kq_score_bytes(spec, 32_000) == SCORES
    assert kq_score_bytes(spec, 4096) == 4096 * 512 * 64 * 4 == 536_870_912


UNSTATED = [
    "Qwen2-72B-Instruct Q4_K_M with ctx 32000 on llama.cpp on 3 RTX 3090: does it fit?",
    "3 张 3090 用 llama.cpp 跑 Qwen2-72B-Instruct Q4_K_M，上下文 32000，够吗？",
]


@pytest.mark.parametrize("question", UNSTATED)
def test_flash_attention_not_stated_is_borderline_with_the_scores_noted(capsys, question):
    answer = _ask(capsys, question)
    report, inf = answer["report"], answer["report"]["inference"]
    assert answer["request"]["flash_attention"] is None
    assert inf["usable_bytes_per_gpu"] == USABLE and inf["kv_bytes_per_sequence"] == 32_000 * KV_TOKEN
    need = inf["weights_bytes"] + inf["kv_bytes_per_sequence"] + 3 * inf["workspace_bytes_per_gpu"]
    assert need <= 0.9 * 3 * USABLE < need + 3 * SCORES  # fits with flash attention, not without
    assert (report["feasible"], report["feasible_reason"]) == ("borderline", "flash_unstated")
    note = next(w for w in report["warnings"] if w["code"] == "flash_unstated")
    assert note["params"] == {"scores_bytes": SCORES, "context": 32_000}
    text = _ask(capsys, question, "text")
    head = text.splitlines()[0]
    if question.startswith("3 张"):
        assert "开 flash attention 时放得下" in head and "约 4.2 GB" in text
    else:
        assert "fits with flash attention" in head and "≈ 4.2 GB at 32,000 tokens" in text


@pytest.mark.parametrize(
    ("switch", "verdict"), [("-fa on", ("yes", None)), ("-fa off", ("borderline", "tight"))]
)
def test_a_stated_switch_decides_it(capsys, switch, verdict):
    """-fa on: no scores, "fits"; -fa off: the scores are in the workspace (64,440,320 + 4,194,304,000 bytes
    a GPU), "borderline" as tight — the unstated case's high end."""
    answer = _ask(
        capsys, f"Qwen2-72B-Instruct Q4_K_M with ctx 32000 on llama.cpp {switch}, 3 RTX 3090: does it fit?"
    )
    report = answer["report"]
    assert (report["feasible"], report["feasible_reason"]) == verdict
    assert not any(w["code"] == "flash_unstated" for w in report["warnings"])
    if switch == "-fa off":
        assert report["inference"]["workspace_bytes_per_gpu"] == pytest.approx(64_440_320 + SCORES)


def test_a_short_context_fits_without_a_note(capsys):
    """At 4,096 tokens the scores are 0.54 GB a GPU: 50.5 GB of 66.7 GB with them, still "fits"."""
    answer = _ask(capsys, "Qwen2-72B-Instruct Q4_K_M with ctx 4096 on llama.cpp on 3 RTX 3090: does it fit?")
    assert (answer["report"]["feasible"], answer["report"]["feasible_reason"]) == ("yes", None)
    assert not any(w["code"] == "flash_unstated" for w in answer["report"]["warnings"])


FAILED = [
    "Qwen2-72B-Instruct-Q4_K_M.gguf with num_ctx=32000 on llama.cpp server (ROCm) runs out of memory on my 3 "
    "GPUs of 24GB each (72GB total). Should it fit?",
    "3 张 24G 的卡用 llama.cpp 跑 Qwen2-72B-Instruct-Q4_K_M.gguf，num_ctx=32000 显存不足，应该放得下吗？",
]


@pytest.mark.parametrize("question", FAILED)
def test_an_oom_at_that_count_agrees_with_the_build_without_flash_attention(capsys, question):
    """en-047's run: the verdict at the 3 cards that failed is "borderline", and the note says the build
    without flash attention agrees with the run (no longer "the estimate fits there")."""
    answer = _ask(capsys, question)
    note = answer["report"]["warnings"][0]
    assert note["code"] == "serving_count_failed_edge"
    assert note["params"]["feasible"] == "borderline" and note["params"]["gpu_count"] == 3
    assert note["params"]["scores_bytes"] == SCORES and note["params"]["next_gpus"] == 4
    text = _ask(capsys, question, "text")
    said = (
        "这与不开 flash attention 时的估算一致"
        if question.startswith("3 张")
        else "matches the estimate without"
    )
    assert said in text and "max_model_len" not in text.splitlines()[1]
