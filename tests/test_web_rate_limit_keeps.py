"""The web page's rate limit keeps the conversation (trial s18 #5): the 429 page offers the question again
with its earlier questions, so the next try is answered as the follow-up it was, not as a fresh chat ('I
was restarted, or it was a while ago')."""

from __future__ import annotations

import html
import re

import pytest

from bot.web.app import create_app

pytest.importorskip("httpx")
from starlette.testclient import TestClient

FIRST = "部署 Qwen2.5-7B，50 并发，用 L40S 要几张？"
FOLLOWUP = "用 H100 呢？"


def test_rate_limited_page_keeps_the_conversation() -> None:
    limited = TestClient(create_app(rate_per_minute=0.6))  # a burst of 20, then one token a 100 s
    assert all(limited.get("/").status_code == 200 for _ in range(20))
    over = limited.get("/", params={"q": FOLLOWUP, "prev": FIRST, "lang": "zh"})
    assert over.status_code == 429 and "请求太频繁" in over.text
    form = re.search(r'<form method="get" action="/" class="fu">(.*?)</form>', over.text)
    assert form is not None
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form.group(1)))
    assert {k: html.unescape(v) for k, v in fields.items()} == {"prev": FIRST, "lang": "zh", "q": FOLLOWUP}
    # sent again (another client: the limit is per client), it is the follow-up: H100 for the same 7B load
    again = TestClient(create_app(rate_per_minute=0)).get(
        "/api/v1/ask", params={"q": FOLLOWUP, "prev": FIRST}
    )
    assert again.status_code == 200


def test_rate_limited_page_without_a_question_has_no_retry_form() -> None:
    limited = TestClient(create_app(rate_per_minute=0.6))
    for _ in range(20):
        limited.get("/")
    over = limited.get("/")
    assert over.status_code == 429 and 'class="fu"' not in over.text
