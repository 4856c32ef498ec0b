"""s16 review (876cad5a): 'will it start?' on the user's GPUs with a length and no load is decided in
bot/core/start_only.py, not in render, and the JSON says it as ``report.inference.start_only`` (added
field): the reply then sizes one sequence on the stated cards and names no load."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def ask(capsys, question: str, fmt: str = "json") -> dict | str:
    main(["ask", "--format", fmt, question])
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


@pytest.mark.parametrize(
    ("question", "reason", "start_only"),
    [
        # vLLM refuses the length: its KV cache on 2 A100 80G holds 14,464 tokens of Qwen2.5-72B
        (
            "Qwen2.5-72B on 2x A100 80GB with vLLM, max-model-len 131072. Will it start?",
            "max_model_len",
            True,
        ),
        # the cards hold not even the weights and one 128K sequence
        ("Will Llama-3.1-70B with 128k context start on 2 RTX 4090 with vLLM?", None, True),
        # a load stated (32 concurrent): sized for it, not one sequence
        (
            "Qwen2.5-72B on 2x A100 80GB with vLLM, max-model-len 131072, 32 concurrent. Will it start?",
            None,
            False,
        ),
    ],
)
def test_start_only_is_in_the_json(capsys, question, reason, start_only):
    r = ask(capsys, question)["report"]
    assert r["feasible"] == "no" and r["feasible_reason"] == reason
    assert r["inference"]["start_only"] is start_only


def test_start_only_false_where_it_starts_and_absent_in_training(capsys):
    """Where it starts, start_only holds only when the start is asked (s26 trial 2 #6: the headline is
    then the start-up check's yes, no load assumed); stated without the question, the default load is
    sized as before."""
    r = ask(capsys, "Qwen2.5-7B on 1 A100 80GB with vLLM, max-model-len 8192. Will it start?")["report"]
    assert r["feasible"] != "no" and r["inference"]["start_only"] is True
    r = ask(capsys, "Qwen2.5-7B on 1 A100 80GB with vLLM, max-model-len 8192")["report"]
    assert r["feasible"] != "no" and r["inference"]["start_only"] is False
    assert ask(capsys, "全参微调7B要几张A100")["report"]["inference"] is None
