"""The web API's ``prev`` (s7 fix item 5): the ``request`` object of the previous answer, so a follow-up
("换成H100呢", "what about on 4 of them") works over the API as in a chat; validated and bounded like any
input (the request's fields, types and declared bounds; the 256 KiB body), errors ``bad_prev``. Over
the real Starlette app (as tests/test_web.py)."""

from __future__ import annotations

import pytest
from web_client import ask_api, client_fixture

client = client_fixture()


def test_a_follow_up_changes_the_previous_request_in_both_languages(client):
    """Qwen2.5-14B full fine-tuning on A100 80G, then "换成H100呢": the same job on H100 (NVIDIA H100
    SXM5: 80 GB, 989 TFLOPS BF16); then "what about on 4 of them": 4 × A100, the model kept."""
    first = ask_api(client, {"q": "全参微调Qwen2.5-14B要几张A100 80G"})
    assert first["request"]["gpu"] == "A100-SXM4-80GB"
    h100 = ask_api(client, {"q": "换成H100呢", "prev": first["request"]})
    assert (h100["request"]["gpu"], h100["request"]["model"]) == ("H100-SXM5-80GB", "Qwen2.5-14B")
    assert h100["request"]["method"] == "full" and h100["understood"]
    assert h100["reply"].startswith("Qwen2.5 14B 全参微调") and "H100" in h100["reply"].splitlines()[0]
    four = ask_api(client, {"q": "what about on 4 of them", "prev": first["request"]})
    assert (four["request"]["gpu"], four["request"]["gpu_count"]) == ("A100-SXM4-80GB", 4)
    assert four["request"]["model"] == "Qwen2.5-14B" and four["lang"] == "en"
    assert "4 × A100 80G" in four["reply"].splitlines()[0]


def test_without_prev_the_api_still_says_it_keeps_no_history(client):
    data = ask_api(client, {"q": "what about H100?"})
    assert "The API answers one question" in data["reply"]


@pytest.mark.parametrize(
    ("prev", "message"),
    [
        ([1], "prev must be the request object of an earlier answer"),
        ("Qwen2.5-14B", "prev must be the request object of an earlier answer"),
        ({"gpu_count": -3}, "prev.gpu_count: Input should be greater than 0"),
        ({"gpu_count": "many"}, "prev.gpu_count: Input should be a valid integer"),
        ({"no_such_field": 1}, "prev.no_such_field: Extra inputs are not permitted"),
        ({"concurrency": 10**9}, "prev.concurrency: 1e+09 is outside 1–1e+06"),
        ({"deadline_days": 100000}, "prev.deadline_days: 100000 is outside"),
        ({"gpu_count": 10**15}, "prev.gpu_count: 1e+15 is outside 1–1e+07"),
    ],
)
def test_a_bad_prev_is_a_json_error_with_a_stable_code(client, prev, message):
    response = client.post("/api/v1/ask", json={"q": "换成H100呢", "prev": prev})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "bad_prev" and message in error["message"]


def test_prev_is_documented(client):
    spec = client.get("/openapi.json").json()
    body = spec["paths"]["/api/v1/ask"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert "prev" in body["properties"]
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert '"prev"?' in readme and "bad_prev" in readme


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("2张4090 48G 能跑Qwen2.5-32B推理吗，32k上下文，10并发", "那H100呢？"),
        ("can 2 RTX 4090 48GB serve qwen2.5-32b at 32k context for 10 users?", "what about H100?"),
    ],
)
def test_a_follow_up_to_another_card_drops_the_old_cards_memory(client, first, then):
    """ "2张4090 48G", then "那H100呢": the H100's own 80 GB, not the 4090's 48 (final trial 2026-12-02)."""
    a = ask_api(client, {"q": first})
    assert a["request"]["gpu_memory_gib"] == 48
    b = ask_api(client, {"q": then, "prev": a["request"]})
    assert b["request"]["gpu"] == "H100-SXM5-80GB" and b["request"]["gpu_memory_gib"] is None
    assert b["report"]["hardware"]["memory_gib"] == 80 and "48G" not in b["reply"].splitlines()[0]


@pytest.mark.parametrize(
    ("first", "follow_up", "direct"),
    [
        ("7B模型1万亿token要多少A100", "那H100呢", "7B模型1万亿token要多少H100"),
        (
            "GRPO训练Qwen2.5-7B，8张A800，5000条prompt，每个prompt生成8条，回答最长1024",
            "那换成H100呢，3个epoch",
            "GRPO训练Qwen2.5-7B，8张H100，5000条prompt，每个prompt生成8条，回答最长1024，3个epoch",
        ),
        (
            "pretrain a 7B model on 1T tokens with A100s",
            "what about H100?",
            "pretrain a 7B model on 1T tokens with H100s",
        ),
    ],
)
def test_a_follow_up_over_the_api_sizes_what_the_same_question_asked_directly_sizes(
    client, first: str, follow_up: str, direct: str
) -> None:
    """The JSON ``request`` carries the values the estimate filled in (the A100's 40 % MFU, the default
    deadline, micro-batch 1): a follow-up took them as said (the trial: 29,479 H100-hours at a flat 40 %
    MFU against 42,113 asked directly; a GRPO follow-up decoding one sequence at a time, 2,768 against
    449 GPU-hours). Now the filled values are filled again for the new card."""
    prev = ask_api(client, {"q": first})["request"]
    followed = ask_api(client, {"q": follow_up, "prev": prev})
    asked = ask_api(client, {"q": direct})
    assert followed["report"]["gpu_hours"] == asked["report"]["gpu_hours"]
    assert followed["request"]["mfu"] == asked["request"]["mfu"]


def test_a_value_the_estimate_would_not_fill_in_stays_said(client) -> None:
    """A stated MFU of 0.5 on A100 (the default there is 0.40) is kept by the follow-up."""
    prev = ask_api(client, {"q": "7B模型1万亿token要多少A100，MFU 50%"})["request"]
    assert prev["mfu"] == 0.5
    followed = ask_api(client, {"q": "那H100呢", "prev": prev})
    assert followed["request"]["mfu"] == 0.5 and followed["request"]["gpu"] == "H100-SXM5-80GB"
