"""Session 42 tail (issue 23 item 7): two parse patterns rewritten so ``re`` scans for a literal in C,
and one reader asked for its cue first; every answer the same (bench/answers_dump.py ``same``: 0 differ).

Each rewritten pattern is checked against the old one (kept here, verbatim) over the corpus questions and
the field cases, and by the readings its docstring names, in both languages: what it must read and what
looks like it but must not be read."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.parse.normalize import BARE_COMMA, normalize
from bot.parse.past_then_now import split_at_job
from bot.parse.tool_slots import _TOKEN, PREP_RE

DATA = Path(__file__).resolve().parent / "data"

OLD_BARE_COMMA = re.compile(
    r",(?=[\u3000-\u9fff])|(?<=[\u3000-\u9fff]),(?=\S)"
    r"|(?<=\d{4}),(?=\d)|(?<=\d{3}),(?=\d{1,2}(?!\d))"
    r"|(?<=\d),(?=\d{4}|\d{1,2}\s?(?:台|张|块|卡|个|条|节点|机|万|千|亿))"
)
"""bot.parse.normalize.BARE_COMMA before s42-tail (its branches started with look-behinds)."""
OLD_PREP_RE = re.compile(
    rf"(?:\b(?:with|using|via|through|in)\s+(?:the\s+)?|(?:用|使用|基于|通过|借助)\s*)(?P<name>{_TOKEN})"
    r"(?![A-Za-z0-9_\-])"
)
"""bot.parse.tool_slots.PREP_RE before s42-tail (``\\b`` before the words)."""


def _texts() -> list[str]:
    texts = [q["text"] for q in json.loads((DATA / "questions.json").read_text(encoding="utf-8"))]
    for name in ("field_cases.json", "fresh_s37.json"):  # every "text" (or "question") string held
        texts += [v for k, v in _strings(json.loads((DATA / name).read_text(encoding="utf-8"))) if k in KEYS]
    return texts


KEYS = ("text", "question")


def _strings(node: object, key: str = "") -> list[tuple[str, str]]:
    if isinstance(node, str):
        return [(key, node)]
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    return [pair for k, v in items for pair in _strings(v, k if isinstance(k, str) else key)]


TEXTS = _texts()


def test_the_corpus_is_read():
    assert len(TEXTS) >= 125  # questions.json alone holds 125


def test_bare_comma_subs_as_the_old_pattern_over_the_corpus():
    for text in TEXTS:
        low = text.lower()
        assert BARE_COMMA[0].sub(", ", low) == OLD_BARE_COMMA.sub(", ", low), text[:80]


def test_prep_matches_as_the_old_pattern_over_the_corpus():
    def spans(p: re.Pattern[str], t: str) -> list[tuple[tuple[int, int], str]]:
        return [(m.span(), m.group("name")) for m in p.finditer(t)]

    for text in TEXTS:
        assert spans(PREP_RE, text) == spans(OLD_PREP_RE, text), text[:80]


@pytest.mark.parametrize(
    ("text", "normalized"),
    [
        ("数据,4张A100", "数据, 4张a100"),
        ("8200,10 个", "8200, 10 个"),  # digit runs that are no groups of three
        ("128,16 卡", "128, 16 卡"),
        ("bs=1,4 台", "bs=1, 4 台"),
    ],
)
def test_a_bare_comma_that_separates_is_spaced(text: str, normalized: str):
    assert normalize(text) == normalized


@pytest.mark.parametrize(
    "text",
    ["1,000 条数据", "10,000,000 tokens", "cuda_visible_devices=0,1,2,3", "lr 1e-5,warmup 100"],
)
def test_a_thousands_separator_or_id_list_keeps_its_comma(text: str):
    assert normalize(text) == text


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("fine-tune Qwen with axolotl on 2 GPUs", "axolotl"),
        ("serving it through the vLLM stack", "vLLM"),
        ("training in Megatron with TP 4", "Megatron"),
        ("用 LlamaFactory 微调 7B", "LlamaFactory"),
        ("基于 verl 跑 GRPO", "verl"),
    ],
)
def test_a_name_after_a_preposition_of_means_is_read(text: str, name: str):
    assert [m.group("name") for m in PREP_RE.finditer(text)][:1] == [name]


@pytest.mark.parametrize(
    "text",
    ["within axolotl limits", "a plugin vLLM ships", "bewith axolotl", "信用 额度", "Goodwith Megatron"],
)
def test_a_preposition_inside_a_word_is_no_means(text: str):
    assert [m.group("name") for m in PREP_RE.finditer(text)] == []


def test_a_past_run_then_the_job_is_cut_in_both_languages():
    zh = split_at_job("8 张 4090 跑了 10 小时，用 4 张 a100 要多久")
    assert zh is not None and zh[1] == "用 4 张 a100 要多久" and zh[2].group(0) == "10 小时"
    en = split_at_job("we trained a 7b model on 8 a100s and it took 3 days. now how long on 16 h100?")
    assert en is not None and en[1].strip() == "now how long on 16 h100?" and en[2].group(0) == "3 days"


@pytest.mark.parametrize(
    "text",
    [
        "现在用 8 张 h100 训练 3 天要多少钱",  # a word of this time and a duration, but no finished run
        "now, how long would 16 h100 take for 3 days of data?",
        "训练 7b 3 天，换成 8 张 h100 要多久",  # '训练' without 了: no past run
        "we train for 3 days, now on 16 h100 how long?",
    ],
)
def test_no_past_run_verb_no_cut(text: str):
    assert split_at_job(text) is None
