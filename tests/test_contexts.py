"""Typed template contexts (issue 23 item 3): the contexts built for real answers, asked through the
CLI's pipeline, hold only the keys bot/render/contexts.py declares (all of them for the fixed-shape
sections), and every ``m.x`` / ``t.x`` / ``inf.x`` a template reads is declared."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_type_hints

import pytest

from bot.cli import _ask
from bot.render import contexts
from bot.render.context import build_context
from bot.render.i18n import templates_dir

QUESTIONS = (
    "7B模型1万亿token要多少A100",
    "Full fine-tune Qwen2.5-14B on 100M tokens with 8 H100",
    "Serve Llama-3-70B, 100 concurrent, 8k context on H100",
    "一张4090能跑多大的模型",
    "预算10万元，能训练多大的模型",
    "rent 8 H100 for 6 hours",
    "Pre-train a 7B model on 1T tokens: A100 vs H100, which is cheapest?",
)


def declared(kind: type) -> set[str]:
    return set(get_type_hints(kind))


@pytest.fixture(scope="module")
def built() -> list[dict]:
    out = []
    for q in QUESTIONS:
        _, _, answer = _ask(q, None, "json")
        assert answer.report is not None, q
        out.append(dict(build_context(answer.report, answer.lang, answer.parsed, answer)))
    return out


def test_reply_context_keys_are_declared(built):
    reply = declared(contexts.ReplyContext)
    for ctx in built:
        assert set(ctx) <= reply, set(ctx) - reply
        assert declared(contexts.ParseExtras) | declared(contexts.UnderstoodExtras) <= set(ctx)


def test_each_section_is_its_declared_shape(built):
    seen = set()
    for ctx in built:
        for key, kind in contexts.SECTION_TYPES.items():
            section = ctx[key]
            if not section:
                continue
            seen.add(key)
            assert set(section) <= declared(kind), (key, set(section) - declared(kind))
            if kind.__total__:  # a fixed shape: every declared key is there
                assert set(section) == declared(kind), (key, declared(kind) - set(section))
    assert seen == set(contexts.SECTION_TYPES)  # the questions reach every section


@pytest.mark.parametrize(("name", "kind"), [("m", contexts.MemoryContext), ("t", contexts.TrainingContext),
                                            ("inf", contexts.InferenceContext)])  # fmt: skip
def test_templates_read_only_declared_keys(name, kind):
    used = set()
    for path in Path(templates_dir()).glob("*.j2"):
        used |= set(re.findall(rf"\b{name}\.([a-z_0-9]+)", path.read_text(encoding="utf-8")))
    assert used and used <= declared(kind), used - declared(kind)


def test_help_context_is_declared():
    from bot.render import renderer

    text = renderer.render_help("en", "markdown", out_of_scope=True)
    assert text.startswith("Sorry")
    assert {"out_of_scope", "failed", "lost_followup", "switched"} <= declared(contexts.HelpContext)
