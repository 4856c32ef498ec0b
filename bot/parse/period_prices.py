"""A rent per day or per month, read as a price per GPU-hour (issue 24, s36 fixa #3): '3090一天50块',
'3090 每天 50 元', '50元/天', 'A100 一个月3000块', '8卡A100服务器一个月3万', '$50 per GPU per day',
'$1500/GPU/month'. A day is 24 hours; a month is 730 hours (the average month: 8,760 hours a year ÷ 12);
a server's monthly rent is shared by the cards it names ('8卡…服务器': ÷ 8 × 730). Read only with a time
unit and a money word ('元', '块', '$', 'usd'; '万' alone only where no other unit follows), never as a
count or a budget; a budget word before the amount keeps it a budget (:mod:`bot.parse.budget_period`).
The conversion is said in the reply (``interpretation.substitutions``: price_per_day, price_per_month,
price_per_server_month)."""

from __future__ import annotations

import re

from bot.parse.regex import rc

HOURS = {"day": 24.0, "month": 730.0}
"""Hours in a rent period: a day, and the average month (365 × 24 ÷ 12 = 730)."""
PERIODS = ("天", "日", "月", "day", "month")
RENT = ("元", "块", "万", "$", "usd", "dollar")
"""Substring tests at the calls (bot.parse.count_forms; bot.parse.message with a price stated): a rent
needs a period word and a money word."""

_NUM = r"(?P<n>\d+(?:\.\d+)?)\s*(?P<m>万|千|w\b|k\b)?"
_CNY = r"(?P<c>元|块钱|块(?!\d|\s*(?:[a-z]|卡|显卡|\d{4}(?![\d.]*\s*[bkmw万千]))))"
"""'50块': yuan; '2块4090', '2块 A100', '2块卡': cards ('3000块 7b lora': yuan, then a model size)."""
_PERIOD = r"(?:每|一|1|/)\s*个?\s*(?P<p>天|日|月)"
_END = r"(?=\s*(?:[,，。;；!?！？)）]|$|的?(?:租金|费用|价格)))"
_NO_UNIT = r"(?!\s*(?:条|个|张|卡|台|次|人|token|样本|小时|天|月))"
ZH_RES = (
    rc(rf"{_PERIOD}\s*(?:要|是|为|收|租金?|:|：)?\s*{_NUM}\s*(?:{_CNY}|(?<=[万千wk]){_END}){_NO_UNIT}"),
    rc(rf"(?<![\d.]){_NUM}\s*{_CNY}\s*{_PERIOD}"),
)
"""'一天50块', '每天 50 元', '一个月3万', '50元/天', '3000块一个月': a CNY rent per day or month."""
_USD = r"(?:\$\s*(?P<n>\d+(?:\.\d+)?)|(?P<n2>\d+(?:\.\d+)?)\s*(?:usd|dollars?)\b)"
_DEVICE = r"(?:gpus?|cards?|devices?)"
EN_RE = rc(
    rf"{_USD}\s*(?:(?:per|/|an?|each)\s*{_DEVICE}\s*(?:per|/|an?|each|-)\s*|/\s*|per\s+)?"
    rf"(?:{_DEVICE}\s*-?\s*)?(?P<p>day|month)\b"
    rf"(?:\s*(?:per|/|for\s+each|each)\s*{_DEVICE}|(?P<each>\s+each\b))?"
)
"""'$50 per GPU per day', '$50/GPU/day', '$1500 per gpu-month', '$50 a day per GPU'; '2 GPUs for $50 per day
each' (the device named before, in the same clause)."""
_EN_DEVICE_RE = rc(rf"{_DEVICE}")
_SERVER_RE = rc(r"(?P<k>\d+)\s*(?:卡|张)[^,，。;；!?！？]{0,12}?(?:服务器|机器|整机|节点|主机)")
"""'8卡A100服务器', '8张卡的机器': the cards a server's monthly rent is shared by."""
_COUNT_BEFORE = rc(r"(?:用户|数据|条|token|请求|样本|访问|调用|日活|人|次)[^,，。;；!?！？\n]{0,6}$")
"""'用户每天5万', '数据一个月1万': a bare 万 after a count noun counts things, never money (s36 fixh)."""
_BUDGET_BEFORE = rc(r"(?:预算|经费|花|budget)[^,，。;；!?！？\n卡]{0,8}$")


def _scale(m: re.Match[str]) -> float:
    return {"万": 1e4, "w": 1e4, "千": 1e3, "k": 1e3}.get(m.group("m") or "", 1.0)


def zh_rents(s: str) -> list[tuple[re.Match[str], float, int]]:
    """(match, CNY per GPU-hour, the server's cards or 1) for each CNY rent per day or month in ``s``."""
    out: list[tuple[re.Match[str], float, int]] = []
    for m in sorted((m for r in ZH_RES for m in r.finditer(s)), key=lambda m: m.start()):
        if (out and m.start() < out[-1][0].end()) or _BUDGET_BEFORE.search(s, 0, m.start()):
            continue  # one rent read once ('50元/天' also ends '元/天…'); a budget word keeps a budget
        if not m.group("c") and _COUNT_BEFORE.search(s, 0, m.start()):
            continue  # '用户每天5万': a count of users, no money word
        period = "day" if m.group("p") in "天日" else "month"
        clause = re.split(r"[,，。;；!?！？]", s[: m.start()])[-1]
        server = _SERVER_RE.search(clause) if period == "month" else None
        cards = int(server.group("k")) if server and int(server.group("k")) > 0 else 1
        out.append((m, float(m.group("n")) * _scale(m) / (HOURS[period] * cards), cards))
    return out


def en_rents(s: str) -> list[tuple[re.Match[str], float]]:
    """(match, USD per GPU-hour) for each USD rent per GPU-day or GPU-month in ``s`` (a device word in it)."""
    return [
        (m, float(m.group("n") or m.group("n2")) / HOURS[m.group("p")])
        for m in EN_RE.finditer(s)
        if (_EN_DEVICE_RE.search(m.group(0)) or (m.group("each") and _EN_DEVICE_RE.search(_clause(s, m))))
        and not _BUDGET_BEFORE.search(s, 0, m.start())
    ]


def _clause(s: str, m: re.Match[str]) -> str:
    return re.split(r"[,，。;；!?！？]", s[: m.start()])[-1]


def period_prices(s: str) -> str:
    """The normalized text ``s`` with each rent per day or month written as its price per GPU-hour
    ('元每卡时', '$… per gpu-hour'); called past :data:`GATE`."""
    for m, v, _ in reversed(zh_rents(s)):
        glued = m.start() and s[m.start() - 1].isalnum()  # '3090一天50块': the card's digits stay its own
        s = f"{s[: m.start()]}{' ' if glued else ''}{v:.4g}元每卡时 {s[m.end() :]}"
    if "$" in s or "usd" in s or "dollar" in s:
        for m, v in reversed(en_rents(s)):
            s = f"{s[: m.start()]} ${v:.4g} per gpu-hour {s[m.end() :]}"
    return s


def rents_read(normalized: str, price: float | None, raw: str = "") -> list[tuple[str, str, str]]:
    """(rent as typed, the price per GPU-hour used, reason) for each rent of the message whose converted
    price is the request's ``price``; as the message ``raw`` spells it where it holds the same letters."""
    if price is None:
        return []
    out = []
    for m, v, cards in zh_rents(normalized):
        why = "price_per_day" if m.group("p") in "天日" else "price_per_month"
        typed = " ".join(m.group(0).split())
        if cards > 1:
            clause = re.split(r"[,，。;；!?！？]", normalized[: m.start()])[-1]
            server = _SERVER_RE.search(clause)
            typed = f"{clause[server.start() if server else 0 :].strip()}{m.group(0)}" if server else typed
            why = "price_per_server_month"
        if abs(float(f"{v:.4g}") - price) < 1e-9:
            out.append((typed, f"¥{v:.2f}", why))
    for m, v in en_rents(normalized):
        if abs(float(f"{v:.4g}") - price) < 1e-9:
            out.append((" ".join(m.group(0).split()), f"${v:.2f}", f"price_per_{m.group('p')}"))
    low = raw.lower()
    return [(raw[i : i + len(t)] if (i := low.find(t)) >= 0 else t, u, r) for t, u, r in out]


def rents_typed(normalized: str, unusable: list[str], raw: str = "") -> list[str]:
    """``unusable`` with each converted rent ('0.00137', out of the price bounds) written back as the user
    typed it ('每个月租金1块'): a not-used line names what was typed, never a number the bot made
    (s36 fixh)."""
    made = {f"{v:.4g}": " ".join(m.group(0).split()) for m, v, _ in zh_rents(normalized)}
    made |= {f"{v:.4g}": " ".join(m.group(0).split()) for m, v in en_rents(normalized)}
    low = raw.lower()
    typed = {k: raw[i : i + len(t)] if (i := low.find(t)) >= 0 else t for k, t in made.items()}
    return [typed.get(n, n) for n in unusable]
