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
