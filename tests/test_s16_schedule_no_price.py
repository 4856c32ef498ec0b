"""Trial s16 #9: a serving month on a card with no price on file (L20 in CNY, no cited list price found
in this session): the 'no price' warning is printed once, and the stated schedule (8 hours a day: 243
hours a month per GPU instead of 730) is still said."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

QUESTIONS = [
    "公司内部知识库问答，部署 Qwen2.5-14B，只在工作时间用，每天 8 小时，现在 20 并发，高峰期 80 并发，"
    "用 L20 一个月要花多少钱？",
    "Serve Qwen2.5-14B on L20 only 8 hours a day, 20 concurrent users now and 80 at peak. Monthly cost?",
]


@pytest.mark.parametrize("question", QUESTIONS)
def test_no_price_once_and_the_schedule_said(capsys, question):
    main(["ask", "--format", "json", question])
    d = json.loads(capsys.readouterr().out)
    codes = [w["code"] for w in d["report"]["warnings"]]
    assert codes.count("no_price") == 1
    # 4 L20 as 2 copies of TP 2 (s41 fixserve #3): the L20 now shows 46,068 MiB (44.99 GiB, ECC on), not
    # 48 GiB, so a one-card copy (27.4 GiB of weights in vLLM's 40.5 GiB) holds ~14 sequences and 80 need 6
    # cards, beyond 1.25 x the 4 of TP 2 (estimator.serving_layout.PCIE_TIE); before, 5 copies of one card.
    assert d["request"]["concurrency"] == 80 and d["report"]["inference"]["serving_gpus"] == 4
    assert d["report"]["inference"]["tp"] == 2 and d["report"]["inference"]["replicas"] == 2
    hours = next(a for a in d["assumptions"] if a["field"] == "hours_per_day")
    assert hours["value"] == 8 and "243" in hours["source"]
