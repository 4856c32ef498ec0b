"""One card read from how the card is named, when no count is stated: 'on an A100', 'on the A100',
'在 A800 上跑' (a catalog card with a singular article), and 'on my 40GB GPU', '用 24G 显存的卡',
'我的 40G 显卡' (a card named by its memory: :mod:`bot.parse.one_card`). Neither is one card when the
question asks how many (:data:`bot.parse.words.ASKS_COUNT_RE`), except the card a failed run was on
('OOM on an A100, how many?': :data:`bot.parse.counts_tried.FAILED_RE`). Step 4 of the parse reads them
(:meth:`bot.parse.gpu_field_steps.GpuFieldSteps._gpu_fields`).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from bot.parse.counts_tried import FAILED_RE
from bot.parse.normalize import GPU_MARK
from bot.parse.one_card import one_memory_card
from bot.parse.regex import compile_pattern, rc
from bot.parse.words import _HOST_CPU, ARTICLE_GPU_RE, ASKS_COUNT_RE, MEM_CARD_RE


def one_named_card(s: str, f: dict[str, Any], plural: bool) -> bool:
    """'on an A100', 'on the A100', '在 A800 上跑' in the normalized text ``s``: one card, unless the question
    asks how many (not of a failed run's: 'OOM on an A100, how many?'), or the card is named in the plural
    (``plural``: 'on the A100s'), or a TP/PP above one is stated in the fields ``f`` (its world size is the
    count; r35 en: TP 1 × PP 1 is one card's copy, so the article's one card stands)."""
    if plural or (f.get("tp") or 1) * (f.get("pp") or 1) != 1:
        return False
    if ("部署" in s or "上线" in s) and _DEPLOY_ON_RE.search(s) and not _HOST_RE.search(s):
        return False  # the platform deployed on, not one card; a host's CPU and its card is one machine
    named = ARTICLE_GPU_RE.found(s) or (
        ("colab" in s or "kaggle" in s) and NOTEBOOK_CARD_RE.search(s) is not None
    )
    return named and (not ASKS_COUNT_RE.search(s) or bool(FAILED_RE.search(s)))


NOTEBOOK_CARD_RE = rc(
    rf"\b(?:on|with|using|in)\s+(?:an?|the|my)\s+(?:free\s+)?(?:(?:colab|kaggle)\s+)?{GPU_MARK}"
    r"(?:\s*gpu)?\s+(?:instance|runtime|vm|notebook)\b"
)
"""s46-workmiss (en34-007): a notebook service's card said as its instance ('Google Colab … on a T4 instance',
'a Kaggle P100 runtime'): one card — a Colab or Kaggle GPU runtime holds one (:data:`ARTICLE_GPU_RE` leaves
'an A100 instance' uncounted elsewhere: a cloud instance may hold several). Gated by 'colab' or 'kaggle'."""


_DEPLOY_ON_RE = rc(r"(?:部署|上线)\s*(?:在|到|于)|在[^，。,;；!?！？]{0,24}?上\s*(?:来|去)?(?:部署|上线)")
"""A deployment onto a card kind ('部署在昇腾910B上', '在 A800 上部署 Qwen2.5-72B', s37 grpo #3): the kind
of card the service runs on, no count said; the fewest that fit are sized, not one ('在 A800 上跑' stays
one card)."""
_HOST_RE = rc(_HOST_CPU)
"""A host's CPU named with its card ('在 i9-14900K + Arc B580 上部署'): one machine, its one card."""


def memory_card_one(s: str) -> bool:
    """'用 24G 显存的卡', 'on my 40GB GPU', '我的 40G 显卡' in the normalized text ``s``: one card of that
    memory (:mod:`bot.parse.one_card`); not when the count is asked ('…显存的卡，几张')."""
    one = MEM_CARD_RE.search(s) or one_memory_card(s)
    return bool(one) and not ASKS_COUNT_RE.search(s)


ANOTHER_CARD_RE = rc(
    rf"\b(?:(?:a|an|one)\s+(?:separate|second|other|extra|additional)|another)\s+(?:\d{{2,3}}\s*g(?:b|ib)?\s+)?"
    rf"{GPU_MARK}(?!\s*s\b)|(?:另一|另外一|再加一|还有一|第二)\s*(?:张|块|个)\s*{GPU_MARK}"
)  # a catalog card's mark: an unknown card after the cue is another kind ('再加一张 2060 Super 8G')
"""A second card of one setup, named after the first ('an A100 … the reward model on a separate A100', '另一张
A100'): two cards, one each (s34-gen2, issue 24: a count built up from its parts)."""


ONE_MORE = compile_pattern(r"another|separate|second|other|extra|additional|另|再加|还有一|第二").search
"""The literals of :data:`ANOTHER_CARD_RE`, searched in C at the call site (no frame without one)."""


def one_more(s: str, gpus: list[Any], count: float = 1) -> bool:
    """Whether a second card of the same kind (``gpus``: one card id) is named apart (:data:`ANOTHER_CARD_RE`)
    in the normalized text ``s`` beside one named with an article or '一张': two cards, never a card switched
    to ('换成另一张 A100'). The caller asks :data:`ONE_MORE` first; ``count``: the count read ('一张')."""
    if count != 1 or len(set(map(_GPU_ID, gpus))) != 1 or _SWITCH_RE.search(s):
        return False
    return ANOTHER_CARD_RE.search(s) is not None


_GPU_ID = attrgetter("gpu_id")
_SWITCH_RE = rc(r"换成|换到|改成|改用|\binstead\b|\bswitch|\breplac")
"""A card switched to, not added ('换成另一张 A100', 'another A100 instead')."""


_ONE_UNKNOWN_BEFORE_RE = rc(
    r"(?:\b(?:an?|one|my|our|the|single)|\b(?:gpu|graphics\s+card|video\s+card)\s*[:=]|一张|一块|单张|我的)"
    r"\s*(?:[a-z][a-z\-]*\s+){0,3}$"
)
"""Before an unknown card's name: a singular article or a one-card label, then at most three words of the
name's maker or line ('an Arc A730M', 'a Quadro P4000 GPU', 'GPU: Nvidia Geforce GTX 1650 Super',
'一张 MI50')."""
_MANY_AFTER_RE = rc(r"(?:s\b|\s*(?:cards|gpus|x\b|×|\*))")
"""After the name: a plural or a multiplier ('the P4000s', 'the P4000 cards') is no single card."""


def one_unknown_card(raw: str, typed: str, s: str) -> bool:
    """'on an Arc A730M', 'and a Quadro P4000 GPU', 'GPU: Nvidia Geforce GTX 1650 Super': one card of a kind
    the catalog lacks, named as ``typed`` in the message ``raw``, as :func:`one_named_card` reads one for a
    catalog card (r43 en: an unknown card was named as typed but its count left open, the question sized as
    'how many'). Not when the normalized text ``s`` asks how many (unless a failed run's card, as there), nor
    in the plural. The caller has no count read: no frame without an unknown card."""
    low = raw.lower()
    at = low.find(typed.lower())
    if at < 0 or _MANY_AFTER_RE.match(low, at + len(typed)):
        return False
    if not _ONE_UNKNOWN_BEFORE_RE.search(low[max(0, at - 48) : at]):
        return False
    return not ASKS_COUNT_RE.search(s) or bool(FAILED_RE.search(s))


def unknown_card_fields(f: dict[str, Any], raw: str, typed: str, s: str) -> None:
    """The fields ``f`` of an unknown card named as ``typed`` (the estimator keeps the name, and its memory if
    given), one card when :func:`one_unknown_card` reads one and no count was read."""
    f["gpu"] = typed
    if f.get("gpu_count") is None and one_unknown_card(raw, typed, s):
        f["gpu_count"] = 1
