"""Session 31 part s31-left: answers true to the job as typed (each item its own tests, both languages)."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def _json(capsys, question: str) -> tuple[int, dict]:
    code = main(["ask", "--format", "json", question])
    return code, json.loads(capsys.readouterr().out)


# 1. A model-free per-card ceiling answer says in JSON what it answered (bot.contract._answered).


@pytest.mark.parametrize(
    ("question", "gpu"),
    [
        ("单卡 40 并发，要 200 并发要几张卡", None),
        ("one L40S handles 40 concurrent, how many for 200?", "L40S"),
    ],
)
def test_ceiling_answer_is_said_in_json(capsys, question, gpu):
    code, d = _json(capsys, question)
    assert code == 0 and d["understood"] is False  # nothing was sized
    assert d["answered"] == "ceiling"
    assert d["ceiling"] == {"per_card": 40, "load": 200, "cards": 5, "under": False, "gpu": gpu}


@pytest.mark.parametrize(
    "question", ["全参微调7B要几张A100", "How many H100s to serve Llama 3 70B for 100 users?"]
)
def test_sized_answer_says_sized_and_no_ceiling(capsys, question):
    _, d = _json(capsys, question)
    assert d["understood"] is True and d["answered"] == "sized" and d["ceiling"] is None


@pytest.mark.parametrize("question", ["今天天气怎么样", "what is the weather today"])
def test_not_understood_answers_nothing(capsys, question):
    code, d = _json(capsys, question)
    assert code == 2 and d["answered"] is None and d["ceiling"] is None
