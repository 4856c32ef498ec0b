"""A calendar date is a date (s20-fixb item 2): 'Q3 2025', 'by end of Q3', 'by March 2026', 'FY2026',
'2025年底前', '2026年3月前', '2025年Q3' — never a budget, a count, tokens nor a duration; with no start date
it gives no deadline in days, so it is named as typed (``calendar_date``). Sentences of our own."""

from __future__ import annotations

import pytest

from bot.core.pipeline import Context, answer
from bot.parse.calendar_dates import DATE_RE, calendar_dates
from bot.render.renderer import render
from tests.real_questions import answer_json


def _named(data: dict) -> list[str]:
    return [i["text"] for i in data["interpretation"]["ignored"] if i["reason"] == "calendar_date"]


@pytest.mark.parametrize(
    ("text", "phrase", "fields"),
    [
        (
            "Fine-tune Llama-3-8B with LoRA on 8 A100s, budget $20k, must finish by end of Q3 2025",
            "by end of q3 2025",
            {"budget": 20000.0, "gpu_count": 8},
        ),
        ("8 张 A100 做 Qwen2.5-7B 全参微调，2025年底前完成，预算 10 万元", "2025年底前", {"budget": 1e5}),
        (
            "2026年3月前要训完一个 7B 模型，100B token，需要几张 H800",
            "2026年3月前",
            {"tokens": 1e11, "count_asked": True},
        ),
        (
            "We need to pretrain a 13B model on 500B tokens with our FY2026 budget of $2M",
            "fy2026",
            {"budget": 2e6, "tokens": 5e11},
        ),
        ("预算 2025 年内 50 万，训练 13B 模型 300B token", "2025 年内", {"budget": 500000.0}),
        ("By end of Q3 we need a 7B LoRA fine-tune on 20k samples; budget 5000 USD", "by end of q3", {}),
        ("2025年Q3上线 Qwen2.5-72B 推理服务，并发 50，要几张卡", "2025年q3", {"concurrency": 50}),
        ("Train a 7B model on 1T tokens by March 2026 on H100s", "by march 2026", {"tokens": 1e12}),
        ("第三季度前做完 Qwen2.5-14B 的 LoRA 微调，2 万条数据，4 张 4090", "第三季度前", {"gpu_count": 4}),
    ],
)
def test_a_date_is_named_and_no_number(text: str, phrase: str, fields: dict) -> None:
    data = answer_json(text)
    assert _named(data) == [phrase]
    req = data["request"]
    for key, value in fields.items():
        assert req[key] == value, key
    years = {"2025", "2026"}
    assert not [i for i in data["interpretation"]["ignored"] if i["text"] in years]  # no year unread
    assert req["deadline_days"] in (None, 30.0)  # '3月前' is no 90-day deadline
    assert req["deadline_default_days"] is None or req["deadline_days"] == 30.0


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tune 7B on 2024 samples with seq len 2048 on 4 A100",  # a count, no date
        "训练 3 个月，8 张 A100，7B 模型 200B token",  # a duration
        "Serve Qwen2.5-7B in q4 on a 4090",  # a weight format
        "llama.cpp q4_k_m on 2 3090, in 2025 tokens of context",  # a length
    ],
)
def test_no_date_where_none_is(text: str) -> None:
    assert calendar_dates(text.lower())[1] == []
    assert DATE_RE.search(text.lower()) is None


def test_the_reply_names_the_date_with_its_reason() -> None:
    zh = render(answer("2025年底前要完成 7B 全参微调，10 万条数据，8 张 A100", Context()), "text")
    assert "未使用：“2025年底前”（这是一个日期" in zh
    en = render(answer("LoRA a 7B on 8 A100 on 100M tokens by end of Q3 2025", Context()), "text")
    assert "“by end of q3 2025” (a calendar date" in en
