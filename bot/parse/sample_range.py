"""A range of lengths per sample ('2k~4k tokens per sample', '每条样本 1000 到 3000 token'; trial s17 t2
item 1): two tokens-per-sample values were read as a second value for the same setting and the shorter end
sized. Every sample must fit, so the memory is sized at the longer end (the sequence length, as
:func:`bot.parse.negated_values.seq_role` sizes a range of lengths); the data's tokens, and so the time,
at the range's mean (samples × mean × epochs), and the reply says so (reason ``sample_range``). A range of
sample counts ('10k to 50k samples') is sized at its upper end, the lower named (s43)."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from bot.parse.negated_values import RANGE_END_RE
from bot.parse.regex import rc
from bot.parse.roles import Role, seq_value

AVG_CUE_RE = rc(r"(?i)(?:average|avg|mean|平均)[^\d]{0,24}$")
"""An average's word just before a length ('average 800', 'avg. length 800', '平均长度 800')."""
MAX_CUE_RE = rc(r"(?i)(?:max(?:imum)?|longest|最长|最大)[^\d]{0,24}$")
"""A longest length's word just before it ('max 4096', 'longest 4k', '最长 4096')."""


def sample_range(steps: Any) -> None:
    """When the ends of one range of lengths give the tokens per sample, the tokens per sample become
    their mean (for the data and the time) and the longer end the sequence length (a ``seq`` role, for
    the memory), named with reason ``sample_range``; nothing changes when another length is stated.
    ``steps``: the parse's field steps (roles, normalized text ``s``, ``named_unused``)."""
    _most_samples(steps)
    lengths = [r for r in steps.roles if r.role in ("tps", "seq")]
    for low in lengths:
        m = RANGE_END_RE.match(steps.s, low.tok.end)
        ends = [r for r in lengths if m and m.start(1) <= r.tok.start < m.end()]
        if len(ends) == 1 and ends[0].tok.value > low.tok.value and _one_tps(low, ends[0], lengths):
            _sized(steps, low, ends[0])
            return
    _average_and_longest(steps, lengths)


def _most_samples(steps: Any) -> None:
    """A range of sample counts ('10k to 50k samples', '1万到5万条', '10k-50k examples'; s43 issue 24: the
    first end was sized and the far one named ``repeated``) is sized at its upper end, the most data the job
    may run (as a range of lengths is sized at its longer end: :func:`bot.parse.negated_values.seq_role`);
    the lower end is named as another setup (``other_setup``). Both ends must be read as samples, the far
    one right after the range mark (:data:`bot.parse.negated_values.RANGE_END_RE`)."""
    samples = [r for r in steps.roles if r.role == "samples"]
    for low, high in pairwise(samples):
        m = RANGE_END_RE.match(steps.s, low.tok.end)
        if m and m.start(1) == high.tok.start and high.tok.value > low.tok.value:
            steps.roles.remove(low)
            steps.named_unused.append((low.tok.raw.strip(), "other_setup"))
            return


def _one_tps(low: Role, high: Role, lengths: list[Role]) -> bool:
    """Whether a range's ends ``low``, ``high`` are the message's only tokens-per-sample (one of them at
    least; '每条 2k~4k token' reads the far end as a length, '2k~4k token 的样本' the near one) and no
    other length is stated."""
    ends = (low, high)
    tps = [r for r in ends if r.role == "tps"]
    return bool(tps) and all(r.extra == "tokens" for r in tps) and all(r in ends for r in lengths)


def _sized(steps: Any, low: Role, high: Role) -> None:
    """The range ``low``–``high`` as tokens per sample at its mean and the sequence at its longer end."""
    typed = steps.s[low.tok.start : high.tok.end].strip()
    mean = (low.tok.value + high.tok.value) / 2  # 2k~4k → 3,000 tokens a sample
    steps.roles.remove(low)
    steps.roles.remove(high)
    steps.roles.append(Role("tps", mean, low.tok, extra="tokens"))
    steps.roles.append(Role("seq", seq_value(high.tok), high.tok))  # '4k' → 4,096
    steps.named_unused.append((typed, "sample_range"))


def _average_and_longest(steps: Any, lengths: list[Role]) -> None:
    """'average 800 tokens, max 4096' (trial s23 #4): the two lengths per sample, an average's word before
    one and a longest's before the other, were a second value for the same setting. The average gives the
    data's tokens and the time (tokens per sample); the longest the sequence length the memory is sized
    at, as a trainer pads or cuts each micro-batch to its longest (LLaMA-Factory ``cutoff_len``, TRL
    ``SFTConfig.max_length``); named with reason ``sample_avg_max``. Only when they are the message's
    only two lengths, and the longest is the longer."""
    if len(lengths) != 2 or not any(r.role == "tps" and r.extra == "tokens" for r in lengths):
        return
    avg = [r for r in lengths if AVG_CUE_RE.search(steps.s, max(0, r.tok.start - 30), r.tok.start)]
    top = [r for r in lengths if MAX_CUE_RE.search(steps.s, max(0, r.tok.start - 30), r.tok.start)]
    if len(avg) != 1 or len(top) != 1 or avg[0] is top[0] or top[0].tok.value <= avg[0].tok.value:
        return
    mean, longest = avg[0], top[0]
    steps.roles.remove(mean)
    steps.roles.remove(longest)
    steps.roles.append(Role("tps", mean.tok.value, mean.tok, extra="tokens"))
    steps.roles.append(Role("seq", seq_value(longest.tok), longest.tok))
    steps.named_unused.append((steps.s[longest.tok.start : longest.tok.end].strip(), "sample_avg_max"))
