"""The load axis read as people write it (issue 24, s17): serving load in words, keys and flags; the dataset's
size; the training batch written number first; a request rate used with its output; a load on average
beside its peak; an engine's cap alone said as used. Sentences of our own, not corpus records."""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json


def _request(text: str) -> dict[str, Any]:
    return answer_json(text)["request"]


def _named(text: str) -> dict[str, str]:
    return {i["text"]: i["reason"] for i in answer_json(text)["interpretation"]["ignored"]}


CONCURRENCY = [
    ("Qwen2.5-VL-7B 部署，请求并发度 12，vllm 要多少显存", 12),
    ("Yi-34B 推理，同时请求数 24，两张 A100 够吗", 24),
    ("lmdeploy 跑 internlm2-chat-7b，instance_num 设为 6，A10 24G 够不够", 6),
    ("ollama 跑 qwen2.5:14b，OLLAMA_NUM_PARALLEL=3，4090 显存够吗", 3),
    ("Ollama with OLLAMA_NUM_PARALLEL=6 and llama3.1:8b on one 3060 12GB, does it fit?", 6),
    ("Why only 3 tokens/s with 2 requests running on Mistral-7B under vLLM on a T4?", 2),
    ("Three hundred parallel requests to Llama-3-8B, how many L4s?", 300),
    ("a hundred and fifty concurrent users on Qwen2.5-7B, how many A10s?", 150),
]


@pytest.mark.parametrize(("text", "load"), CONCURRENCY)
def test_concurrency_words_keys_and_flags(text: str, load: int) -> None:
    assert _request(text)["concurrency"] == load


SAMPLES = [
    ("8k 数据 LoRA 微调 Qwen2.5-7B，单卡 A100 多久", 8000),
    ("GRPO 训练 Qwen2.5-3B，prompt 数 2 万，每个 prompt 采样 8 个，8 卡 H100 多久", 20000),
    (
        "swift rlhf --rlhf_type grpo --dataset AI-MO/NuminaMath-TIR#3000 --num_generations 8，"
        "Qwen2.5-7B 8 卡 A800",
        3000,
    ),
    ("1000 道数学题做 GRPO，Qwen2.5-1.5B，4 张 4090 要多久", 1000),
    ("GRPO on 12k math problems with 8 completions each, Qwen2.5-7B on 8 H100s: how long?", 12000),
    ("Half a million rows of chat data, LoRA on Llama-3-8B with 8 A100s: how long for one epoch?", 500000),
    ("finetune.py --sample 128 --micro_batch_size 16 on a 3090 with llama-7b: how long?", 128),
]


@pytest.mark.parametrize(("text", "samples"), SAMPLES)
def test_dataset_size(text: str, samples: int) -> None:
    assert _request(text)["num_samples"] == samples


BATCH = [
    ("有效 batch 256，单卡 batch 8，梯度累积 4，8 卡 H100 全参微调 Qwen2.5-7B", 8, 256),
    ("等效 batch 64，每卡 batch 2，梯度累积 8，4 卡 4090 LoRA 微调 Qwen2.5-7B", 2, 64),
    ("每张卡跑 4 条样本，梯度累积 4 步，一共 8 张 A800，全参微调 Llama-3-8B", 4, 128),
    ("Global batch 512 = 8 per device x 8 accumulation x 8 GPUs, full fine-tune Qwen2.5-7B on H100s", 8, 512),
    ("micro batch 2 per GPU, 16 accumulation steps, 8 A100s, SFT Llama-3-8B: memory?", 2, 256),
    ("Per-GPU batch 4, 8 grad accum steps, 4 H100s, LoRA Qwen2.5-14B", 4, 128),
]


@pytest.mark.parametrize(("text", "micro", "global_batch"), BATCH)
def test_batch_written_number_first(text: str, micro: int, global_batch: int) -> None:
    request = _request(text)
    assert (request["batch_size"], request["global_batch"]) == (micro, global_batch)


RATES = [
    ("部署 Qwen2.5-14B，QPS 4，每次输出 250 token，要几张 A100", 4, 1000.0),
    ("部署 GLM-4-9B，每秒 8 个请求，平均输出 100 token，要几张 L40S", 8, 800.0),
    ("12 requests per second, 300 output tokens each, Llama-3-8B on A10Gs: how many?", 12, 3600.0),
    ("We get QPS 3 with ~400 output tokens per reply; how many H100s for Qwen2.5-72B?", 3, 1200.0),
]


@pytest.mark.parametrize(("text", "rate", "tokens_per_s"), RATES)
def test_rate_with_output_is_used_and_said_so(text: str, rate: int, tokens_per_s: float) -> None:
    data = answer_json(text)
    assert data["request"]["target_tokens_per_s"] == tokens_per_s
    named = {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}
    said = next(t for t in named if t.startswith(f"qps: {rate} "))  # s18: '… = 1,000 tokens/s'
    assert named[said] == "rate_times_output"
    assert said.endswith(f"= {tokens_per_s:,.0f} tokens/s")
    assert str(rate) not in named  # never 'no word said what it is'


PEAKS = [
    ("60 on average, 250 at peak, Qwen2.5-32B, how many H100s?", 250, "60"),
    ("We expect about 80 users on average and 300 at peak. How many L40S for Qwen2.5-14B?", 300, "80"),
    ("50 avg, 200 peak concurrent users on Llama-3-70B: how many H100s?", 200, "50"),
    ("平时 30 并发，高峰 120 并发，Qwen2.5-14B 要几张 L20", 120, "30"),
    ("平均 50 个并发，峰值 200 并发，Qwen2.5-72B 要几张 H20", 200, "50"),
    ("日常 20 个并发，高峰 90，Qwen2.5-7B 要几张 4090", 90, "20"),
]


@pytest.mark.parametrize(("text", "peak", "average"), PEAKS)
def test_peak_sized_average_named(text: str, peak: int, average: str) -> None:
    data = answer_json(text)
    assert data["request"]["concurrency"] == peak
    named = {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}
    assert named.get(average) == "current_load"


CAPS = [
    ("Qwen2.5-7B 一张 4090 部署，vllm --max-num-seqs 48，显存够吗", "--max-num-seqs: 48"),
    ("vllm serve Llama-3.1-8B --max-num-seqs 24 on an L4: enough memory?", "--max-num-seqs: 24"),
    ("SGLang 部署 Qwen2.5-32B，--max-running-requests 40，两张 A100 够吗", "--max-running-requests: 40"),
]


@pytest.mark.parametrize(("text", "cap"), CAPS)
def test_cap_alone_said_as_used(text: str, cap: str) -> None:
    from bot.cli import ask
    from bot.core.ignored_reasons import USED_REASONS

    value = cap.split(": ")[1]
    named = _named(text)
    assert [r for t, r in named.items() if t.endswith(f": {value}")] == ["cap_only"], named
    assert "cap_only" in USED_REASONS
    reply = ask(text, None, "plain")[0]
    assert "Not used" not in reply and "未使用" not in reply


SAID_TWICE = [
    ("batchsize 已经到 1 了还是 OOM，ChatGLM3-6B 两张卡 LoRA", 1, None),
    ("batch size 降到 2 还是爆显存，Qwen2-7B LoRA 单卡 4090", 2, None),
    ("micro_batch_size 4 goes OOM; micro_batch_size 2 runs. LoRA Llama-3-8B on an A10G: expected?", 4, "2"),
    (
        "per_device_train_batch_size 8 OOMs, per_device_train_batch_size 4 works: full FT Qwen2.5-1.5B",
        8,
        "4",
    ),
    (
        "per_device_train_batch_size 2 会爆，per_device_train_batch_size 1 能跑，Qwen2.5-7B 全参微调 8 卡",
        2,
        "1",
    ),
]


@pytest.mark.parametrize(("text", "micro", "other"), SAID_TWICE)
def test_batch_said_with_its_verb_or_twice(text: str, micro: int, other: str | None) -> None:
    """'batchsize 已经到 1' is the micro-batch (before: unread); a second value of the same key is named
    as a second value, never unread, nor read as the global batch (its 'train_batch_size' tail)."""
    data = answer_json(text)
    assert data["request"]["batch_size"] == micro
    assert data["request"]["global_batch"] is None
    named = {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}
    if other is not None:
        assert named.get(f"batch_size: {other}") == "repeated"
    assert "unread" not in named.values()
