"""Session 42 zhleft (issue 24, docs/design.md §8): stated things round 38's parts still dropped, each tested
in both languages on sentences of our own, the must-read and the must-not-misread.

1. The reply that sized nothing (an unknown model's size, the help) names every not-used item of its
   interpretation as the sized replies do (bot.render.understood.help_not_used), in every format: the JSON
   named 'A100 (40 GB)' (``card_unsized``) while the text said nothing of it.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.parse import parse
from tests.real_questions import answer_json


def _req(text: str) -> Any:
    return parse(text).request


def _ignored(text: str) -> list[tuple[str, str]]:
    items = (answer_json(text).get("interpretation") or {}).get("ignored") or []
    return [(i["text"], i["reason"]) for i in items]


def _reply(question: str, fmt: str) -> str:
    from bot.core.pipeline import answer
    from bot.render.renderer import render

    return render(answer(question), fmt)


# 1. nothing sized: the not-used items in the text, every format
@pytest.mark.parametrize("fmt", ["telegram_html", "markdown", "plain"])
@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("如果我用 910B 训练 VideoMind，训练时间大概多久？能用 NVIDIA A100 40G 训练吗？",
         "未使用：“A100 (40 GB)”"),
        ("I train FooNet on an Ascend 910B, how long will it take? Could I train it on an A100 40G instead?",
         "Not used: “A100 (40 GB)”"),
    ],
)  # fmt: skip
def test_the_help_names_the_cards_not_sized(text: str, said: str, fmt: str) -> None:
    assert said in _reply(text, fmt).replace("&quot;", "“")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("几十万条数据微调要几张卡", "未使用：“几十万”"),  # the rough amount: as before
        ("用 A100 40G 训练 FooBarNet-13X 要多久", None),  # one card, the one asked about: nothing unused
        ("How long to train FooBarNet-13X on an A100 40G?", None),
    ],
)
def test_the_help_names_only_what_was_not_used(text: str, said: str | None) -> None:
    reply = _reply(text, "plain")
    if said is None:
        assert "Not used" not in reply and "未使用" not in reply
    else:
        assert said in reply


# 5. a package's version is one version: never a figure read apart ('0.12' of 'peft 0.12.0.')
@pytest.mark.parametrize(
    "text",
    [
        "pip list: torch 2.4.0, transformers 4.45.2, peft 0.12.0. LoRA Qwen2.5-7B on one 4090: memory?",
        "Installed foolib==1.13 and vllm==0.6.3; serving Qwen2.5-7B on 2 A100s at 100 concurrent: enough?",
        "装了 foolib==1.13 和 vllm==0.6.3，用 2 张 A100 部署 Qwen2.5-7B，100 并发够吗？",
        "环境 transformer-engine 1.13，torch 2.5.1。FP8 训练 Qwen2.5-7B，8 张 H100，1B token 要多久？",
    ],
)
def test_a_package_version_is_no_figure(text: str) -> None:
    assert not [t for t, why in _ignored(text) if why == "unread"]


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("Training Qwen2.5-7B with transformers 4.45.2. 8 A100s, 1B tokens: how long?",
         "transformers_version", "4.45.2"),
        ("训练 Qwen2.5-7B，transformers==4.45.2，8 张 A100，1B token 要多久？",
         "transformers_version", "4.45.2"),
        ("装了 foolib==1.13 和 vllm==0.6.3，用 2 张 A100 部署 Qwen2.5-7B，100 并发够吗？",
         "vllm_version", "0.6.3"),
    ],
)  # fmt: skip
def test_a_version_the_estimate_uses_is_read_whole(text: str, field: str, value: str) -> None:
    assert getattr(_req(text), field) == value


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("训练 Qwen2.5-7B，transformers==4.45.2，mfu 0.4，8 张 A100，1B token 要多久？", "mfu", 0.4),
        ("Training Qwen2.5-7B at MFU 0.4 with torch 2.4.0. 8 A100s, 1B tokens: how long?", "mfu", 0.4),
        ("训练 Qwen2.5-7B，torch==2.4，8 张 A100，1B token 要多久？", "gpu_count", 8),
    ],
)  # fmt: skip
def test_a_setting_beside_a_version_stays_a_setting(text: str, field: str, value: float) -> None:
    assert getattr(_req(text), field) == pytest.approx(value, rel=0.01)
