"""Issue 23 item 7 (session 22): patterns whose adjacent ``\\s*`` split a run of spaces in every way
before failing, rewritten so that each optional word takes the spaces after it — the same texts, matched
at the same spans.

``withheld.RL_PART_AFTER_RE`` (``\\s*(?:的)?\\s*(?:模型)?\\s*(?:做…)?\\s*reward…``: four ``\\s*`` in a
row when the words are absent, n³ ways on a run of n spaces) took 1.9 s and 1.5 s a parse on two
working-split pastes (r6work, r11work) whose masked words left long runs of spaces;
``self_correction.CUE_RE`` (``\\s*[,，]?\\s*[(（]?\\s*``, tried at each start of the run) ~90 ms on a
193-character paraphrase; the same shape after a number (``role_left.R_OOM_AFTER``, the deadline words
of ``past_run`` and ``earlier_counts``, ``engines_named.ACCEPTED_AFTER_RE``: 0.1–14 s searched over a
run of 100 spaces). All are compared here with the patterns as they were, on every corpus,
working-split and paraphrase text (as typed, lower- and upper-cased, normalized as the parse reads it)
and on texts made to hold the words after runs of spaces, commas and brackets."""

from __future__ import annotations

import re

import bot.parse
from bot.parse import earlier_counts, engines_named, past_run, role_left, self_correction, withheld
from tests.cli_run import CORPUS_QUESTIONS
from tests.paraphrases import paraphrases
from tests.real_questions import records

WORK = ["work", *(f"r{i}work" for i in (2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15))]
MADE = [
    "4 A100 , ( sorry , 8 A100",
    "4 A100   ,   （   不对 ， 8 H100",
    "two 3090?  no,  two 4090",
    "on 2 L40S (no wait, 4 L40S)",
    "8 H100 ,, sorry, 8 A100",
    "4 A100 , i meant, 8 A100 , i mean , 16",
    "Qwen2.5-14B 做 actor，7B  的  模型  做  reward",
    "actor 70B   as the   critic, 7B as   our reference model, 7B  当作   参考",
    "70B 的模型用于 reward；7B   的   value   ",
    "8 张  显存  上  就  oom, 4 卡 爆, 24g 卡上直接 out of memory",
    "3 个 天 内, 5  天  能训完吗, 2 周以内, 6 个 月 来得及, 12 h 内, 3 小时之内",
    "vllm 的话 也行, sglang  is  also fine too, tgi   would also be   okay, lmdeploy 's ok",
]


def _texts() -> list[str]:
    raw = CORPUS_QUESTIONS + [r["text"] for s in WORK for r in records(s)]
    raw += [r["text"] for lang_ in ("zh", "en") for r in paraphrases(lang_)] + MADE
    cased = [v for t in raw for v in (t, t.lower(), t.upper())]
    return cased + [bot.parse.parse(t).normalized for t in raw]


RL_PART = withheld._RL_PART
RL_PART_AFTER_BEFORE = re.compile(
    rf"(?i)\s*(?:的)?\s*(?:模型)?\s*(?:做|作为|当作?|用作|用于|来做|as\s+(?:the\s+|a\s+|our\s+)?)?\s*{RL_PART}"
)
CUE_BEFORE = re.compile(
    r"\s*(?:[?？]\s*(?:no|nope)|[,，]?\s*[(（]?\s*(?:no\s+wait|sorry|i\s+mean|i\s+meant|correction|my\s+bad)"
    r"|[,，]?\s*[(（]?\s*(?:不对|说错了|打错了|写错了))\s*[,，:：!！]\s*(?=\S)"
)


BEFORE_AT_A_POSITION = {
    (role_left, "R_OOM_AFTER"): (
        r"\s*(?:显存|显卡|的卡|卡)?\s*(?:上|里)?\s*(?:就|都|也|会|直接|还是)?\s*(?:oom|爆|out\s+of\s+mem)"
    ),
    (past_run, "_DEADLINE_AFTER_RE"): (
        r"\s*(?:个)?\s*(?:天|days?|周|weeks?|月|months?)?\s*(?:内|以内|之内|能|可以|够|来得及)"
    ),
    (earlier_counts, "DEADLINE_AFTER_RE"): (
        r"\s*(?:个)?\s*(?:天|days?|小时|hours?|h|周|weeks?|月|months?)?\s*(?:内|以内|之内)"
    ),
    (engines_named, "ACCEPTED_AFTER_RE"): (
        r"\s*(?:的话)?\s*(?:也行|也可以|也可|也成|也ok|也没问题|也能接受|都行|都可以)"
        r"|\s*(?:would\s+(?:also\s+)?be|is|are|'s)?\s*(?:also\s+)?(?:fine|ok(?:ay)?|acceptable)"
        r"(?:\s+too|\s+as\s+well)?(?![a-z])|\s*(?:also\s+)?works\s+(?:too|as\s+well)\b"
    ),
}
"""Patterns matched at one position (after a number or a name), as written before session 22."""


def _short_space_runs(s: str) -> str:
    """``s`` with each run of spaces cut to 12 (the old patterns cost n³ on a run of n)."""
    return re.sub(r"\s{13,}", lambda m: m.group(0)[:12], s)


def test_rl_part_after_a_model_matches_as_before():
    now = withheld.RL_PART_AFTER_RE.compiled
    assert now.pattern != RL_PART_AFTER_BEFORE.pattern
    found = 0
    for text in map(_short_space_runs, _texts()):
        for at in range(len(text)):
            m, was = now.match(text, at), RL_PART_AFTER_BEFORE.match(text, at)
            assert (m and m.span()) == (was and was.span()), (text, at)
            found += m is not None
    assert found > 100


def test_self_correction_cues_match_as_before():
    now = self_correction.CUE_RE.compiled
    assert now.pattern != CUE_BEFORE.pattern
    found = 0
    for text in map(_short_space_runs, _texts()):
        spans = [m.span() for m in now.finditer(text)]
        assert spans == [m.span() for m in CUE_BEFORE.finditer(text)], text
        found += len(spans)
    assert found >= 20


def test_words_after_a_value_match_as_before():
    texts = list(map(_short_space_runs, _texts()))
    for (module, name), before_src in BEFORE_AT_A_POSITION.items():
        now = getattr(module, name).compiled
        before = re.compile(before_src, now.flags)
        assert now.pattern != before.pattern, name
        found = 0
        for text in texts:
            for at in range(len(text)):
                m, was = now.match(text, at), before.match(text, at)
                assert (m and m.span()) == (was and was.span()), (name, text, at)
                found += m is not None
        assert found >= 3, name
