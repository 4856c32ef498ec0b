"""Round 9 of the real questions, Chinese (issue 24; tests/data/real_questions/zh_r9.json): ways of writing
the r9work half showed the parser missing, each read by one mechanism for its kind — two stages joined by a
conjunction ('推理和微调'), an algorithm word inside a model's hyphenated name, the verb '调' before a model,
a width in bits said in Chinese ('16 位'), the ZeRO stage glued to DeepSpeed's name ('deepspeed3'), a count
with '多' before its magnitude ('100 多万'), a count after its data noun ('数据（一共 100 万）') and 'cases' —
tested in both languages through the CLI (``sizing-bot ask --format json``). The sentences are written for
these tests (none is from the real-question corpus); main's parser (7936bb1) misses each of them, and the
guards keep what it read right."""

from __future__ import annotations

import pytest

from tests.round_forms import ask, ignored, req


@pytest.mark.parametrize(
    ("text", "sized", "named"),
    [
        ("推理和微调 Qwen2-7B 各要多少显存？两张 A10 够吗", "finetune", "stage: inference"),
        # round 13: a model named with its size, trained beside serving it, is tuned (was 'stage: pretrain')
        ("训练、推理 Llama-3-8B 分别需要几张 4090？", "inference", "stage: finetune"),
        ("训练、推理一个 8B 的模型分别需要几张 4090？", "inference", "stage: pretrain"),
        ("Baichuan2-13B 的 LoRA 微调或部署，一张 A100 40G 够吗？", "finetune", "stage: inference"),
        (
            "Inference and fine-tuning of Mistral-7B: how many L4 GPUs for each?",
            "finetune",
            "stage: inference",
        ),
        ("How many A10G cards for serving or fine-tuning Gemma-7B?", "finetune", "stage: inference"),
        ("Training and serving a 3B model from scratch: how many H100s?", "pretrain", "stage: inference"),
    ],
)
def test_two_stages_joined_one_sized_the_other_named(
    capsys: pytest.CaptureFixture[str], text: str, sized: str, named: str
) -> None:
    """'推理和微调 … 各要多少': serving and tuning asked together; one is sized, the other named as another
    setup (bot.parse.stage_pairs; before: the other stage was dropped in silence)."""
    data = ask(capsys, text)
    assert req(data, "stage") == sized
    assert named in ignored(data)


@pytest.mark.parametrize(
    "text",
    [
        "部署 Qwen2-72B 要几张 A100？",
        "微调完推理跑得动吗？Qwen2-7B 在一张 4090 上",
        "Serve Llama-3-70B on 4 H100s",
    ],
)
def test_one_stage_names_no_other(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """Guard: one stage asked (or serving after tuning, named once by its own rule) adds no second name."""
    data = ask(capsys, text)
    assert sum(t.startswith("stage: ") for t in ignored(data)) <= 1


@pytest.mark.parametrize(
    "text",
    [
        "对比 Zephyr-7B-dpo-v1 的推理速度，一张 4090 每秒多少 token？",
        "部署 Qwen2-7B-GRPO 需要多少显存？",
        "Serving Llama-2-13B-dpo-v2 on one L40S: how many tokens per second?",
        "How much memory to serve Qwen2.5-7B-DPO in bf16?",
    ],
)
def test_algorithm_in_a_models_name_is_no_job(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'Llama-2-13B-dpo-v2', 'Qwen2-7B-GRPO': the algorithm word is part of the name (after a size and a
    hyphen, or between two hyphens), not a fine-tuning to size (bot.parse.lexicon.not_in_name; before:
    DPO/GRPO training)."""
    data = ask(capsys, text)
    assert req(data, "stage") == "inference"
    assert req(data, "algorithm") is None


@pytest.mark.parametrize(
    ("text", "algorithm"),
    [
        ("Step-DPO 训练 Qwen2-7B 要几张 A100？", "dpo"),
        ("用 dolphin-dpo.yml 训练 Mistral-7B，显存多少", "dpo"),
        ("GRPO on Qwen2.5-3B with 8 H100s: how long?", "grpo"),
        ("--rlhf_type grpo 训练 Qwen2.5-7B 要多少卡", "grpo"),
    ],
)
def test_algorithm_outside_a_name_is_read(
    capsys: pytest.CaptureFixture[str], text: str, algorithm: str
) -> None:
    """Guard: a variant's name ('Step-DPO'), a config file ('dolphin-dpo.yml'), a flag's value: the job."""
    data = ask(capsys, text)
    assert (req(data, "stage"), req(data, "algorithm")) == ("finetune", algorithm)


@pytest.mark.parametrize(
    "text",
    [
        "调 Qwen2-7B 需要多少显存？手上一张 A6000",
        "我想调Llama-3-8B，两张 3090 够吗",
        "调 14B 的模型要几张 A100",
    ],
)
def test_tuning_verb_before_a_model(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'调 Qwen2-7B 需要多少显存': the short verb '调' (tune) before a model and its size is a fine-tuning
    (bot.parse.lexicon.FINETUNE_RE; before: sized as serving)."""
    assert req(ask(capsys, text), "stage") == "finetune"


@pytest.mark.parametrize(
    "text", ["调用 Qwen2-7B 的接口，并发 20 要几张 A10？", "batch 调到 8，部署 Qwen2-7B 要多少显存"]
)
def test_other_words_with_tiao_stay_serving(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """Guard: '调用' (call) and '调到 8' (set to) are no tuning."""
    assert req(ask(capsys, text), "stage") == "inference"


@pytest.mark.parametrize(
    ("text", "sized", "named"),
    [
        ("微调 Qwen2-7B，先试了 8 位量化 OOM，改 16 位也不行，要多少显存？", "int8", "precision: fp16"),
        ("LoRA 微调 Llama-3-8B 用 16 位要几张 4090？", "fp16", None),
        ("LoRA fine-tuning Llama-3-8B in 16-bit: how many 4090s?", "fp16", None),
        ("Serve Qwen2-7B at 8-bit, or at 16-bit if it fits on one L4?", "int8", "precision: fp16"),
    ],
)
def test_width_in_bits_said_in_words(
    capsys: pytest.CaptureFixture[str], text: str, sized: str, named: str | None
) -> None:
    """'改 16 位', '16-bit': a 16-bit width is fp16 (bot.parse.written_values.BIT_WIDTH_WORD_RE; before:
    '16' unread, the 16-bit setup dropped)."""
    data = ask(capsys, text)
    assert req(data, "precision") == sized
    assert named is None or named in ignored(data)


def test_people_counted_with_wei_are_no_width(capsys: pytest.CaptureFixture[str]) -> None:
    """Guard: '16 位用户' counts people (位 is their measure word), not bits."""
    data = ask(capsys, "部署 Qwen2-7B 给 16 位用户同时用，要几张 A10？")
    assert req(data, "precision") != "fp16"
    assert req(data, "concurrency") == 16


@pytest.mark.parametrize(
    "text",
    [
        "全量微调 Qwen2-14B，8 张 A800，用的 deepspeed3，要多久？",
        "Full fine-tuning of Qwen2-14B on 8 A800s with deepspeed-3: how long?",
    ],
)
def test_zero_stage_glued_to_deepspeed(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'deepspeed3': ZeRO stage 3 (bot.parse.settings.ZERO_RE; before: unread)."""
    assert req(ask(capsys, text), "zero_stage") == 3


def test_deepspeed_with_a_card_count_is_no_stage(capsys: pytest.CaptureFixture[str]) -> None:
    """Guard: 'deepspeed 2 张卡' counts cards."""
    data = ask(capsys, "用 deepspeed 2 张卡全量微调 Qwen2-1.5B 要多久")
    assert req(data, "zero_stage") is None
    assert req(data, "gpu_count") == 2


@pytest.mark.parametrize(
    ("text", "samples"),
    [
        ("用 30 多万条数据 LoRA 微调 Qwen2-7B，8 张 A100 要多久？", 300_000),
        ("自己的数据（一共 20 多万）全量微调 Llama-3-8B，要多少小时？", 200_000),
        ("训练集（8W 左右）微调 Qwen2-7B，两张 A100 要多久", 80_000),
        ("大约 12 万 case，LoRA 微调 Qwen2-7B 要多久？", 120_000),
        ("Fine-tuning Qwen2-7B on a dataset of about 300k with 8 A100s: how long?", 300_000),
        ("LoRA on Llama-3-8B with 40k cases, 2 A100s: how many hours?", 40_000),
    ],
)
def test_sample_counts_in_more_ways(capsys: pytest.CaptureFixture[str], text: str, samples: int) -> None:
    """'30 多万条' (over 30 万: not 万 alone), a count right after its data noun ('数据（一共 20 多万）',
    'a dataset of about 300k'), 'cases': that many samples (bot.parse.role_left.L_SAMPLES,
    written_values.MORE_THAN_RE; before: unread or 1 万)."""
    assert req(ask(capsys, text), "num_samples") == samples


def test_a_data_size_after_its_noun_stays_a_size(capsys: pytest.CaptureFixture[str]) -> None:
    """Guard: '数据 2000 万 token' is tokens, not samples."""
    data = ask(capsys, "数据 2000 万 token，全量微调 Qwen2-7B 要多久")
    assert req(data, "num_samples") is None
    assert req(data, "tokens") == 20_000_000


@pytest.mark.parametrize(
    ("text", "tp", "named"),
    [
        ("Qwen2-14B 在 8 张 A800 上预训练，TP4-PP1-DP2 和 TP2-PP1-DP4 哪个快？", 4, "tp: 2"),
        ("Megatron 训练 Llama-2-13B：tp=8 时每步 3 秒，换成 tp=4 后 OOM，16 张 H800 该怎么设？", 8, "tp: 4"),
        ("Pre-training Llama-2-13B on 16 H100s: TP8-PP2 versus TP4-PP4, which is faster?", 8, "tp: 4"),
    ],
)
def test_two_layouts_one_sized_the_other_named(
    capsys: pytest.CaptureFixture[str], text: str, tp: int, named: str
) -> None:
    """'TP4-PP1-DP2 … TP1-PP1-DP8': two layouts compared; the first TP degree is sized and the other named
    as another setup (bot.parse.settings_scan.other_degrees; before: the second dropped in silence)."""
    data = ask(capsys, text)
    assert req(data, "tp") == tp
    assert named in ignored(data)


def test_one_layout_repeated_names_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    """Guard: the same degree written twice is one layout."""
    data = ask(capsys, "Llama-2-13B 用 tp=4 训练，8 张 A800，tp=4 时显存够吗？")
    assert req(data, "tp") == 4
    assert not [t for t in ignored(data) if t.startswith("tp: ")]


@pytest.mark.parametrize(
    ("text", "runtime"),
    [
        ("用 fastllm 在手机上跑 Qwen2-1.5B，最少要多少内存？", "fastllm"),
        ("chatglm.cpp 部署 ChatGLM3-6B，一张 3060 够吗", "chatglm.cpp"),
        ("Serving ChatGLM3-6B with fastllm on one T4: how much memory?", "fastllm"),
        (
            "Qwen2-7B on xFasterTransformer with two Xeon sockets and one A10: enough memory?",
            "xFasterTransformer",
        ),
    ],
)
def test_engines_of_chinese_threads_are_named(
    capsys: pytest.CaptureFixture[str], text: str, runtime: str
) -> None:
    """fastllm, chatglm.cpp, xFasterTransformer: engines the sizing has no memory model of, named as typed
    (bot.parse.more_engines; before: dropped in silence)."""
    assert f"runtime: {runtime}" in ignored(ask(capsys, text))
