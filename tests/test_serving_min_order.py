"""T22 item 5 (issue 22 item 5 for serving), through the CLI: with the example offer's whole-node
minimum order, a service sized on 1 × H800 says in its headline and its cost line what is billed —
8 GPUs, CN¥102,400 per month — as the offer lines do (was: "1 × H800" and "CN¥12,800 per month" while
only the offer line said "billed for 8 GPUs, CN¥102,400 per month")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli import main

EXAMPLE = Path(__file__).resolve().parent.parent / "presales.example.toml"


def ask(capsys, question: str) -> list[str]:
    assert main(["ask", "--presales", str(EXAMPLE), question]) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize(
    ("question", "head", "cost"),
    [
        (
            "Serve Qwen2.5-7B for 16 users",
            "Qwen2.5 7B bf16 inference: 1 × H800 (TP=1); minimum order one 8-GPU node: billed for 8 GPUs, "
            "CN¥102,400 per month",
            # CN¥19.71 before issue 25's fitted serving efficiencies (bandwidth share 0.7 → 0.5)
            "• Cost: CN¥27.59 per million output tokens at 16 concurrent; CN¥102,400 per month",
        ),
        (
            "部署Qwen2.5-7B，16并发",
            "Qwen2.5 7B bf16 推理：需要 1 张 H800（TP=1）；起租 1 台 8 卡：按 8 张计费，每月 ¥102,400",
            "• 费用：16 条并发时每百万输出 token ¥27.59；每月 ¥102,400",
        ),
    ],
)
def test_a_services_headline_and_cost_follow_the_minimum_order(
    capsys, question: str, head: str, cost: str
) -> None:
    lines = ask(capsys, question)
    assert lines[0] == head
    assert cost in lines
    assert not any("12,800 per month" in ln or "每月 ¥12,800" in ln for ln in lines)
    # the offer's own line says the same money
    assert any(
        re.search(r"(billed for 8 GPUs, CN¥102,400 per month|按 8 张计费，每月 ¥102,400)", ln)
        for ln in lines[1:]
    )


def test_a_cost_question_names_the_order_once(capsys) -> None:
    first = ask(capsys, "部署Qwen2.5-14B，16并发，每月多少钱")[0]
    assert first.count("¥102,400") == 1
    assert "起租 1 台 8 卡：按需 1 张，按 8 张计费；每月 ¥102,400；" in first
