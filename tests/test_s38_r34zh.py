"""Round 34 zh (s38-r34zh, issue 24): the readers built for what r34work missed at its freeze, each a way
people write, tested on sentences of our own in both languages where it applies (must read, must not
misread)."""

from __future__ import annotations

import pytest

from estimator import catalog
from tests.real_questions import answer_json


def _answer(text: str) -> dict:
    return answer_json(text)


def _request(text: str) -> dict:
    return answer_json(text)["request"]


# 1. A laptop card written with NVIDIA's 'M' suffix ('3060M', 'RTX 4060M') is the laptop part of the catalog
# (estimator/data/gpus.toml, the laptop section: 6 GB for the RTX 3060 Laptop GPU, never the desktop 12 GB).
@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("本地跑 CodeGeeX 推理，笔记本上的 3060M 可以吗？", "RTX-3060-Laptop"),
        ("我的 RTX 4060M 能跑 qwen2.5 7b 的 q4 吗", "RTX-4060-Laptop"),
        ("Can I run Llama-2-7B on my RTX 4060M laptop?", "RTX-4060-Laptop"),
        ("Is a 3070m enough to serve Mistral 7B?", "RTX-3070-Laptop"),
    ],
)
def test_m_suffix_is_the_laptop_card(text: str, card: str) -> None:
    assert _request(text)["gpu"] == card


def test_m_suffix_aliases_are_the_laptop_family() -> None:
    assert catalog.family_of("RTX 3060M") == "RTX 3060 Laptop"
    assert catalog.family_of("4090m") == "RTX 4090 Laptop"
    assert catalog.family_of("3060") == "RTX 3060"  # the desktop card keeps its own name
    assert catalog.gpu("RTX-3060-Laptop").memory_gib == 6


@pytest.mark.parametrize(
    ("text", "card"),
    [("max_split_size_mb 设成 2048m 能跑 7B 吗", None), ("RTX 3060 12G 能跑 7B 吗", "RTX-3060")],
)
def test_other_numbers_are_no_laptop_card(text: str, card: str | None) -> None:
    got = _request(text).get("gpu")
    assert "Laptop" not in str(got) and (card is None or got == card)


# 2. A GTX 10 / 16 card by its bare number with its memory between it and the card word ('1060 6G 的显卡'):
# the card named as typed, sized at the memory said (before: the number unread, a generic 6 GB card).
@pytest.mark.parametrize(
    ("text", "card", "gib"),
    [
        ("用闻达加载 chatglm-6b，1060 6G 的显卡能不能跑？", "1060", 6.0),
        ("1660 6gb card 能跑 qwen 1.8b 吗", "1660", 6.0),
        ("我只有一张 1080 8G 显存的卡，能跑 qwen2.5 7b 的 int4 吗", "1080", 8.0),
    ],
)
def test_bare_gtx_number_with_its_memory(text: str, card: str, gib: float) -> None:
    answer = _answer(text)
    assert answer["interpretation"]["unknown_gpu"] == card
    assert answer["request"]["gpu_memory_gib"] == gib


def test_a_bare_number_without_a_card_word_is_no_card() -> None:
    assert _answer("训练 1060 6G 的数据要多久")["interpretation"]["unknown_gpu"] is None


# 3. accelerate's max_memory with a 'cpu' budget is CPU offload, with its quotes normalized away
# ('max_memory={0: "12GiB", "cpu": "26GiB"}'); a max_memory of GPUs only is none.
@pytest.mark.parametrize(
    "text",
    [
        '单张 16G 显卡跑 MOSS，max_memory={0: "12GiB", "cpu": "26GiB"}，能跑吗',
        "max_memory={0:'20GiB','cpu':'60GiB'} 跑 llama 13B 推理",
        'loading Llama-2-13B with device_map="auto", max_memory={0: "20GiB", "cpu": "60GiB"} on one 3090',
    ],
)
def test_max_memory_cpu_budget_is_offload(text: str) -> None:
    answer = _answer(text)
    named = [i["text"] for i in answer["interpretation"]["ignored"]]
    assert answer["request"].get("offload") is True or "offload: True" in named


@pytest.mark.parametrize(
    "text",
    ['max_memory={0: "20GiB", 1: "20GiB"} 两张卡跑 13B', "max_memory 设成 20GiB，cpu 也能跑吗"],
)
def test_max_memory_without_a_cpu_budget_is_no_offload(text: str) -> None:
    assert not _request(text).get("offload")


# 4. A count asked after another in a follow-up question ('一张可以吗？两张呢？', 'What about 4 GPUs?'):
# both counts are the job's, a range from the first, up to the second; asked, not tried, so never said to
# have failed.
@pytest.mark.parametrize(
    ("text", "lo", "hi"),
    [
        ("全量微调 ChatGLM2-6B 报 CUDA out of memory。一张 3090 可以跑吗？两张呢？", 1, 2),
        ("4 卡 A100 训练 7B 要多久？8 卡呢？", 4, 8),
        ("两张 4090 能部署 qwen2.5 32b 吗？4 张的话呢？", 2, 4),
        ("Can 2 A100s serve Llama 70B? How about 4 GPUs?", 2, 4),
        ("Will 4 H100s fit a full fine-tune of a 13B model? What about 8 GPUs?", 4, 8),
    ],
)
def test_follow_up_count_is_a_range(text: str, lo: int, hi: int) -> None:
    request = _request(text)
    assert (request["gpu_count"], request["gpu_count_max"]) == (lo, hi)


def test_asked_counts_are_not_failed_counts() -> None:
    from bot.parse import parse

    result = parse("全量微调 ChatGLM2-6B 报 CUDA out of memory。一张 3090 可以跑吗？两张呢？")
    assert "gpu_counts_failed" not in result.notes
    tried = parse("全量微调 ChatGLM2-6B，一张 3090 和两张都试过，都 OOM")
    assert "gpu_counts_failed" in tried.notes  # counts tried and failed stay a lower bound (s17)


@pytest.mark.parametrize(
    "text",
    [
        "用 8 卡训练 7B 要多久？70B 呢？",
        "两张 4090 跑 qwen 14B 怎么办呢",
        "8 张 A100 能训 13B 吗，费用呢？",
        "两张 4090 能正常跑 qwen2.5 32b，4 张呢",  # the first count said to work, only the later asked (s26)
    ],
)
def test_no_asked_pair_no_range(text: str) -> None:
    assert _request(text).get("gpu_count_max") is None


# 5. Pre-training a quantized model ('量化后预训练', 'pretraining the quantized 33B') continues it: only
# weights that exist can be quantized (before: a pre-training from scratch of LLaMA-33B).
@pytest.mark.parametrize(
    "text",
    [
        "LLaMA-33B 不量化预训练需要多大显存的 GPU？量化后预训练又要多大显存的 GPU？",
        "Qwen-7B 量化后再继续预训练要多大显存",
        "How much GPU memory for pretraining the quantized LLaMA-33B?",
        "pretraining a 4-bit quantized Llama-2-7B on one 4090",
    ],
)
def test_pretraining_a_quantized_model_continues_it(text: str) -> None:
    assert _request(text)["stage"] == "continued_pretrain"


@pytest.mark.parametrize(
    "text",
    [
        "从零预训练一个 7B 模型，用 FP8 要多少卡",
        "预训练 7B 后量化部署需要多少显存",
        "预训练 LLaMA-7B 需要多少卡",
    ],
)
def test_pretraining_without_a_quantized_base_stays_pretraining(text: str) -> None:
    assert _request(text)["stage"] == "pretrain"
