"""s36-cin: the merged tree's failing tests, fixed (the brief's items)."""

from __future__ import annotations

import pytest

from bot.parse import parse
from bot.parse.unknown_tools import model_shaped
from bot.parse.value_list import lists_numbers


@pytest.mark.parametrize(
    ("question", "unknown"),
    [
        ("用 ChatGLM-Tuning 微调，显存不够", None),  # a tool named after the family (its '-tuning')
        ("用 Qwen-Agent 部署，4090 够吗", None),
        ("fine-tune with ChatGLM-Tuning on a 3090", None),
        ("用 cogvlm-chat-hf 推理，4090 够吗", "cogvlm-chat-hf"),  # a model part: the model
        ("用 CogVLM 推理，4090 够吗", "CogVLM"),
        ("用 MiniCPM-V 推理", "MiniCPM-V"),
    ],
)
def test_a_tool_named_after_a_family_in_the_means_slot(question: str, unknown: str | None) -> None:
    assert parse(question).unknown_model == unknown


def test_model_shaped_reads_the_last_part() -> None:
    assert model_shaped("cogvlm-chat-hf") and model_shaped("chatglm3-6b-base")
    assert not model_shaped("chatglm-tuning") and not model_shaped("qwen-agent")
    assert not model_shaped("llama-factory") and not model_shaped("minicpm-webui")


@pytest.mark.parametrize(
    ("text", "listed"),
    [
        ("finetune on 1, 2 or 4 a100", True),
        ("并发 10、20、50 分别要几张卡", True),
        ("at 8k, 32k and 128k context", True),
        ("7b on 2 a100 for 3 days", False),
        # s41-lists: the gate also admits a range's two ends ('concurrency 4 to 64', bot.parse.value_range);
        # a count range still gets no rows (tests/test_s41_lists.py::test_a_count_range_gets_no_rows)
        ("2–8 cards", True),
    ],
)
def test_the_rows_gate_is_read_by_the_parser(text: str, listed: bool) -> None:
    """The gate of the per-value rows (s36-lists) lives in bot.parse.value_list, not core (core runs no
    regex on the message: tests/test_core_one_pass.py)."""
    assert lists_numbers(text) is listed


@pytest.mark.parametrize(
    ("question", "rows"),
    [
        # a refused value before the one kept is no list of options (len-zh-042 'understood' on main)
        ("不要 128k，32k 上下文就够了，Llama-3.1-70B 推理要几张 H100", []),
        ("not 128k, 32k is enough: Llama-3.1-70B serving on H100, how many?", []),
        # a list of lengths still gets a row each: 8k, 32k, 128k = 8,192, 32,768, 131,072 tokens
        ("Llama-3.1-70B serving at 8k, 32k and 128k context on H100, how many?", [8192, 32768, 131072]),
        ("Qwen2.5-7B 推理，上下文 8k、32k 和 128k 分别要几张 4090", [8192, 32768, 131072]),
    ],
)
def test_a_refused_value_is_no_listed_option(question: str, rows: list[int]) -> None:
    from tests.real_questions import answer_json

    d = answer_json(question)
    assert [r["value"] for r in d["report"]["per_value"]] == rows
