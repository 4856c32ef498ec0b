"""A reply in parts for card front ends (issue 23 item 1: "room for a card format"): headline, key
figures and details, each in the dialect's markup, the same words as the one-text reply."""

from __future__ import annotations

import pytest

from bot.cli import _ask
from bot.render.parts import DETAILS_MARK, render_parts
from bot.render.renderer import render

SEED = "7B模型1万亿token要多少A100"


@pytest.fixture(scope="module")
def seed():
    return _ask(SEED, "en", "json")[2]


def test_parts_are_the_reply_in_three(seed):
    parts = render_parts(seed, "markdown")
    whole = render(seed, "markdown")
    assert (
        parts.headline
        == whole.split("\n", 1)[0]
        == "**7B pre-training on 1T tokens ≈ 93.5K A100-hours: about 136 GPUs (17 × 8-GPU nodes) "
        "for 29 days (within 30 days)**"  # T22 item 3: the days table's days
    )
    assert parts.figures.startswith("• Compute: C = 6ND = 4.2×10²² FLOPs\\\n")
    assert parts.details.startswith("• Why: the model states fit with ZeRO-1")
    assert "**Assumptions and sources**" in parts.details
    assert "### Details" not in parts.details and "### Details" not in parts.figures
    assert not parts.figures.endswith("\\")  # hard breaks inside a part only
    assert whole.replace("\n### Details\n", "").startswith(parts.headline)
    for piece in (parts.figures, parts.details):
        assert DETAILS_MARK not in piece


def test_html_parts_have_no_collapsed_block(seed):
    parts = render_parts(seed, "html")
    assert parts.headline.startswith("<b>") and "<blockquote" not in parts.details
    assert "<pre>" in parts.details  # a card can show the tables as code: Telegram's nesting limit is gone
    plain = render_parts(seed, "text")
    assert plain.headline == render(seed, "text").split("\n", 1)[0]


def test_help_has_no_details():
    answer = _ask("hello", "en", "json")[2]
    parts = render_parts(answer, "plain")
    assert parts.details == "" and parts.headline and parts.figures
