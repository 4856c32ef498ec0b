"""The rate sized is worded in the reply's language (s18-fxc #4): a Chinese '已使用' line printed
'qps: 2 (120 a minute) × 300 output tokens …' in English. 120 a minute = 2 requests/s; × 300 output
tokens = 600 tokens/s; × 1,000 input tokens = 2,000 prefill tokens/s."""

from __future__ import annotations

from bot.core.pipeline import Context, answer
from bot.render.rate_text import rate_text
from bot.render.renderer import render


def _used(text: str) -> str:
    return next(
        line
        for line in render(answer(text, Context()), "text").splitlines()
        if "已使用" in line or "Used" in line
    )


def test_zh_used_line_is_chinese() -> None:
    line = _used("部署 Qwen2.5-7B，每分钟 120 个请求，输入 1000 输出 300，用 L40S 要几张？")
    assert (
        "“每秒请求数（QPS）：2（每分钟 120 个） × 每次输出 300 token = 600 token/s；"
        "× 每次输入 1,000 token = 预填充 2,000 token/s”" in line
    )
    assert "output tokens" not in line and "a minute" not in line


def test_en_used_line_keeps_its_words() -> None:
    line = _used(
        "Serving Llama 3.1 8B on L4, 300 requests per minute, input 1000 tokens, "
        "output 256 tokens per request. How many?"
    )
    # 300 a minute = 5/s; × 256 = 1,280 tokens/s; × 1,000 = 5,000 prefill tokens/s
    assert (
        "“qps: 5 (300 a minute) × 256 output tokens = 1,280 tokens/s; "
        "× 1,000 input tokens = 5,000 prefill tokens/s”" in line
    )


def test_other_text_is_unchanged() -> None:
    assert rate_text("QPS 5，每次输出 300", "zh") == "QPS 5，每次输出 300"
    assert (
        rate_text("qps: 0.5 × 512 output tokens = 256 tokens/s", "zh")
        == "每秒请求数（QPS）：0.5 × 每次输出 512 token = 256 token/s"
    )
