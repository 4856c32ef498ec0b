"""Session 32 fixb: sentences of our own, never corpus records, in both languages."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.renderer import render

# -- the gradient accumulation asked with no model: the formula on their figures (bot.core.accumulation) --

ACCUM_NO_MODEL = [
    (
        "batch size 256 on 4 A100, how much gradient accumulation?",
        256,
        4,
        ((1, 64), (2, 32), (4, 16), (8, 8)),
    ),
    ("global batch 512 on 8 H100, what gradient_accumulation_steps should I use?", 512, 8, ((1, 64), (8, 8))),
    ("4 张 A100 全局 batch 256，梯度累积设多少", 256, 4, ((1, 64), (8, 8))),
    ("8 卡 H800，global batch 1024，梯度累积要设几", 1024, 8, ((1, 128), (8, 16))),
]


@pytest.mark.parametrize(("text", "batch", "gpus", "rows"), ACCUM_NO_MODEL)
def test_accumulation_without_model_is_the_formula(text: str, batch: int, gpus: int, rows: tuple) -> None:
    result = answer(text)
    assert result.report is None  # before: a GPU-hour price (en) or the help (zh)
    acc = result.accumulation
    assert acc is not None and (acc.global_batch, acc.gpus) == (batch, gpus)
    for row in rows:
        assert row in acc.rows
    reply = render(result, "text")
    assert f"{batch}" in reply and ("micro-batch" in reply or "微批次" in reply)
    assert "$" not in reply and "GPU-hours" not in reply


def test_accumulation_with_model_is_sized() -> None:
    result = answer("batch size 256 for Qwen2.5-7B full fine-tune on 4 A100, how much gradient accumulation?")
    assert result.accumulation is None and result.report is not None
    assert "× 64 accumulation × DP 4" in render(result, "text")
