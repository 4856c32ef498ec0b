"""A count that ran out of memory where the estimate is borderline (session 19, s19-fix item 1).

'4 张 H100 全参微调 Qwen2.5-14B OOM 了': at 4 × H100 80G the estimate is ≈ 63.5 GiB a GPU, inside the card,
but its band's high end is ≈ 85.9 GiB, above the 80 GiB card (verdict 'borderline', reason 'high_edge').
The run's OOM matches that high end: the note says so (``count_failed_edge``), never that the run
"disagrees", which stays for a verdict of fits ('8 张 H100 … OOM': 52.3 GiB, high end 71.9 GiB < 80).
Since s36-left #1 (ab991173) the 4-card plan is ZeRO-3 with recompute, not TP 2 + ZeRO-3 (69.2 / 88.5 GiB
before), and 32B on 8 is ZeRO-3, not TP 4 (high end 93.1 -> 92.9 GiB): still borderline, the high end over 80.
"""

from __future__ import annotations

import pytest

from bot.core.failed_counts import ALL_CODES, DISAGREES, FAILED_EDGE, ONE_DISAGREES, ONE_EDGE
from bot.core.pipeline import answer
from bot.render.alternatives_shown import DISAGREES as SHOWN_DISAGREES
from bot.render.alternatives_shown import FAILED_CODES
from bot.render.note_codes import NoteCode
from bot.render.renderer import render
from estimator.units import GIB


def _first(question: str):  # type: ignore[no-untyped-def]
    a = answer(question)
    return a, a.report.warnings[0], render(a, "text")


@pytest.mark.parametrize(
    "question",
    ["4 张 H100 全参微调 Qwen2.5-14B OOM 了", "full fine-tuning Qwen2.5-14B OOMs on 4 H100s"],
)
def test_one_failed_count_at_a_borderline_estimate_matches_its_high_end(question: str) -> None:
    a, note, text = _first(question)
    assert note.code == ONE_EDGE
    assert note.params["feasible"] == "borderline"  # the verdict at the count that failed, kept for fidelity
    assert round(note.params["per_gpu_gib"], 1) == 63.5 and round(note.params["high_gib"], 1) == 85.9
    assert a.report.memory.plan_gpus == 8  # the fewest above 4 the layout search tries
    assert "disagree" not in text and "不一致" not in text
    assert ("high end of the estimate" in text) or ("估算的上限一致" in text)
    assert "85.9 GiB" in text.split("\n")[1]  # right under the headline


def test_two_failed_counts_at_a_borderline_estimate() -> None:
    a, note, text = _first("Qwen2.5-32B 全参微调，试过 4 卡和 8 卡 H100 都 OOM")
    assert note.code == FAILED_EDGE and note.params["tried_low"] == 4 and note.params["gpu_count"] == 8
    assert round(note.params["high_gib"], 1) == 92.9  # > 80 GiB: the high end agrees with the OOM
    assert a.report.memory.plan_gpus == 16
    assert "估算的上限一致" in text and "不一致" not in text


def test_a_verdict_of_fits_still_disagrees() -> None:
    a, note, text = _first("8 张 H100 全参微调 Qwen2.5-14B OOM 了")
    assert note.code == ONE_DISAGREES and note.params["feasible"] == "yes"
    assert a.report.memory.per_gpu_bytes_high is not None
    assert note.params["high_gib"] < a.report.memory.usable_bytes / GIB  # 71.9 GiB < 80 GiB
    assert "不一致" in text


def test_the_codes_are_registered_everywhere() -> None:
    for code in (ONE_EDGE, FAILED_EDGE):
        assert code in ALL_CODES and code in FAILED_CODES and NoteCode(code) == code
        assert code not in DISAGREES and code not in SHOWN_DISAGREES
    assert SHOWN_DISAGREES == DISAGREES


def test_a_borderline_of_offload_alone_still_disagrees() -> None:
    # 70B, ZeRO-3 with CPU offload on 4 and 8 A100 80G: borderline at 8 only for its offload (the band's
    # high end, ≈ 47.0 GiB, is inside the 80 GiB card): the OOM does not match the estimate
    _, note, text = _first(
        "Full fine-tune of a seventy billion parameter model with DeepSpeed ZeRO-3 and offload_param, "
        "OOM on 4 and on 8 A100 80GB. How many GPUs do I actually need?"
    )
    assert note.code == "tried_counts_failed_fit" and note.params["feasible"] == "borderline"
    assert note.params["high_gib"] < note.params["usable_gib"] and "disagrees" in text
