"""Two output lengths listed after one reply word ('生成 2048 和 8192 个 token', 'generate 2048 and 8192
tokens'; s46 round 42 zh, zh42-029): the first is the output read (bot.parse.roles, a ``reply`` role); the
second, left with no word of its own, was named ``unread`` — it is the output length of another setup in the
message, named ``('output_tokens: 8,192', 'other_setup')`` (docs/design.md §8: used, or named as not used and
why). The caller gates on a reply length read and on a conjunction in the text (``in`` tests)."""

from __future__ import annotations

from typing import Any

from bot.parse.regex import rc

LISTED_RE = rc(
    r"(?:输出|生成|回复|outputs?|generat(?:e|es|ing)|repl(?:y|ies)|completions?|responses?)\s*"
    r"(?:长度|length)?\s*(?:是|为|of|is|are|约|大约|about|around|~)?\s*"
    r"(?P<a>\d[\d,]*(?:\.\d+)?)\s*(?P<ka>k)?\s*(?:个\s*)?(?:tokens?\s*)?"
    r"(?:和|或者?|、|/|and|or)\s*(?P<b>\d[\d,]*(?:\.\d+)?)\s*(?P<kb>k)?\s*(?:个\s*)?(?:tokens?|toks?|词元)"
)
"""A reply word, then two lengths joined by 'and'/'or'/'和'/'或'/'、'/'/' and one token unit after the second
(a range, 'from 2048 to 8192' or '2048-8192', is one setup's bounds, not two lengths)."""


def _number(digits: str, k: str | None) -> float:
    """'8,192' → 8192.0; '8' with 'k' → 8192.0 (a 'k' of a token count is 1,024, as bot.parse.numbers reads
    a length's 'k')."""
    return float(digits.replace(",", "")) * (1024 if k else 1)


def listed_output(steps: Any, reply: float) -> None:
    """Name the second of two output lengths listed after a reply word in the lower-cased message
    ``steps.s`` whose first is ``reply`` (tokens): ``('output_tokens: <second>', 'other_setup')`` in
    ``steps.named_unused``; the second's number leaves ``steps.unread`` and its role, if a reader gave it
    one, is marked used (``steps.used``) — a token count read from it (``steps.f['tokens']``) is cleared — so
    it is never named again as unread. Nothing when no such list
    is written or its first length is not the one read."""
    m = LISTED_RE.search(steps.s)
    if m is None or _number(m.group("a"), m.group("ka")) != reply:
        return
    second = _number(m.group("b"), m.group("kb"))
    typed = m.group("b") + (m.group("kb") or "")
    if typed in steps.unread:  # one occurrence: the same number said again elsewhere stays
        steps.unread.remove(typed)
    role = next((r for r in steps.roles if r.tok.start == m.start("b")), None)
    if role is not None:
        steps.used.add(id(role))
        if role.role == "tokens" and steps.f.get("tokens") == role.value:
            steps.f["tokens"] = None  # read as a token count ('8192 tokens'): it is the other output
    item = (f"output_tokens: {second:,.0f}", "other_setup")
    if item not in steps.named_unused:
        steps.named_unused.append(item)
