"""A second fresh-user trial: a follow-up alone sent to the web API ("那换成H100呢") was told "I was
restarted" — the API keeps no history and never had one; it now says so, as `sizing-bot ask` does."""

from __future__ import annotations

import json
import warnings

import pytest

from bot.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note on httpx (as tests/test_web.py)
    from starlette.testclient import TestClient


@pytest.mark.parametrize(
    ("q", "said"),
    [("那换成H100呢", "API 每次调用只回答一个问题"), ("what about H100?", "The API answers one question")],
)
def test_a_follow_up_alone_on_the_api_says_the_api_keeps_no_history(q: str, said: str) -> None:
    with TestClient(create_app(rate_per_minute=0)) as client:
        for response in (
            client.get("/api/v1/ask", params={"q": q}),
            client.post("/api/v1/ask", json={"q": q}),
        ):
            data = json.loads(response.text)
            assert said in data["reply"] and "restarted" not in data["reply"] and "重启" not in data["reply"]
