"""The stage words' branch plan of session 12 (issue 23 item 7): an :class:`bot.parse.regex.AnyBranch`
asks only the branches one of whose required literals occurs (:class:`bot.parse.regex_gate.BranchPlan`),
from a process's second message on. Compared with the whole alternation's search on the corpus questions,
every real-question file (raw and normalized) and texts made of each literal and each branch's words."""

from __future__ import annotations

import itertools
import re

from corpus import question_texts

from bot.parse import lexicon as lx
from bot.parse import parse, words
from bot.parse.normalize import normalize
from bot.parse.regex import _ANY_BRANCHES, AnyBranch, LazyPattern, add_gates
from bot.parse.regex_gate import branch_plan

QUESTIONS, REAL = question_texts()
TEXTS = [*QUESTIONS, *REAL]


def _made(plan_literals: list[str]) -> list[str]:
    """Each literal alone, glued, after a hyphen, between words, and two of them together."""
    out = []
    for lit in plan_literals:
        out += [lit, f"x{lit}x", f"-{lit}", f"a {lit} 7b", f"{lit}ing the model", f"用 {lit} 跑", f"{lit}d"]
    out += [f"{a} {b}" for a, b in itertools.pairwise(plan_literals)]
    return out


def _warm() -> None:
    parse("7B 模型 预训练 1T token")
    parse("serve llama 3 8b on one 4090")
    add_gates()


def test_every_stage_alternation_has_a_plan() -> None:
    _warm()
    held = [p for p, _ in words._STAGE_WORDS if isinstance(p, AnyBranch)]  # the ones the parse asks
    # s37-r33zh: the inference stage words are lexicon's plus the chat demo scripts
    expected = {lx.CONTINUED_RE, lx.FINETUNE_RE, lx.PRETRAIN_RE, words.INFERENCE_STAGE_RE}
    assert {a.pattern.pattern for a in held} == {p.pattern for p in expected}  # every stage word (s18)
    for any_branch in held:
        if any_branch not in _ANY_BRANCHES:  # made after this process's second message (a reload)
            continue
        assert any_branch._plan is not None, any_branch.pattern.pattern[:40]


def test_plan_answers_as_the_alternation() -> None:
    _warm()
    planned = [a for a in _ANY_BRANCHES if a._plan is not None]
    assert planned
    for any_branch in planned:
        whole = re.compile(any_branch.pattern.pattern, any_branch.pattern._flags)
        plan = any_branch._plan
        assert plan is not None
        literals = [lit for lit, _ in plan._literals]
        texts = [*TEXTS, *(t.lower() for t in TEXTS), *(normalize(t) for t in TEXTS), *_made(literals)]
        hits = 0
        for text in texts:
            expected = whole.search(text) is not None
            assert any_branch.found(text) == expected, text
            hits += expected
        assert 0 < hits < len(texts)


def test_no_plan_without_a_literal_in_every_branch() -> None:
    assert branch_plan(tuple(AnyBranch(LazyPattern(r"\d+|lora")).branches())) is None  # '\d+' needs none
    assert branch_plan(tuple(AnyBranch(LazyPattern(r"(?i)lora|qlora")).branches())) is None  # case-blind
    plan = branch_plan(tuple(AnyBranch(LazyPattern(r"\blora\b|微调|fine[\s\-]?tun")).branches()))
    assert plan is not None
    assert plan.found("a lora run") and plan.found("要微调") and plan.found("fine tuning")
    assert not plan.found("loraxx") and not plan.found("fine") and not plan.found("")
