"""Session 38, the settings vocabulary as a whole (s38-gen, issue 24): the ways people write the most
labelled settings, added to the one key–value grammar (bot/parse/generic_values.WORDS) and its neighbours;
sentences of our own, none from the corpus. Each reader has must-read and must-not-misread sentences."""

from __future__ import annotations

import pytest

from bot.parse import parse

SFT = "Qwen2.5-7B LoRA 1 张 A100 80G，"
SFT8 = "Qwen2.5-7B LoRA 8 张 A100 80G，"
FULL = "Qwen2.5-7B 全参微调 4 张 A100 80G，"
SERVE = "Llama-3-70B vLLM 4 张 H100，"
SERVE_EN = "Llama-3-70B vLLM on 4 H100, "

# (text, field, value): each a word for the field the grammar did not know (the value left unread before)
MUST_READ = [
    (SFT + "句长 512", "seq_len", 512),
    (SFT + "句子长度设为 1024", "seq_len", 1024),
    (SFT + "批处理大小 4", "batch_size", 4),
    (SFT + "batch 大小为 4", "batch_size", 4),
    (SFT + "批量设成 8", "batch_size", 8),
    (SFT8 + "总批量 128", "global_batch", 128),
    (SFT8 + "全局批量为 256", "global_batch", 256),
    (SFT8 + "总 batch size 128", "global_batch", 128),
    (SFT8 + "总 bs 128", "global_batch", 128),
    (SFT8 + "bs 4，总bs 128", "global_batch", 128),
    (SFT + "lora 维度 16", "lora_rank", 16),
    ("Qwen2.5-7B LoRA on 1 A100 80GB, lora dimension 32", "lora_rank", 32),
    (SERVE + "TP 数 4", "tp", 4),
    (SERVE + "张量并行规模为 4", "tp", 4),
    ("Qwen2.5-7B full fine-tune on 8 A100 80GB, pp 数 2", "pp", 2),
    ("Qwen2.5-7B 全参微调 8 张 A100 80G，流水线级数 4", "pp", 4),
    (FULL + "ZeRO 二阶段", "zero_stage", 2),
    (FULL + "zero 三", "zero_stage", 3),
    (FULL + "deepspeed 阶段 2", "zero_stage", 2),
    (SERVE_EN + "concurrent sessions 50", "concurrency", 50),
    (SERVE + "并发请求数 50", "concurrency", 50),
    (SERVE + "并发连接数为 30", "concurrency", 30),
    (SERVE + "最大并发序列数 64", "max_num_seqs", 64),
    (SERVE_EN + "gpu memory fraction 0.9", "gpu_memory_utilization", 0.9),
    (SERVE + "显存使用率 0.9", "gpu_memory_utilization", 0.9),
    (SERVE + "显存比例设为 0.85", "gpu_memory_utilization", 0.85),
]


@pytest.mark.parametrize(("text", "field", "value"), MUST_READ)
def test_setting_words_read(text: str, field: str, value: float) -> None:
    req = parse(text).request
    assert getattr(req, field) == value


def test_accumulation_words_the_other_way_round() -> None:
    # '累积梯度 8' (the words reversed): 8 steps of accumulation, the global batch 1 × 8 × 8 GPUs = 64
    for text in (SFT8 + "累积梯度 8", SFT8 + "梯度累积次数为 8"):
        req = parse(text).request
        assert req.gradient_accumulation == 8


# (text, field, value it must not take): a bound, a negation, another quantity after the same word
MUST_NOT_READ = [
    (SFT + "句长不超过 512", "seq_len", 512),
    ("Qwen2.5-7B LoRA on 1 A100 80GB, cable length 100 m", "seq_len", 100),
    ("Qwen2.5-7B LoRA on 1 A100 80GB, video length 30 seconds", "seq_len", 30),
    (SFT + "批量不是 4", "batch_size", 4),
    (SFT + "批量推理 1000 条数据", "batch_size", 1000),
    (SFT8 + "总批量不超过 128", "global_batch", 128),
    (SFT8 + "总批量不超过 128", "batch_size", 128),
    (SFT8 + "累积梯度最多 8", "gradient_accumulation", 8),
    (SERVE + "TP 数不能大于 4", "tp", 4),
    (FULL + "zero 的 bug 有 80 个", "zero_stage", 80),
    (SERVE + "并发请求数不到 50", "concurrency", 50),
    (SERVE_EN + "concurrent sessions were never above 50", "concurrency", 50),
    (SERVE_EN + "gpu memory fraction not 0.95", "gpu_memory_utilization", 0.95),
    (SFT + "数据集大小 20GB", "num_samples", 20),
    ("Qwen2.5-7B LoRA on 1 A100 80GB, 4096 tokens per batch", "batch_size", 4096),
]


@pytest.mark.parametrize(("text", "field", "value"), MUST_NOT_READ)
def test_setting_words_not_misread(text: str, field: str, value: float) -> None:
    assert getattr(parse(text).request, field) != value


# A micro-batch written as its samples per batch (bot/parse/role_left.R_PER_BATCH, L_BATCH '每批'): before,
# '4 samples per batch' was read as a dataset of 4 samples (its tokens and time sized from it).
PER_BATCH = [
    ("Qwen2.5-7B LoRA on 1 A100 80GB, 4 samples per batch", 4),
    ("Qwen2.5-7B LoRA on 1 A100 80GB, 50k samples, 4 per batch", 4),
    (SFT + "每批 4 条", 4),
    (SFT + "每批次 8 条样本", 8),
]


@pytest.mark.parametrize(("text", "batch"), PER_BATCH)
def test_samples_per_batch_is_the_micro_batch(text: str, batch: int) -> None:
    req = parse(text).request
    assert req.batch_size == batch
    assert req.num_samples != batch


def test_per_batch_keeps_the_dataset_and_token_budget() -> None:
    req = parse("Qwen2.5-7B LoRA on 1 A100 80GB, 50k samples, 4 per batch").request
    assert req.num_samples == 50_000
    assert parse("Qwen2.5-7B LoRA on 1 A100 80GB, 50k samples").request.batch_size is None  # unset: default


# A trained input length alone (bot/parse/field_steps._data_and_context): before, 'input length 8k' of an
# SFT was dropped in silence (neither sized nor named). An SFT's input is the sequence trained on; an RL
# run's is its prompt bound (the rollout adds the completion).
TRAINED_INPUT = [
    (SFT + "输入长度 8k", 8192),
    (SFT + "提示词长度 4096", 4096),
    ("Qwen2.5-7B LoRA on 1 A100 80GB, input length 8k", 8192),
    ("Qwen2.5-7B LoRA on 1 A100 80GB, prompt length 3000", 3000),
]


@pytest.mark.parametrize(("text", "seq"), TRAINED_INPUT)
def test_trained_input_length_is_the_sequence(text: str, seq: int) -> None:
    req = parse(text).request
    assert req.seq_len == seq
    assert req.prompt_tokens is None


def test_rl_input_length_is_the_prompt_bound() -> None:
    req = parse("Qwen2.5-7B GRPO 1 张 A100 80G，输入长度 1k").request
    assert req.prompt_tokens == 1000
    assert req.seq_len is None or req.seq_len != 1000


def test_input_length_unchanged_where_read_before() -> None:
    served = parse(SERVE_EN + "input length 2000").request  # served: the prompt, as before
    assert (served.prompt_tokens, served.seq_len) == (2000, 2000)
    both = parse(SFT + "输入长度 2k，输出长度 512").request  # prompt + completion: the sequence, as before
    assert both.seq_len == 2000 + 512
    assert both.max_completion_length == 512


# The GPU count by its Chinese key words (generic_values.WORDS['gpu_count']): '个数', '数目', '卡的数量'
COUNT_WORDS = [
    ("Qwen2.5-7B LoRA A100 80G，gpu 个数 4", 4),
    ("Qwen2.5-7B LoRA A100 80G，显卡个数为 4", 4),
    ("Qwen2.5-7B LoRA A100 80G，卡的数量 2", 2),
    ("Qwen2.5-7B LoRA A100 80G，显卡数目：8", 8),
]


@pytest.mark.parametrize(("text", "count"), COUNT_WORDS)
def test_gpu_count_words(text: str, count: int) -> None:
    assert parse(text).request.gpu_count == count


def test_gpu_count_words_not_misread() -> None:
    assert parse("Qwen2.5-7B LoRA A100 80G，卡的数量不超过 4").request.gpu_count != 4  # a bound
    req = parse("Qwen2.5-7B LoRA 8 张 A100 80G，卡数量 4").request  # a second count: the first kept
    assert req.gpu_count == 8


# A memory key with its size word before the value (bot/parse/size_words.py, memory_forms.KEY_MEMORY_RE):
# '显存大小 24G' was left unread; '显存 24G' was read.
SIZE_WORDS = [
    ("Qwen2.5-7B LoRA 4 张卡，显存大小 24G", 24),
    ("Qwen2.5-7B LoRA 4 张卡，显存容量为 24GB", 24),
    ("Qwen2.5-7B LoRA 2 张卡，显存的大小是 48G", 48),
    ("Qwen2.5-7B LoRA on 4 GPUs, VRAM size 24GB", 24),
]


@pytest.mark.parametrize(("text", "gib"), SIZE_WORDS)
def test_memory_size_word(text: str, gib: float) -> None:
    assert parse(text).request.gpu_memory_gib == gib


SIZE_NOT_CARD = [
    "Qwen2.5-7B LoRA 1 张卡，硬盘大小 2TB",  # a disk
    "Qwen2.5-7B LoRA 1 张卡，数据集大小 20GB",  # the data
    "Qwen2.5-7B LoRA 1 张卡，模型大小 15G",  # the weights file
]


@pytest.mark.parametrize("text", SIZE_NOT_CARD)
def test_other_sizes_are_no_card_memory(text: str) -> None:
    req = parse(text).request
    assert req.gpu_memory_gib is None
    assert req.num_samples is None


def test_all_cards_size_stays_the_total() -> None:
    # '总显存大小 320G' of 4 A100 80G: the cards' total (4 × 80), never one card's 320 GB
    assert parse("Qwen2.5-7B LoRA 4 张 A100，总显存大小 320G").request.gpu_memory_gib == 80


def test_named_context_with_thousands_separator_renders() -> None:
    # a context named as not used reads 'seq_len: 5,000' (bot.core.unused_local.setting_text): the reply's
    # wording took float('5,000') and failed to render
    from bot.render.understood import _setting_text

    assert _setting_text("seq_len: 5,000", "en") == "seq_len: 5,000"
    assert _setting_text("seq_len: 5,000", "zh").endswith("5,000")


# GRPO's samples per prompt by more of their words (generic_values.WORDS['num_generations']); RL runs only
ROLLOUT_WORDS = [
    ("Qwen2.5-7B GRPO 8 张 H100，rollout 数 8", 8),
    ("Qwen2.5-7B GRPO 8 张 H100，生成数为 16", 16),
    ("Qwen2.5-7B GRPO 8 张 H100，采样次数 4", 4),
    ("Qwen2.5-7B GRPO on 8 H100, num_rollouts 8", 8),
]


@pytest.mark.parametrize(("text", "n"), ROLLOUT_WORDS)
def test_rollout_words(text: str, n: int) -> None:
    assert parse(text).request.num_generations == n


@pytest.mark.parametrize(
    "text", ["Qwen2.5-7B SFT 8 张 H100，生成数 8", "Llama-3-8B vLLM 1 张 H100，采样次数 4"]
)
def test_rollout_words_only_of_rl(text: str) -> None:
    assert parse(text).request.num_generations is None  # no RL algorithm: no group of samples


# Accumulation by its verb before the count (bot/parse/load_forms.ACCUM_VERB_RE): before, 'accumulate 8
# steps' was read as 8 training steps (8 × 128 × 2,048 tokens sized).
ACCUM_VERB = [
    ("Qwen2.5-7B LoRA on 8 A100 80GB, accumulate 8 steps", 8),
    ("Qwen2.5-7B LoRA on 8 A100 80GB, accumulating gradients over 4 micro-batches", 4),
    ("Qwen2.5-7B LoRA on 8 A100 80GB, we accumulated gradients over 16 steps", 16),
]


@pytest.mark.parametrize(("text", "steps"), ACCUM_VERB)
def test_accumulation_verb(text: str, steps: int) -> None:
    req = parse(text).request
    assert req.gradient_accumulation == steps
    assert req.tokens is None  # no training steps read from it


@pytest.mark.parametrize(
    "text",
    [
        "Qwen2.5-7B LoRA on 8 A100 80GB, the loss accumulated 500 steps of noise",
        "Qwen2.5-7B LoRA on 8 A100 80GB, error accumulates over 300 steps",
    ],
)
def test_other_accumulation_is_no_gradient_accumulation(text: str) -> None:
    assert parse(text).request.gradient_accumulation is None
