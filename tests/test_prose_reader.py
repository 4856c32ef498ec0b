"""Issue 24, part U1: the prose reader — model names, card memory, counts, batch words, negation,
budgets and context lengths, each kind in both languages, through the CLI (``sizing-bot ask --format
json``). The sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import main


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    code = main(["ask", "--format", "json", text])
    data = json.loads(capsys.readouterr().out)
    assert code == 0, data
    return data


def unread(data: dict[str, Any]) -> list[str]:
    return [i["text"] for i in data["interpretation"]["ignored"] if i["reason"] == "unread"]


# (sentence, request fields it must give). Catalog memory: A100-SXM4-40GB 40 GiB, RTX-4090 24 GiB.
CARD_MEMORY = [
    (
        "两张 RTX 4090 24G 做 Qwen2.5-7B 的 LoRA 微调够吗",
        {"gpu": "RTX-4090", "gpu_count": 2, "gpu_memory_gib": 24},
    ),
    (
        "Can one RTX 4090 24GB LoRA-tune Qwen2.5-7B?",
        {"gpu": "RTX-4090", "gpu_count": 1, "gpu_memory_gib": 24},
    ),
    ("6 张 A100 40G 全参微调 Llama-3.1-8B", {"gpu": "A100-SXM4-40GB", "gpu_count": 6, "gpu_memory_gib": 40}),
    (
        "full fine-tune Llama-3.1-8B on 6x A100 40G each",
        {"gpu": "A100-SXM4-40GB", "gpu_count": 6, "gpu_memory_gib": 40},
    ),
    (
        "五台 A100 服务器（8×40G）预训练 13B 模型 500B token 要多久",
        {"gpu": "A100-SXM4-40GB", "gpu_count": 40, "gpu_memory_gib": 40},
    ),
    (
        "How long to pretrain a 13B on 500B tokens with 12 DGX-A100 (8X40G)?",
        {"gpu": "A100-SXM4-40GB", "gpu_count": 96, "gpu_memory_gib": 40},
    ),
    (
        "two H800 servers (8x80GB) to pretrain a 7B on 300B tokens",
        {"gpu": "H800-SXM5-80GB", "gpu_count": 16, "gpu_memory_gib": 80},
    ),
]


@pytest.mark.parametrize(("text", "want"), CARD_MEMORY)
def test_memory_beside_a_card_is_the_request_memory(
    capsys: pytest.CaptureFixture[str], text: str, want: dict[str, Any]
) -> None:
    data = ask(capsys, text)
    got = {k: data["request"][k] for k in want}
    assert got == want
    assert unread(data) == []  # the 8 and the 40 of "(8×40G)" are read, not left over
