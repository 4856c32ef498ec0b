"""A release id with a precision suffix (s20-fixb item 10): 'Kimi-K2.6-NVFP4', 'Qwen3-235B-A22B-FP8',
'gpt-oss-120b-MXFP4' — the model and its weight precision from the id; a version the catalog lacks kept as
typed ('Kimi-K2.6'), never swapped for Kimi-K2 nor dropped (before, 'Kimi-K2.6-NVFP4' was neither sized
nor named and the help text answered). Sentences of our own."""

from __future__ import annotations

import pytest

from bot.core.pipeline import Context, answer
from bot.render.renderer import render
from tests.real_questions import answer_json


@pytest.mark.parametrize(
    ("text", "model", "unknown", "precision"),
    [
        ("Serve Kimi-K2.6-NVFP4 on 8 B200", None, "Kimi-K2.6-NVFP4", "nvfp4"),
        ("部署 Kimi-K2.6-NVFP4，8 张 B200", None, "Kimi-K2.6-NVFP4", "nvfp4"),
        ("Serve nvidia/Kimi-K2.6-NVFP4 on 8 B200", None, "Kimi-K2.6-NVFP4", "nvfp4"),
        ("Serve Kimi-K2.6-FP8 on 8 H200", None, "Kimi-K2.6-FP8", "fp8"),
        ("Qwen3-235B-A22B-FP8 on 8 H100 with vLLM", "Qwen3-235B-A22B", None, "fp8"),
        ("用 vLLM 部署 Qwen3-235B-A22B-FP8，8 张 H100", "Qwen3-235B-A22B", None, "fp8"),
        ("gpt-oss-120b-MXFP4 on one H100", "gpt-oss-120b", None, "mxfp4"),
        ("Serve DeepSeek-V3.1-NVFP4 on 8 B200", "DeepSeek-V3.1", None, "nvfp4"),
        ("Qwen3-30B-A3B-FP8-dynamic on one H100", "Qwen3-30B-A3B", None, "fp8"),
    ],
)
def test_the_model_and_its_precision_from_the_id(
    text: str, model: str | None, unknown: str | None, precision: str
) -> None:
    data = answer_json(text)
    assert data["request"]["model"] == model
    assert data["interpretation"]["unknown_model"] == unknown
    assert data["request"]["precision"] == precision


def test_an_unknown_version_is_named_not_swapped() -> None:
    text = render(answer("Serve Kimi-K2.6-NVFP4 on 8 B200", Context()), "text")
    # s48 names: named whole as typed, its format suffix too (was: 'Kimi-K2.6-NVFP4' not in the first line)
    assert "“Kimi-K2.6-NVFP4”" in text.split("\n")[0]
    assert not text.startswith("I estimate")  # never the help text
