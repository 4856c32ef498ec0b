"""Trial report s10 (fresh-user trial of the integration branch), serving items: B1 — a stated serving
TP ('--tp 2', '--tensor-parallel-size 2') is kept when the question asks how many cards named with
their memory ('A800 40G要几张', 'how many A100 80G'); the answer sizes copies of TP 2 and names what a
free layout would need. Through the CLI, in both languages; the questions are the trial's own."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import main


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    code = main(["ask", "--format", "json", text])
    data = json.loads(capsys.readouterr().out)
    assert code == 0, data
    return data


STATED_TP = [
    "serve Qwen2.5-32B with vLLM --tensor-parallel-size 2, 100 concurrent users at 8k context, "
    "how many A100 80G",
    "用lmdeploy部署internlm2.5-20b，--tp 2 --session-len 32768 --max-batch-size 64，A800 40G要几张",
]


@pytest.mark.parametrize("text", STATED_TP)
def test_a_stated_serving_tp_is_kept_when_the_count_is_asked(capsys, text: str) -> None:
    """Every copy is TP 2 (the engine runs one copy per ``--tp`` group); the GPUs are a whole number of
    copies, and the note names the free layout's fewer GPUs (TP 4 / TP 8) rather than silently using it."""
    out = ask(capsys, text)
    inf = out["report"]["inference"]
    assert out["request"]["tp"] == 2
    assert (inf["tp"], inf["pp"]) == (2, 1)
    assert inf["recommended_gpus"] == 2 * inf["replicas"] and inf["replicas"] > 1
    note = next(w for w in out["report"]["warnings"] if w["code"] == "stated_layout_needs_more")
    assert note["params"]["tp"] == 2 and note["params"]["gpus"] == inf["recommended_gpus"]
    assert note["params"]["free_gpus"] < inf["recommended_gpus"]
    assert inf["max_concurrency"] >= out["request"]["concurrency"]
