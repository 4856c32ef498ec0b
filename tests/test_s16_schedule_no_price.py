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
    # 5 L20 as 5 copies of one card: L20 has no NVLink, and since d15c3af6 (estimator.serving_layout.PCIE_TIE)
    # copies come before TP when they take at most 1.25 x the fewest GPUs (4 at TP 4); 5 <= 1.25 x 4.
    assert d["request"]["concurrency"] == 80 and d["report"]["inference"]["serving_gpus"] == 5
    assert d["report"]["inference"]["tp"] == 1 and d["report"]["inference"]["replicas"] == 5
    hours = next(a for a in d["assumptions"] if a["field"] == "hours_per_day")
    assert hours["value"] == 8 and "243" in hours["source"]
