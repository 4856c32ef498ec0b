"""Issue #22 item 10: line 1 answers what was asked, and the visible part of a common answer fits one
phone screen (390 px: ≈ 40 Latin / 24 CJK characters a line, 20 lines), the rest behind the details
toggle. Through the CLI (``sizing-bot ask --format html`` and ``--format json``), twenty questions of
bench/visible_length.py."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bot.cli import ask

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from visible_length import QUESTIONS, SCREEN_LINES, visible_text, wrapped_lines

CASES = [(lang, kind, q) for lang, questions in QUESTIONS.items() for kind, q in questions]


def _grouped(x: float) -> str:
    return f"{x:,.0f}"


def asked_figures(kind: str, report: dict) -> list[str]:
    """The figure(s) the question asks for, as the reply writes them, from the JSON report."""
    inf = report.get("inference") or {}
    if kind == "serving cost":
        cpm = inf["cost_per_million_tokens"]
        return [f"{cpm['low']:.2f}", f"{cpm['high']:.2f}"]
    if kind == "tokens/s":
        d = inf["decode_tokens_per_s"]  # the figure and its band, "33 (23–45) tokens/s" (s36 fixg)
        return [f"{d['per_sequence']:.0f}", f"{d['per_sequence_low']:.0f}–{d['per_sequence_high']:.0f}"]
    if kind == "concurrency":
        return [str(inf["max_concurrency"])]
    if kind == "serving GPUs":
        return [str(inf["recommended_gpus"])]
    if kind in ("pre-training", "deadline → GPUs"):
        return [str(report["gpus_for_deadline"])]
    if kind in ("fine-tune memory", "QLoRA consumer"):
        return [str(report["memory"]["min_gpus"])]
    if kind == "budget → model":
        return [f"{report['max_params_for_budget'] / 1e9:.1f}B"]
    if kind == "rental price":
        return [_grouped(report["cost"]["low"])]
    raise AssertionError(kind)


@pytest.mark.parametrize(("lang", "kind", "question"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_visible_part_is_one_phone_screen_and_line_one_has_the_asked_figure(lang, kind, question):
    reply, code = ask(question, lang, "html")
    assert code == 0
    report = json.loads(ask(question, lang, "json")[0])["report"]
    text = visible_text(reply)
    assert wrapped_lines(text) <= SCREEN_LINES, text
    line1 = text.splitlines()[0]
    for figure in asked_figures(kind, report):
        assert figure in line1, (figure, line1)
    assert "<blockquote expandable>" in reply  # the rest is behind the details toggle


def test_the_serving_headline_names_what_the_count_counts():
    """'…8 × A100 80G (TP=8); the weights alone need 2' was cut short: the count keeps its noun."""
    reply, _ = ask("How many A100s to serve Llama-3.1-70B for 100 users?", "en", "text")
    line1 = reply.splitlines()[0]
    assert line1.endswith("the weights alone need 2 GPUs"), line1  # 141 GB of bf16 weights > 80 GB


def test_full_recompute_in_a_headline_says_what_it_costs():
    """No jargon in headlines: LoRA 72B on 2 × A100 fits only with full recompute, said as its cost
    (the forward pass twice: LoRA's 4ND → 6ND, half as much again; s35 fixb #2 — it said a third, full
    training's 6ND → 8ND)."""
    zh = ask("LoRA微调Qwen2.5-72B，2张A100", "zh", "text")[0].splitlines()[0]
    en = ask("LoRA fine-tune Qwen2.5-72B on 2 A100", "en", "text")[0].splitlines()[0]
    assert "需要以约 1/2 的额外计算换显存" in zh and "重计算" not in zh, zh
    assert "≈ 1/2 more compute to save memory" in en and "recompute" not in en, en


def test_wrapped_lines_count_cjk_wider():
    assert wrapped_lines("a" * 40) == 1 and wrapped_lines("a" * 41) == 2
    assert wrapped_lines("中" * 24) == 1 and wrapped_lines("中" * 25) == 2
    assert wrapped_lines("x\n\ny") == 3
