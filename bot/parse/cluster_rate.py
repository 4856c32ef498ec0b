"""A training throughput measured on the whole cluster (s42 zhleft #2, issue 24): '8 张 A100，每秒 3000
token', 'our 8 A100s do 3000 tokens/s' — no word says per GPU, so the rate is all the cards' together.
Before, the rate was dropped ('3000' named ``repeated`` or ``unread``). Now the settings reader names it
``cluster_rate`` (bot.parse.settings._throughput), and once the job's GPU count is known
(:func:`with_cluster_rate`) the answer times the job with the rate per GPU = the cluster's rate ÷ its GPU
count (tokens/s per GPU, ``tokens_per_second_per_gpu``), the item then ``cluster_rate_used``. Without a
count it stays named, not used: nothing to divide it by.

A rate written '每秒 N token' in a training question (:func:`second_first_rate`) is written 'N tok/s' first,
so the one reader (TPS_RE) reads both languages; a per-card one ('每张卡每秒 3000 token') is
bot.parse.throughput_words.PER_CARD_SECOND_RE's.
"""

from __future__ import annotations

from bot.parse.numbers import parse_number
from bot.parse.result import ParseResult
from bot.parse.throughput_words import PER_SECOND_FIRST_RE
from bot.parse.tps_forms import TPS_RE
from estimator.models import Stage

CLUSTER_RATE = "cluster_rate"
"""The reason (and the parse note) of a training rate of the whole cluster, not yet divided."""
CLUSTER_RATE_USED = "cluster_rate_used"
"""Its reason once divided by the job's GPU count: the measured rate per GPU the answer times with."""
_TRAINING = (Stage.pretrain, Stage.finetune, Stage.continued_pretrain)


def second_first_rate(s: str) -> str:
    """The normalized text ``s`` with its first rate written '每秒 N token' (PER_SECOND_FIRST_RE: '每秒 3000
    token', '每秒能跑 3k 个 token') written 'N tok/s', padded to the match's length so later offsets hold;
    unchanged without one, or when the rewrite would be longer."""
    m = PER_SECOND_FIRST_RE.search(s)
    if m is None:
        return s
    value = parse_number(m.group("v").replace(" ", ""))
    text = f"{value:g} tok/s" if value else ""
    if not text or len(text) > m.end() - m.start():
        return s
    return s[: m.start()] + text.ljust(m.end() - m.start()) + s[m.end() :]


def with_cluster_rate(parsed: ParseResult) -> ParseResult:
    """``parsed`` with a cluster's training rate (item ``cluster_rate``: '3000 tok/s') divided by the job's
    GPU count as ``tokens_per_second_per_gpu`` (tokens/s per GPU), the item then ``cluster_rate_used``;
    unchanged (the same object) without the note, a training stage, a GPU count, or with a per-GPU rate
    or an MFU or TFLOPS of the user's own already read."""
    req = parsed.request
    if req.stage not in _TRAINING or not req.gpu_count or req.tokens_per_second_per_gpu:
        return parsed
    if req.mfu or req.achieved_tflops_per_gpu:
        return parsed
    items = parsed.unused_numbers
    at = next((i for i, (_, why) in enumerate(items) if why == CLUSTER_RATE), None)
    m = TPS_RE.search(items[at][0]) if at is not None else None
    value = parse_number(m.group("v").replace(" ", "").replace(",", "")) if m else None
    if at is None or not value:
        return parsed
    per_gpu = round(value / req.gpu_count, 1)
    request = req.model_copy(update={"tokens_per_second_per_gpu": per_gpu})
    unused = [*items[:at], (items[at][0], CLUSTER_RATE_USED), *items[at + 1 :]]
    return parsed.model_copy(update={"request": request, "unused_numbers": unused})
