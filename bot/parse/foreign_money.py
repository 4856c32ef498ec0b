"""A budget or a price in a currency the estimator does not price in (s46 round 42 zh, zh42-019: '预算 1–2.5
万欧元' was sized as 10,000 yuan — the '元' of '欧元' read as yuan). The estimator prices in yuan and US
dollars only (estimator.money_kinds.Currency); a euro, pound, yen … amount is named as typed with
``('budget: <as typed> (<amount> <code>)', 'currency_unsupported')`` and
``('currency: EUR', 'currency_unsupported')``, and not used (docs/design.md §8: a unit is never swapped
silently). The caller gates on :data:`bot.parse.cue_words.FOREIGN_CUES` (an ``in`` test each) and on a
budget or price read."""

from __future__ import annotations

from typing import Any

from bot.parse.regex import rc

FOREIGN_RE = rc(
    r"(?<![a-z])(?P<c>欧元|€|euros?|eur|英镑|£|gbp|pounds?|日元|円|jpy|yen|港币|港元|hkd|韩元|₩|krw|澳元"
    r"|aud|加元|cad|新加坡元|新币|sgd|卢比|inr|rupees?|卢布|新?台币|twd|瑞郎|chf)(?![a-z])"
)
"""A currency other than the yuan and the US dollar, by its name, sign or ISO 4217 code."""

CODES = {
    "欧元": "EUR", "€": "EUR", "euro": "EUR", "euros": "EUR", "eur": "EUR", "英镑": "GBP", "£": "GBP",
    "gbp": "GBP", "pound": "GBP", "pounds": "GBP", "日元": "JPY", "円": "JPY", "jpy": "JPY", "yen": "JPY",
    "港币": "HKD", "港元": "HKD", "hkd": "HKD", "韩元": "KRW", "₩": "KRW", "krw": "KRW", "澳元": "AUD",
    "aud": "AUD", "加元": "CAD", "cad": "CAD", "新加坡元": "SGD", "新币": "SGD", "sgd": "SGD",
    "卢比": "INR", "inr": "INR", "rupee": "INR", "rupees": "INR", "卢布": "RUB", "台币": "TWD",
    "新台币": "TWD", "twd": "TWD", "瑞郎": "CHF", "chf": "CHF",
}  # fmt: skip
"""Each currency word → its ISO 4217 code, as the reply names it."""

_AMOUNT_RE = rc(r"(\d+(?:,\d{3})*(?:\.\d+)?)\s*(万|千|k\b|w\b)?")
_SCALE = {"万": 1e4, "w": 1e4, "千": 1e3, "k": 1e3}
"""A number of an amount and its magnitude ('2.5 万', '20k'; 'w' is 万 in Chinese shorthand)."""


def amounts(typed: str) -> list[float]:
    """The numbers of an amount as typed, each times its magnitude; a range's magnitude written once after
    its upper end applies to both ('1–2.5 万' → 10,000 and 25,000)."""
    found = [(float(n.replace(",", "")), _SCALE.get(k or "", 0.0)) for n, k in _AMOUNT_RE.findall(typed)]
    last = next((k for _, k in reversed(found) if k), 1.0)
    return [n * (k or last) for n, k in found]


_WINDOW = 14
"""Characters after an amount's number within which its currency word stands ('1–2.5 万欧元': the upper end
and its magnitude between; '20000 euros'), and 2 before it ('€20,000')."""


BUDGET_AFTER_RE = rc(r"\s*(?:的|of\s+)?\s*(?:总|全部)?(?:预算|经费|资金|budget)(?![a-z])")
"""A budget word right after a foreign amount ('两万欧元的预算', '20,000 euros budget'): the amount is the
budget (s47 fixrev #2; before, no role read it and '两万' was named as 'no word said what it is')."""


class _Said:
    """An amount with no role, read as a budget by the word after its currency (:data:`BUDGET_AFTER_RE`)."""

    __slots__ = ("extra", "tok", "value")

    def __init__(self, tok: Any) -> None:
        self.tok, self.value, self.extra = tok, tok.value, None


def _budget_before_currency(steps: Any) -> _Said | None:
    """The unread amount a foreign currency word and then a budget word follow, as a budget role; None
    when none does."""
    for tok in steps.unread_toks:
        m = FOREIGN_RE.match(steps.s, tok.end + (steps.s[tok.end : tok.end + 1] == " "))
        if m is not None and BUDGET_AFTER_RE.match(steps.s, m.end()):
            steps.unread_toks.remove(tok)
            return _Said(tok)
    return None


def foreign_money(steps: Any, budget: Any, price: Any) -> None:
    """Set ``steps.f``'s budget or price to None and name it as typed when a foreign currency word stands
    beside its number (within :data:`_WINDOW`) and no yuan or dollar was bound to it (the role's ``extra``);
    the numbers inside the amount as typed (an upper end, '2.5 万') leave ``steps.unread`` and their roles
    are marked used, so the amount is named once."""
    said: set[str] = set()
    if budget is None and price is None:
        budget = _budget_before_currency(steps)
    for role, field, word in ((budget, "budget", "budget"), (price, "price_per_gpu_hour", "price")):
        if role is None or role.extra:
            continue
        m = FOREIGN_RE.search(steps.s, max(0, role.tok.start - 2), role.tok.end + _WINDOW)
        if m is None:
            continue
        start, end = min(role.tok.start, m.start()), max(role.tok.end, m.end())
        text = steps.raw if len(steps.raw) == len(steps.s) else steps.s  # as typed where places align
        typed = text[start:end].strip()
        steps.f[field] = None
        steps.unread[:] = [u for u in steps.unread if u.strip() not in typed]
        for r in steps.roles:
            if start <= r.tok.start < end:
                steps.used.add(id(r))
        code = CODES.get(m.group("c"), m.group("c").upper())
        found = amounts(typed) or [role.value]  # '两万欧元': a Chinese numeral, the role's own value
        worth = "–".join(f"{a:,.4g}" if a < 1000 else f"{a:,.0f}" for a in found)
        said_as = typed if typed == f"{worth} {code}" else f"{typed} ({worth} {code})"  # '20,000 EUR' once
        steps.named_unused.append((f"{word}: {said_as}", "currency_unsupported"))
        if code not in said:
            said.add(code)
            steps.named_unused.append((f"currency: {code}", "currency_unsupported"))
