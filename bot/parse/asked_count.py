"""The GPU count of the setup asked about when a message states more than one (moved out of
bot.parse.field_steps, session 17: that module is at its line limit)."""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING

from bot.parse.count_forms import total_count
from bot.parse.regex import rc
from bot.parse.roles import Role
from bot.parse.used_counts import used_count
from estimator.later import later

others_at, others_cue = later(
    "bot.parse.others_run", "others_at", "others_cue"
)  # on first call: a plain `ask` never calls it (s48-startup)

(_asked_single,) = later("bot.parse.asked_single", "asked_single")  # behind '单' (s49-workmiss)

if TYPE_CHECKING:
    from bot.parse.field_steps import FieldSteps

QUESTION_RE = rc(
    r"[?？]|吗|多少|几张|几块|够不够|能不能|可不能|是否|\bhow\b|\bwhat\b|\bwhich\b|\bcan\b|\bcould\b"
    r"|\bwould\b|\bwill\b|\bis\s+it\b|\bdoes\b|\benough\b"
)
SENTENCE_END_RE = rc(r"[。.;；!！?？\n]")


def own_counts(steps: FieldSteps, counts: list[Role]) -> list[Role]:
    """``counts`` less those said of someone else's run (:func:`bot.parse.others_run.others_at`: '别人用 4
    张', 'others used 4 A100s'), each marked used and named as another setup's (``other_setup``); all of
    them when every count is someone else's (the run asked about, as before)."""
    theirs = [r for r in counts if others_at(steps.s, r.tok.start)]
    if not theirs or len(theirs) == len(counts):
        return counts
    for r in theirs:
        steps.used.add(id(r))
        steps.named_unused.append((r.tok.raw.strip(), "other_setup"))
    return [r for r in counts if r not in theirs]


def asked_count(steps: FieldSteps) -> Role | None:
    """The GPU count of the setup asked about. Two setups in one message ('8 张 A100 跑得动，4 张
    够吗？', 'two A40s, but I only want to use one of them'): the count in the question sentence
    (the last one that asks), or the cards used out of those owned ('one of them', '只用了 4 张': the
    machine's count named, other_setup); the other count is named as not used. One count, or counts
    that agree: the first."""
    counts = all_counts = [r for r in steps.roles if r.role == "count"]
    if (used := used_count(steps.s, counts)) is not None:  # '只想用其中一张', '有 4 张，配置了 3 张'
        steps.notes.append("two_setups")  # the used count's own role if it is one; the machine's named
        if said := next((r for r in counts if r.value == used), None):
            steps.used.add(id(said))
        for owned in (r for r in counts if r.value > used and id(r) not in steps.used):
            steps.used.add(id(owned))  # s46: 'one machine of 8' named by its 8 (the per-node count), not '一'
            per_node = owned.extra[9:] if owned.extra and owned.extra.startswith("per_node:") else None
            steps.named_unused.append((per_node or owned.tok.raw.strip(), "other_setup"))
        return said or (Role("count", used, counts[0].tok) if counts else None)
    if "单" in steps.s and counts and _asked_single(steps.s, counts):  # s49: '两张卡 … 有办法单卡运行吗？'
        steps.notes.append("two_setups")
        for owned in counts:
            steps.used.add(id(owned))
            steps.named_unused.append((owned.tok.raw.strip(), "other_setup"))
        return Role("count", 1, counts[-1].tok)
    if len({r.value for r in counts}) < 2:
        return steps.first("count")
    total = total_count(steps.s, counts)  # '3 groups of 8 …, 24 in total': the job's count
    if total is not None:
        steps.used.add(id(total))
        return total
    if others_cue(steps.s):  # s43: '别人用 4 张 A100 …，我用 8 张': someone else's count is their run's
        counts = own_counts(steps, counts)
        if len({r.value for r in counts}) < 2:
            steps.notes.append("two_setups")
            steps.used.add(id(counts[0]))
            return counts[0]
    bounds = [0] + [m.end() for m in SENTENCE_END_RE.finditer(steps.s)] + [len(steps.s)]
    asked = None
    for start, end in pairwise(bounds):
        if QUESTION_RE.search(steps.s[start:end]):
            in_it = [r for r in counts if start <= r.tok.start < end]
            asked = in_it[0] if in_it else asked
    if asked is None:
        return steps.first("count") if len(counts) == len(all_counts) else counts[0]
    steps.notes.append("two_setups")
    steps.used.add(id(asked))
    return asked
