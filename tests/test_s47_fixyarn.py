"""Session 47, fixyarn: the review's findings B2–B5 (/work/notes/s47/review/report.md) on earlier counts and
RoPE / YaRN scaling factors, each with the failing form and its must-not-misread neighbours, in English and
Chinese.

B2 — a bare number after a word of the present ('We used 2 A100s before and now have 8', '2 A100s
before, now 8', '之前 2 张 A100，现在有 8') is the current count of the card just named: it is sized
and the earlier one named ``other_setup`` (bot.parse.earlier_counts.present_count).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


def _named(answer: dict) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]]


# ---- B2: a bare current count after 'now' / '现在' ---------------------------------------------------------

_FT = "fine-tune Llama 3 8B on 1B tokens"
NOW_BARE = [
    (f"We used 2 A100s before and now have 8, how long to {_FT}?", 8, "2"),  # the review's sentence
    (f"2 A100s before, now 8, how long to {_FT}?", 8, "2"),  # the review's sentence
    (f"We used 2 A100s before, now we have 8 and want to {_FT}. How long?", 8, "2"),
    (f"We had 2 H100s before. Now 8. How long to {_FT}?", 8, "2"),
    (f"Previously we ran on 4 L40S cards, currently 16; how long to {_FT}?", 16, "4"),
    ("之前用 2 张 A100，现在有 8，全参微调 Llama 3 8B 1B tokens 要多久？", 8, "2"),
    ("以前只有 2 张 A100，现在 8 张，全参微调 Llama 3 8B 1B tokens 要多久？", 8, "2"),
    ("原来 4 张 H100，目前有 16 张了，全参微调 Llama 3 8B 1B tokens 要多久？", 16, "4"),
]  # fmt: skip


@pytest.mark.parametrize(("question", "count", "past"), NOW_BARE)
def test_bare_count_after_now_is_sized(capsys, question, count, past):
    a = _ask(capsys, question)
    assert a["request"]["gpu_count"] == count
    assert (past, "other_setup") in _named(a)
    assert (str(count), "other_setup") not in _named(a)


NOT_A_COUNT = [  # a number after 'now' that is no count: the earlier count stays the only one said
    (f"We used 2 A100s before and now want to {_FT}, how long?", 2),
    (f"We used 2 A100s before; now an 8B model, how long to {_FT}?", 2),
    (f"Previously 2 A100s, now 8 hours left: can we {_FT}?", 2),
    ("以前 2 张 A100，现在 8 个小时内要全参微调 Llama 3 8B 1B tokens，行吗？", 2),
    ("之前用 2 张 A100，现在想全参微调 Llama 3 8B 1B tokens，要多久？", 2),
    ("之前用 2 张 A100，现在 8B 的模型，全参微调 1B tokens 要多久？", 2),
]  # fmt: skip


@pytest.mark.parametrize(("question", "count"), NOT_A_COUNT)
def test_number_after_now_that_is_no_count(capsys, question, count):
    a = _ask(capsys, question)
    assert a["request"]["gpu_count"] == count
