"""Session 39 review (s39-rev): fixes to this session's readers, each with sentences of our own
(must read and must not misread)."""

from __future__ import annotations

import json

import pytest

from bot.parse import parse
from tests.cli_run import ask_quietly


def _json(*args: str) -> dict:
    return json.loads(ask_quietly("--format", "json", *args))


# --- reward-model training: a reward model already trained, or one a policy trains against, is not the job --


@pytest.mark.parametrize(
    "text",
    [
        "I have a trained reward model; fine-tune Llama-3-8B with SFT on 8 A100, how long?",
        "I fine-tuned a reward model last week; now SFT Qwen2.5-7B on 4 A100",
        "train policy against a reward model, Llama-3-8B, 8 H100",
        "Fine-tune the actor via a reward model, Qwen2.5-7B on 8 A100",
    ],
)
def test_reward_model_not_trained(text: str) -> None:
    """Must-not-misread: the model trained is not a reward model (no scalar head, no pairs)."""
    assert not parse(text).request.reward_model


@pytest.mark.parametrize(
    "text",
    [
        "Train a reward model on Llama 3 8B with 1M pairs on 8 H100",
        "reward model training, Qwen2.5-7B, 4 A100",
        "We are training a reward model for Qwen2.5-7B on 8 A100",
        "训练一个 7B 奖励模型，100 万对偏好数据，8 张 A100 要多久",
        "奖励模型训练，Qwen2.5-7B，4 张 A100",
    ],
)
def test_reward_model_trained(text: str) -> None:
    """Must-read: a reward model is what is trained."""
    assert parse(text).request.reward_model


# --- bit widths with one unit, served: a row each (design §8), as '4-bit, 8-bit or 16-bit' has -----------


def _rows(text: str) -> tuple[list, list]:
    d = _json(text)
    return [r["value"] for r in d["report"]["per_value"]], d["interpretation"]["ignored"]


def _figures(text: str) -> list:
    return [{k: v for k, v in r.items() if k != "value"} for r in _json(text)["report"]["per_value"]]


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Serve Llama-3-8B, 4, 8 or 16-bit, on a 4090", ["int4", "int8", "fp16"]),
        ("Serve Llama-3-8B at 4 or 8 bit on a 3090", ["int4", "int8"]),
        ("Llama-3-8B 推理，4、8 或 16 位，一张 4090", ["int4", "int8", "fp16"]),
        ("部署 Llama-3-8B，用 4 或 8 位，一张 4090", ["int4", "int8"]),
    ],
)
def test_bit_widths_one_unit_rows(text: str, values: list) -> None:
    """Before: the widths after the first were named 'repeated' (not used) though '4-bit, 8-bit or 16-bit'
    got a row each; now the same rows."""
    rows, ignored = _rows(text)
    assert rows == values
    assert not [i for i in ignored if i["text"].startswith("precision")]


def test_bit_widths_one_unit_same_figures() -> None:
    """The rows of '4, 8 or 16-bit' are those of '4-bit, 8-bit or 16-bit' (the same three sizings)."""
    one = _figures("Serve Llama-3-8B, 4, 8 or 16-bit, on a 4090")
    each = _figures("Serve Llama-3-8B in 4-bit, 8-bit or 16-bit on a 4090")
    assert one == each and len(one) == 3


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama-3-8B with batch 4, 8-bit weights on a 4090",
        "Serve Qwen2.5-7B on 2 or 4 GPUs at 8-bit?",
        "Llama-3-8B 推理，并发 4，8 位量化，一张 4090",
    ],
)
def test_numbers_before_a_width_no_format_rows(text: str) -> None:
    """Must-not-misread: a batch, a count or a load before one width is no list of formats."""
    rows, _ = _rows(text)
    assert not any(isinstance(v, str) and v.startswith(("int", "fp")) for v in rows)


# --- a rate in a question asking why a speed is what it is: a speed seen, not the target ------------------


@pytest.mark.parametrize(
    ("text", "seen"),
    [
        ("Can you explain why I only get 20 tokens/s with Qwen2.5-7B on my 3090?", "20 tokens/s"),
        ("Could someone tell me why Llama-3-8B gets 15 tokens/s on a 4090?", "15 tokens/s"),
        ("为什么 Qwen2.5-7B 在 4090 上只有 20 tokens/s？", "20 tokens/s"),
    ],
)
def test_why_a_speed_is_seen(text: str, seen: str) -> None:
    """Before: the yes/no reader (round 35) or the default read the speed complained of as the target."""
    p = parse(text)
    assert p.request.target_tokens_per_s is None
    assert (seen, "observed") in p.unused_numbers


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("Can a 3060 reach 100 tokens/s with Qwen2.5-7B?", 100.0),
        ("Qwen2.5-7B 用 4090 每秒能到 35 个 token 吗", 35.0),
        ("Serve Llama-3-8B on a 4090 at 50 tokens/s", 50.0),
        ("I don't know why, but I need to reach 60 tokens/s with Llama-3-8B on a 4090", 60.0),
    ],
)
def test_speed_asked_stays_target(text: str, target: float) -> None:
    """Must-read: a speed asked for stays the target (a 'why' with 'need to reach' asks)."""
    assert parse(text).request.target_tokens_per_s == target
