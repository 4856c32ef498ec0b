"""Session 31 (s31-sppipe), issue 23 item 7: the long paste's tail in the parse. Each cheap test asked before
an expensive pattern is a necessary condition of that pattern: it may let a text through that the pattern
then rejects, never stop one the pattern finds."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import bot.parse.normalize  # noqa: F401  (the module, not the function bot.parse re-exports)
from bot.parse import parse
from bot.parse.launched_tools import CUE_TABLE as LAUNCH_CUES
from bot.parse.noise import FILLER_RE, filler_possible
from bot.parse.stage_rigs import GATE_RE, rigs_gate
from bot.parse.unknown_tools import unknown_tools

_normalize = sys.modules["bot.parse.normalize"]
_GLUED_X, normalize = _normalize._GLUED_X, _normalize.normalize

QUESTIONS = [
    q["text"] for q in json.loads((Path(__file__).parent / "data" / "questions.json").read_text("utf-8"))
]
PASTE = max(QUESTIONS, key=len)
"""The corpus's 12,473-character paste of JSON lines (one fine-tuning question at its end)."""

TWO_STAGES = [
    "We pretrain a 7B on 1T tokens on 64 H800, then SFT it on 8 A100. How long does the SFT take?",
    "先用64张H800预训练7B模型1万亿token，再在8张A100上SFT 10亿token，SFT要多久？",
    "Can I do instruction fine-tuning with 4x 3090? And how much memory does inference need: one 3090?",
    "PRE-TRAIN a 1B then DEPLOY it.",
    "ſft a 7B on 8 A100, then ſerve it on 2 L40S.",  # long s: IGNORECASE reads it as 's' (fold does too)
    "FİNE-TUNE then İNFERENCE on 4 A10.",  # dotted capital I: IGNORECASE reads 'i'
]
ONE_STAGE = ["fine-tune a 7B on 8 A100", "LoRA a 13B. Then how long?", "x" * 20000, "sft" + " x" * 5000]


@pytest.mark.parametrize("text", [*TWO_STAGES, *ONE_STAGE, *QUESTIONS])
def test_the_two_stage_gate_answers_as_its_pattern(text):
    assert rigs_gate(text) is (GATE_RE.search(text) is not None)


def test_the_two_stage_gate_reads_both_stages():
    assert all(map(rigs_gate, TWO_STAGES))
    assert not any(map(rigs_gate, ONE_STAGE))
    assert not rigs_gate(PASTE)  # one stage word in 12,473 characters: no look-ahead run


FILLERS = [
    *(" ".join(["ab12cdef"[:n]] * 50) for n in range(1, 9)),  # each unit length, spaced
    *("ab12cdef"[:n] * 50 for n in range(1, 9)),  # each unit length, run together
    "多少卡？" + "哈" * 50,
    "How many A100 for a 7B?\n" + "x \n\t" * 50,
    "q " + "Ab" * 30 + " " + "Ab" * 20,  # 50 across two words
    "\u3000".join(["卡"] * 50),  # ideographic space: whitespace to both
]
NEAR = [
    *(" ".join(["ab12cdef"[:n]] * 49) for n in range(1, 9)),  # 49 repeats: one short
    "ab" * 49 + "a",
    "ab" * 25 + "aB" * 25,  # case differs: 'ab' 25 times, then 'aB' 25 times
    "哈" * 49 + "，" + "哈" * 49,
]


@pytest.mark.parametrize("text", [*FILLERS, *NEAR, *QUESTIONS])
def test_the_filler_check_never_stops_a_filler(text):
    if FILLER_RE.search(text):
        assert filler_possible(text)


def test_the_filler_check_reads_the_repeats():
    assert all(map(filler_possible, FILLERS))
    assert not any(map(filler_possible, NEAR))
    assert not filler_possible(PASTE)  # JSON lines: no regex pass over 12,473 characters


def test_the_paste_is_read_as_before():
    parsed = parse(PASTE)
    assert (parsed.request.stage, parsed.request.method, parsed.request.model) == (
        "finetune",
        "full",
        "Llama-3-8B",
    )
    assert parsed.request.gpu == "H100-SXM5-80GB" and "noise" not in parsed.notes


GLUED = ["on a100x8", "4xmi50", "8xa100 and h100x4", "h100x٣ please", "٣xa100"]
"""Counts glued to a card with an x (bot.parse.normalize, round 20), Arabic-Indic digits among them
(``\\d`` of a Unicode pattern)."""


@pytest.mark.parametrize("text", [*GLUED, "mi300x", "x-ray 8x", "xa100", *QUESTIONS])
def test_the_glued_x_cue_never_stops_a_count(text):
    card_times, count_times, cue = _GLUED_X
    low = text.lower()
    if card_times.search(low) or count_times.search(low):
        assert cue.search(low)


def test_the_glued_x_cue_reads_the_counts():
    assert all(_GLUED_X[2].search(t) for t in GLUED)
    assert not any(_GLUED_X[2].search(t) for t in ("mi300x", "x-ray 8x", "xa100", PASTE.lower()))
    assert normalize("4xMI50 and A100x8") == "4x mi50 and a100 x 8"


@pytest.mark.parametrize("text", TWO_STAGES[:2])
def test_a_two_stage_question_is_sized_on_the_asked_stage(text):
    """The parse asks the gate's cue test at its call site (bot.parse.parse): the asked SFT on 8 A100, the
    pre-training on 64 H800 named as another setup."""
    parsed = parse(text)
    assert (parsed.request.stage, parsed.request.gpu, parsed.request.gpu_count) == (
        "finetune",
        "A100-SXM4-80GB",
        8,
    )
    # s48-workmiss: the pre-training block's stage is named too, as every other stage reader names the stage
    # set aside ('stage: pretrain', bot.parse.stage_pairs): was ["other_setup"] with the block's words alone
    assert [why for _, why in parsed.unused_numbers] == ["other_setup", "other_setup"]
    assert "H800" in parsed.unused_numbers[0][0]
    assert parsed.unused_numbers[1][0] == "stage: pretrain"


LAUNCHED = [
    "python -m foo.bar on 8 A100",
    "with optimum-habana v1.15.0",
    "caikit-nlp's examples",
    "with Jina's finetuner",
]


@pytest.mark.parametrize("text", [*LAUNCHED, "vllm-ascend 0.7.3", "a-b-c 1.2", *QUESTIONS])
def test_the_launch_cue_literals_never_stop_a_cue(text):
    """bot.parse.unknown_tools asks '-m', "'s", '’s' and the version branch before the launched tools' cue."""
    cue, version = LAUNCH_CUES
    if cue.search(text):
        assert "-m" in text or "'s" in text or "’s" in text or version.search(text)


def test_the_launched_tools_are_read():
    assert [LAUNCH_CUES[1].search(t) is not None for t in LAUNCHED] == [False, True, False, False]
    assert unknown_tools("with optimum-habana v1.15.0", "with optimum-habana v1.15.0", True) == [
        ("training_tool: optimum-habana", "no_field")
    ]
