"""Issue 23 item 7, parse stage: the two wide stage-word alternations (fine-tuning, serving) asked
branch by branch (bot.parse.regex.AnyBranch: ~14 µs → ~4 µs a search) say what the alternations say,
for every parser pattern the splitter is tried on, and a stage is still read through the real CLI."""

from __future__ import annotations

import gc
import json

import pytest

import bot.parse
from bot.parse import lexicon as lx
from bot.parse.regex import AnyBranch, LazyPattern, top_level_branches
from tests.cli_run import CORPUS_QUESTIONS, ask_quietly
from tests.real_questions import records


@pytest.mark.parametrize(
    ("pattern", "branches"),
    [
        (r"a|b", ["a", "b"]),
        (r"abc", ["abc"]),
        (r"(?:a|b)c|d", ["(?:a|b)c", "d"]),
        (r"[|]x|y", ["[|]x", "y"]),
        (r"[]|]x|y", ["[]|]x", "y"]),  # "]" first in a class is the character
        (r"[^]|]x|y", ["[^]|]x", "y"]),
        (r"a\|b|c", [r"a\|b", "c"]),  # an escaped bar
        (r"[\]|]x|y", [r"[\]|]x", "y"]),
        (r"(?<![\-_])\bsft\b|微调", [r"(?<![\-_])\bsft\b", "微调"]),
        (r"(a)\1|b", [r"(a)\1|b"]),  # a back-reference: not split
        (r"(?P<x>a)(?P=x)|b", [r"(?P<x>a)(?P=x)|b"]),
        (r"(?i)a|b", [r"(?i)a|b"]),  # an inline global flag: not split
    ],
)
def test_top_level_branches(pattern: str, branches: list[str]):
    assert top_level_branches(pattern) == branches


def _texts() -> list[str]:
    texts = CORPUS_QUESTIONS + [r["text"] for r in records("work") + records("r2work")]
    return [bot.parse.parse(t).normalized for t in texts]


def _short_pattern(obj: object) -> bool:
    """A LazyPattern under 4,000 characters; a dead ``weakref.proxy`` that another test in the same worker
    left among ``gc.get_objects()`` raises on ``isinstance`` (CI preview, s40): not a pattern."""
    try:
        return isinstance(obj, LazyPattern) and len(obj.pattern) < 4000
    except ReferenceError:
        return False


def test_every_parser_alternation_asked_branch_by_branch_answers_as_itself():
    """Every parser pattern (a LazyPattern) over the normalized corpus and working questions: 'matches
    somewhere' branch by branch is exactly 'matches somewhere' (the splitter keeps every branch whole)."""
    texts = _texts()
    patterns = [p for p in gc.get_objects() if _short_pattern(p)]
    assert len(patterns) > 200
    split = 0
    for pattern in patterns:
        if len(top_level_branches(pattern.pattern)) < 2:
            continue
        split += 1
        any_branch = AnyBranch(pattern)
        wrong = [t for t in texts if any_branch.found(t) != (pattern.search(t) is not None)]
        assert not wrong, (pattern.pattern[:80], wrong[:2])
    assert split > 100


def test_the_stage_words_are_asked_branch_by_branch():
    from bot.parse import words

    stages = dict((stage, pattern) for pattern, stage in words._STAGE_WORDS)
    assert isinstance(stages["finetune"], AnyBranch) and stages["finetune"].pattern is lx.FINETUNE_RE
    # s37-r33zh: the inference stage words are lexicon's plus a chat demo script (cli_demo, web_demo)
    inference = stages["inference"]
    assert isinstance(inference, AnyBranch) and inference.pattern is words.INFERENCE_STAGE_RE
    assert words.INFERENCE_STAGE_RE.pattern.startswith(lx.INFERENCE_RE.pattern + "|")


@pytest.mark.parametrize(
    ("question", "stage"),
    [
        ("用LoRA微调Qwen2.5-7B，10万条数据，要几张4090", "finetune"),
        ("SFT a 13B model on 50k samples with 8 A100", "finetune"),
        ("deploy Llama-3-70B for 100 concurrent users on H100", "inference"),
        ("部署Qwen2.5-72B推理需要几张A100", "inference"),
        ("7B模型1万亿token要多少A100", "pretrain"),
        ("serve a QLoRA-tuned Llama-3-8B on one 4090", "inference"),  # fine-tuning words only describe it
    ],
)
def test_a_stage_is_read_through_the_cli(question: str, stage: str):
    assert json.loads(ask_quietly("--format", "json", "--", question))["request"]["stage"] == stage
