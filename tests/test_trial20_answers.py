"""Session 20 fresh-user trial, the answer side (issues 23, 24): each fault as a kind, in both languages.

q14 — gpt-oss-120b at 128K on one H100 under vLLM V1. vLLM's hybrid KV cache manager sizes the
sliding-window layers by their window, not the context (vllm/v1/kv_cache_interface.py
``SlidingWindowSpec.max_memory_usage_bytes``: ``min(sliding_window - 1 + max_num_batched_tokens,
max_model_len)`` tokens; vllm/v1/core/kv_cache_utils.py ``check_enough_kv_cache_memory`` sums it per
layer). gpt-oss config: 36 layers, ``layer_types`` alternating sliding/full, ``sliding_window`` 128,
8 KV heads × head_dim 64 (transformers configuration_gpt_oss.py): 18 full layers × 2 × 8 × 64 × 2 B =
36 KiB per token of context, 4.5 GiB for 131,072 tokens. The MXFP4 checkpoint is 65.2 GB (60.7 GiB); at
gpu_memory_utilization 0.92 of an H100's 79.2 GiB (72.9 GiB) less vLLM's ~5.5 GiB profile, ~6.7 GiB
is left: 131,072 tokens start (vLLM's gpt-oss recipe serves the model's 128K on one H100), one at a time.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import ask
from estimator import catalog
from estimator.runtimes import NO_LOAD, VLLM
from estimator.serving_layout import kv_capacity_tokens, room_per_gpu
from estimator.weights import kv_bytes_per_token

Q14_EN = (
    "Can I serve gpt-oss-120b on one H100 80GB with this? vllm serve openai/gpt-oss-120b "
    "--max-model-len 131072 --max-num-seqs 64 --gpu-memory-utilization 0.92. "
    "How many concurrent users at full context?"
)
Q14_ZH = "用 vllm 在一张 H100 80G 上跑 gpt-oss-120b，--max-model-len 131072，满上下文能撑几个并发？"


def _json(question: str) -> dict:
    out, code = ask(question, None, "json")
    assert code == 0, out
    return json.loads(out)


@pytest.mark.parametrize("question", [Q14_EN, Q14_ZH])
def test_gpt_oss_128k_starts_on_one_h100(question: str) -> None:
    d = _json(question)
    inf, report = d["report"]["inference"], d["report"]
    assert report["feasible"] != "no", d["reply"][:300]
    assert inf["kv_capacity_tokens"] > 131_072  # the full-attention layers' tokens after one window
    assert inf["max_concurrency"] == 1  # 4.8 GB a 128K sequence, ~7 GiB left: one at full context
    assert "will not start" not in d["reply"] and "启动不了" not in d["reply"]


def test_hybrid_capacity_counts_full_attention_tokens_only() -> None:
    """18 of 36 layers windowed: one sequence's 128-token windows come off the room, the rest counts at
    36 KiB a token, about twice what the same room holds at 72 KiB a token on every layer."""
    spec, gpu = catalog.model("gpt-oss-120b"), catalog.gpu("H100-SXM5-80GB")
    assert kv_bytes_per_token(spec) == 36 * 2 * 8 * 64 * 2  # every layer at full context: 72 KiB
    hybrid = kv_capacity_tokens(spec, gpu, 65.2e9, 1)
    every_layer = kv_capacity_tokens(spec.model_copy(update={"sliding_window": None}), gpu, 65.2e9, 1)
    assert hybrid == pytest.approx(2 * every_layer - 128, abs=32)  # whole 16-token blocks both ways
    assert hybrid > 131_072


def test_dense_capacity_unchanged() -> None:
    """Llama-3.1-8B has no window: every layer counts, 2·32·8·128·2 B = 128 KiB a token."""
    spec, gpu = catalog.model("Llama-3.1-8B"), catalog.gpu("H100-SXM5-80GB")
    assert not spec.sliding_window and kv_bytes_per_token(spec) == 131_072
    room = room_per_gpu(spec, gpu, 1, VLLM, NO_LOAD) - 16.06e9
    assert kv_capacity_tokens(spec, gpu, 16.06e9, 1) == int(room // 131_072) // 16 * 16
