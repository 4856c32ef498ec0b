"""Session 32 fix-after-trial (s32-fixh): sentences of our own, never corpus records, in both languages."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.parse import parse
from estimator import catalog
from estimator.exl2_weights import exl2_weight_bytes


def _ask(capsys, question: str, fmt: str = "json") -> dict | str:
    main(["ask", "--format", fmt, "--", question])
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


# -- item 1: a node count said after the GPUs per node (bot.parse.node_totals, count_forms) ----------------

NODES_AFTER = [
    ("H100 nodes, each with 8 GPUs, 4 nodes, serve Llama 3 70B", 32),
    ("A800 servers with 4 GPUs each, 3 servers: fine-tune Qwen2.5 7B", 12),
    ("4 RTX 4090 cards per node, 2 nodes, serve Qwen2.5 7B", 8),
    ("2 A100 80GB GPUs per machine, 5 machines, train a 7B model", 10),
    ("每个节点 8 张卡，一共 4 个节点，部署 Llama 3 70B", 32),
    ("每台机器 8 卡 A100，共 3 台，部署 Qwen2.5 72B", 24),
    ("8 GPUs per node, 4 nodes in total, serve Llama 3 70B", 32),
]


@pytest.mark.parametrize(("text", "count"), NODES_AFTER)
def test_node_count_after_size_multiplies(text: str, count: int) -> None:
    assert parse(text).request.gpu_count == count


MIXED = [
    ("two 8-GPU nodes and one 4-GPU node, serve Llama 3 70B", 20),
    ("3 8-GPU servers plus 2 4-GPU servers for Qwen2.5 72B inference", 32),
    ("两台 8 卡加一台 4 卡，部署 Qwen2.5 72B", 20),
    ("2 台 4 卡 + 1 台 8 卡 A800，部署 Qwen2.5 72B", 16),
]


@pytest.mark.parametrize(("text", "count"), MIXED)
def test_mixed_nodes_sum(text: str, count: int) -> None:
    assert parse(text).request.gpu_count == count


def test_two_nodes_of_eight_stays() -> None:
    # near miss: one machine kind, node count first
    assert parse("2 nodes with 8 GPUs each, serve Llama 3 70B").request.gpu_count == 16
    assert parse("两台 8 卡，部署 Qwen2.5 72B").request.gpu_count == 16


# -- item 2: EXL2 bits per weight sized (estimator.exl2_weights) --------------------------------------------

EXL2 = [
    ("Serve Llama 3 70B as EXL2 4.65bpw on 2 RTX 3090", 4.65),
    ("Llama 3 8B exl2 6.0 bpw on a 4090", 6.0),
    ("exllamav2 跑 Qwen2.5 72B，EXL2 量化 5bpw，几张 4090？", 5.0),
    ("用 ExLlamaV2 部署 Llama 3 70B，4bpw，两张 3090 够吗", 4.0),
]


@pytest.mark.parametrize(("text", "bpw"), EXL2)
def test_bpw_read_and_sized(capsys, text: str, bpw: float) -> None:
    d = _ask(capsys, text)
    assert d["request"]["bits_per_weight"] == bpw
    inf = d["report"]["inference"]
    assert inf["weight_format"] == f"{bpw:g}bpw"
    # body at bpw, head ≈ 6.3 bits, embeddings 16-bit: well under 1 byte per parameter, not bf16's 2
    assert 0.5 < inf["bytes_per_param"] < 0.9
    assert not any("bpw" in i["text"] for i in d["interpretation"]["ignored"])


def test_exl2_llama70b_bytes() -> None:
    spec = catalog.model("Llama-3-70B")
    got = exl2_weight_bytes(spec, 70.6e9, 4.65)
    m = 128256 * 8192
    assert got == pytest.approx((70.6e9 - 2 * m) * 4.65 / 8 + m * 6.3 / 8 + m * 2)
    assert got == pytest.approx(42.7e9, rel=0.01)


# -- item 3: a CPU named as typed, never silently swapped; sentence-transformers is not transformers ---------

CPUS = [
    ("Can I run Llama 3 8B on a Xeon E5-2690 v4?", "Xeon E5-2690 v4"),
    ("Serve Qwen2.5 7B on an EPYC 9654 server", "EPYC 9654"),
    ("i9-13900K 上跑 Qwen2.5 7B 推理要多少内存", "i9-13900K"),
    ("在 Xeon Gold 6348 上能跑 Qwen2.5 7B 吗", "Xeon Gold 6348"),
]


@pytest.mark.parametrize(("text", "cpu"), CPUS)
def test_cpu_is_named(capsys, text: str, cpu: str) -> None:
    d = _ask(capsys, text)
    assert {"text": cpu, "reason": "cpu_not_gpu"} in d["interpretation"]["ignored"]
    assert cpu in d["reply"].split("\n")[1]  # said right under the headline, as typed


def test_cpu_beside_a_gpu_is_the_host() -> None:
    got = parse("Ryzen 9 7950X with an RTX 4090, serve Qwen2.5 7B")
    assert got.request.gpu == "RTX-4090"
    assert not any(r == "cpu_not_gpu" for _, r in got.unused_numbers)


@pytest.mark.parametrize(
    "text",
    [
        "serve Qwen2.5 7B with sentence-transformers on a T4",
        "用 sentence-transformers 部署 Qwen2.5 7B，一张 T4",
    ],
)
def test_sentence_transformers_is_not_transformers(capsys, text: str) -> None:
    d = _ask(capsys, text)
    assert d["request"]["runtime"] is None
    assert {"text": "runtime: sentence-transformers", "reason": "runtime_not_modelled"} in d[
        "interpretation"
    ]["ignored"]


def test_transformers_alone_is_still_read() -> None:
    assert parse("用 transformers 部署 Qwen2.5 7B，一张 T4").request.runtime == "transformers"


# -- item 4: a card's memory after a bracketed variant (bot.parse.card_variants) ----------------------------

VARIANTS = [
    # s47-cat: the MLU370-X8 is a catalog card (Cambricon's figures), so the variant names it
    ("Serve Qwen2.5 72B on 4 MLU370 (X8) with 48 GB", "MLU370-X8", None, 48.0),
    ("4 张 MLU370（X8）48G 部署 Qwen2.5 72B", "MLU370-X8", None, 48.0),
    ("部署 Qwen2.5 72B，4 张 MLU370（X8），每张 48G", "MLU370-X8", None, 48.0),
    ("Serve Qwen2.5 72B on 4 A100 (SXM) with 40 GB", "A100-SXM4-40GB", None, 40.0),
    ("4 张 A100（PCIe）40G 部署 Qwen2.5 72B", "A100-PCIe-40GB", None, 40.0),
    ("Serve Qwen2.5 72B on 2 Gaudi 3 (HL-325L) with 128 GB", "Gaudi3", None, 128.0),
]


@pytest.mark.parametrize(("text", "gpu", "unknown", "memory"), VARIANTS)
def test_memory_after_bracketed_variant(
    capsys, text: str, gpu: str | None, unknown: str | None, memory: float
):
    d = _ask(capsys, text)
    assert d["request"]["gpu_memory_gib"] == memory
    assert d["interpretation"]["ignored"] == []
    if unknown:  # an unknown card keeps its name as typed, sized by that memory (generic)
        assert d["interpretation"]["unknown_gpu"] == unknown
        assert d["report"]["hardware"]["generic"] is True
        assert unknown in d["reply"].split("\n")[0]
    else:
        assert d["request"]["gpu"] == gpu


# -- item 5: zh verbs before a batch value; an engine's batch echoed as typed ------------------------------

BATCH_VERBS = [
    ("LoRA 微调 Qwen2.5 7B，batch size 要 128，一张 A100", 128),
    ("batch size 要 128, 全参微调 Qwen2.5 7B", 128),
    ("batchsize 需要 16，LoRA 微调 Qwen2.5 7B", 16),
    ("全参微调 Llama 3 8B，batch 开到 64，8 张 H100", 64),
    ("LoRA 微调 Qwen2.5 7B，batch_size 给 32，一张 A100", 32),
    ("LoRA fine-tune Qwen2.5 7B, batch size set to 32, one A100", 32),
]


@pytest.mark.parametrize(("text", "batch"), BATCH_VERBS)
def test_batch_after_a_zh_verb(text: str, batch: int) -> None:
    got = parse(text)
    assert got.request.batch_size == batch
    assert str(batch) not in [t for t, _ in got.unused_numbers]


def test_count_after_yao_stays_a_count() -> None:
    # near miss: '要 8 张' is the cards, not the batch
    got = parse("微调 Qwen2.5 7B 要 8 张 A100，batch 要 32")
    assert (got.request.gpu_count, got.request.batch_size) == (8, 32)


def test_engine_batch_as_the_load_is_not_named(capsys) -> None:
    d = _ask(capsys, "用 lmdeploy 部署 Qwen2.5 7B，batch_size 4，一张 4090")
    assert d["request"]["concurrency"] == 4
    # before: 'max_num_seqs: 4', a key never typed; merged with s32-fixb: named once as used, under the
    # user's own key, the cap sized as the load ('cap_as_load')
    assert d["interpretation"]["ignored"] == [{"text": "batch_size 4", "reason": "cap_as_load"}]


def test_engine_batch_beside_a_load_named_as_typed(capsys) -> None:
    d = _ask(capsys, "Serve Qwen2.5 7B with lmdeploy, 100 concurrent requests, batch size 16, one A100")
    assert d["request"]["concurrency"] == 100
    # as typed (merged with s32-fixb)
    assert d["interpretation"]["ignored"] == [{"text": "batch size 16", "reason": "load_above_cap"}]


def test_second_bpw_is_named() -> None:
    got = parse("My 8.0bpw and 6.0bpw exl2 uploads of Llama 3 8B run out of memory on a 16 GB card")
    assert got.request.bits_per_weight == 8.0
    assert ("precision: 6.0bpw", "repeated") in got.unused_numbers
