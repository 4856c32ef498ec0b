"""Session 43 part fixread: reading faults left from earlier sessions (issue 24 items 2 and 4).

Item 1: a node shape written as two products with no machine word ('2 x 8x H100', '2× 8×A100', '2x8xH100'):
N nodes of M cards, N × M GPUs with M per node (as '2 x 8x H100 nodes' and '两台 8 卡 H800' already were);
before, the 8 was sized and the 2 left unread (or, glued, no count was read at all). '8x H100' alone stays 8
cards, and a plain '4 x 8 A100s' stays 32.
"""

from __future__ import annotations

import pytest

from bot.parse import parse

NODE_SHAPES = [
    ("We have 2 x 8x H100. How long to fine-tune Llama 3 70B on 1B tokens?", "H100-SXM5-80GB", 16, 8),
    ("2 x 8xH100, serve Llama 3 70B for 50 users", "H100-SXM5-80GB", 16, 8),
    ("2× 8×A100: full fine-tune of Llama 3 70B, how long?", "A100-SXM4-80GB", 16, 8),
    ("2x8xH100 fine-tune llama 3 70b on 1B tokens", "H100-SXM5-80GB", 16, 8),
    ("3 x 4x L40S serving Qwen2.5 32B", "L40S", 12, 4),
    ("我们有 2 x 8x H800，微调 Llama 3 70B 要多久", "H800-SXM5-80GB", 16, 8),
    ("两台 8 卡 H800 能全参微调 Llama 3 70B 吗", "H800-SXM5-80GB", 16, 8),
    ("手上 2×8×A100，部署 Qwen2.5 72B 给 50 人用", "A100-SXM4-80GB", 16, 8),
]


@pytest.mark.parametrize(("question", "gpu", "count", "per_node"), NODE_SHAPES)
def test_two_products_name_nodes_of_cards(question: str, gpu: str, count: int, per_node: int) -> None:
    p = parse(question)
    assert p.request.gpu == gpu
    assert p.request.gpu_count == count and p.request.gpus_per_node == per_node
    assert not [n for n, _ in p.unused_numbers if n in ("2", "3")]  # the node count is read, not left


ONE_PRODUCT = [
    ("8x H100: fine-tune Llama 3 70B, how long?", 8),
    ("4 x 8 A100s for pretraining a 7B model", 32),
    ("用 8x H800 微调 Llama 3 70B 要多久", 8),
    ("H100 x 8 跑 Llama 3 70B 推理", 8),
]


@pytest.mark.parametrize(("question", "count"), ONE_PRODUCT)
def test_one_product_stays_its_cards(question: str, count: int) -> None:
    p = parse(question)
    assert p.request.gpu_count == count


# Item 2: a measured rate, then the rate asked for. The measured one is an observation (named 'observed'),
# the later one the target; a later rate no word asks for is another measurement, never the target.
MEASURED_THEN_TARGET = [
    "我们 8 张 A100 跑 Llama 3 70B 推理能到 2000 tok/s，要 10000 tok/s 需要几张？",
    "我们 8 张 A100 跑 Llama 3 70B 推理能到 2000 tok/s，目标 10000 tok/s 需要几张？",
    "8 张 A100 跑 Llama 3 70B 实测 2000 tok/s，想要 10000 tok/s 需要几张？",
    "We get 2,000 tok/s on 8 A100s serving Llama 3 70B, we need 10,000 tok/s: how many A100s?",
    "We get 2,000 tok/s on 8 A100s serving Llama 3 70B; how many do we need for 10,000 tok/s?",
    "vLLM gives us 2000 tok/s on 8 A100s with Llama 3 70B. How many A100s for 10000 tok/s?",
]


@pytest.mark.parametrize("question", MEASURED_THEN_TARGET)
def test_a_measured_rate_is_seen_and_the_later_one_asked(question: str) -> None:
    p = parse(question)
    assert p.request.target_tokens_per_s == 10_000
    assert [why for raw, why in p.unused_numbers if raw.startswith("2")] == ["observed"]
    assert not [raw for raw, _ in p.unused_numbers if raw.startswith("10")]  # the target is read


TWO_MEASURED = [
    "We get 2,000 tok/s on 8 A100s serving Llama 3 70B and 2,400 tok/s with fp8. Why so slow?",
    "实测 8 张 A100 跑 Llama 3 70B 能到 2000 tok/s，fp8 能到 2400 tok/s，为什么这么慢",
]


@pytest.mark.parametrize("question", TWO_MEASURED)
def test_two_measured_rates_are_no_target(question: str) -> None:
    p = parse(question)
    assert p.request.target_tokens_per_s is None
    assert sorted(why for _, why in p.unused_numbers if why == "observed") == ["observed", "observed"]


@pytest.mark.parametrize(
    "question",
    [
        "Serve Llama 3 70B on A100s at 10,000 tok/s: how many?",
        "Llama 3 70B 推理，要 10000 tok/s 需要几张 A100？",
    ],
)
def test_a_rate_alone_stays_the_target(question: str) -> None:
    assert parse(question).request.target_tokens_per_s == 10_000


# Item 2 (MFU): another run's MFU is that run's (named other_setup), never ours; ours stated is used.
THEIR_MFU = [
    "They got 40% MFU pretraining Llama 3 8B on 1T tokens, what about us on 64 H100?",
    "别人 MFU 能到 40%，我们 64 张 H100 预训练 Llama 3 8B 1T token 要多久？",
    "My colleague gets 40% MFU. We pretrain Llama 3 8B on 1T tokens on 64 H100, how long?",
    "同事说他们 MFU 有 40%，我们 64 张 H100 预训练 Llama 3 8B 1T token 要多久？",
]


@pytest.mark.parametrize("question", THEIR_MFU)
def test_another_runs_mfu_is_not_ours(question: str) -> None:
    p = parse(question)
    assert p.request.mfu is None and p.request.gpu_count == 64
    assert ("MFU 40%", "other_setup") in p.unused_numbers


OUR_MFU = [
    ("We got 40% MFU on our last run; pretraining Llama 3 8B on 1T tokens with 64 H100, how long?", 0.40),
    ("我们 MFU 能到 40%，64 张 H100 预训练 Llama 3 8B 1T token 要多久？", 0.40),
    ("My colleague gets 45% MFU. Pretrain Llama 3 8B on 1T tokens on 64 H100 at 35% MFU, how long?", 0.35),
    ("同事说他们 MFU 有 45%，我们按 35% 算，64 张 H100 预训练 Llama 3 8B 1T token 要多久？", 0.35),
    ("Pretrain Llama 3 8B on 1T tokens on 64 H100 at 40% MFU, how long?", 0.40),
    ("We have 64 H100s and they ran at 40% MFU last time; pretrain Llama 3 8B on 1T tokens, how long?", 0.40),
]


@pytest.mark.parametrize(("question", "mfu"), OUR_MFU)
def test_our_mfu_stated_is_used(question: str, mfu: float) -> None:
    assert parse(question).request.mfu == pytest.approx(mfu)


# Item 3: a range of sample counts is sized at its upper end (the most data the job may run), the lower end
# named other_setup, as a range of context lengths is sized at its longer end; never a length.
SAMPLE_RANGES = [
    ("Fine-tune Qwen2.5 7B with LoRA on 10k to 50k samples at 32k context, how many A100s?", "10k", 32768),
    ("Qwen2.5 7B long-context SFT: 10k-50k examples at 64k context on 8 H100, how long?", "10k", 65536),
    ("用 1万到5万条数据微调 Qwen2.5 7B，上下文 32k，需要几张 A100？", "1万", 32768),
    ("长上下文微调 Qwen2.5 7B，1 万到 5 万条样本，每条 64k，8 张 H100 要多久？", "1 万", 65536),
]


@pytest.mark.parametrize(("question", "low", "seq"), SAMPLE_RANGES)
def test_a_range_of_samples_is_sized_at_its_upper_end(question: str, low: str, seq: int) -> None:
    p = parse(question)
    assert p.request.num_samples == 50_000 and p.request.seq_len == seq
    assert (low, "other_setup") in p.unused_numbers


def test_a_hyphen_between_counts_in_wan_is_no_minus() -> None:
    p = parse("微调 Qwen2.5 7B，数据 1万-5万条，每条 32k token，A100 要多久？")
    assert p.request.num_samples == 50_000
    assert p.request.tokens == 50_000 * 32_000  # 32k tokens a sample, as typed (tokens, not a context)


@pytest.mark.parametrize(
    ("question", "seq", "samples"),
    [
        ("Fine-tune Qwen2.5 7B, context 16k to 128k, 8 H100", 131072, None),
        ("Fine-tune Qwen2.5 7B on 20k samples of 2k~4k tokens each on 8 A100", 4096, 20_000),
        ("微调 Qwen2.5 7B，2 万条样本，每条 2k~4k token，8 张 A100", 4096, 20_000),
    ],
)
def test_a_range_of_lengths_stays_a_length(question: str, seq: int, samples: int | None) -> None:
    p = parse(question)
    assert p.request.seq_len == seq and p.request.num_samples == samples


# Item 4: a range of loads is sized at its upper end (the peak the service must hold), the lower named
# other_setup; a question asking per value keeps each (its rows size both).
LOAD_RANGES = [
    "Serve Qwen2.5 7B for 20 to 100 users on A100s, how many GPUs?",
    "Serve Qwen2.5 7B for 20-100 concurrent users on A100s, how many?",
    "Qwen2.5 7B 推理，20-100 并发，需要几张 A100？",
    "Qwen2.5 7B 部署，20 到 100 个用户同时用，A100 要几张？",
]


@pytest.mark.parametrize("question", LOAD_RANGES)
def test_a_range_of_loads_is_sized_at_its_upper_end(question: str) -> None:
    p = parse(question)
    assert p.request.concurrency == 100
    assert ("20", "other_setup") in p.unused_numbers


@pytest.mark.parametrize(
    ("question", "load"),
    [
        ("Serve Qwen2.5 7B for 20 to 100 users on A100s: how many GPUs for each?", 20),
        ("Qwen2.5 7B 推理，20-100 并发分别要几张 A100？", 20),
        ("Serve Qwen2.5 7B for 60 concurrent users on A100s", 60),
        ("Qwen2.5 7B 推理，60 并发，需要几张 A100？", 60),
    ],
)
def test_per_value_or_one_load_is_unchanged(question: str, load: int) -> None:
    p = parse(question)
    assert p.request.concurrency == load
    assert not [raw for raw, why in p.unused_numbers if why == "other_setup"]


# Item 5: someone else's GPU count beside the asker's own: the asker's is sized, the other named other_setup.
THEIR_COUNT = [
    ("别人用 4 张 A100 微调 Qwen2.5 7B，我用 8 张要多久？", 8, "4"),
    ("别人用 4 张 A100 微调 Qwen2.5 7B 跑了 10 小时，我用 8 张 A100 要多久？", 8, "4"),
    ("他们用 8 张 H100 训了 3 天，我们只有 4 张 H100，要多久？", 4, "8"),
    ("Others used 4 A100s to fine-tune Qwen2.5 7B; we'll use 8 A100s, how long will it take?", 8, "4"),
    ("My colleague fine-tuned Qwen2.5 7B on 4 A100s, I have 8 A100s: how long for 1B tokens?", 8, "4"),
    ("They trained it on 8 H100s in 3 days; we have 4 H100s, how long for us?", 4, "8"),
]


@pytest.mark.parametrize(("question", "count", "theirs"), THEIR_COUNT)
def test_the_askers_count_wins_over_someone_elses(question: str, count: int, theirs: str) -> None:
    p = parse(question)
    assert p.request.gpu_count == count
    assert (theirs, "other_setup") in p.unused_numbers


OWN_COUNTS = [
    ("4 张 A100 够不够全参微调 Qwen2.5 7B？", 4),
    ("I ran Qwen2.5 7B on 4 A100s; would 8 A100s be enough for full fine-tuning?", 8),
    ("我有 8 张 A100，想微调 Qwen2.5 7B，要多久？", 8),
]


@pytest.mark.parametrize(("question", "count"), OWN_COUNTS)
def test_the_askers_own_counts_are_read_as_before(question: str, count: int) -> None:
    p = parse(question)
    assert p.request.gpu_count == count
    assert not [raw for raw, why in p.unused_numbers if why == "other_setup" and raw in ("4", "8")][1:]


# Item 6: a tool as the subject of its clause. Known tools are the runtime; a lower-case name no table has is
# named as typed (runtime in a serving question, training tool in a training one), never dropped nor swapped.
SUBJECT_UNKNOWN = [
    (
        "optiml says it needs 40GB for Qwen2.5 14B on my 4090, true?",
        "runtime: optiml",
        "runtime_not_modelled",
    ),
    (
        "fooserve takes 30 seconds per answer with Llama 2 13B on an RTX 3090, how to speed up?",
        "runtime: fooserve",
        "runtime_not_modelled",
    ),
    ("我用 Qwen2.5 14B，xinfer 报错 out of memory，显卡 4090", "runtime: xinfer", "runtime_not_modelled"),
    ("微调 Qwen2.5 7B，mytrainer 一直 OOM，4 张 A100", "training_tool: mytrainer", "no_field"),
]


@pytest.mark.parametrize(("question", "item", "why"), SUBJECT_UNKNOWN)
def test_an_unknown_tool_as_subject_is_named_as_typed(question: str, item: str, why: str) -> None:
    p = parse(question)
    assert (item, why) in p.unused_numbers
    assert p.request.runtime is None  # never swapped for a runtime the sizing models


@pytest.mark.parametrize(
    ("question", "runtime"),
    [
        ("vllm gives me 20 tok/s with Llama 3 8B on a 4090, is that normal?", "vLLM"),
        ("ollama 报错 out of memory，跑 qwen2.5 14b，显卡 4090", "Ollama"),
        ("sglang crashes with Qwen2.5 72B on 4 A100s", "SGLang"),
        ("lmdeploy 显示 KV cache 不够，跑 Qwen2.5 7B，单卡 4090", "lmdeploy"),
    ],
)
def test_a_known_tool_as_subject_is_the_runtime(question: str, runtime: str) -> None:
    assert parse(question).request.runtime == runtime


NOT_TOOLS = [
    "nvidia-smi shows 23GB used serving Qwen2.5 14B on a 4090",
    "memory shows 23GB when serving Qwen2.5 14B on a 4090",
    "it says out of memory when serving Qwen2.5 14B on a 4090",
    "training takes 3 days for Qwen2.5 7B on 8 A100",
    "inference takes 2 seconds with Qwen2.5 7B on a 4090",
    "chatgpt says Qwen2.5 14B needs 28GB, is that right on a 4090?",
    "显存显示 23G，跑 Qwen2.5 14B，显卡 4090",
    "他说 Qwen2.5 14B 要 28G 显存，4090 够吗",
]


@pytest.mark.parametrize("question", NOT_TOOLS)
def test_a_subject_that_is_no_tool_is_not_named_one(question: str) -> None:
    p = parse(question)
    assert not [t for t, _ in p.unused_numbers if t.startswith(("runtime: ", "training_tool: "))]


def test_a_later_rate_wished_for_stays_the_target() -> None:
    # zh18-039 (rknn-llm#255): a report of 5 tokens/s on CPU, then 'if 16B-A3B could get close to 10 tokens/s'
    p = parse(
        "已经有 CPU 跑 w4a16 的 30B-A3B 大概 5 tokens/s 的报告，16B-A3B 如果能接近 10 tokens/s 就有实际意义。"
    )
    assert p.request.target_tokens_per_s == 10
    assert ("5 tokens/s", "observed") in p.unused_numbers
