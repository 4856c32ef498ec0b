"""The hardware axis (session 17, issue 24): how people write their cards, counts, memory per card and in
total, and rigs of different cards, each kind in both languages, through the CLI's JSON contract (in
process). The sentences are written for these tests (none is from the real-question corpus nor the axis
stress set). Readers: :mod:`bot.parse.field_steps` (a total with a count, a rig's 'one' each, one-device
systems), :mod:`bot.parse.mixed_rig`, :mod:`bot.parse.written_products` (count × memory in brackets),
:mod:`bot.parse.count_forms` (cards per node first, in Chinese), :mod:`bot.parse.memory_forms` (memory
'available each', 'with' after a card, 'cards x memory'), :mod:`bot.parse.role_left` (a memory 'on a
<card>'), :data:`bot.parse.lexicon.UNKNOWN_GPU_RE` (DGX Spark …) and :mod:`bot.render.describe`."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import ask_json_in_process, ask_text


def _hw(text: str) -> tuple[dict[str, Any], list[dict[str, Any]], Any]:
    out = ask_json_in_process(text)
    return out["request"], out["interpretation"]["ignored"], out["interpretation"]["unknown_gpu"]


TOTAL_WITH_COUNT = [
    ("192GB total over 8 RTX 4090s, how long to fine-tune a 7B?", "RTX-4090", 8, "192 GB"),
    ("Two A6000 with 96 GB of VRAM in total: QLoRA of Llama-3-70B?", "RTX-A6000", 2, "96 GB"),
    ("I have 64GB VRAM in total across 4 RTX 4060 Ti 16GB, serving Qwen2.5-32B Q4?", None, 4, "64 GB"),
    ("总显存 96G（4 张 24G 的 3090），LoRA 微调 Qwen2.5-14B 行吗", "RTX-3090", 4, "96 GB"),
    ("显存一共 160GB，两张 A100，推理 Qwen2.5-72B-AWQ", None, 2, "160 GB"),
    ("我们 8 张 L20，一共 384G 显存，部署 DeepSeek-V2-Lite", "L20", 8, "384 GB"),
]


@pytest.mark.parametrize(("text", "gpu", "count", "named"), TOTAL_WITH_COUNT)
def test_a_total_with_a_count_is_named_as_their_sum(
    text: str, gpu: str | None, count: int, named: str
) -> None:
    request, ignored, _ = _hw(text)
    assert request["gpu_count"] == count
    if gpu is not None:
        assert request["gpu"] == gpu
    assert {"text": named, "reason": "cards_total"} in ignored


RIG_ONE_EACH = [  # 4090 and 3090 both 24 GB: the slower 3090 (936 vs 1,008 GB/s) is sized (session 18)
    ("一张 RTX 4090 加一张 RTX 3090，跑 Qwen2.5-32B", "RTX-3090", 2, "RTX 4090", "mixed_rig"),
    ("一块 4090 加一块 3090 部署 Qwen2.5-32B-AWQ", "RTX-3090", 2, "RTX 4090", "mixed_rig"),
    (
        "一张RTX 5090加一张RTX 3080 能跑 Qwen2.5-14B 推理吗",
        "RTX-5090",
        1,
        "RTX 3080 10GB",
        "mixed_rig_largest",
    ),
    ("1x RTX 4090 + 1x RTX 3090 for Llama-3-70B Q4 inference", "RTX-3090", 2, "RTX 4090", "mixed_rig"),
    (
        "one RTX 5090 plus one RTX 3080, serving Qwen2.5-14B",
        "RTX-5090",
        1,
        "RTX 3080 10GB",
        "mixed_rig_largest",
    ),
    ("1 x A6000 + 1 x RTX 3090 for Qwen2.5-32B Q4", "RTX-A6000", 1, "RTX 3090", "mixed_rig_largest"),
]


@pytest.mark.parametrize(("text", "gpu", "count", "other", "reason"), RIG_ONE_EACH)
def test_cards_with_one_each_are_one_rig(text: str, gpu: str, count: int, other: str, reason: str) -> None:
    request, ignored, _ = _hw(text)
    assert (request["gpu"], request["gpu_count"]) == (gpu, count)
    assert {"text": other, "reason": reason} in ignored
    assert not any(i["reason"] == "repeated" for i in ignored)  # the second 'one' is no second count


BRACKET_COUNT_MEMORY = [
    ("A800（8*80）全参微调 Qwen2.5-14B 要多久", "A800-80GB", 8, 80.0),
    ("H20（8*96）部署 DeepSeek-V3", "H20-96GB", 8, 96.0),
    ("L20（4*48）部署 Qwen2.5-72B-AWQ", "L20", 4, 48.0),
    ("H800 (8x80) full SFT of Qwen2.5-72B", "H800-SXM5-80GB", 8, 80.0),
    ("On A100 (4*40), how long to fine-tune Llama-2-13B?", "A100-SXM4-40GB", 4, 40.0),
    ("L40S (2x48) serving Qwen2.5-32B", "L40S", 2, 48.0),
]


@pytest.mark.parametrize(("text", "gpu", "count", "memory"), BRACKET_COUNT_MEMORY)
def test_count_times_memory_in_brackets(text: str, gpu: str, count: int, memory: float) -> None:
    request, _, _ = _hw(text)
    assert (request["gpu"], request["gpu_count"], request["gpu_memory_gib"]) == (gpu, count, memory)


PER_NODE_FIRST = [
    ("每个节点 4 张 A100，两个节点，ZeRO-3 训练 30B", 8),
    ("每台机器 8 张 H800，一共 4 台，预训练 7B", 32),
    ("每台 8 卡 H100，3 台机器，训练 70B", 24),
    ("每台服务器 8 张 A800，共 2 台，训练 34B", 16),
    ("2 nodes with 8 H100 each, pretraining a 7B", 16),
    ("8 A100 per node across 3 nodes, full fine-tune of 70B", 24),
    ("4 GPUs per node, 2 nodes, A100, SFT of a 13B", 8),
]


@pytest.mark.parametrize(("text", "count"), PER_NODE_FIRST)
def test_cards_per_node_then_the_nodes(text: str, count: int) -> None:
    assert _hw(text)[0]["gpu_count"] == count


MEMORY_EACH = [
    ("4 cards with 22 GiB available each, serving Qwen2.5-32B-AWQ with vLLM", 4, 22.0),
    ("4 cards with 20 GB free each, serving Qwen2.5-14B", 4, 20.0),
    ("fine-tune MPT-30B on V100s with 16 GB", None, 16.0),
    ("8 A100 GPUs with 40GB, full SFT of a 13B", 8, 40.0),
    ("On 6 machines x 8 cards x 16GB, SFT of Qwen2.5-72B with ZeRO-3 offload", 48, 16.0),
    ("4 张卡，每张可用 22G，推理 Qwen2.5-32B", 4, 22.0),
    ("2 台 x 8 卡 x 80G 训练 70B", 16, 80.0),
    ("4 张卡，每张剩余 20G，部署 Qwen2.5-14B", 4, 20.0),
    ("我 4 卡、每卡 24G，QLoRA 微调 Yi-34B 训得动吗", 4, 24.0),
    ("8 卡、每卡 40G，全参 SFT 13B 会 OOM 吗", 8, 40.0),
]


@pytest.mark.parametrize(("text", "count", "memory"), MEMORY_EACH)
def test_each_cards_memory(text: str, count: int | None, memory: float) -> None:
    request, ignored, _ = _hw(text)
    assert request["gpu_memory_gib"] == memory
    assert request["gpu_count"] == count
    assert not any(i["reason"] == "unread" and i["text"].startswith(f"{memory:g}") for i in ignored)


MEMORY_ON_NAMED_CARD = [
    ("Will Qwen2.5-14B fit in 24GB on a 4090?", "RTX-4090", 24.0),
    ("Will a 13B fit in 16GB on a V100?", "V100-SXM2-16GB", 16.0),
    ("Can Llama-3-8B run in 40GB on an A100?", "A100-SXM4-40GB", 40.0),
]


@pytest.mark.parametrize(("text", "gpu", "memory"), MEMORY_ON_NAMED_CARD)
def test_memory_on_a_named_card_is_that_cards(text: str, gpu: str, memory: float) -> None:
    request, ignored, _ = _hw(text)
    assert (request["gpu"], request["gpu_memory_gib"]) == (gpu, memory)
    assert not any(i["reason"] == "stated_need" for i in ignored)


def test_a_footprint_on_a_named_card_stays_a_stated_need() -> None:
    """Not a question: 'loads in 5 GB on 2x RTX 3090' says the model's footprint."""
    request, ignored, _ = _hw("Llama-3-8B loads in 5 GB on 2x RTX 3090")
    assert request["gpu_memory_gib"] is None
    assert {"text": "5", "reason": "stated_need"} in ignored


ONE_DEVICE_SYSTEMS = [
    # the DGX Spark cases moved to tests/test_s31_fixd.py: the GB10 box is in the catalog since s31 (the
    # trial's 'gpt-oss-120b on a DGX Spark' was sized on an A100 "for reference only")
    # the Jetson AGX Orin cases moved to tests/test_s26_trfix4.py: the module is in the catalog since s26
    ("一台 DGX Station 部署 Qwen2.5-72B", "DGX Station", 1),
]


@pytest.mark.parametrize(("text", "typed", "count"), ONE_DEVICE_SYSTEMS)
def test_one_device_systems_are_named_as_typed(text: str, typed: str, count: int) -> None:
    request, _, unknown = _hw(text)
    assert unknown == typed  # never a DGX of eight A100s
    assert request["gpu_count"] == count


@pytest.mark.parametrize(
    "text",
    [
        "An A100 PCIe 80GB vs an A100 SXM 80GB for serving Llama-2-13B: which is faster?",
        "A100 PCIe 80G 和 A100 SXM 80G 部署 Llama-2-13B 哪个快",
        "H100 PCIe vs H100 SXM for serving Llama-3-70B",
    ],
)
def test_a_comparison_tells_pcie_from_sxm(text: str) -> None:
    head = ask_text(text).split("\n\n")[0]
    assert "PCIe" in head
    assert (
        head.count("• ") == 2
        and len({line.split(":")[0].split("：")[0] for line in head.splitlines()[1:]}) == 2
    )


NOT_ENOUGH_MEMORY = [
    ("部署 Qwen2.5-7B 到底需要多大显存？16G 都不够吗", 16.0),
    ("微调 ChatGLM3-6B，24G 显存也不够，怎么办", 24.0),
    ("Qwen2.5-14B 推理 12G 还不行吗", 12.0),
]


@pytest.mark.parametrize(("text", "memory"), NOT_ENOUGH_MEMORY)
def test_not_enough_memory_is_the_cards(text: str, memory: float) -> None:
    request, _, _ = _hw(text)
    assert (request["gpu_memory_gib"], request["gpu_count"]) == (memory, 1)


BARE_MEMORY_TIMES_COUNT = [
    ("chatglm2 微调需要多大的显存？我这 24*4 怎么还报显存溢出？", 4, 24.0),
    ("我们是 80*8 的配置，全参微调 Qwen2.5-72B 显存够吗", 8, 80.0),
    ("Our rig is 24x2, is the VRAM enough for Qwen2.5-32B Q4?", 2, 24.0),
    ("With 48*4 we still hit CUDA OOM on Llama-3-70B QLoRA", 4, 48.0),
]


@pytest.mark.parametrize(("text", "count", "memory"), BARE_MEMORY_TIMES_COUNT)
def test_a_bare_memory_times_count_about_memory(text: str, count: int, memory: float) -> None:
    request, _, _ = _hw(text)
    assert (request["gpu_count"], request["gpu_memory_gib"]) == (count, memory)


@pytest.mark.parametrize(
    "text", ["24*4 的 batch 会不会 OOM", "batch 16*8 tokens, will it OOM?", "16*8 H100 预训练"]
)
def test_a_product_of_batch_or_nodes_is_no_card_memory(text: str) -> None:
    assert _hw(text)[0]["gpu_memory_gib"] is None


MACHINE_MEMORY = [
    ("Each model runs with tp=8; the small one gets half of the machine's 640gb", 640.0),
    ("Can the node's 320 GB hold Llama-3.1-405B in FP8 with tp=4?", 320.0),
    ("Our server's 192GB of VRAM: enough for Qwen2.5-72B in bf16?", 192.0),
]


@pytest.mark.parametrize(("text", "total"), MACHINE_MEMORY)
def test_a_machines_memory_is_the_total(text: str, total: float) -> None:
    assert _hw(text)[0]["total_memory_gib"] == total


TP_WAYS = [
    ("用 deepspeed --num_gpus 2 双卡 tp 推理 InternLM-7B，V100 16G", 2, 2),
    ("4 卡张量并行部署 Qwen2.5-72B，卡是 L20", 4, 4),
    ("四卡 tp 部署 Qwen2.5-72B-AWQ，A10", 4, 4),
    ("2-way tensor parallelism on two A100 for Llama-2-70B", 2, 2),
    ("8-way TP on H100 serving DeepSeek-V3", None, 8),
    ("4-way tensor parallel on four L40S, Llama-3-70B AWQ", 4, 4),
]


@pytest.mark.parametrize(("text", "count", "tp"), TP_WAYS)
def test_an_n_way_tensor_parallel_is_the_tp_degree(text: str, count: int | None, tp: int) -> None:
    request, _, _ = _hw(text)
    assert (request["gpu_count"], request["tp"]) == (count, tp)


COUNT_CORRECTED_OR_USED = [
    ("不是 8 卡，是 4 卡 A800，微调 13B", 4),
    ("8 张 A100 只能用 4 张，SFT 13B", 4),
    ("机器有 8 张 H800，仅可以用 2 张，LoRA 7B", 2),
    ("we have 8 H100 and only 4 of them are available, SFT 13B", 4),
    ("We own 8 A100s but only 2 are free: LoRA of a 7B?", 2),
    ("not 8 but 4 A100s, SFT 13B", 4),
]


@pytest.mark.parametrize(("text", "count"), COUNT_CORRECTED_OR_USED)
def test_the_count_the_job_gets(text: str, count: int) -> None:
    assert _hw(text)[0]["gpu_count"] == count


EACH_NODE_HAS = [
    ("I have 2 nodes; each node has 8 x A800 80GB, full SFT of 70B", 16),
    ("3 servers, each with 8 H100, pretraining 13B", 24),
    ("4 machines and each machine has 8 A100s", 32),
]


@pytest.mark.parametrize(("text", "count"), EACH_NODE_HAS)
def test_nodes_then_each_nodes_cards(text: str, count: int) -> None:
    assert _hw(text)[0]["gpu_count"] == count
