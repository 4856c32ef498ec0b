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
