"""New-user trial item 1: on one setup (model, card, count, precision, runtime) the sequences the GPUs
hold never grow with the context. vLLM V0's profile runs a whole ``max_model_len`` up to 32,768 tokens
and chunks (512 tokens) above it; sizing each context on its own profile made 8 × H20 hold 4
DeepSeek-V3 sequences at 32K but 6 at 64K. That step is vLLM V0's own behaviour (it turns chunked
prefill on by itself above 32,768 tokens and reserves less working memory there: kept, since a run
that started in a real thread would otherwise be called out of memory), so the property holds within
each of V0's two regimes, up to 32K and above it. Checked over a grid, and through ``sizing-bot ask``."""

from __future__ import annotations

import itertools
import json

import pytest

from bot.cli import main
from estimator import estimate
from estimator.models import Precision, Runtime, SizingRequest, Stage

CONTEXTS = [4096, 8192, 16384, 32768, 65536, 131072]
REGIMES = (slice(0, 4), slice(4, 6))  # vLLM V0: whole-context prefill up to 32,768 tokens, chunked above
GRID = [
    ("Qwen2.5-7B", "RTX-4090", 1, None),
    ("Qwen2.5-7B", "RTX-4090", 1, Runtime.vllm),
    ("Qwen2.5-7B", "A100-SXM4-40GB", 1, Runtime.vllm),
    ("Llama-3.1-8B", "RTX-3090", 1, Runtime.vllm),
    ("Llama-3.1-8B", "L4", 2, Runtime.sglang),
    ("Qwen2.5-72B", "A100-SXM4-80GB", 8, None),
    ("Qwen2.5-72B", "H100-SXM5-80GB", 4, Runtime.vllm),
    ("Qwen2.5-72B", "H100-SXM5-80GB", 4, Runtime.transformers),
    ("Qwen2.5-7B", "A100-SXM4-80GB", 1, Runtime.transformers),
    ("Llama-3.1-70B", "H20-96GB", 4, None),
    ("DeepSeek-V3", "H20-96GB", 8, None),
    ("DeepSeek-V3", "H200-SXM-141GB", 8, Runtime.sglang),
    ("Qwen2.5-32B", "RTX-4090", 2, Runtime.llama_cpp),
]


def _held(model: str, gpu: str, count: int, runtime: Runtime | None, precision: Precision, ctx: int):
    req = SizingRequest(
        stage=Stage.inference, model=model, gpu=gpu, gpu_count=count, seq_len=ctx, precision=precision,
        runtime=runtime, concurrency_asked=True,
    )  # fmt: skip
    return estimate(req).inference


CASES = [
    (*setup, precision)
    for setup in GRID
    for precision in (Precision.bf16, Precision.fp8, Precision.q8_0)
    if precision is not Precision.q8_0 or setup[3] in (None, Runtime.llama_cpp)  # GGUF runs on llama.cpp
]


@pytest.mark.parametrize(("model", "gpu", "count", "runtime", "precision"), CASES)
def test_sequences_held_never_grow_with_the_context(model, gpu, count, runtime, precision):
    held = [_held(model, gpu, count, runtime, precision, c) for c in CONTEXTS]
    heads = [inf.max_concurrency if inf.min_gpus <= count else 0 for inf in held]  # on the user's GPUs
    for part in (heads[r] for r in REGIMES):
        assert part == sorted(part, reverse=True), (model, gpu, count, runtime, precision, heads)
    assert heads[0] > heads[-1] or heads[0] <= 1, heads  # the context does matter
    for c, inf in zip(CONTEXTS, held, strict=True):
        if inf.min_gpus > count:
            continue  # sized on the GPUs it needs, said so in the headline
        table = dict(inf.concurrency_table)  # the answer's own setup, row by row
        for part in (
            [v for k, v in sorted(table.items()) if k <= 32768],
            [v for k, v in sorted(table.items()) if k > 32768],
        ):
            assert part == sorted(part, reverse=True), (c, inf.concurrency_table)
        if c in table:
            assert table[c] == inf.max_concurrency, (c, inf.concurrency_table)
    for small, large in itertools.pairwise(held):  # KV room on one setup shrinks or stays (per regime)
        if small.context_tokens <= 32768 < large.context_tokens:
            continue
        if (small.tp, small.pp, small.replicas) == (large.tp, large.pp, large.replicas):
            assert small.kv_capacity_tokens >= large.kv_capacity_tokens, (small.context_tokens,)


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", question])
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "template",
    [
        # DP attention said: with no engine named the default is vLLM's plain TP (s25 trial #8)
        "用8张H20部署DeepSeek-V3，开 DP attention，{}上下文，支持多少并发",
        "How many concurrent users can 8 H20 serve DeepSeek-V3 with DP attention at {} context?",
    ],
)
def test_deepseek_on_8_h20_holds_fewer_as_the_context_grows(capsys, template):
    answers = [
        _ask(capsys, template.format(c))["report"]["inference"] for c in ("8k", "16k", "32k", "64k", "128k")
    ]
    heads = [a["max_concurrency"] for a in answers]
    # s8 fix item 3 (asked for): was [53, 26, 4, 6, 3] — vLLM V0's whole-sequence profile at 32K (6.47 GB
    # of working memory per GPU, 3.88 GB at 64K: 144,688 KV tokens instead of 439,248); the sequences a
    # layout holds are those of the start-up that accepts them with the least working memory (chunked
    # prefill: V1, or V0 above 32K), so they halve as the context doubles: 439,248 // 32,768 = 13
    # s44: vLLM's DP ranks keep every weight but the routed experts whole (estimator.dp_replicated: 16.6 GB
    # a GPU above 1/8 of them), which 8 H20 do not hold: the setup is TP 8 × PP 2 on 16 (before, the 8:
    # [53, 26, 13, 6, 3]); the sequences still halve as the context doubles
    assert heads == [1045, 522, 261, 130, 65], heads
    assert {(a["tp"], a["pp"], a["replicas"], a["weight_format"], a["runtime"]) for a in answers} == {
        (8, 2, 1, "fp8", "vLLM")
    }  # one setup for every context
    tables = {json.dumps(a["concurrency_table"]) for a in answers}
    assert len(tables) == 1, tables  # every answer's table is computed on that one setup


@pytest.mark.parametrize(
    "template",
    [
        "Qwen2.5-72B on 8 A100, {} context, max concurrency?",
        "用8张A100部署Qwen2.5-72B，{}上下文，最大并发多少",
    ],
)
def test_72b_on_8_a100_keeps_one_layout_and_one_table(capsys, template):
    """ "max concurrency?" asks how many fit (it was sized for an assumed 16: TP=4 × 2 at 32K, TP=8 at
    64K, and the 32K row read 26 in one answer and 41 in the other)."""
    answers = [_ask(capsys, template.format(c)) for c in ("32k", "64k")]
    assert all(a["request"]["concurrency_asked"] for a in answers)
    infs = [a["report"]["inference"] for a in answers]
    assert {(i["tp"], i["replicas"]) for i in infs} == {(8, 1)}
    assert infs[0]["concurrency_table"] == infs[1]["concurrency_table"]
    rows = dict(infs[0]["concurrency_table"])
    assert infs[0]["max_concurrency"] == rows[32768] > infs[1]["max_concurrency"] >= rows[131072]
