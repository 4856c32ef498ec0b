"""Session 51, round 47 en (issue 24): a reader for what r47work en missed at its freeze, tested on
sentences of our own (must-read and must-not-misread), in both languages.

- ZeRO-Offload's stage in brackets right after its name ('ZeRO-Offload (stage 2, cpu_offload true …)',
  'ZeRO-Offload（stage 2，cpu_offload）') is the ZeRO stage (bot.parse.settings_patterns.ZERO_RE, as
  'ZeRO sharding (stage 2' already was); before, the 2 was left unread. ZeRO-Offload said with no stage, or
  a 'stage 2' of something else in a later sentence, sets none.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json


def _request(text: str) -> dict[str, Any]:
    return answer_json(text)["request"]


@pytest.mark.parametrize(
    ("text", "stage"),
    [
        ("With DeepSpeed ZeRO-Offload (stage 2, cpu_offload true, fp16) I fine-tune t5-3b on one 24GB "
         "RTX 3090. Will it fit?", 2),
        ("Full fine-tune of Llama-2-7B with ZeRO-Offload (stage 3) on one RTX 4090: how much CPU RAM?", 3),
        ("用 DeepSpeed ZeRO-Offload（stage 2，cpu_offload）在单张 3090 上全参微调 t5-3b，显存够吗？", 2),
        ("用 ZeRO-Offload（stage 3）在一张 4090 上全参微调 Llama-2-7B，要多少内存？", 3),
    ],
)  # fmt: skip
def test_zero_offload_stage_in_brackets_is_read(text: str, stage: int) -> None:
    assert _request(text)["zero_stage"] == stage


@pytest.mark.parametrize(
    "text",
    [
        "I fine-tune Llama-2-7B with ZeRO-Offload on 2 GPUs (A100 40GB), how long for 1B tokens?",
        "I fine-tune Llama-2-7B with ZeRO-Offload. Stage 2 of my plan is serving it on 4 GPUs.",
        "用 ZeRO-Offload 在 2 张 A100 40G 上全参微调 Llama-2-7B，需要多久？",
    ],
)
def test_zero_offload_without_its_stage_sets_none(text: str) -> None:
    request = _request(text)
    assert request["zero_stage"] is None
    assert request["gpu_count"] in (2, 4)
