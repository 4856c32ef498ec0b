"""When no layout fits, every section says so (s14 design review): no "Memory is tight (48,015 % of the
card)" beside "does not fit" (the figure of a job nothing holds is its model states alone, not a plan
near the edge), and no "or CPU offload" to a job that already offloads."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process, ask_quietly

OFFLOADED = [
    "Full fine-tune Llama-3.1-405B on T4 with CPU offload, seq len 32k",
    "全参微调 Llama-3.1-405B，T4，开 offload，序列长度 32k",
]


def codes(d: dict) -> dict[str, dict]:
    return {w["code"]: w["params"] for w in d["report"]["warnings"]}


@pytest.mark.parametrize("question", OFFLOADED)
def test_nothing_fits_with_offload_said_once(capsys, question: str) -> None:
    d = ask_in_process(capsys, question)
    assert d["request"]["offload"] is True and d["request"]["seq_len"] == 32768
    assert d["report"]["memory"]["min_gpus"] is None  # 405B at 32K on 16 GB cards: no count holds it
    notes = codes(d)
    assert notes["no_fit"] == {"gpus_searched": 100000, "offloaded": 1.0}
    assert "memory_tight" not in notes
    text = ask_quietly(question)
    assert "48,015" not in text and "Memory is tight" not in text and "显存很紧" not in text
    assert "CPU offload already" in text or "已经开了 CPU 卸载" in text
    assert "or CPU offload" not in text and "CPU offload。" not in text


def test_nothing_fits_without_offload_still_suggests_it(capsys) -> None:
    d = ask_in_process(capsys, "Full fine-tune Llama-3.1-405B on T4, seq len 32k")
    notes = codes(d)
    assert notes["no_fit"] == {"gpus_searched": 100000} and "memory_tight" not in notes
    assert "LoRA/QLoRA, or CPU offload." in ask_quietly("Full fine-tune Llama-3.1-405B on T4, seq len 32k")


def test_tight_plan_still_says_tight(capsys) -> None:
    """A plan that fits near the edge keeps its note: 405B with offload on RTX 4090 fits 72 at 96.8 %."""
    d = ask_in_process(capsys, "Full fine-tune Llama-3.1-405B on RTX 4090 with CPU offload, how many cards?")
    assert d["report"]["memory"]["min_gpus"] == 72
    assert (
        d["report"]["memory"]["plan"]["recompute"] == "full"
    )  # tight even so: no recompute advice (s27-fix2)
    assert codes(d)["memory_tight_recomputing"]["ratio"] == pytest.approx(0.968, abs=0.001)
