"""Session 43, fixread2 (issue 24 items 2 and 4): numbers dropped or misread.

Each reader is tested in both languages with sentences it must read and look-alike sentences it must not
misread. Values asserted are the ones the sentence states (the reader's job is to carry them, unchanged).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import ask


def _json(question: str) -> dict:
    out, _code = ask(question, None, "json")
    return json.loads(out)


def _request(question: str) -> dict:
    return _json(question)["request"]


def _ignored(question: str) -> list[str]:
    return [item["text"] for item in (_json(question).get("interpretation") or {}).get("ignored") or []]


# 1. A prompt length said with a hedge between the prompt word and the number ('a prompt of roughly 16,000
# tokens', 'prompt 大约 16000 个 token') is the prompt (input) length, sized; before, it was dropped and the
# context stayed at the 4K serving default.
PROMPT_HEDGED = (
    ("Serve Qwen2.5 7B on an L40S, a prompt of roughly 16,000 tokens", 16000, 16000),
    ("Serve Qwen2.5 7B on an L40S with prompts of approximately 12,000 tokens", 12000, 12000),
    ("部署 Qwen2.5 7B 在 L40S 上，prompt 大约 16000 个 token", 16000, 16000),
    ("部署 Qwen2.5 7B 在 L40S 上，输入差不多 12000 个 token", 12000, 12000),
    # with the reply beside it: the sequence is prompt + reply
    (
        "Serve Qwen2.5 7B on an L40S, prompts of roughly 8,000 tokens and replies of about 500 tokens",
        8500,
        8000,
    ),
    ("部署 Qwen2.5 7B 在 L40S 上，输入大约 8000 个 token，输出将近 500 个 token", 8500, 8000),
)


@pytest.mark.parametrize(("question", "seq", "prompt"), PROMPT_HEDGED)
def test_hedged_prompt_length_is_read(question: str, seq: int, prompt: int) -> None:
    req = _request(question)
    assert (req["seq_len"], req["prompt_tokens"]) == (seq, prompt)


PROMPT_NOT = (
    # tokens of training data stay data, not a prompt
    ("Fine-tune Qwen2.5 7B on an L40S on roughly 16,000 tokens of data", "tokens", 16000),
    ("在 L40S 上微调 Qwen2.5 7B，数据大约 16000 个 token", "tokens", 16000),
)


@pytest.mark.parametrize(("question", "key", "value"), PROMPT_NOT)
def test_hedged_data_tokens_are_not_a_prompt(question: str, key: str, value: int) -> None:
    req = _request(question)
    assert req[key] == value
    assert req["prompt_tokens"] is None


@pytest.mark.parametrize(
    "question",
    ("Serve Qwen2.5 7B on an L40S, roughly 16000 tokens", "部署 Qwen2.5 7B 在 L40S 上，大约 16000 个 token"),
)
def test_tokens_without_a_prompt_word_are_not_a_prompt(question: str) -> None:
    """No prompt word: the number is not taken as the prompt; it is named as not read (never silent)."""
    assert _request(question)["prompt_tokens"] is None
    assert "16000" in _ignored(question)


# 2. Scientific notation is one number: a value below one after a hyperparameter's name ('a learning rate of
# 1e-8', 'learning rate is 2e-05', 'eps 1e-8') is that setting, named as not sized; 'Xe+N' is the plain number
# ('2.5e+3 steps' are 2,500 steps; before, 3).
HYPER_SCI = (
    (
        "Training Llama 3 8B on 8 A100s with a learning rate of 1e-8, 3 epochs of 1B tokens: how long?",
        "learning_rate: 1e-8",
    ),
    ("Fine-tune Llama 3 8B on 4 H100, learning rate is 2e-05", "learning_rate: 2e-05"),
    ("Full fine-tune Llama 3 8B on 8 A100s; lr: 2e-5; eps 1e-8", "adam_epsilon: 1e-8"),
    ("Full fine-tune Llama 3 8B on 8 A100s, weight decay of 1.5e-4", "weight_decay: 1.5e-4"),
    (
        "我在 8 张 A100 上训练 Llama 3 8B，学习率设成 1e-8，3 个 epoch 1B token 要多久？",
        "learning_rate: 1e-8",
    ),
    ("8 卡 H100 微调 Llama 3 8B，epsilon 设为 1e-8，2 个 epoch", "adam_epsilon: 1e-8"),
    ("用 4 张 A100 全量微调 Qwen2.5 7B，学习率 5E-4", "learning_rate: 5e-4"),
)


@pytest.mark.parametrize(("question", "named"), HYPER_SCI)
def test_scientific_hyperparameter_is_one_named_value(question: str, named: str) -> None:
    answer = _json(question)
    ignored = [item["text"] for item in answer["interpretation"]["ignored"]]
    assert named in ignored
    req = answer["request"]
    assert req["gpu_count"] in (4, 8)  # the cards stated, not the exponent nor the mantissa
    assert req["epochs"] in (None, 1, 2, 3)


@pytest.mark.parametrize(
    "question",
    ("Fine-tune Llama 3 8B on 4 H100 with 2.5e+3 steps", "在 4 张 H100 上训练 Llama 3 8B，2.5E+3 步"),
)
def test_positive_exponent_is_the_plain_number(question: str) -> None:
    """2,500 steps × the default global batch 128 × 2,048 tokens = 655,360,000 tokens (before: 3 steps)."""
    assert _request(question)["tokens"] == 2500 * 128 * 2048


@pytest.mark.parametrize(
    "question", ("Fine-tune Llama 3 8B on 4 H100 for 500 steps", "在 4 张 H100 上训练 Llama 3 8B，500 步")
)
def test_steps_without_exponent_unchanged(question: str) -> None:
    """Not scientific notation, and 'steps' is no epsilon: 500 steps stay 500 steps."""
    answer = _json(question)
    assert answer["request"]["tokens"] == 500 * 128 * 2048
    assert not any("epsilon" in item["text"] for item in answer["interpretation"]["ignored"])


# 3. A product in brackets after a count that equals it is the count's shape, never a second count: before
# cards it is nodes × cards each; before no card it is a note (the factors named as the count said again).
SHAPE_CARDS = (
    ("Pretrain Llama 3 70B on 1024 (32x32) H100 GPUs with 2T tokens", 1024, 32),
    ("Pretrain Llama 3 70B on 64 (8*8) V100s with 100B tokens", 64, 8),  # round 39's reader, kept
    ("Pretrain Llama 3 70B on 1024 H100s (128 nodes x 8), 2T tokens", 1024, 8),
    ("Pretrain Llama 3 70B on 16 A100 (2x8), 100B tokens", 16, 8),
    ("用 1024 (32x32) 张 H100 预训练 70B 模型，2T token", 1024, 32),
    ("用 16 张 A100（2x8）预训练 Llama 3 70B，100B token", 16, 8),
)


@pytest.mark.parametrize(("question", "count", "per_node"), SHAPE_CARDS)
def test_bracket_product_before_or_after_cards_is_the_layout(
    question: str, count: int, per_node: int
) -> None:
    answer = _json(question)
    req = answer["request"]
    assert (req["gpu_count"], req["gpus_per_node"]) == (count, per_node)
    assert answer["interpretation"]["ignored"] == []


NOTE_NO_CARD = (
    ("Serve Llama 3 70B with batch 1024 (32x32) on 8 H100", "batch_size", 1024),
    ("Train Llama 3 8B on 8 H100 with global batch 1024 (32x32), 1B tokens", "global_batch", 1024),
    ("在 8 张 H100 上部署 Llama 3 70B，batch 1024 (32x32)", "batch_size", 1024),
    ("在 8 张 H100 上训练 Llama 3 8B，global batch 1024 (32x32)，1B token", "global_batch", 1024),
)


@pytest.mark.parametrize(("question", "key", "value"), NOTE_NO_CARD)
def test_bracket_product_after_a_non_card_count_is_a_note(question: str, key: str, value: int) -> None:
    """Before: '32x32 … on 8 H100' sized 32 GPUs, or '32' was taken as the card's memory (32 GB)."""
    answer = _json(question)
    req = answer["request"]
    assert (req["gpu_count"], req[key], req["gpu_memory_gib"]) == (8, value, None)
    assert {"text": "32", "reason": "repeated"} in answer["interpretation"]["ignored"]


@pytest.mark.parametrize(
    "question",
    (
        "Train Llama 3 8B on 8 H100 with global batch 1024 (32x16), 1B tokens",
        "在 8 张 H100 上训练 Llama 3 8B，global batch 1024 (32x16)，1B token",
    ),
)
def test_bracket_product_not_equal_is_not_a_note(question: str) -> None:
    """32 × 16 = 512 ≠ 1024: not the count's shape; the cards stay 8."""
    answer = _json(question)
    assert answer["request"]["gpu_count"] == 8
    assert not any(item["reason"] == "repeated" for item in answer["interpretation"]["ignored"])


# 4. A timed run ('generates 128 tokens in 3 s') is an observed speed, 128 / 3 = 42.67 tokens/s, named with
# its time as observed (before: the time was unread, and in Chinese token-first forms the run named nothing).
TIMED = (
    "My Qwen2.5 7B on an A10G generates 128 tokens in 3 s; is that normal?",
    "Qwen2.5 7B on an A10G took 3 s to generate 128 tokens. Is this expected?",
    "Qwen2.5 7B 在 A10G 上 3 秒生成 128 个 token，正常吗？",
    "Qwen2.5 7B 在 A10G 上生成 128 个 token 要 3 秒，换 L40S 会多快？",
    "用 vLLM 在一张 4090 上跑 Llama 3 8B，128 个 token 用了 3 秒，能支持多少并发？",
)


@pytest.mark.parametrize("question", TIMED)
def test_timed_run_is_an_observed_speed(question: str) -> None:
    ignored = _json(question)["interpretation"]["ignored"]
    assert {"text": "42.67 tok/s", "reason": "observed"} in ignored
    assert {"text": "3", "reason": "observed"} in ignored
    assert not any(item["reason"] == "unread" for item in ignored)


@pytest.mark.parametrize(
    "question",
    (
        "My Qwen2.5 7B on an A10G generates 128 tokens in 3 s (~40 tok/s); is that normal?",
        "Qwen2.5 7B 在 A10G 上 3 秒生成 128 个 token（约 40 tok/s），正常吗？",
    ),
)
def test_timed_run_with_its_own_rate_keeps_the_users_rate(question: str) -> None:
    """The message states its rate: that one is named, none is computed."""
    texts = [item["text"] for item in _json(question)["interpretation"]["ignored"]]
    assert "40 tok/s" in texts
    assert "42.67 tok/s" not in texts


@pytest.mark.parametrize(
    "question",
    (
        "Qwen2.5 7B on an A10G: 256 tokens in 3.14 s, 417 tokens in 4.41 s. Normal?",
        "Train Llama 3 8B on 8 A100, 4096 tokens in 3 s per step, 1B tokens: how long?",
        "在 8 张 A100 上训练 Llama 3 8B，每步 3 秒，1B token 要多久？",
        "Qwen2.5 7B 在 A10G 上，3.14 秒生成 256 个 token，4.41 秒生成 417 个 token，正常吗？",
    ),
)
def test_several_runs_or_a_step_time_compute_no_speed(question: str) -> None:
    """Several timings are several runs, a step's time is no decode speed: no rate is computed."""
    texts = [item["text"] for item in _json(question)["interpretation"]["ignored"]]
    assert not any("tok/s" in t for t in texts)


# 5. Round 39's English working misses, the general kinds: an engine's name glued to a deployment class
# (Ray Serve LLM's 'vLLMDeployment', en39-036) and llama.cpp's 'N/M layers' on counted GPUs (en39-013).
@pytest.mark.parametrize(
    "question",
    (
        "Ray Serve LLM's vLLMDeployment with Qwen/Qwen2.5-0.5B-Instruct, MAX_CONCURRENCY=256: throughput?",
        "用 Ray Serve 的 vLLMDeployment 部署 Qwen2.5-0.5B-Instruct，并发 256，吞吐能到多少？",
        "My VLLMService serves Qwen2.5 7B on one A100 at 64 concurrent requests: how many tokens/s?",
    ),
)
def test_engine_inside_a_deployment_class_is_the_runtime(question: str) -> None:
    assert _request(question)["runtime"] == "vLLM"


@pytest.mark.parametrize(
    "question",
    (
        "Serve Qwen2.5 7B on one A100 with our deployment service at 64 concurrent requests",
        "用我们的 deployment service 在一张 A100 上部署 Qwen2.5 7B，并发 64",
    ),
)
def test_a_deployment_word_alone_names_no_engine(question: str) -> None:
    assert _request(question)["runtime"] is None


@pytest.mark.parametrize(
    ("question", "layers", "count"),
    (
        (
            "In Ollama, Llama 3 70B fails with all 81/81 layers on my two GPUs: how much VRAM at 24k?",
            81,
            2,
        ),
        (
            "llama.cpp with Llama 3 70B Q4_K_M, 40 layers on my two GPUs, the rest on the CPU: how fast?",
            40,
            2,
        ),
        ("用 llama.cpp 在两张 4090 上跑 Llama 3 70B Q4_K_M，81/81 层都放显卡会 OOM 吗？", 81, 2),
        ("用 llama.cpp 在一张 4090 上跑 Llama 3 70B Q4_K_M，40 层放显卡，速度多少？", 40, 1),
    ),
)
def test_layers_on_counted_gpus(question: str, layers: int, count: int) -> None:
    """The layers on the GPUs, and the cards' count kept (not taken into the layer phrase)."""
    req = _request(question)
    assert (req["gpu_layers"], req["gpu_count"]) == (layers, count)
