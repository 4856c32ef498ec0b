"""Working-split failures by kind, session 26 gen2 (issue 24):

- two card counts, the smaller said to fail and the larger to work, are a range from the one that failed up
  to the one that worked (bot/parse/counts_outcome.py);
- counts tried after one card failed start the range at one card (bot/parse/counts_tried.py);
- a parallel layout the message changes from the pasted command's ('--tp 1 … 能起来；改成 --tp 2 就报错') is
  the one sized, the command's named (bot/parse/configs/prose_change.layout_changes);
- clients are a load ('8 个 client', '16 clients': bot/parse/role_left.R_CONC).
"""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json


def _named(answer: dict) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]]


@pytest.mark.parametrize(
    ("question", "lo", "hi"),
    [
        (
            "Llama-3.1-70B in vLLM OOMs on 2 A100 80GB, but runs fine on 4 A100 80GB. Why so much?",
            2,
            4,
        ),
        (
            "Serving Qwen2.5-72B: two H100s fail with out of memory, while four H100s work. KV cache?",
            2,
            4,
        ),
        (
            "LoRA on Llama-3-8B with 1 RTX 4090 crashes with OOM, on 2 RTX 4090s it runs. Memory?",
            1,
            2,
        ),
        ("两张 4090 部署 Qwen2.5-32B 爆显存报错，换成四张 4090 就能正常跑，为什么？", 2, 4),
        ("用 2 张 A100 全量微调 7B 显存不足，4 张 A100 就没问题，需要多少显存？", 2, 4),
        ("单机 8 卡 H100 训练 13B 报 OOM，16 卡就能跑起来，显存到底要多少？", 8, 16),
    ],
)
def test_a_count_that_failed_and_a_larger_one_that_worked_are_a_range(
    question: str, lo: int, hi: int
) -> None:
    request = answer_json(question)["request"]
    assert (request["gpu_count"], request["gpu_count_max"]) == (lo, hi)


@pytest.mark.parametrize(
    ("question", "count"),
    [
        (
            "Llama-3-8B runs fine on 8 A100s but OOMs on 16 A100s when I raise the batch, why?",
            8,
        ),  # larger failed
        ("vLLM works on 4 GPUs, what about 8 GPUs for Qwen2.5-72B?", 4),  # nothing failed
        ("用 4 张 A100 跑 70B 正常，8 张 A100 需要多久训完？", 4),
        ("2 张 A100 跑 70B 推理 OOM，4 张 H100 就正常了，为什么？", 2),  # two cards: not one job's range
    ],
)
def test_no_range_without_a_smaller_failed_and_a_larger_worked_count(question: str, count: int) -> None:
    request = answer_json(question)["request"]
    assert (request["gpu_count"], request["gpu_count_max"]) == (count, None)


@pytest.mark.parametrize(
    "question",
    [
        "Qwen2.5-14B in transformers OOMs on a single GPU (A100 40GB); I tried 2 and 4 GPUs too, still OOM.",
        "Llama-3-8B full fine-tune OOMs on a single card, and it fails on 2 and 4 A100s as well.",
        "Qwen2-VL-7B runs out of memory on one card; tried 2 and 4 RTX 4090s too, still OOM.",
        "单卡 4090 微调 Qwen2.5-7B 爆显存，2 卡和 4 卡都试了，还是 OOM，怎么办？",
        "Qwen2-VL-7B 多图推理会爆显存（单卡，32G 显存），卡数加到 2 卡、4 卡都试了，还是爆。",
        "单张卡跑 InternVL2-8B 推理报 OOM，后来 2 卡和 4 卡也都试了，一样爆显存。",
    ],
)
def test_counts_tried_after_one_card_failed_start_at_one(question: str) -> None:
    request = answer_json(question)["request"]
    assert (request["gpu_count"], request["gpu_count_max"]) == (1, 4)


@pytest.mark.parametrize(
    ("question", "lo", "hi"),
    [
        ("单卡跑 Qwen2.5-7B 推理能跑，2 卡、4 卡都试了 Qwen2.5-72B 还是爆，需要几张 A100？", 2, 4),  # it ran
        ("7 卡和八卡都试过了，都 OOM，训练 Llama-3-70B 要几张 A100？", 7, 8),  # no one card said
    ],
)
def test_one_card_that_ran_is_not_a_count_tried(question: str, lo: int, hi: int) -> None:
    request = answer_json(question)["request"]
    assert (request["gpu_count"], request["gpu_count_max"]) == (lo, hi)


def test_a_single_gpu_that_ran_does_not_start_the_range() -> None:
    # Limit: a count of one read beside two tried counts voids the pair (as before), never widens it to one
    question = "I serve Qwen2.5-7B on a single GPU fine. For Qwen2.5-72B I tried 2 and 4 A100s, both OOM."
    request = answer_json(question)["request"]
    assert (request["gpu_count"], request["gpu_count_max"]) != (1, 4)


@pytest.mark.parametrize(
    ("question", "tp", "count", "named"),
    [
        (
            "华为 910 上一个模型在单卡上能跑，多卡报 NPU out of memory。lmdeploy serve api_server "
            "/root/model/InternVL2-1B --backend pytorch --device ascend --tp 1 是能起来的；"
            "改成 --tp 2 就报 NPU 不足。",
            2, 2, ("tp: 1", "prose_changes"),
        ),
        (
            "用 vllm serve Qwen/Qwen2.5-14B-Instruct --tensor-parallel-size 2 在两张 4090 上能起来，"
            "改成 --tensor-parallel-size 4 就 OOM 了",
            4, 4, ("tp: 2", "prose_changes"),
        ),
        (
            "vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 1 works on one A100. Changing it to "
            "--tensor-parallel-size 2 on 2 A100s fails with OOM, why?",
            2, 2, ("tp: 1", "prose_changes"),
        ),
    ],
)  # fmt: skip
def test_a_layout_the_message_changes_is_sized(question: str, tp: int, count: int, named: tuple) -> None:
    answer = answer_json(question)
    assert (answer["request"]["tp"], answer["request"]["gpu_count"]) == (tp, count)
    assert named in _named(answer)


@pytest.mark.parametrize(
    ("question", "tp"),
    [
        (
            "vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 4 on 4 A100s, KV cache? tp 2 too?",
            4,
        ),
        (
            "命令：vllm serve Qwen/Qwen2.5-14B-Instruct --tensor-parallel-size 4，同事用 tp 2",
            4,
        ),
    ],
)
def test_a_layout_said_without_a_change_word_leaves_the_command_s(question: str, tp: int) -> None:
    assert answer_json(question)["request"]["tp"] == tp


@pytest.mark.parametrize(
    ("question", "load", "named"),
    [
        ("用 lmdeploy 部署 qwen-14b-int4，显卡是 A10 23G。8 个 client 时就 OOM。", 8, None),
        (
            "用 vLLM 在 A10 上部署 Qwen2.5-7B，4 个客户端同时请求没问题，10 个客户端就报 OOM，为什么？",
            10,
            "4",
        ),
        (
            "Qwen2.5-14B in vLLM on one L40S: 8 clients work fine, with 16 clients it runs out of memory.",
            16,
            "8",
        ),
    ],
)
def test_clients_are_a_load(question: str, load: int, named: str | None) -> None:
    answer = answer_json(question)
    assert answer["request"]["concurrency"] == load
    assert named is None or (named, "other_setup") in _named(answer)


# One machine of cards written with their counts (bot/parse/mixed_rig.counted_rig): each card counts in
# rig_choice, the k cards holding the most as k equal shares (4 × 24 GB of RTX 4090 > 1 × 80 GB of A100).
@pytest.mark.parametrize(
    ("question", "gpu", "count", "named"),
    [
        ("Can I full fine-tune Qwen2.5-7B split over 1 A100 plus 3 RTX 4090s?", "RTX-4090", 4, "mixed_rig"),
        (
            "Serve Llama-3.1-70B AWQ with vLLM on 2x RTX 3090 + 2x RTX 4090, how much context?",
            "RTX-3090",
            4,
            "mixed_rig",
        ),
        (
            "我的机器是 2 张 3090 加 2 张 4060Ti 16G，用 llama.cpp 跑 Qwen2.5-32B Q4 能跑吗？",
            "RTX-3090",
            4,
            "mixed_rig_sum",
        ),
        (
            "用 1 张 A100 加 2 张 A10 部署 Qwen2.5-14B，vLLM 能跑多少并发？",
            "A100-SXM4-80GB",
            1,
            "mixed_rig_largest",
        ),
    ],
)
def test_a_rig_written_with_counts_counts_every_card(question: str, gpu: str, count: int, named: str) -> None:
    answer = answer_json(question)
    assert (answer["request"]["gpu"], answer["request"]["gpu_count"]) == (gpu, count)
    assert named in {why for _, why in _named(answer)}


@pytest.mark.parametrize(
    ("question", "gpu", "count"),
    [
        ("Should I buy 2 A100 or 4 RTX 4090 to fine-tune a 7B?", "A100-SXM4-80GB", 2),  # options
        (
            "We have 8 H100s and 2 A100s; how long to train a 7B on 100B tokens?",
            "H100-SXM5-80GB",
            8,
        ),  # a list
    ],
)
def test_cards_with_counts_not_added_are_no_rig(question: str, gpu: str, count: int) -> None:
    request = answer_json(question)["request"]
    assert (request["gpu"], request["gpu_count"]) == (gpu, count)
