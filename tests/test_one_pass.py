"""One pass, one direction (issue 23 item 3): the answer's derived facts -- the chosen training
layout, the interpretation, the cheapest compared option -- are computed once, in core, and the
renderer only reads them. Counted through ``sizing-bot ask``."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import bot.core.answer
import bot.core.compare_currency
import bot.core.pipeline
import bot.render.advice
import bot.render.compare
import bot.render.context
import bot.render.understood
from bot.cli import main
from bot.core.answer import Answer
from bot.core.chosen import chosen_plan
from bot.core.interpretation import interpret
from bot.core.offer import cheapest_index


@pytest.fixture
def calls(monkeypatch) -> Counter:
    """Counts of chosen_plan, interpret and cheapest_index calls, wherever they are imported."""
    counts: Counter = Counter()

    def counted(name, fn):
        def wrapper(*args, **kwargs):
            counts[name] += 1
            return fn(*args, **kwargs)

        return wrapper

    for module in (bot.core.answer, bot.render.advice, bot.render.context):
        monkeypatch.setattr(module, "chosen_plan", counted("chosen_plan", chosen_plan))
    for module in (bot.core.answer, bot.render.understood):
        monkeypatch.setattr(module, "interpret", counted("interpret", interpret))
    for module in (bot.core.compare_currency, bot.render.compare):
        monkeypatch.setattr(module, "cheapest_index", counted("cheapest_index", cheapest_index))
    return counts


def ask(capsys, *args: str) -> str:
    main(["ask", *args])
    return capsys.readouterr().out


def test_chosen_plan_once_per_reply(capsys, calls):
    out = ask(
        capsys, "--format", "html", "--lang", "en", "Full fine-tune Qwen2.5-14B on 100M tokens with 8 H100"
    )
    assert "TP 1 × PP 1 × DP 8" in out  # the layout the reply explains (memory) ...
    assert "DeepSpeed ZeRO or PyTorch FSDP" in out  # ... and the tools it names (advice) share it
    assert calls["chosen_plan"] == 1  # was 2 per reply (memory section and framework advice)


def test_interpretation_once_for_reply_and_json(capsys, calls):
    data = json.loads(
        ask(capsys, "--format", "json", "--lang", "en", "Serve Llama-3-8B on 2 A100, lora rank 64")
    )
    assert data["interpretation"]["ignored"] == [{"text": "lora_rank: 64", "reason": "training_only"}]
    assert "lora_rank: 64" in data["reply"]  # the reply names it too, from the same interpretation
    assert calls["interpret"] == 1  # was 2 (the JSON's and the reply's)


def test_cheapest_once_for_a_comparison(capsys, calls):
    out = ask(
        capsys,
        "--format",
        "text",
        "--lang",
        "en",
        "Pre-train a 7B model on 1T tokens: A100 vs H100, which is cheapest?",
    )
    first = out.split("\n", 1)[0]
    assert first.startswith("Lowest cost of the whole job: H100")
    assert calls["cheapest_index"] == 1  # the pipeline's: it put the cheapest first; render only words it


def test_a_copy_that_changes_the_report_forgets_the_facts():
    from bot.core.pipeline import Context, answer

    a = answer("Full fine-tune Qwen2.5-14B on 100M tokens with 8 H100", Context(fixed_lang="en"))
    b = answer("Full fine-tune Qwen2.5-72B on 100M tokens with 64 H100", Context(fixed_lang="en"))
    plan = a.chosen_plan
    assert plan is not None and a.chosen_plan is plan  # cached
    assert a.model_copy(update={"kept": {"x": 1}}).chosen_plan is plan  # unrelated change: kept
    moved = a.model_copy(update={"report": b.report})
    assert isinstance(moved, Answer) and moved.chosen_plan == b.chosen_plan != plan
