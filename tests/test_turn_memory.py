"""Issue 23 item 7: remembered turns are kept packed (bot.core.compact), answers unchanged.

Before this change a remembered turn held its full ParseResult and SizingRequest: ~7.1 kB each
(tracemalloc over bench/memory.py's questions); packed: ~1.8 kB.
"""

from __future__ import annotations

import gc
import json
import tracemalloc
from pathlib import Path

import pytest

from bot.core.compact import pack, unpack
from bot.core.conversation import Conversation
from bot.parse import parse
from bot.render.renderer import render

QUESTIONS = [q["text"] for q in json.loads((Path(__file__).parent / "data" / "questions.json").read_text())]


def test_pack_round_trip_over_the_corpus():
    """Every corpus question's parse result (and its request) comes back equal, same fields set."""
    for text in QUESTIONS:
        parsed = parse(text)
        back = unpack(pack(parsed))
        assert back == parsed, text
        assert repr(back) == repr(parsed)
        assert back.model_fields_set == parsed.model_fields_set
        assert back.request == parsed.request
        assert back.request.model_fields_set == parsed.request.model_fields_set


def test_a_remembered_turn_answers_the_same_after_packing():
    """A turn recomputed from its packed record, a button variant and a follow-up give the answers a
    conversation that never packed would (compared with a fresh pipeline call over the same words)."""
    conv = Conversation()
    first = conv.ask(1, 1, "7B模型1万亿token要多少A100")
    again = conv.turn(first.id)
    assert again is not None
    assert render(again.answer, "html") == render(first.answer, "html")
    follow = conv.ask(1, 1, "那H100呢？")
    assert follow.answer.followup and follow.answer.said.gpu == "H100-SXM5-80GB"
    assert follow.answer.said.params_total == 7e9 and follow.answer.said.tokens == 1e12
    variant = conv.variant(first.id, gpu="H800")
    assert variant is not None and variant.answer.said.gpu.startswith("H800")
    assert variant.answer.said.tokens == 1e12
    fresh = Conversation().ask(2, 2, "7B模型1万亿token要多少H100")
    assert follow.answer.report == fresh.answer.report


@pytest.mark.parametrize("turns", [600])
def test_a_remembered_turn_costs_under_3_kb(turns, monkeypatch):
    """Through Conversation (what `sizing-bot run` keeps between updates): the memory the turns keep,
    per turn, is under 3 kB (it was ~7.1 kB with the full models kept). The training searches kept across
    answers (estimator.search_keep, s33) are a cache of at most KEPT_JOBS jobs with its own bound
    (tests/test_s33_fixb.py); traced here, its churn reads as growth (a job filed while tracing counts, the
    one it replaces was allocated before and is not subtracted: 4.4 kB a turn), so it keeps none here."""
    import estimator.search_keep as search_keep

    monkeypatch.setattr(search_keep, "KEPT_JOBS", 0)
    conv = Conversation(max_entries=10_000)
    for n, text in enumerate(QUESTIONS):  # warm: catalogs, caches, every question once
        conv.ask(-n - 1, -n - 1, text)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        for n in range(turns):
            conv.ask(n % 300, n % 300, QUESTIONS[n % len(QUESTIONS)])
        gc.collect()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    per_turn = sum(s.size_diff for s in after.compare_to(before, "filename")) / turns
    assert per_turn < 3000, per_turn
