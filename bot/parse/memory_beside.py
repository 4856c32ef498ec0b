"""Card memories written beside a card's name (split off :mod:`bot.parse.memory_forms`, session 39): a
card's variants ('A100 40/80GB'), the memory in use out of each card's ('23643MiB / 24576MiB', '75GB out
of 80GB'), a Mac's unified memory ('a Mac Studio that has 192GB'), one of two memories ('12G 或者 16G 的
显卡': one sized, the other named); and :func:`_sub`, a substitution only where its pattern matches.
"""

from __future__ import annotations

import re
from typing import Any

from bot.parse.card_floor import SMALLEST_CARD_GIB
from bot.parse.regex import rc

USED_OF_RE = rc(
    r"(?<![\d.])(?P<n>\d+(?:\.\d+)?)\s*(?P<u>mib|mb|gib|gb|g)?\s*(?P<sep>/|out\s+of|of)\s*"
    r"(?P<m>\d+(?:\.\d+)?)\s*(?P<v>mib|mb|gib|gb|g)\b(?!\s*(?:of\s+)?(?:ram|system|cpu|内存))"
)
"""'23643MiB / 24576MiB' (nvidia-smi's Memory-Usage column), '75GB out of 80GB', '70 of 80 GB': the memory in
use, then each card's memory; after a card's name 'A100 40/80GB' is two variants (:func:`card_variants`)."""
_VARIANT_SIZES = frozenset({8.0, 12.0, 16.0, 24.0, 32.0, 40.0, 48.0, 64.0, 80.0, 96.0, 128.0, 141.0, 192.0})
"""Memory sizes cards are sold in (GB; e.g. V100 16/32, A100 40/80, A6000 48, H200 141)."""
_CARD_NAME_BEFORE_RE = rc(r"\b(?P<card>[a-z]{1,5}\s?-?\d{2,4}[a-z]{0,4})\s*$")


def card_variants(s: str) -> str:
    """'A100 40/80GB': a card's two variants, written 'A100 40gb or A100 80gb' (the first sized, the other
    compared), never memory in use of each card's; the one asked later ('how about the 80GB?', '用 80G 的')
    is sized first, its later mention written with the card's name."""
    m = next((m for m in USED_OF_RE.finditer(s) if m.group("sep") == "/" and not m.group("u")), None)
    card = _CARD_NAME_BEFORE_RE.search(s[: m.start()][-16:]) if m else None
    if m is None or card is None or m.group("v") not in ("gb", "g", "gib"):
        return s
    first, second, name, unit = m.group("n"), m.group("m"), card.group("card"), m.group("v")
    low, high = sorted((float(first), float(second)))
    if not {low, high} <= _VARIANT_SIZES or high < 1.6 * low:  # '20/24GB', '70/80GB': memory in use
        return s
    rest = s[m.end() :]
    asked = re.search(rf"(?<![\d.]){second}\s*(?:gb|gib|g)\b", rest)  # 'how about the 80GB?'
    if asked:
        first, second = second, first
        rest = f"{rest[: asked.start()]}{name} {first}{unit}{rest[asked.end() :]}"
    return f"{s[: m.start()]}{first}{unit} or {name} {second}{unit}{rest}"


def _used_of(m: re.Match[str]) -> str:
    unit = m.group("v")
    if m.group("sep") != "/" and not m.group("u"):
        return m.group(0)  # '2 of 8 GB' without a unit on the first number: not a use of a card
    scale = 1 / 1024 if unit in ("mib", "mb") else 1.0
    used, card = (
        float(m.group("n")) * (scale if m.group("u") in ("mib", "mb") else 1.0),
        float(m.group("m")) * scale,
    )
    if not (SMALLEST_CARD_GIB <= card <= 288 and used <= card * 1.01):
        return m.group(0)
    card_text = f"{round(card)}" if unit in ("mib", "mb") else m.group("m")
    return f"{m.group('n')}{m.group('u') or unit} in use, with {card_text} gb each"


MAC_MEMORY_RE = rc(
    r"(?P<dev>\bmac[\s\-]*(?:studio|mini|pro)\b|\bmacbook(?:[\s\-]*(?:pro|air))?\b)"
    r"(?:[\s,，、]*(?:(?:that|which|it)\s+)?(?:has|have|comes?\s+with|with|有|配|带)?\s*)"
    r"(?P<v>\d{2,3})\s*(?:gb|gib|g)\b(?:\s*(?:of\s+)?(?:unified\s+memory|memory|ram)\b|\s*(?:的)?\s*(?:统一)?内存)?"
)
"""'a Mac Studio that has 192GB', 'Mac Studio，192G 统一内存': a Mac named by its line, its memory after it,
written '192g的 mac studio' (the memory of the machine: :mod:`estimator.mac_devices`). Not when a chip is
named ('Mac Studio M2 Ultra 192GB': that chip's memory, read by the card rules)."""
_CHIP_RE = re.compile(r"(?<![a-z0-9])(?:apple\s*)?m[1-5](?:[\s\-]*(?:pro|max|ultra))?(?![a-z0-9])")


def mac_memory(s: str) -> str:
    """``s`` with a chip-less Mac's memory written before it (:data:`MAC_MEMORY_RE`)."""
    if "mac" not in s or _CHIP_RE.search(s):
        return s
    return _sub(MAC_MEMORY_RE, lambda m: f"{m.group('v')}g的 {m.group('dev')} ", s)


ALT_MEMORY_RE = rc(
    r"(?<![\d.])(\d{1,3})\s*g(?:b|ib)?\s*(?:的)?\s*(?:显存)?\s*(?:或者|或是|或|还是|/|\bor\b)\s*(\d{1,3})\s*g(?:b|ib)?"
    r"(?=\s*(?:的)?\s*(?:显卡|卡|gpu|card|显存|vram|of\s+vram))"
)
"""s20 round 14: two card memories offered as options ('12G 或者 16G 的显卡', 'a 12GB or 16GB card', '24G 还是
48G 的卡'): the first is sized, the other written 'othermemory N' and named as another setup (before, the
last was sized and the first left unread)."""
OTHER_MEMORY_MARK_RE = re.compile(r"othermemory (\d{1,3})")
"""The memory of the other option (:data:`ALT_MEMORY_RE`), named with the ``other_setup`` reason."""


def alt_memories(s: str) -> str:
    """``s`` with each pair of :data:`ALT_MEMORY_RE` written as its first memory, the other's mark
    ('othermemory N') after the text, where no count or card rule reads it."""
    others = [m.group(2) for m in ALT_MEMORY_RE.finditer(s)]
    if not others:
        return s
    s = ALT_MEMORY_RE.sub(lambda m: f"{m.group(1)}g", s)
    return s + "".join(f" 。 othermemory {n}" for n in others)


def _sub(pattern: Any, repl: Any, s: str) -> str:
    """``pattern.sub(repl, s)`` only when ``pattern`` matches: a template's parse is a few Python calls, and
    most messages have none of these forms."""
    return pattern.sub(repl, s) if pattern.search(s) else s
