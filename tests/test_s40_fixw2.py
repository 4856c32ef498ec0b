"""Session 40 fixw2: s39 fixw's SGLang two-node layout, re-landed without its regression.

s39 fixw replaced SGLang's TP 8 × PP stages with one TP group across the nodes (TP 16 where the heads
divide), so a layout that needs fewer GPUs as a pipeline was no longer considered (DeepSeek-V3 INT4 on
H20 at 128K × 50 went from 64 GPUs to 72). Now both are candidates and the usual rules pick:

- the fewest GPUs, then no pipeline, then the larger TP group (``serving_layout``);
- on the user's count: among layouts that hold the load no pipeline first; "how many at once" the most
  sequences (``layout_on``).

TP 16 across two 8-GPU nodes is SGLang's own two-node launch (docs.sglang.io, "Multi-Node Deployment":
Llama 3.1 405B fp16 on two nodes, ``--tp 16 --nnodes 2``; DeepSeek-V3 on two H20 × 8 nodes, sgl-project/
sglang benchmark/deepseek_v3/README.md). The note names the layout used and the recipe launches it;
``--nnodes`` is used, never named "not used".
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.core.pipeline import answer
from bot.render.renderer import render
from estimator import catalog

HOW_MANY_ZH = "2 台 8 卡 H20 用 sglang 部署 deepseek-v3，能支持多少并发"
HOW_MANY_EN = "deepseek-v3 with sglang on two nodes of 8 H20, how many concurrent sequences"
TP16_COMMAND = (
    "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 16 --nnodes 2 "
    "--node-rank 0 --trust-remote-code 在 H20 上能支持多少并发"
)
PP_COMMAND = (
    "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 --pp-size 2 --nnodes 2 "
    "--node-rank 0 --trust-remote-code 在 H20 上能支持多少并发"
)


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["ask", "--format", "json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def _recipe(capsys: pytest.CaptureFixture[str], question: str) -> str:
    assert main(["ask", "--recipe", "sglang", question]) == 0
    text = capsys.readouterr().out
    return text[text.index("serve_sglang.sh") :]


# the candidates


def test_sglang_keeps_both_two_node_layouts() -> None:
    """DeepSeek-V3 (128 heads) on H20 × 8 a node: SGLang's candidates over 2 nodes are TP 16 (16 | 128)
    and TP 8 × PP 2; over 3 nodes TP 8 × PP 3 only (24 does not divide 128); over 4, TP 32 and TP 8 × PP 4.
    vLLM's stay TP 8 × PP stages (TP within a node: its multi-node docs)."""
    from estimator.runtimes import VLLM, SGLang
    from estimator.serving_layout import _groups

    spec, gpu = catalog.model("DeepSeek-V3"), catalog.gpu("H20-96GB")
    sglang = _groups(spec, gpu, None, SGLang())
    assert sglang == [(1, 1), (2, 1), (4, 1), (8, 1), (16, 1), (8, 2), (8, 3), (32, 1), (8, 4)]
    assert _groups(spec, gpu, None, VLLM) == [(1, 1), (2, 1), (4, 1), (8, 1), (8, 2), (8, 3), (8, 4)]
    assert _groups(spec, gpu, 16, SGLang()) == [(1, 1), (2, 1), (4, 1), (8, 1), (16, 1), (8, 2)]


def test_int4_on_h20_stays_at_64(capsys: pytest.CaptureFixture[str]) -> None:
    """The regression: DeepSeek-V3 INT4 at 128K × 50 on H20 with SGLang needs 64 GPUs (8 stages of TP 8,
    tests/test_serving_budget_period.py's hand count), never the 72 of a TP-16-only search."""
    out = _json(
        capsys,
        "Serve DeepSeek-V3 on 16 H20 96GB with SGLang at 128k context for 50 concurrent users; our budget "
        "is ¥3000 per day",
    )
    alts = out["report"]["inference"]["alternatives"]
    assert [a["min_gpus"] for a in alts if a["change"] == "int4"] == [64]


# the usual rules pick


@pytest.mark.parametrize(
    ("users", "group"),
    [(64, (16, 1, 1)), (200, (8, 2, 1))],
)
def test_on_two_nodes_the_load_picks(users: int, group: tuple[int, int, int]) -> None:
    """16 H20, 4K a sequence: TP 16 holds 131 sequences (every one of its 16 ranks keeps the whole MLA
    latent cache), TP 8 × PP 2 twice that, 262 (8 ranks a stage). 64 users: both hold them, no pipeline
    first → TP 16; 200 users: only the pipeline holds them → TP 8 × PP 2."""
    a = answer(f"serve deepseek-v3 with sglang on two nodes of 8 H20, {users} concurrent users at 4k")
    inf = a.report.inference
    assert (inf.tp, inf.pp, inf.replicas) == group
    codes = {n.code for n in a.report.warnings}
    if group[1] == 1:
        assert "tp_group_across_nodes" in codes and "pipeline_across_nodes" not in codes
    else:
        assert "pipeline_across_nodes" in codes and "tp_group_across_nodes" not in codes


def test_tie_takes_no_pipeline_as_sglangs_405b_recipe(capsys: pytest.CaptureFixture[str]) -> None:
    """Llama-3.1-405B bf16, 16 users at 8K on 2 × 8 A100 80G: the same 16 GPUs either way → no pipeline,
    TP 16 — SGLang's documented two-node 405B launch (``--tp 16 --nnodes 2``); vLLM's TP 8 × PP 2 (its
    docs: TP the GPUs of a node, PP the nodes)."""
    q = "用{}部署Llama-3.1-405B，2台8卡A100 80G，并发16，上下文8k"
    sg = _json(capsys, q.format("SGLang"))["report"]["inference"]
    assert (sg["tp"], sg["pp"], sg["replicas"]) == (16, 1, 1)
    vl = _json(capsys, q.format("vLLM"))["report"]["inference"]
    assert (vl["tp"], vl["pp"], vl["replicas"]) == (8, 2, 1)


@pytest.mark.parametrize(
    ("question", "head"),
    [
        (HOW_MANY_ZH, "16 张 H20：4K 上下文下最多约 262 条并发（TP=8 × PP=2）"),
        (HOW_MANY_EN, "16 × H20: up to 262 concurrent sequences at 4K context (TP=8 × PP=2)"),
    ],
)
def test_how_many_takes_the_layout_holding_most(question: str, head: str) -> None:
    """'How many at once' on 16 H20: the most sequences — TP 8 × PP 2's 262 (1,073,447 KV tokens a copy
    // 4,096), not TP 16's 131 (536,723 // 4,096): the pipeline note names TP=8 × PP=2."""
    a = answer(question)
    inf = a.report.inference
    assert (inf.tp, inf.pp, inf.max_concurrency) == (8, 2, 262)
    assert inf.kv_capacity_tokens // 4096 == 262
    text = render(a, "text")
    assert head in text.split("\n")[0]
    assert "TP=8 × PP=2" in next(line for line in text.split("\n") if "PP=2" in line and "⚠️" in line)


def test_stated_tp16_holds_half() -> None:
    """The command's --tp 16 is the user's layout: 131 sequences at TP 16 (half the pipeline's 262); no
    note that the model spans the nodes (they stated it)."""
    a = answer(TP16_COMMAND)
    inf = a.report.inference
    assert (inf.tp, inf.pp, inf.max_concurrency) == (16, 1, 131)
    assert inf.kv_capacity_tokens // 4096 == 131
    assert "131 条并发（TP=16）" in render(a, "text").split("\n")[0]
    assert "tp_group_across_nodes" not in {n.code for n in a.report.warnings}


# the note and the recipe name the layout used


def test_note_names_the_tp_group_across_nodes_in_both_languages() -> None:
    en = render(
        answer("serve deepseek-v3 with sglang on two nodes of 8 H20, 64 concurrent users at 4k"), "text"
    )
    assert (
        "⚠️ One copy of the model is one tensor-parallel group across 2 nodes (TP=16, 8 GPUs a node: "
        "SGLang's multi-node launch, --tp 16 --nnodes 2)." in en
    )
    zh = render(answer("用SGLang部署Llama-3.1-405B，2台8卡A100 80G，并发16，上下文8k"), "text")
    assert (
        "⚠️ 一份模型是跨 2 台机器的一个张量并行组（TP=16，每台 8 卡：SGLang 的多机启动方式，--tp 16 "
        "--nnodes 2）。" in zh
    )
    assert "tensor-parallel" not in zh


def test_recipe_matches_the_tp16_layout(capsys: pytest.CaptureFixture[str]) -> None:
    text = _recipe(capsys, "serve deepseek-v3 with sglang on two nodes of 8 H20, 64 concurrent users at 4k")
    assert "TP 16, 64 × 4K context" in text.split("\n")[0]
    assert "--tp-size 16 \\\n  --nnodes 2 \\\n  --node-rank ${NODE_RANK}" in text
    assert "--dist-init-addr ${MASTER_ADDR}:5000" in text and "--pp-size" not in text
    assert "# run on each of the 2 nodes with NODE_RANK = 0 … 1" in text


def test_recipe_matches_the_pipeline_layout(capsys: pytest.CaptureFixture[str]) -> None:
    text = _recipe(capsys, HOW_MANY_ZH)
    assert "TP 8 × PP 2，262 条并发" in text.split("\n")[0]
    assert "--tp-size 8 \\\n  --pp-size 2 \\\n  --nnodes 2 \\\n  --node-rank ${NODE_RANK}" in text
    assert "--tp-size 16" not in text
    assert "在 2 台机器上分别运行，NODE_RANK = 0 … 1" in text


# --nnodes is read


@pytest.mark.parametrize("command", [TP16_COMMAND, PP_COMMAND])
def test_nnodes_is_used_not_named_unused(command: str) -> None:
    """16 GPUs (TP 16, or TP 8 × PP 2) over --nnodes 2: 8 a machine; --node-rank is what is not used."""
    a = answer(command)
    text = render(a, "text")
    unused = next((line for line in text.split("\n") if line.startswith("未使用")), "")
    assert "--nnodes" not in unused and "--node-rank" in unused
    assert (a.parsed.request.gpu_count, a.parsed.request.gpus_per_node) == (16, 8)


def test_nnodes_that_does_not_divide_stays_named() -> None:
    """'--tp 16 --nnodes 3': 16 GPUs do not split evenly over 3 machines — named, never guessed."""
    q = "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 16 --nnodes 3 on H20"
    a = answer(q)
    assert a.parsed.request.gpus_per_node is None
    assert "--nnodes" in render(a, "text")


def test_vllm_keeps_its_pipeline_and_no_tp_note() -> None:
    """Must not misread: vLLM on the same two nodes never gets a TP group across them."""
    a = answer("serve deepseek-v3 with vllm on two nodes of 8 H20, 64 concurrent users at 4k")
    inf = a.report.inference
    assert inf.tp <= 8
    assert "tp_group_across_nodes" not in {n.code for n in a.report.warnings}
