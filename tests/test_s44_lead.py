"""Session 44's merge fixes (the review of the merged change, /work/notes/s44/review): a clause of a
per-person request volume never starts at a thousands comma (B3)."""

from __future__ import annotations

import pytest

from bot.parse import parse
from bot.parse.request_volume import read_request_volume


@pytest.mark.parametrize(
    ("text", "field", "volume"),
    [
        ("each of 1,000 users sends 10 requests an hour", "requests_per_hour", 10_000.0),
        ("each of our 2,500 employees sends 4 requests a day", "requests_per_day", 10_000.0),
        ("1,000 users, each sends about 10 requests an hour", "requests_per_hour", 10_000.0),
        ("1,000 名员工，每人每小时问 10 次", "requests_per_hour", 10_000.0),
    ],
)
def test_a_thousands_comma_does_not_end_the_clause(text: str, field: str, volume: float) -> None:
    assert read_request_volume(text)[1] == {field: volume}


@pytest.mark.parametrize(
    "text",
    [
        "we get 10,000 requests an hour, each user sends 3",  # the service's own count: kept as typed
        "10,000 requests an hour, 1,000 users",
    ],
)
def test_a_service_count_with_a_thousands_comma_stays_as_typed(text: str) -> None:
    assert read_request_volume(text)[1] == {"requests_per_hour": 10_000.0}


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("Each of 1,000 users sends 10 requests an hour to Llama-3.1-8B, how many H100s do I need?", "hour"),
        ("Each of our 2,500 employees asks about 4 questions a day with Qwen2.5-7B, how many A100?", "day"),
    ],
)
def test_each_of_a_thousands_count_is_a_volume_not_sequences_at_once(text: str, field: str) -> None:
    r = parse(text).request
    assert getattr(r, f"requests_per_{field}") == 10_000.0 and r.concurrency is None and r.users is None
