"""On one layout the sequences held never grow with the context, across vLLM V0's regimes too (s8 fix
item 3). DeepSeek-V3 on 8 × H20 held 4 sequences at 32K and 6 at 64K on the same TP 8: not a layout
change, not the KV per token (70,272 B, DeepSeek-V3's MLA latent) nor block rounding, but vLLM V0's
start-up profile of one whole ``max_model_len`` up to 32,768 tokens (vllm/engine/arg_utils.py turns
chunked prefill on only above it): 6.47 GB of working memory per GPU at 32K against 3.88 GB (V1's
8,192-token profile) at 64K. A start-up with chunked prefill accepts the same sequences, so the count is
the most any start-up holds (estimator.inference._most_held), and every table row with it."""

from __future__ import annotations

import itertools

import pytest

from estimator import estimate
from estimator.models import Runtime, SizingRequest, Stage

CONTEXTS = [2048, 4096, 8192, 16384, 32768, 65536, 131072]
GRID = [
    ("DeepSeek-V3", "H20-96GB", 8, None),
    ("DeepSeek-V3", "H200-SXM-141GB", 8, Runtime.vllm),
    ("Llama-3.1-70B", "H20-96GB", 4, None),
    ("Llama-3.1-70B", "H100-SXM5-80GB", 4, Runtime.vllm),
    ("Qwen2.5-72B", "A100-SXM4-80GB", 8, None),
    ("Qwen2.5-7B", "A100-SXM4-40GB", 1, Runtime.vllm),
    ("Qwen2.5-7B", "RTX-4090", 1, Runtime.vllm),
    ("Llama-3.1-8B", "L4", 2, Runtime.sglang),
    ("Qwen2.5-32B", "L40S", 4, Runtime.vllm),
]


def _inf(model: str, gpu: str, count: int, runtime: Runtime | None, context: int, dp: bool | None = None):
    req = SizingRequest(
        stage=Stage.inference, model=model, gpu=gpu, gpu_count=count, seq_len=context, runtime=runtime,
        concurrency_asked=True, dp_attention=dp,
    )  # fmt: skip
    return estimate(req).inference


@pytest.mark.parametrize(("model", "gpu", "count", "runtime"), GRID)
def test_sequences_never_grow_with_the_context_on_one_layout(model, gpu, count, runtime):
    held = [_inf(model, gpu, count, runtime, c) for c in CONTEXTS]
    for small, large in itertools.pairwise(held):
        if (small.tp, small.pp, small.replicas) == (large.tp, large.pp, large.replicas):
            assert small.max_concurrency >= large.max_concurrency, (
                model, gpu, small.context_tokens, small.max_concurrency, large.max_concurrency,
            )  # fmt: skip
    for inf in held:
        rows = [n for _, n in inf.concurrency_table]
        assert rows == sorted(rows, reverse=True), (model, gpu, inf.context_tokens, inf.concurrency_table)
        table = dict(inf.concurrency_table)
        if inf.context_tokens in table:
            assert table[inf.context_tokens] == inf.max_concurrency


def test_deepseek_v3_on_8_h20_halves_as_the_context_doubles():
    # DP attention said: with no engine named the default is vLLM's plain TP (s25 trial #8). s44: vLLM's DP
    # ranks keep every weight but the routed experts whole (estimator.dp_replicated: 84.1 + 16.6 GB of FP8
    # weights a GPU), more than a 96 GB H20's 0.9 share, so the 8 hold none (pool 0) and the answer is the
    # 16 GPUs of TP 8 × PP 2 (before: 214 … 3 sequences on the 8, a pool of 439,248 tokens)
    held = [_inf("DeepSeek-V3", "H20-96GB", 8, None, c, dp=True) for c in CONTEXTS]
    assert [i.max_concurrency for i in held] == [4181, 2090, 1045, 522, 261, 130, 65]
    assert {(i.tp, i.pp, i.replicas, i.weight_format) for i in held} == {(8, 2, 1, "fp8")}
    assert {i.kv_capacity_tokens for i in held} == {0} and {i.min_gpus for i in held} == {16}
    assert held[4].concurrency_table == [
        (2048, 4181),
        (4096, 2090),
        (8192, 1045),
        (16384, 522),
        (32768, 261),
        (131072, 65),
    ]
