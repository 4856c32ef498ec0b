"""A setting's other value written after the setting's own key (issue 24 item 4, s44-workmiss).

People who report two runs write the setting's key before each value: '7b and 13b with --cutoff_len 2048, 30b
only with --cutoff_len 1024', 'max seq length 4k … at 32k with sequence packing', 'batch_size 8 … batch_size
2'. The request holds one value (the one the parse used); a reader before the audit masked the other and
dropped it, so it came back "unread" (bot.parse.left_behind: no word said what it is). Here a number left
unread whose key, just before it in its clause, is a request field's name in the key–value grammar's one
vocabulary (:func:`bot.parse.generic_values.vocabulary`: the pasted-config keys, the serving flags, the
contract's field names, the words in both languages: '--cutoff_len', 'max seq length', '序列长度', '批大小')
is named ``"<field>: <value>"`` with reason ``other_setup`` when the request holds a different value
of that field: the understanding contract (docs/design.md §8) for a second run's setting — named, never left
unread. A length written with 'k' is named in tokens as the grammar reads it ('4k' → 4096, '20k' → 20000:
bot.parse.roles.seq_value), as the renderer reads a named length (bot.render.understood).

Gated at its call site (bot.parse.assemble) by an unread item in the answer; the only search is the
vocabulary's key pattern over the clause before each unread whole number (at most 96 characters).
"""

from __future__ import annotations

import re
from typing import Any

_LIST_TAIL = re.compile(r"(?:(?<![\d.])\d{1,6}\s*k?\s*(?:,|，|、|/|或者|或|还是|\bor\b|\band\b|和)\s*)+$")
"""The earlier items of a list just before a value ('batch_size 1 或 ' before '9', 'max_length 2048, ' before
'4096'): cut off, the list's key is the key before its first item (s50-r46zh: 'max_length 2048 或 4096、
batch_size 1 或 9' left the 9 unread, a digit being a clause's boundary)."""
_OTHER_KEY = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+\s*(?:[=:：]|设(?:为|成|置为)?|set\s+to|of)?\s*$")
"""A config key outside the vocabulary right before a place of the number ('max_slices_num 设 ', 'num_crops
='; s51-workmiss): that place is another setting's, not left to keep the keyed place unread; any other place
of the number (a count, '2x3090') still does."""
_SEQ_FIELDS = frozenset({"seq_len", "max_completion_length", "max_model_len", "prompt_tokens"})
"""Token lengths: a value written with 'k' is thousands of tokens ('4k' = 4096 or 4000)."""
_BINARY_K = frozenset({1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024})
"""Values in k that are binary thousands (bot.parse.roles.seq_value: '32k' context → 32,768)."""


def _places(s: str, raw: str) -> list[int]:
    """Where ``raw`` (digits) is written in ``s`` as a whole number (no digit, dot or comma glued before it,
    no digit nor decimal after it): str.find, no pattern."""
    out, at = [], s.find(raw)
    while at >= 0:
        end = at + len(raw)
        before = s[at - 1] if at else " "
        after = s[end : end + 2]
        glued = after[:1].isdigit() or (after[:1] in ".," and after[1:2].isdigit())
        if not (before.isdigit() or before in ".,-_") and not glued:
            out.append(at)
        at = s.find(raw, end)
    return out


def _same(field: str, value: float, kilo: bool, own: object) -> bool:
    """Whether ``value`` (with 'k' after it when ``kilo``) is the request's ``own`` value of ``field``."""
    if isinstance(own, bool) or not isinstance(own, int | float):
        return True  # a field with no number (or none at all) is no value to compare: left as it was
    if kilo and field in _SEQ_FIELDS:
        return float(own) in (value * 1024, value * 1000)
    return float(own) == value


def keyed_field(s: str, raw: str, request: dict[str, Any], kilo_only: bool = False) -> str | None:
    """:func:`keyed_places`' item text alone."""
    return keyed_places(s, raw, request, kilo_only)[0]


def keyed_places(
    s: str, raw: str, request: dict[str, Any], kilo_only: bool = False
) -> tuple[str | None, bool]:
    """The item text ``"<field>: <raw>[k]"`` for the unread whole number ``raw`` of the normalized message
    ``s`` when every place it is written follows a vocabulary key of a request field that holds another
    value; None otherwise (module doc). ``kilo_only``: the number was named as written with its 'k' ('4k',
    s45-workmiss: bot.parse.left_behind), so only its places with a 'k' after it count ('4 nodes … max seq
    length 4k': the 4 of the nodes is another number). s51-workmiss: a place after no key at all (the
    same number written for a setting outside the vocabulary: 'max_slices_num 设 9 或 80、batch_size 1 或 9')
    no longer keeps the keyed place unread; the second value says such a place was seen, its number then
    named unread as well by :func:`keyed`."""
    from bot.parse.generic_values import _LAST_BOUNDARY, _compiled, _key_before

    places = _places(s, raw)
    if kilo_only:
        places = [at for at in places if s[at + len(raw) : at + len(raw) + 1] == "k"]
    if not places:
        return None, False
    key_re, _, canon = _compiled()
    found, loose = None, False
    for at in places:
        left = s[max(0, at - 96) : at]
        left = _LIST_TAIL.sub("", left) if left[-1:] in " ,，、/或和是r" else left  # a list's later item
        last = _LAST_BOUNDARY.match(left)
        field = _key_before(left[last.end() if last else 0 :], key_re, canon)
        end = at + len(raw)
        kilo = s[end : end + 1] == "k" and not s[end + 1 : end + 2].isalpha()
        if field is None and "_" in left[-40:] and _OTHER_KEY.search(left):  # gate: no search
            loose = True
            continue
        if field not in request or _same(field, float(raw), kilo, request.get(field)):
            return None, False
        if found is not None and found[0] != field:
            return None, False
        found = (field, kilo)
    if found is None:
        return None, False
    field, kilo = found
    if not kilo:
        return f"{field}: {raw}", loose
    n = int(raw)  # as bot.parse.roles.seq_value reads it: a power of two in k is binary ('4k' = 4096)
    return f"{field}: {n * 1024 if n in _BINARY_K else n * 1000}", loose


def keyed(s: str, items: list[tuple[str, str]], request: dict[str, Any]) -> list[tuple[str, str]]:
    """``items`` (numbers not used, as typed, with why) with each unread whole number that follows its
    setting's key, the request holding another value of it, named ``("<field>: <n>", "other_setup")``.
    ``s``: the message as the parse reads it; ``request``: the request's fields by name."""
    out = []
    for raw, why in items:
        text = raw.strip()
        kilo = text[-1:] == "k" and text[:-1].isdigit()  # '4k' as the audit names it (s45-workmiss)
        digits = text[:-1] if kilo else text
        named, loose = (
            keyed_places(s, digits, request, kilo)
            if why == "unread" and digits.isdigit() and len(digits) <= 7
            else (None, False)
        )
        out.append((named, "other_setup") if named else (raw, why))
        if named and loose:  # the same number also written for a setting outside the vocabulary
            out.append((raw, why))
    return out
