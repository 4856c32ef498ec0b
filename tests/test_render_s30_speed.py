"""Session 30 (s30-spest, issue 23 item 7, render stage): an answer's derived facts read in place and a
chart's GiB figures formatted in one frame, with the same text (bench/answers_dump.py ``same`` checks
every corpus reply byte for byte)."""

from __future__ import annotations

from bot.core import answer as answer_module
from bot.core.pipeline import answer
from bot.render.fmt import Fmt
from estimator.units import GIB


def test_gibs_words_each_value_as_gib_does_remembered_or_not():
    values = [80 * GIB, 13.7 * GIB, 0.04 * GIB, 1087 * GIB, 80 * GIB]
    for lang in ("en", "zh"):
        fresh = Fmt(lang)
        got = fresh.gibs(values)  # first formatted here
        assert got == [Fmt(lang).gib(v) for v in values]
        assert got[0] == "80 GiB" and got[1] == "13.7 GiB" and got[3] == "1,087 GiB"
        assert fresh.gibs(values) == got  # then read from the memo
        assert fresh._memo[("gib", 80 * GIB)] == "80 GiB"
    assert Fmt("en").gibs([]) == []


def test_a_derived_fact_is_made_once_and_none_is_remembered(monkeypatch):
    made: list[str] = []
    real_interpret, real_chosen = answer_module.interpret, answer_module.chosen_plan

    def interpret(*args):
        made.append("interpretation")
        return real_interpret(*args)

    def chosen(report):
        made.append("chosen_plan")
        return real_chosen(report)

    monkeypatch.setattr(answer_module, "interpret", interpret)
    monkeypatch.setattr(answer_module, "chosen_plan", chosen)
    a = answer("Serve Llama-3-8B on one L4")  # a serving answer: no training layout
    assert a.chosen_plan is None and a.chosen_plan is None  # None is remembered, not made again
    assert a.interpretation is a.interpretation
    assert a.reply_interpretation is a.interpretation
    assert made.count("chosen_plan") == 1 and made.count("interpretation") == 1
    assert a.cheapest_index is None and a.budget_pick is None and a.unpriced_cards == []
    other = a.model_copy(update={"comparisons": []})  # what they derive from changed: made afresh
    assert other.chosen_plan is None and made.count("chosen_plan") == 2
