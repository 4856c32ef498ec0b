"""Session 48 part leftovers (issue 24 items 2–4): session 47's named reader and review leftovers.

1. A reference setup beside the asker's own ('论文用 8 张 A100，我们想用 4 张 H800，够吗', 'the paper used 8
   A100s, we want to use 4 H800s'): the setup the asker will run is sized; the paper's / authors' / official
   one is another setup (bot.parse.structure's tried cues), its count and card named ``other_setup``.
"""

from __future__ import annotations

import pytest

from bot.parse import parse
from tests.real_questions import answer_json


@pytest.mark.parametrize(
    "question",
    [
        "论文用 8 张 A100，我们想用 4 张 H800，够吗",
        "原文用 8 张 A100 训练，我们有 4 张 H800，能复现吗",
        "官方用 8 张 A100 全参微调 Qwen2.5-7B，我们想用 4 张 H800，够吗",
        "论文里用 8 张 A100 训练了 3 天，我们用 4 张 H800 要多久",
        "the paper used 8 A100s, we want to use 4 H800s to fine-tune Llama 3 8B",
        "They used 8 A100s. We have 4 H800s, is that enough to fine-tune Qwen2.5-7B?",
        "The authors trained on 8 A100s; we want to use 4 H800s for Qwen2.5-7B LoRA",
    ],
)
def test_the_askers_own_setup_is_sized_and_the_papers_named(question: str) -> None:
    p = parse(question)
    assert (p.request.gpu, p.request.gpu_count) == ("H800-SXM5-80GB", 4)
    assert ("8", "other_setup") in p.unused_numbers
    assert ("A100", "other_setup") in p.unused_numbers
    assert p.gpu_alternatives == []


@pytest.mark.parametrize(
    "question",
    [
        "论文用 8 张 A100 全参微调 Qwen2.5-7B，要多久",
        "按论文的配置 8 张 A100 全参微调 Qwen2.5-7B 需要几天",
        "The paper used 8 A100s to fine-tune Llama 3 8B, how long would that take?",
        "I want to reproduce the paper with 8 A100s fine-tuning Llama 3 8B",
    ],
)
def test_the_papers_setup_alone_is_the_one_asked_about(question: str) -> None:
    p = parse(question)
    assert (p.request.gpu, p.request.gpu_count) == ("A100-SXM4-80GB", 8)
    assert not [n for n in p.unused_numbers if n[1] == "other_setup"]


# 4. Two counts of one card compared in Chinese with 张/块 and no 卡 written
# ('4 张 H100 和 8 张 H100 分别要多久'): the range (bot.parse.count_choice.ZH_COMPARED, whose gate
# asked for 卡 only), as English 'N vs M' is; a training days table gets a row for each end
# (estimator.training_deadline).


@pytest.mark.parametrize(
    ("question", "low", "high"),
    [
        ("4 张 H100 和 8 张 H100 分别要多久 训练 7B 1T token", 4, 8),
        ("训练 7B 模型 1T token，4 块 H100 跟 8 块 H100 差多少时间", 4, 8),
        ("部署 Qwen2.5-72B，2 张 A100 和 4 张 A100 哪个划算", 2, 4),
        ("Training a 7B model on 1T tokens: 4 H100 vs 8 H100", 4, 8),
        ("Serve Qwen2.5-72B on 2 A100s vs 4 A100s: which is better value?", 2, 4),
    ],
)
def test_two_counts_of_one_card_compared_are_a_range(question: str, low: int, high: int) -> None:
    p = parse(question)
    assert (p.request.gpu_count, p.request.gpu_count_max) == (low, high)
    assert not [n for n in p.unused_numbers if n[1] == "repeated"]


@pytest.mark.parametrize(
    "question",
    [
        "4 张 A100 和 8 张 H100 哪个快 训练 7B 1T token",  # two cards: a comparison, no count range
        "Training a 7B model on 1T tokens: 4 A100s vs 8 H100s, which is faster?",
    ],
)
def test_two_cards_compared_are_no_count_range(question: str) -> None:
    p = parse(question)
    assert (p.request.gpu_count, p.request.gpu_count_max) == (4, None)
    assert p.gpu_alternatives == ["H100-SXM5-80GB"]


def test_a_count_of_something_else_is_no_range() -> None:
    p = parse("一张图和两张图的区别，用 Qwen2-VL-7B 在 4090 上推理")
    assert p.request.gpu_count_max is None


@pytest.mark.parametrize(
    ("question", "rows"),
    [
        ("4 张 H100 和 8 张 H100 分别要多久 训练 7B 1T token", {4: 439, 8: 219}),
        ("Training a 7B model on 1T tokens: 4 H100 vs 8 H100", {4: 439, 8: 219}),
    ],
)
def test_a_training_count_range_has_a_days_row_for_each_end(question: str, rows: dict[int, int]) -> None:
    table = {r["gpus"]: r["likely"] for r in answer_json(question)["report"]["days_table"]}
    # 6ND = 4.2e22 FLOPs at the H100's 989 TFLOPS bf16 and 28% MFU = 42.1K GPU-hours: /4/24 and /8/24 days
    assert {n: round(table[n]) for n in rows} == rows


# 8. Review N2: a LoRA merged into its base, then served, is one model (PEFT LoraModel.merge_and_unload adds
# each adapter's B·A into its layer): the serving is sized and no multi-LoRA serving named; adapters kept
# apart ('多个 LoRA', '--enable-lora', 'several adapters') are still named as served adapters.
MULTI_LORA = ("method: lora", "no_field")


@pytest.mark.parametrize(
    "question",
    [
        "merge the LoRA then serve Qwen2.5-7B to 50 users on an A100",
        "After merging the LoRA adapter into Qwen2.5-7B, serve it to 50 users on an A100",
        "We merge our LoRA adapter and then deploy Qwen2.5-7B with vLLM for 50 users: how many A100s?",
        "LoRA 合并后部署 Qwen2.5-7B，50 个用户，A100",
        "Qwen2.5-7B 的 LoRA 融合完用 vLLM 部署，50 并发，要几张 A100",
        "把 LoRA 适配器合并之后上线 Qwen2.5-7B，50 并发，A100 够吗",
    ],
)
def test_a_merged_lora_is_one_model_served(question: str) -> None:
    p = parse(question)
    assert p.request.stage == "inference"
    assert MULTI_LORA not in p.unused_numbers


@pytest.mark.parametrize(
    "question",
    [
        "Serve Qwen2.5-7B with several LoRA adapters to 50 users on an A100",
        "Serve Qwen2.5-7B with --enable-lora to 50 users on an A100; we do not merge the adapters",
        "部署 Qwen2.5-7B，挂多个 LoRA，50 并发，A100 够吗",
        "部署 Qwen2.5-7B 不合并 LoRA 适配器，用 --enable-lora，50 并发，A100 够吗",
    ],
)
def test_adapters_kept_apart_are_still_named(question: str) -> None:
    p = parse(question)
    assert p.request.stage == "inference"
    assert MULTI_LORA in p.unused_numbers


@pytest.mark.parametrize(
    "question",
    [
        "LoRA 微调 Qwen2.5-7B 然后部署给 50 人用，要几张 A100",
        "fine-tune Qwen2.5-7B with LoRA and then serve it to 50 users: how many A100s for each?",
    ],
)
def test_a_lora_training_then_serving_still_sizes_the_training(question: str) -> None:
    assert parse(question).request.stage == "finetune"


# 3. A card name with a memory suffix the catalog does not have ('A800-128G', '4090-48G', '4090D 48G', modded
# or unlisted boards): sized at the memory stated, said so (hardware.memory_stated), never the suffix dropped.
# Already so on main when session 48 began; pinned here (the catalog: A800 80 GB, RTX 4090 / 4090D 24 GB).


@pytest.mark.parametrize(
    ("question", "gpu", "stated", "catalog_gib"),
    [
        ("用 8 张 A800-128G 部署 Qwen2.5-72B 够吗", "A800-80GB", 128, 80),
        ("Serve Qwen2.5-72B on 8 A800-128G cards", "A800-80GB", 128, 80),
        ("4090-48G 两张能跑 Qwen2.5-72B 的 AWQ 吗", "RTX-4090", 48, 24),
        ("Can 2x 4090D 48G serve Qwen2.5-72B?", "RTX-4090D", 48, 24),
    ],
)
def test_a_memory_suffix_is_sized_as_stated(question: str, gpu: str, stated: int, catalog_gib: int) -> None:
    answer = answer_json(question)
    hardware = answer["report"]["hardware"]
    assert answer["request"]["gpu"] == gpu
    assert (hardware["memory_gib"], hardware["memory_stated"], hardware["catalog_memory_gib"]) == (
        stated,
        True,
        catalog_gib,
    )
    assert f"{stated}" in answer["reply"].split("\n", 1)[0]


@pytest.mark.parametrize(
    "question", ["Can one 4090 24G serve Qwen2.5-7B?", "一张 A800 80G 能部署 Qwen2.5-7B 吗"]
)
def test_the_catalogs_own_memory_is_not_called_stated(question: str) -> None:
    assert answer_json(question)["report"]["hardware"]["memory_stated"] is False


# 5. A window stretched past the model's own with no factor said ('stretch the context to 64k', '把上下文拉到
# 64k'): the length is the engine's max_model_len and the RoPE factor is length ÷ the window (Llama 2: 4,096,
# its config.json max_position_embeddings; Llama 3 8B: 8,192), as vLLM's _get_and_verify_max_len allows.


@pytest.mark.parametrize(
    ("question", "length", "factor"),
    [
        ("Serve Llama-2-7B and stretch the context to 64k on an A100", 65_536, 16.0),
        ("Extend the context of Llama-3-8B to 32k and serve it on one L40S", 32_768, 4.0),
        ("Llama-2-7B 把上下文拉到 64k，A100 部署够吗", 65_536, 16.0),
        ("Llama-3-8B 上下文扩展到 32K 部署，一张 L40S 够吗", 32_768, 4.0),
    ],
)
def test_a_window_stretched_is_a_context_extension(question: str, length: int, factor: float) -> None:
    p = parse(question)
    assert (p.request.max_model_len, p.request.rope_scaling_factor) == (length, factor)
    assert not [n for n in p.unused_numbers if n[1] in ("repeated", "not_sized", "unread")]


@pytest.mark.parametrize(
    "question",
    [
        "部署 Qwen2.5-7B，上下文扩到 16k，要几张 A100",  # within its 32,768-token window: nothing to extend
        "Serve Qwen2.5-7B and extend the context to 16k on an A100",
        "LoRA 微调 Llama-2-7B，把数据扩到 64k 条，A100 够吗",  # no window: the data
        "Fine-tune Llama-2-7B with LoRA and extend the dataset to 64k samples on an A100",
    ],
)
def test_no_extension_without_a_window_past_the_models(question: str) -> None:
    assert parse(question).request.rope_scaling_factor is None


# 6. 'Training X' / '训练 X' of a released model the catalog does not know (en42-015 VHM, en35-006 Cobra): a
# fine-tuning of it is the likely job; a pre-training only with pre-training words, a pre-training codebase or
# the release's own training reproduced.


@pytest.mark.parametrize(
    "question",
    [
        "I tried training VHM on an A100 GPU with 80GB and got OOM. Can it be trained on one A100?",
        "How much GPU do I need for training Cobra at a minimum: 8x A100 (40GB) or 8x A100 (80GB)?",
        "Training Cobra on 4 A100s, is that enough?",
        "训练 VHM 需要几张 A100",
        "用 8 张 A100 训练 Cobra 够吗",
    ],
)
def test_training_a_release_the_catalog_lacks_is_a_fine_tuning(question: str) -> None:
    assert parse(question).request.stage == "finetune"


@pytest.mark.parametrize(
    "question",
    [
        "I want to reproduce the BLT training on 64 H100s",
        "Pre-training VHM from scratch on 64 H100s",
        "Training VHM with Megatron on 64 H100s",
        "复现 VHM 的训练要几张 A100",
        "预训练 VHM 要几张 A100",
        "Cobra was trained on 1024 GPUs; training Cobra on 16 A100s, how many tokens per second?",
        "BarLM1 的 13B 在千卡上训练，我用 16 张 A100 训练它要多久",  # a pre-training cluster's run
        "按 MiniMind（218M）的显存占用推算，训练一个 1B 的模型要 50GB 以上的显存吗？",  # a model made anew
        "Going by MiniMind's memory use, would training a 1B model need more than 50GB?",
    ],
)
def test_pre_training_words_keep_a_pre_training(question: str) -> None:
    assert parse(question).request.stage == "pretrain"


@pytest.mark.parametrize(
    "question",
    [
        "Training a 1.5B model takes longer than the 8 hours the paper says for 1B tokens on an L40: why?",
        "论文说 1B token 要训 8 小时，我用一张 L40 训练 1.5B 模型，1B token 要多久",
    ],
)
def test_a_claim_the_paper_makes_is_no_other_setup(question: str) -> None:
    p = parse(question)  # the paper's figure is said of the job's own data (en32-017): no setup beside it
    assert p.request.tokens == 1e9
    assert not [n for n in p.unused_numbers if n[1] == "other_setup"]
