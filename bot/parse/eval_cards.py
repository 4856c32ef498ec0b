"""Cards kept for evaluation or serving beside a training rig (trial s23 #3): 'full fine-tune 13B on 2 nodes
of 8 H100 plus 4 A100 for eval, 20B tokens, how long?', '13B 全参微调，2 台 8 卡 H100，另有 4 张 A100 做评测'.

The training runs on the rig that carries the count and the nodes (16 × H100); the cards said with a
purpose other than training ('for eval', 'for inference', '做评测', '用于推理') do not train, so they are
neither a second option to compare nor the card sized. Before, the A100 became a comparison row and the
headline the cheapest of two cards. Now such a phrase is blanked, the message parsed without it, and the
phrase named as not used (``eval_cards``), as typed. Only in a training question whose other words still
name a card (else the phrase is the only rig, and the parse is left as it was).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.parse.gpus import extract_gpus
from bot.parse.normalize import normalize
from bot.parse.result import ParseResult

EVAL_CARDS = "eval_cards"
EVAL_SHARE = "eval_share"
"""The reason of a share OF the rig kept for evaluation ('其中2张做评测'): not cards beside it (s24 #9)."""

TRAINING_RE = re.compile(r"train|fine-?tun|(?<![a-z])sft(?![a-z])|lora|预训练|微调|训练", re.IGNORECASE)
"""A training question: only there is a card for evaluation not the job's."""
RL_JOB_RE = re.compile(
    r"(?<![a-z])(?:grpo|ppo|dapo|rlhf|rloo|gspo|verl|openrlhf|slime|rollouts?)(?![a-z])|强化学习|在线\s*rl",
    re.IGNORECASE,
)
"""An online-RL job: its cards 'for inference' are the rollout engine's share of the job (round 4's
convention, :mod:`bot.parse.role_split`), not cards beside it."""
EVAL_CARDS_RE = re.compile(
    r"(?:(?:plus|and|with|another|extra|\+|另有|另外有?|还有|外加|加上?|以及|和)\s*)?"
    r"(?P<said>(?<![\d.])(?P<n>\d{1,3})\s*(?:x\s*|×\s*|张|块|台)?\s*"
    r"(?P<card>[a-z]{0,12}[\s\-]?\d{2,4}[a-z]{0,3}(?:\s*\d{2,3}\s*g(?:b)?)?)\s*(?:gpus?|cards?|卡)?\s*"
    r"(?:(?:are|is|used|reserved|kept)\s+)?"
    r"(?:for\s+(?:the\s+)?(?:evals?|evaluation|inference|serving)\b|(?:做|用于|用来|专门做?)\s*"
    r"(?:评测|评估|测评|推理)))",
    re.IGNORECASE,
)
"""'4 A100 for eval', '4 张 A100 做评测', '4x L40S for inference': a count, a card, a purpose not training;
round 35 zh: counted in 台 ('另外买 50 台 RTX 4090 做推理'), and never from inside a number ('4090 做推理' is
no 40 × '90')."""
PURPOSE_FIRST_RE = re.compile(
    r"(?P<said>(?:for\s+(?:the\s+)?(?:evals?|evaluation|inference|serving)\b\s*,?\s*(?:(?:we|i)\s+(?:have|use|"
    r"got|run|keep)\s+|there\s+(?:are|is)\s+|use\s+|on\s+|with\s+)?|(?:评测|评估|测评)\s*用\s*(?:的是)?\s*)"
    r"(?<![\d.])(?P<n>\d{1,3})\s*(?:x\s*|×\s*|张|块|台)?\s*"
    r"(?P<card>[a-z]{0,12}[\s\-]?\d{2,4}[a-z]{0,3}(?:\s*\d{2,3}\s*g(?:b)?)?)\s*(?:gpus?|cards?|卡)?)",
    re.IGNORECASE,
)
"""The purpose first ('for eval we have 2 L40S', '评测用2张L40S'; s24 review #11: a comparison row)."""
SHARE_RE = re.compile(
    r"(?P<said>(?:其中|of\s+(?:them|which|those))\s*(?P<n>\d{1,3})\s*(?:张|块|个)?\s*(?:卡|gpus?|cards?)?\s*"
    r"(?:(?:are|is)\s+)?(?:(?:做|用于|用来|专门做?)\s*(?:评测|评估|测评)|(?:used\s+)?for\s+(?:the\s+)?"
    r"(?:evals?|evaluation)\b))"
    r"|(?P<said2>(?P<n2>\d{1,3})\s+of\s+them\s+(?:(?:are|is)\s+)?(?:used\s+)?for\s+(?:the\s+)?(?:evals?|evaluation)\b)",
    re.IGNORECASE,
)
"""A share of the rig kept for evaluation ('8张A100，其中2张做评测', 'on 8 A100, 2 of them for eval'): the
training runs on the rest of the rig (review s23 #1: the share was sized as the rig)."""


def without_eval_cards(raw: str, parse_one: Callable[[str], ParseResult]) -> ParseResult | None:
    """The parse of ``raw`` without its cards for evaluation or serving (module doc), each named as not
    used (``(said, 'eval_cards')``); None when ``raw`` is not a training question with such cards beside
    another card (the caller parses it whole)."""
    if not TRAINING_RE.search(raw) or RL_JOB_RE.search(raw):
        return None
    found = _eval_phrases(raw)
    if not found:
        return _without_eval_share(raw, parse_one)
    kept, said, at = [], [], 0
    for m in found:
        kept.append(raw[at : m.start()] + " " * (m.end() - m.start()))
        said.append(" ".join(m.group("said").split()))
        at = m.end()
    rest = "".join(kept) + raw[at:]
    if not extract_gpus(normalize(rest))[1]:
        return None  # the only cards named: they are the rig
    parsed = parse_one(rest)
    return parsed.model_copy(
        update={"unused_numbers": [*parsed.unused_numbers, *((s, EVAL_CARDS) for s in said)]}
    )


def _eval_phrases(raw: str) -> list[re.Match[str]]:
    """Each phrase of cards for evaluation or serving, count first or purpose first, in order, none
    overlapping another."""
    out: list[re.Match[str]] = []
    both = [*EVAL_CARDS_RE.finditer(raw), *PURPOSE_FIRST_RE.finditer(raw)]
    for m in sorted(both, key=lambda m: m.start()):
        if not out or m.start() >= out[-1].end():
            out.append(m)
    return out


def _without_eval_share(raw: str, parse_one: Callable[[str], ParseResult]) -> ParseResult | None:
    """The parse of ``raw`` without its share of the rig kept for evaluation (:data:`SHARE_RE`), on the
    rest of the rig (the count less the share, when the count is larger), the share named as not used
    (``eval_share``); None without such a share."""
    m = SHARE_RE.search(raw)
    if m is None:
        return None
    share = int(m.group("n") or m.group("n2"))
    parsed = parse_one(raw[: m.start()] + " " * (m.end() - m.start()) + raw[m.end() :])
    count = parsed.request.gpu_count
    if not count or count <= share:
        return None
    said = " ".join((m.group("said") or m.group("said2")).split())
    return parsed.model_copy(
        update={
            "request": parsed.request.model_copy(update={"gpu_count": count - share}),
            "unused_numbers": [*parsed.unused_numbers, (said, EVAL_SHARE)],
        }
    )
