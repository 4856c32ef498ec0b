"""Trial s16 #7: machines named with their card, then each machine's cards ('两台 H20 每台 8 卡'): 2 × 8
= 16 GPUs, 8 per machine, and the 8 is used (it was named 'not used … 使用的是 两' while 16 were sized)."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


@pytest.mark.parametrize(
    ("question", "count"),
    [
        ("用 SGLang 部署 DeepSeek-V3 FP8，两台 H20 每台 8 卡，128K 上下文，能撑多少并发？", 16),
        ("用 SGLang 部署 DeepSeek-V3 FP8，2台H20，每台8卡，128K 上下文，能撑多少并发？", 16),
        ("用 SGLang 部署 DeepSeek-V3 FP8，两台 H20 机器，每台 8 张卡，能撑多少并发？", 16),
        ("全参微调 Qwen2.5-14B，三个节点 A800，每个节点 8 张卡，5 亿 token，要多久？", 24),
        ("Serve DeepSeek-V3 FP8 with SGLang on two H20 nodes with 8 GPUs each, 128K context. How many?", 16),
    ],
)
def test_machines_times_cards_each(capsys, question, count):
    main(["ask", "--format", "json", question])
    d = json.loads(capsys.readouterr().out)
    assert (d["request"]["gpu_count"], d["request"]["gpus_per_node"]) == (count, 8)
    assert d["interpretation"]["ignored"] == []
