"""Session 30, general readers (s30-gen): kinds of the working splits' misses, each read in the family of
phrasings people write, in both languages; sentences of our own, none from the corpus."""

from __future__ import annotations

import pytest

from bot.parse import parse

# A phone's memory with no maker or model named (bot/parse/phone_ram.py): the phone is the device, named as
# typed, with that memory; before, the default 80 GB card was sized and the RAM read as host memory.
PHONE_READS = [
    ("我的手机是 12GB 内存，能跑 Qwen2.5-3B 吗？", "手机", 12),
    ("手机内存 16GB 可以本地跑 Qwen2.5-7B int4 吗？", "手机", 16),
    ("用 16G 运行内存的手机跑 Qwen2.5-3B 够吗？", "手机", 16),
    ("12GB 内存的安卓手机能跑 Qwen2.5-3B 吗？", "安卓手机", 12),
    ("手机只有 6G 运存，跑 Qwen2.5-1.5B 行不行？", "手机", 6),
    ("My phone has 12 GB of RAM; can it run Qwen2.5-3B locally?", "phone", 12),
    ("Can I run Qwen2.5-3B on a phone with 8GB RAM?", "phone", 8),
    ("On my 16 GB RAM Android phone, will Llama 3.2 3B run?", "Android phone", 16),
    ("My phone's RAM is 8GB, is Qwen2.5-1.5B OK?", "phone", 8),
]


@pytest.mark.parametrize(("text", "device", "gib"), PHONE_READS)
def test_phone_memory_is_the_device(text: str, device: str, gib: int) -> None:
    req = parse(text).request
    assert req.gpu == device
    assert req.gpu_memory_gib == gib


PHONE_NOT_READ = [
    # a phone's storage is not its memory; a phone the message was sent from is no device of the job
    ("我在手机上跑 Qwen2.5-3B，手机存储 256G，能跑吗？", None),
    ("用 4090 跑 Qwen2.5-7B，我是用手机发的消息，电脑内存 64G", "RTX-4090"),
    (
        "Typing this from my phone: a server with 256 GB of RAM and one 4090, can it serve Qwen2.5-14B?",
        "RTX-4090",
    ),
    ("My phone has 256 GB of storage; can it run Qwen2.5-3B?", None),
]


@pytest.mark.parametrize(("text", "card"), PHONE_NOT_READ)
def test_phone_words_without_its_memory(text: str, card: str | None) -> None:
    req = parse(text).request
    assert req.gpu_memory_gib is None
    assert "phone" not in str(req.gpu).lower() and "手机" not in str(req.gpu)
    if card is not None:
        assert req.gpu == card


def test_named_phone_keeps_its_name() -> None:
    """A phone with its model named is read as before (bot/parse/unified_ram.py), never the bare word."""
    for text, name in (
        ("Can an iPhone 15 Pro with 8GB RAM run Qwen2.5-3B?", "iPhone 15 Pro"),
        ("小米 14 Pro 16G 内存能跑 Qwen2.5-3B 吗？", "小米 14 Pro"),
    ):
        assert parse(text).request.gpu == name


# A setting lowered after it failed or because it had to be (bot/parse/tried_settings.py, s30 words): the
# later value is sized, the first named as the earlier value; RL samples per prompt are one of those now.
LOWERED = [
    ("GRPO LoRA on Qwen3-8B with TRL: num_generations=16 OOMs on one A100, I had to tune it down to 4. "
     "How much memory does it need?", "num_generations", 4, "num_generations: 16"),
    ("GRPO on Qwen2.5-7B, 8 A100: I set num_generations 16 but had to lower it to 8. Why so much memory?",
     "num_generations", 8, "num_generations: 16"),
    ("GRPO on Qwen2.5-7B with TRL on 8 A100: num_gen 16 was too much, so I brought it down to 8. What "
     "does it need?", "num_generations", 8, "num_generations: 16"),
    ("Fine-tuning Llama-3-8B with LoRA on one 4090: batch size 8 was too much, so I had to bring it down "
     "to 2.",
     "batch_size", 2, "batch_size: 8"),
    ("用 TRL 做 GRPO 训练 Qwen2.5-7B，8 张 A100，num_generations 16 会 OOM，只能降到 8，正常吗？",
     "num_generations", 8, "num_generations: 16"),
    ("GRPO 训练 Qwen2.5-7B，num_generations 16 显存不够，后来改成 8，8 张 A100 够吗？",
     "num_generations", 8, "num_generations: 16"),
    ("GRPO 训练 Qwen2.5-7B，8 张 A100，num_gen 16 爆显存了，降低到 8 要多少显存？",
     "num_generations", 8, "num_generations: 16"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "field", "value", "earlier"), LOWERED)
def test_setting_lowered_sizes_the_later_value(text: str, field: str, value: int, earlier: str) -> None:
    result = parse(text)
    assert getattr(result.request, field) == value
    assert (earlier, "replaced_by_later_value") in result.unused_numbers


NOT_LOWERED = [
    # no change verb after the setting: the count's 'had to' changes nothing, the stated value is kept
    ("I had to use 8 A100 for GRPO on Qwen2.5-7B with num_generations 8; now using 16 A100s, how long?", 8),
    ("GRPO on Qwen2.5-7B with num_generations 16 on 8 A100, and the rollout generates 4 tokens a step.", 16),
    ("GRPO 训练 Qwen2.5-7B，num_generations 16，只能用 8 张 A100，要多久？", 16),
]


@pytest.mark.parametrize(("text", "value"), NOT_LOWERED)
def test_generations_kept_without_a_change(text: str, value: int) -> None:
    assert parse(text).request.num_generations == value


# The context said as a maximum token count (bot/parse/generic_values.py WORDS, s30): the serving context or
# the training sequence; OpenAI's max_tokens stays a reply's length.
TOKEN_COUNT_LENGTHS = [
    ("用 vLLM 部署 Qwen2.5-7B，一张 3090，最大 token 数设 8192，显存够吗？", 8192),
    ("用 xinference 部署 Qwen2.5-7B，一张 3090，最大 token 数 16384，够吗？", 16384),
    ("vLLM 部署 Qwen2.5-7B，单卡 3090，token 上限设成 32768 会不会爆显存？", 32768),
    ("LoRA 微调 Qwen2.5-7B，一张 4090，最大 token 长度 2048，要多久？", 2048),
    ("Serving Qwen2.5-7B on one 3090 with the maximum token count at 8192, does it fit?", 8192),
    ("Serving Qwen2.5-7B with vLLM on one 3090, token limit of 16384: enough memory?", 16384),
    ("Serving Qwen2.5-7B on one 3090 with a max number of tokens of 32768, how many users?", 32768),
]


@pytest.mark.parametrize(("text", "tokens"), TOKEN_COUNT_LENGTHS)
def test_maximum_token_count_is_the_length(text: str, tokens: int) -> None:
    req = parse(text).request
    assert (req.max_model_len or req.seq_len) == tokens


def test_max_tokens_of_a_reply_is_no_context() -> None:
    result = parse("Serving Qwen2.5-7B on one 3090 with max_tokens 512 per reply, how many users?")
    assert result.request.seq_len != 512 and result.request.max_model_len is None
    assert ("output_tokens: 512", "output_in_context") in result.unused_numbers


# A served input's length is the prompt the engine prefills (bot/parse/field_steps.py: an input alone too,
# s30) and a served document's length in tokens is that input (bot/parse/doc_length.py).
SERVED_INPUTS = [
    ("Qwen-14B 在 2048 token 输入下推理要多少显存？", 2048),
    ("Qwen-14B 推理 2048 个 token 的输入要多少显存？", 2048),
    ("Qwen-14B 处理 8K token 的长文档推理要多大显存？", 8192),
    ("部署 Qwen2.5-14B 做摘要，文档大约 6000 token，单张 4090 够吗？", 6000),
    ("How much VRAM does Qwen-14B inference need with a 2048-token input?", 2048),
    ("Serving Llama 3 70B on a really long report of about 8K tokens, how many A100s?", 8192),
    ("Running Llama 3 70B inference on an 8K-token document: how many A100s?", 8192),
    ("Llama 3 70B inference on a document of 8000 tokens, how much memory?", 8000),
    ("Summarizing 30,000-token transcripts with Qwen2.5-14B on vLLM, one A100: does it fit?", 30000),
]


@pytest.mark.parametrize(("text", "tokens"), SERVED_INPUTS)
def test_served_input_is_the_prompt(text: str, tokens: int) -> None:
    req = parse(text).request
    assert req.stage == "inference"
    assert req.prompt_tokens == tokens
    assert req.seq_len == tokens


TRAINING_DOCUMENTS = [
    ("Pretrain a 7B model on 1M documents of 2k tokens each, how long on 64 H100?", 2e9),
    ("LoRA fine-tune Qwen2.5-7B on 10k documents of about 4k tokens, how long on one A100?", 4e7),
    ("用 Qwen2.5-7B 做 LoRA 微调，1 万篇 4k token 的文档，一张 A100 要多久？", 4e7),
]


@pytest.mark.parametrize(("text", "tokens"), TRAINING_DOCUMENTS)
def test_training_documents_stay_data(text: str, tokens: float) -> None:
    req = parse(text).request
    assert req.prompt_tokens is None
    assert req.tokens == tokens


def test_served_input_with_its_output_unchanged() -> None:
    req = parse("部署 Qwen2.5-14B，输入 2048、输出 512，单张 A100 能开多少并发？").request
    assert (req.prompt_tokens, req.seq_len) == (2048, 2560)


# The request's length in an engine's "too long" error is the prompt to size for (bot/parse/too_long.py).
TOO_LONG = [
    ("用 vLLM 部署 Qwen2.5-32B，提问时报错（40000 > 32768），要几张 A100？", 40000),
    ("部署 Qwen2.5-32B 推理，tokenizer 提示 (50000 > 32768)，两张 A100 够吗？", 50000),
    ("vLLM 部署 Qwen2.5-14B 报错：Input prompt (20000 tokens) is too long and exceeds limit of 16384，"
     "要多少显存？", 20000),
    ("vLLM serving Qwen2.5-32B on 2 A100 says: This model's maximum context length is 16384 tokens. However, "
     "you requested 40000 tokens. What do I need?", 40000),
    ("Serving Qwen2.5-14B on vLLM: ValueError: Input prompt (20000 tokens) is too long and exceeds limit of "
     "16384. How much memory?", 20000),
    ("Qwen2.5-32B inference on 2 A100: Token indices sequence length is longer than the specified maximum "
     "sequence length for this model (50000 > 32768). How much memory?", 50000),
]  # fmt: skip


@pytest.mark.parametrize(("text", "tokens"), TOO_LONG)
def test_request_length_in_a_too_long_error(text: str, tokens: int) -> None:
    req = parse(text).request
    assert req.prompt_tokens == tokens
    assert req.seq_len == tokens


NOT_TOO_LONG = [
    # a bracket with no comparison after it, a comparison of other things, a training question
    ("部署 Qwen2.5-32B，2 张 A100 (显存 80G)，并发 (64 > 32 的话)，上下文 8192，够吗？", 8192),
    ("Serving Qwen2.5-32B on 2 A100 at 8k context: is throughput (2000 > 1500 tok/s) enough?", 8192),
    ("LoRA fine-tuning Qwen2.5-7B on one A100, the tokenizer warns (5000 > 4096) on some samples, how long "
     "for 10k samples at 2048 context?", 2048),
]  # fmt: skip


@pytest.mark.parametrize(("text", "seq"), NOT_TOO_LONG)
def test_no_request_length_without_an_error(text: str, seq: int) -> None:
    req = parse(text).request
    assert req.prompt_tokens in (None, seq)
    assert req.seq_len == seq


# A bare length in K in a long-context question is the sequence length (bot/parse/long_context.py).
LONG_CONTEXT = [
    ("Long-context fine-tuning of Qwen2.5-7B at 128k or more on 8 H100: how much memory?", 131072),
    ("Fine-tune Qwen2.5-7B for long context (64k+) on 8 A100, how long?", 65536),
    ("Is long-context training of Llama-3-8B feasible on 16 H100, say 256k and above?", 262144),
    ("长上下文训练 Qwen2.5-7B，128k 以上，8 张 H100 够吗？", 131072),
    ("Qwen2.5-7B 长文本微调，32k 及以上，要几张 A100？", 32768),
    ("想做长序列训练，Llama-3-8B，64k，16 张 H100 要多久？", 65536),
]


@pytest.mark.parametrize(("text", "seq"), LONG_CONTEXT)
def test_bare_length_in_a_long_context_question(text: str, seq: int) -> None:
    assert parse(text).request.seq_len == seq


LONG_CONTEXT_NOT_LENGTH = [
    ("Long-context fine-tuning of Qwen2.5-7B on 128k samples, 8 H100: how long?", 128_000),
    ("长文本微调 Qwen2.5-7B，32k 条数据，8 张 A100 要多久？", 32_000),
    ("Long-context SFT of Qwen2.5-7B with 50k examples on 8 A100, how long?", 50_000),
]


@pytest.mark.parametrize(("text", "samples"), LONG_CONTEXT_NOT_LENGTH)
def test_sample_counts_stay_counts(text: str, samples: int) -> None:
    req = parse(text).request
    assert req.num_samples == samples
    assert req.seq_len not in (samples, 131072, 32768)


# Requests running as the load: vLLM's stats line and the short 'req' (bot/parse/role_left.py R_CONC, s30).
RUNNING = [
    ("vLLM serving Qwen2.5-7B on one A10: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: "
     "2.2 tokens/s, Running: 1 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 5.0%. Why so "
     "slow?", 1),
    ("Qwen2.5-7B on vLLM, one A100: Avg generation throughput: 850.3 tokens/s, Running: 32 reqs, Waiting: 0 "
     "reqs, GPU KV cache usage: 41.2%. Can it take more?", 32),
    ("Qwen2.5-7B on vLLM with a 3090: 8 reqs running and only 20 tok/s each, normal?", 8),
    ("vLLM 部署 Qwen2.5-7B，一张 A100，日志显示 Running: 24 reqs, Swapped: 0 reqs, Pending: 3 reqs，"
     "还能加并发吗？", 24),
    ("用 vLLM 跑 Qwen2.5-7B，单卡 4090，8 个 req 在跑，每个 20 tok/s，正常吗？", 8),
    ("用 vLLM 跑 Qwen2.5-7B，单卡 4090，有 8 个请求正在跑，每个 20 tok/s，正常吗？", 8),
]  # fmt: skip


@pytest.mark.parametrize(("text", "load"), RUNNING)
def test_requests_running_are_the_load(text: str, load: int) -> None:
    assert parse(text).request.concurrency == load


def test_swapped_and_pending_requests_are_no_load() -> None:
    """Only the running count is the load: the swapped, waiting and pending counts after it are not."""
    for text in (
        "Qwen2.5-7B on vLLM, one 4090: Running: 4 reqs, Swapped: 12 reqs, Pending: 30 reqs. Why so slow?",
        "vLLM 部署 Qwen2.5-7B，单卡 4090，Running: 4 reqs, Waiting: 30 reqs，为什么这么慢？",
    ):
        assert parse(text).request.concurrency == 4
