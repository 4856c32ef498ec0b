"""The unknown-tool axis stress set (tests/data/axes/tool_{zh,en}.json, s19-audit: first-contact fault kind A
of rounds 9–12, tests/data/real_questions/README.md): the work two-thirds stay understood at least as well as
after bot/parse/tool_slots.py, and the frozen third is the one frozen before it (scored for totals only)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.parse.tool_slots import slot_tools
from bot.parse.unknown_tools import _known, in_tool_place
from tests.axes import DATA, frozen_digest, records
from tests.real_questions import answer_json, score

WORK_FLOOR = 14
"""Work records understood in full after s19-audit's reader (of 16; 1 at the freeze). The two left are plain
English words that are also tools' names ('via candle', 'picotron pretraining run'): no shape tells them."""


def test_frozen_third_is_unchanged() -> None:
    stored = Path(DATA / "frozen_tool.sha256").read_text().strip()
    assert frozen_digest("tool") == stored


def test_work_split_floor() -> None:
    work = records("tool", "work")
    assert len(work) == 16
    full = sum(not score(r, answer_json(r["text"])) for r in work)
    assert full >= WORK_FLOOR


@pytest.mark.parametrize(
    ("text", "names"),
    [
        # round 12's first-contact misses (zh12-036, en12-027's kind): a name in a tool's place
        ("我机器是 4 个 RTX4090 24G，用 Lvllm 示例的 2x3090 启动命令起不来", ["Lvllm"]),
        ("DB-GPT 里跑 Qwen-14B-Chat 推理，两张 3090 能跑吗？", ["DB-GPT"]),
        ("fengshenbang 的框架全参微调 Ziya-LLaMA-13B，8 卡 V100 32G", ["fengshenbang"]),
        ("My team's trainer is OLMo-core; full pre-training of a 7B on 64 H100", ["OLMo-core"]),
        ("ipex-llm on a single A10 serving llama-2-13b in int4, does it fit?", ["ipex-llm"]),
        ("DistServe deployment of Llama-2-70B on 8 A100 80GB", ["DistServe"]),
        # no tool: a card, a format, a model's release, a fork of a known engine, a script, a shell
        ("用 A100 训练 7B，bf16", []),
        ("vllm-ascend 部署 Qwen3-VL-8B，8 张 910B", []),
        ("用 python 跑 finetune.py 微调 internvl2.5", []),
        ("Fine-tuning with multi-gpu training on 4x A100 in bfloat16", []),
    ],
)
def test_tool_places(text: str, names: list[str]) -> None:
    assert slot_tools(text, _known, in_tool_place) == names
