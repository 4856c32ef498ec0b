"""Issue 24, a fresh-user trial of the parser (part s7-tfix): every number and setting stated is used or
named as not used. Through the CLI (``sizing-bot ask``), in both languages: the trial's own inputs and
phrasings written for these tests."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import main


def ask(capsys: pytest.CaptureFixture[str], text: str, fmt: str = "json") -> Any:
    code = main(["ask", "--format", fmt, text])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out) if fmt == "json" else out


def ignored(data: dict[str, Any]) -> dict[str, str]:
    return {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}


# 1. a stated card memory after a count: the modified 48 GB 4090 is per card, not 2 × 24 GB


@pytest.mark.parametrize(
    "text",
    [
        "想用LLaMA-Factory对Qwen3-32B做qlora，4bit，rank 64，2张4090 48G够不够",
        "qwen3-32b serve on 2x 4090 48GB vllm 32 users",
        "三张4090 48G 部署 qwen3-32b 行不行",
        "Can 4 RTX 4090 48GB cards LoRA-tune Qwen3-14B?",
    ],
)
def test_a_modified_cards_memory_after_a_count_is_per_card(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    data = ask(capsys, text)
    assert data["request"]["gpu_memory_gib"] == 48
    assert data["report"]["hardware"]["memory_gib"] == 48
    assert data["request"]["gpu_count"] in (2, 3, 4)
    assert "48G" in ask(capsys, text, "plain").splitlines()[0]


# 2. a memory belongs to the card it is written beside; a card sized at a stated memory keeps its name


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("预训练13B 9T token，A100 40G 对比 H100 和 H800", "H100 80G："),
        ("pretrain 13B on 9T tokens: A100 40G versus H100 and H800", "H100 80G:"),
    ],
)
def test_a_stated_memory_is_not_copied_onto_the_other_cards(
    capsys: pytest.CaptureFixture[str], text: str, line: str
) -> None:
    data = ask(capsys, text)
    hardware = data["report"]["hardware"]
    sized = {hardware["id"], *(c["gpu"] for c in data["report"]["comparisons"])}
    assert sized == {"A100-SXM4-40GB", "H100-SXM5-80GB", "H800-SXM5-80GB"}
    assert hardware["memory_gib"] == (40 if hardware["id"] == "A100-SXM4-40GB" else 80)
    reply = ask(capsys, text, "plain")
    assert line in reply
    assert "H100 40G" not in reply and "H800 40G" not in reply


@pytest.mark.parametrize(
    ("text", "gpu", "memory", "name"),
    [
        ("pretrain 13B on 9T tokens on H800 40G", "H800-SXM5-80GB", 40, "H800 40G"),
        ("2张 H20 141G 部署 qwen3-235b", "H20-96GB", 141, "H20 141G"),
        ("two H20 141GB cards serving Qwen3-235B: enough?", "H20-96GB", 141, "H20 141G"),
    ],
)
def test_a_card_at_a_stated_memory_is_named_never_by_a_made_up_id(
    capsys: pytest.CaptureFixture[str], text: str, gpu: str, memory: float, name: str
) -> None:
    data = ask(capsys, text)
    assert data["request"]["gpu"] == gpu
    assert data["request"]["gpu_memory_gib"] == memory
    assert data["report"]["hardware"]["memory_gib"] == memory
    assert {a["field"]: a["value"] for a in data["assumptions"]}["gpu"] == name
    reply = ask(capsys, text, "plain")
    assert f"{gpu}-{memory}GB" not in reply and name in reply


# 3. context lengths in any order of their words; '32k requests' in serving is each request's length


@pytest.mark.parametrize(
    ("text", "seq"),
    [
        ("ollama跑qwen3 30b-a3b q4，一张4090够不够，上下文要128k", 131_072),
        ("vllm 部署 qwen3-32b 两张 H100，上下文长度需要 64k", 65_536),
        ("serve qwen3-8b on one H100, context window is 32k", 32_768),
        ("qwen3-8b on one H100, how many concurrent 32k requests", 32_768),
        ("Llama-3.1-8B on an L40S: 100 users sending 16k requests", 16_384),
        ("serve qwen3-8b on H100 with 32k tokens each for 10 users", 32_768),
        ("一张 H100 部署 qwen3-8b，10 个用户，每个请求 32k tokens", 32_768),
    ],
)
def test_a_context_length_in_any_phrasing_is_the_context(
    capsys: pytest.CaptureFixture[str], text: str, seq: int
) -> None:
    data = ask(capsys, text)
    assert data["request"]["stage"] == "inference"
    assert data["request"]["seq_len"] == seq
    # s31: '100 users' is used as the load, said with its head-count reading (users_at_once)
    assert [i for i in data["interpretation"]["ignored"] if i["reason"] != "users_at_once"] == []


def test_requests_per_day_are_not_a_context(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "serve qwen3-8b on one H100 for 2k requests per day")
    assert data["request"]["seq_len"] != 2048


# 4. a count written after the card


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("RTX 5090 x4 能不能全参微调 qwen3-8b", "RTX-5090", 4),
        ("Biren BR100 64GB x16 serve qwen3-32b", "Biren BR100", 16),
        ("A100 ×8 部署 qwen3-235b 够吗", "A100-SXM4-80GB", 8),
        ("can H100 * 8 full fine-tune llama-3-70b", "H100-SXM5-80GB", 8),
        ("RTX 5090 4张 能不能全参微调 qwen3-8b", "RTX-5090", 4),
    ],
)
def test_a_count_after_the_card_is_the_count(
    capsys: pytest.CaptureFixture[str], text: str, gpu: str, count: int
) -> None:
    data = ask(capsys, text)
    assert data["request"]["gpu"] == gpu
    assert data["request"]["gpu_count"] == count
    assert data["interpretation"]["ignored"] == []


# 5. prompts counted in English as in Chinese; a question's 万 and the 8 of '几台8卡' are not unused


@pytest.mark.parametrize(
    ("text", "samples"),
    [
        ("GRPO qwen2.5-7b with 20k prompts on 8 H100", 20_000),
        ("GRPO of Qwen2.5-7B on 8 H100 with 20000 prompts: how long?", 20_000),
        ("qwen2.5-7b 做 GRPO，5k条prompt，8张H100", 5_000),
    ],
)
def test_prompts_in_a_training_question_are_counted(
    capsys: pytest.CaptureFixture[str], text: str, samples: int
) -> None:
    data = ask(capsys, text)
    assert data["request"]["algorithm"] == "grpo"
    assert data["request"]["num_samples"] == samples
    assert data["request"]["seq_len"] == 2048  # the default: 20k is no length
    assert data["interpretation"]["ignored"] == []


@pytest.mark.parametrize(
    "text",
    [
        "预训练7B 1T token 预算多少万",
        "预训练7B 1T token 要几台8卡 H100",
        "pretrain 7B on 1T tokens: how many 8-GPU nodes of H100?",
    ],
)
def test_a_question_word_and_the_gpus_per_node_are_not_unused(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    data = ask(capsys, text)
    assert data["request"]["params_total"] == 7e9 and data["request"]["tokens"] == 1e12
    assert data["interpretation"]["ignored"] == []
    reply = ask(capsys, text, "plain")
    assert "未使用" not in reply and "not used" not in reply


# 6. random characters: the help text and exit code 2, whatever name they spell by chance


def _noise(chars: str, seed: int) -> str:
    import random

    pick = random.Random(seed)
    return "".join(pick.choice(chars) for _ in range(10_000))


LOWER = "abcdefghijklmnopqrstuvwxyz0123456789  "  # 'r1' and '3b' by chance, short words
SPACED = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" + " " * 10


@pytest.mark.parametrize(
    ("chars", "seed", "lang", "help_line"),
    [
        (LOWER, 30, "zh", "我可以估算"),
        (LOWER, 30, "en", "I estimate"),
        (SPACED, 0, "zh", "我可以估算"),
        (SPACED, 1, "en", "I estimate"),
    ],
)
def test_random_letters_get_the_help_text(
    capsys: pytest.CaptureFixture[str], chars: str, seed: int, lang: str, help_line: str
) -> None:
    noise = _noise(chars, seed)
    assert main(["ask", "--lang", lang, "--format", "json", noise]) == 2
    data = json.loads(capsys.readouterr().out)
    assert data["understood"] is False and data["report"] is None
    assert data["request"]["model"] is None and data["request"]["params_total"] is None
    assert main(["ask", "--lang", lang, noise]) == 2
    assert help_line in capsys.readouterr().out
