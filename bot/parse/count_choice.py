"""A choice between two counts of one card, the card said once (issue 24, session 35): 'one T4 or
two', '1 A100 or 2', 'one T4 or both', 'one or both of my T4s', '一张 T4 还是两张', '一张还是两张 A100',
'单卡还是双卡', '两张 4090 还是四张'. Written as the range the count rules read ('1 or 2 t4', '1 或 2 张
a100'): sized from the smaller, up to the larger, as 'one or two A100s' and '1 或 2 张 A100' were.
Before, the second count was left unread ('1 A100 or 2'), read as the only count ('一张还是两张 A100' sized
two), or lost ('one T4 or both').

Not a choice of two cards ('one A100 or two H100s'), nor a count of something else after the second number
('one 4090 or two days', '一张图还是两张图'). Imported by bot.parse.count_forms behind a substring gate.
"""

from __future__ import annotations

import re

_WORDS = {
    "a": 1, "an": 1, "a single": 1, "single": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "both": 2,
    "一": 1, "单": 1, "两": 2, "二": 2, "双": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
}  # fmt: skip
_CARD = (
    r"(?:(?:rtx|geforce|tesla|nvidia)\s*)?(?:[a-z]{1,3}\d{1,4}[a-z]{0,3}|\d{4}(?:\s?ti)?|\d{3}[a-z])"
    r"(?:\s?ti)?s?"
)
"""A card as people write it, lower-cased: 't4', 'a100', 'h100s', 'rtx 4090', '3090 ti', 'mi300x', '910b'."""
_NUM_EN = r"(\d{1,2}|a\s+single|single|an?|one|two|three|four|five|six|seven|eight)"
_NEXT_EN = (
    r"(?=\s*(?:$|[?!.,;:)\uff0c\u3002\uff1f]|(?:gpus?|cards?)\b|(?:for|to|with|in|on|is|are|would|will|should"
    r"|which|what|and|then|if|so|at|enough|better|faster|cheaper)\b))"
)
"""The second count ends the clause ('or two?', 'or 2, which …'), or a card word or a word that opens the
next phrase follows it ('or two GPUs', 'or two for serving'); any other noun after it is a count of
something else ('or 3 epochs', 'or two models per card', 'or 4 runs in parallel', 'or two days', 'or 2
h100s': s35 fixe #5, an open set where the closed list of excluded nouns was not)."""
EN_CARD_BETWEEN = re.compile(
    rf"(?<![\w.]){_NUM_EN}\s+(?P<card>{_CARD}|gpus?|cards?)\s+or\s+(?P<n2>\d{{1,2}}|two|three|four|five|six"
    rf"|seven|eight|both)(?![\w.]){_NEXT_EN}"
)
"""'one T4 or two', '1 A100 or 2', 'one T4 or both', 'two 4090s or four'."""
EN_BOTH_FAILED = re.compile(
    rf"(?<![\w.]){_NUM_EN}\s+(?P<card>{_CARD})\s+(?:or|and)\s+(?P<n2>\d{{1,2}}|two|three|four|five|six|seven"
    rf"|eight)(?:\s+(?:gpus?|cards?))?(?=\s*,?\s+(?:both|all)\s+(?:oom|fail|crash|ran out|run out))"
)
"""'one A100 or two both OOM', '1 A100 and 2 GPUs both fail' (s36 fixh): the counts tried, not a choice."""
EN_OR_BOTH = re.compile(
    rf"(?<![\w.])(one|1|a\s+single|single)\s+or\s+(?P<n2>both)(?:\s+of)?(?:\s+(?:my|the|our|these|those))?"
    rf"(?:\s+(?:two|2))?\s+(?P<card>{_CARD}|gpus|cards)\b"
)
"""'one or both of my T4s', 'one or both GPUs'."""
_NUM_ZH = r"(\d{1,2}|[一两二三四五六七八])"
_UNIT = r"(?:张卡|块卡|张|块|卡)"
_MEM = r"(?:\s*\d{2,3}\s*g(?:b|ib)?(?![a-z]))?"
"""A card's memory typed after it ('4090 48g'): part of the card's name, the same on both sides."""


def _zh_pattern(join: str, after: str = "") -> re.Pattern[str]:
    return re.compile(
        rf"(?<![\d.]){_NUM_ZH}\s*(?P<u1>{_UNIT})\s*(?P<c1>{_CARD}{_MEM})?\s*(?:{join})\s*"
        rf"(?P<n2>\d{{1,2}}|[一两二三四五六七八])\s*(?P<u2>{_UNIT})\s*(?P<c2>{_CARD}{_MEM})?"
        rf"|(单)(?P<u3>卡)\s*(?P<c3>{_CARD}{_MEM})?\s*(?:{join})\s*(?P<n4>双|两|二|\d)\s*卡\s*(?P<c4>{_CARD}{_MEM})?"
        + after
    )


ZH_CHOICE = _zh_pattern("还是|或者|或")
"""'一张 t4 还是两张', '一张还是两张 a100', '1 张 a100 或 2 张', '单卡还是双卡 a100', '两张 4090 还是四张'."""
ZH_BOTH = _zh_pattern("和", r"(?=[^，。,;；?？!！]{0,12}?[都也])")
"""Both counts of one card tried, said with 和 and 都/也 (s36, issue 24): '单卡 a100 和双卡 a100 都会
oom', '单卡和双卡都 oom', '一张和两张 a100 也不行', '单卡 4090 48g 和双卡 4090 48g 都一样': the same range,
sized from the smaller up to the larger; before, the second count was dropped without a word. Two cards
('一张 a100 和两张 4090 都试过') or two counts of something else ('一张图和两张图都') are no range."""


ZH_COMPARED = _zh_pattern(
    r"和|与|跟|对比|比|vs\.?",
    r"(?=[^。？?！!]{0,16}?(?:两种|差多少|差别|差距|区别|分别|对比|比较|哪个|哪种|快多少|慢多少|各))",
)
"""Two counts of one card compared (s45 round 41 zh, issue 24): '4 卡和 8 卡两种配置的性能差多少',
'4 卡和 8 卡分别要多少显存', '单卡和双卡 4090 哪个划算': the same range, sized from the smaller up to the
larger, as '4 或 8 张' is; before, the second count was named ``repeated``. Two cards ('4 张 A100 和 8 张
H100 哪个快') are left to the card rules, counts of something else ('一张图和两张图的区别') are no range.
Round 43: 'vs' between them too ('1 张卡 vs 2 张卡 有什么区别')."""
ZH_ONE_THEN_TWO = re.compile(
    rf"单卡\s*(?P<c1>{_CARD}{_MEM})?(?P<mid>[^。]{{0,60}}?[？?][^。]{{0,20}}?)(?:双|两)卡\s*(?P<c2>{_CARD}{_MEM})?"
    r"(?=[^。？?!！\n]{0,40}[？?])"
)
"""One card and two cards asked in turn, the card said once or the same (s45 round 41 zh): '单卡 RTX 4090
24GB … 单卡放得下吗？双卡 4090（Tensor Parallel）性能和成本哪个划算': the range 1 to 2 of that card, as
'单卡还是双卡' is; before, the two cards were never read. Both must be asked (a question mark after each):
runs reported ('使用单卡 A6000 显存占用 40G，使用双卡 A6000 则是…') and another card after 双卡 ('单卡 A100
…？双卡 4090 …') are no range."""
EN_ONE_THEN_TWO = re.compile(
    rf"(?<![\w.])(?:a\s+single|one|single|1)\s+(?P<c1>{_CARD})(?P<mid>[^\n]{{0,60}}?[?][^\n?]{{0,30}}?)"
    rf"(?<![\w.])(?:two|2)\s+(?P<c2>{_CARD})(?![\w.])(?=[^.?!\n]{{0,60}}\?)"
)
"""'Can a single RTX 4090 hold a 70B model? Or are two RTX 4090 better value?' (as :data:`ZH_ONE_THEN_TWO`):
the range 1 to 2 of that card, both asked; before, the single card was named ``repeated`` and two were
sized. 'On a single RTX 5090? I have two 5090s …' (two owned, said, not asked) is no range."""
_EN_N2 = r"(?P<n2>\d{1,2}|two|three|four|five|six|seven|eight)"
EN_COMPARED = re.compile(
    rf"(?<![\w.])(?:between\s+)?{_NUM_EN}\s+(?P<card>{_CARD}|gpus?|cards?)\s+(?:and|vs\.?|versus|than"
    r"|compared\s+(?:to|with))\s+(?:(?:running|run|using|serving|training)\s+)?(?:on\s+|with\s+)?"
    rf"{_EN_N2}\s+(?P<card2>{_CARD}|gpus?|cards?)(?![\w.])"
)
"""Two counts of one card compared (as :data:`ZH_COMPARED`): 'between 4 GPUs and 8 GPUs', '4 A100s vs 8
A100s', 'on 8 A100s than on 4 A100s'; round 43 en: a verb of the job between ('on 1 GPU vs running on 2
GPUs') and 'compared to' ('on 4 GPUs compared to 8 GPUs'); called only with a comparing word in the message
('between', 'difference', 'faster', 'compare', 'vs')."""


def _n(word: str) -> int:
    w = re.sub(r"\s+", " ", word)
    return int(w) if w.isdigit() else _WORDS.get(w, 0)


def _range(lo: int, hi: int, card: str, zh: bool) -> str | None:
    if not lo or not hi or lo == hi:
        return None
    lo, hi = min(lo, hi), max(lo, hi)
    return (f"{lo} 或 {hi} 张 {card} " if card else f"{lo} 或 {hi} 张卡") if zh else f"{lo} or {hi} {card}"


def _en(m: re.Match[str]) -> str:
    n1, n2 = _n(m.group(1)), _n(m.group("n2"))
    if m.group("n2") == "both" and n1 != 1:  # 'two GPUs or both': no choice of counts
        return m.group(0)
    return _range(n1, n2, m.group("card"), False) or m.group(0)


def _zh(m: re.Match[str], failed: bool = False) -> str:
    if m.group("u3"):  # '单卡还是双卡'
        c1, c2, n1, n2 = m.group("c3"), m.group("c4"), 1, _n(m.group("n4"))
        has_card = True
    else:
        c1, c2, n1, n2 = m.group("c1"), m.group("c2"), _n(m.group(1)), _n(m.group("n2"))
        has_card = "卡" in m.group("u1") + m.group("u2") or bool(c1 or c2)  # '一张图还是两张图': no card
    two_cards = c1 and c2 and c1.replace(" ", "") != c2.replace(" ", "")  # not one card's counts
    if not has_card or two_cards:
        return m.group(0)
    if (
        failed and n1 and n2 and n1 != n2
    ):  # both OOM: the counts tried, a lower bound (bot.parse.counts_tried)
        return f"{min(n1, n2)} 张和 {max(n1, n2)} 张 {c1 or c2 or '卡'}"
    return _range(n1, n2, c1 or c2 or "", True) or m.group(0)


def _zh_both(m: re.Match[str]) -> str:
    """'单卡 a100 和双卡 a100 都会 oom': both counts failed (s36 fixh, issue 24), so no range to size within
    but the tried counts ('1 张和 2 张 a100 都会 oom'): neither fits, then the fewest that fit; '都一样'
    without a failure stays the range. '都试过' is left to counts_tried (its failure may come in a later
    clause: '都试了，还是 OOM'), and '都不便宜' (不 before a quality) is said of the options, not tried."""
    from bot.parse.counts_tried import FAILED_RE

    clause = re.split(r"[，。,;；?？!！]", m.string[m.end() :], maxsplit=1)[0]
    failed = bool(FAILED_RE.search(clause))
    if "试" in clause or (not failed and re.match(r"\s*[都也]\s*不", clause)):
        return m.group(0)  # left as written: the counts tried, or a quality said of both options
    return _zh(m, failed)


MEMORY_CHOICE = re.compile(
    rf"(?<![\w.])(?P<card>{_CARD})\s*(?:with\s+(?:the\s+)?)?(?P<m1>\d{{2,3}}\s*g(?:b|ib)?)(?![a-z])"
    r"\s*(?P<join>\bor\b|还是|或者|或)\s*(?:(?:the|a|with)\s+)*(?P<m2>\d{2,3}\s*g(?:b|ib)?)(?![a-z])"
    r"(?!\s*(?:of\s+)?(?:ram|dram|ddr|system|host|cpu|内存|的内存))"
)
"""One card, two memory sizes (s36, issue 24): 'a v100 16gb or 32gb', 'a v100 with 16 gb or 32 gb',
'a100 40g 还是 80g', 'a100 40g 或 80g'. Written as two cards ('a100 40g 还是 a100 80g'), the second is
compared in a row of its own, as two cards named in full are; before, the second size was left unread.
Not a host's memory after the second size ('a 4090 24gb or 64gb of ram')."""


def _en_failed(m: re.Match[str]) -> str:
    n1, n2 = _n(m.group(1)), _n(m.group("n2"))
    return (
        f"tried {min(n1, n2)} and {max(n1, n2)} {m.group('card')}" if n1 and n2 and n1 != n2 else m.group(0)
    )


ZH_MIN_RECOMMENDED = re.compile(
    rf"(?:最低|最少|至少|起码)\s*(?:要|需要|用)?\s*{_NUM_ZH}\s*(?P<u1>{_UNIT})\s*(?P<c1>{_CARD}{_MEM})?"
    r"(?P<mid>[^，。？?；;,！!]{0,12}?)\s*[，,、;；]\s*(?:但\s*)?(?:推荐|建议|最好|理想(?:的)?是?)\s*(?:是|用|上|配)?\s*"
    rf"(?P<n2>\d{{1,2}}|[一两二三四五六七八])\s*(?P<u2>{_UNIT})(?!\s*(?:{_CARD}))"
)
"""The fewest cards and the number recommended, one card said once (s44 round 40 zh, issue 24): '最低 1 张
A100 80G 就能跑、推荐 4 张', '至少 2 张 4090，建议 4 张': the range from the fewest to the recommended, as
'1 或 4 张 A100' is; before, the recommended count was named ``repeated``. Not a second card ('最低 1 张
A100，推荐 2 张 H100': two cards, left to the card rules)."""
EN_MIN_RECOMMENDED = re.compile(
    rf"(?<![\w.])(?:at\s+least|a\s+minimum\s+of|minimum(?:\s+of)?|min\.?)\s+{_NUM_EN}\s+(?P<card>{_CARD}|gpus?|cards?)"
    r"(?P<mid>[^,.;?!]{0,20}?)\s*[,;]\s*(?:but\s+|and\s+)?(?:(?:ideally|recommended:?)\s+(?P<n2>\d{1,2}|two|three|four"
    r"|five|six|seven|eight)(?!\s*(?:[a-z]{1,3}\d))|(?P<n3>\d{1,2}|two|three|four|five|six|seven|eight)"
    r"(?:\s+(?:gpus?|cards?))?\s+(?:is\s+|are\s+)?recommended)"
)
"""'at least 1 A100 80GB to run, 4 recommended', 'minimum 2 GPUs, ideally 4' (as
:data:`ZH_MIN_RECOMMENDED`)."""


def _zh_min(m: re.Match[str]) -> str:
    card = m.group("c1") or ""
    if not card and "卡" not in m.group("u1") + m.group("u2"):
        return m.group(0)  # '最低 1 张图…推荐 4 张': no card
    return (_range(_n(m.group(1)), _n(m.group("n2")), card, True) or m.group(0) + " ") + m.group("mid")


def _en_min(m: re.Match[str]) -> str:
    hi = _n(m.group("n2") or m.group("n3"))
    return (_range(_n(m.group(1)), hi, m.group("card"), False) or m.group(0)) + m.group("mid")


def min_recommended(s: str) -> str:
    """``s`` with the fewest cards and the number recommended written as their range
    (:data:`ZH_MIN_RECOMMENDED`, :data:`EN_MIN_RECOMMENDED`); called behind '荐' / '建议' / 'recommended' /
    'ideally' (bot.parse.count_forms)."""
    if "最" in s or "至少" in s or "起码" in s:
        s = ZH_MIN_RECOMMENDED.sub(_zh_min, s)
    if "least" in s or "min" in s:
        s = EN_MIN_RECOMMENDED.sub(_en_min, s)
    return s


def _en_compared(m: re.Match[str]) -> str:
    c1, c2 = m.group("card").rstrip("s"), m.group("card2").rstrip("s")
    generic = {"gpu", "card"}
    if c1 != c2 and c1 not in generic and c2 not in generic:  # '4 A100s vs 8 H100s': two cards
        return m.group(0)
    card = m.group("card") if c1 not in generic else m.group("card2")
    return _range(_n(m.group(1)), _n(m.group("n2")), card, False) or m.group(0)


def _one_then_two(m: re.Match[str]) -> str:
    c1, c2 = (m.group("c1") or "").strip(), (m.group("c2") or "").strip()
    core = [re.sub(r"^(?:rtx|geforce|tesla|nvidia)\s*", "", c).split()[0] if c else "" for c in (c1, c2)]
    if (c1 and c2 and core[0] != core[1]) or not (c1 or c2):
        return m.group(0)  # '单卡 A100 …？双卡 4090': two cards; '单卡推理…双卡训练': no card said
    card = c1 or c2
    return f"{_range(1, 2, card, True) or ''}{m.group('mid')}{c2 or ''}"


def _one_then_two_en(m: re.Match[str]) -> str:
    c1, c2 = m.group("c1"), m.group("c2")
    core = [re.sub(r"^(?:rtx|geforce|tesla|nvidia)\s*", "", c).rstrip("s") for c in (c1, c2)]
    if core[0] != core[1]:  # 'one A100 …, or two H100': two cards
        return m.group(0)
    return f"{_range(1, 2, c1, False)}{m.group('mid')}{c2}"


COMPARE_EN = ("between", "differen", "faster", "slower", "compar", " vs", "versus")
"""Words that compare two setups (the gate of :data:`EN_COMPARED`)."""
ZH_COMPARE = (
    "两种",
    "差多少",
    "差别",
    "差距",
    "区别",
    "分别",
    "对比",
    "比较",
    "哪个",
    "哪种",
    "快多少",
    "慢多少",
    "各",
)
"""Words that compare two setups in Chinese (the gate of :data:`ZH_COMPARED`)."""
COMPARE_CUES = ("单卡", *ZH_COMPARE, *COMPARE_EN, "single")
"""The call site's gate (bot.parse.count_forms): one of these, then each pattern's own test below."""


def compared_counts(s: str) -> str:
    """``s`` with two counts of one card compared written as their range (:data:`ZH_COMPARED`,
    :data:`ZH_ONE_THEN_TWO`, :data:`EN_COMPARED`, :data:`EN_ONE_THEN_TWO`); called behind
    :data:`COMPARE_CUES` (bot.parse.count_forms), each pattern behind its own words."""
    if "单卡" in s and ("双卡" in s or "两卡" in s):
        s = ZH_ONE_THEN_TWO.sub(_one_then_two, s, count=1)
    if (
        any(map(s.__contains__, "卡张块"))  # s48: '4 张 h100 和 8 张 h100 分别要多久' (no 卡 written)
        and (any(map(s.__contains__, "和与跟比")) or " vs" in s)
        and any(map(s.__contains__, ZH_COMPARE))
    ):
        s = ZH_COMPARED.sub(_zh, s)
    if "single" in s and "two" in s:
        s = EN_ONE_THEN_TWO.sub(_one_then_two_en, s, count=1)
    if any(map(s.__contains__, COMPARE_EN)) and (
        " and " in s or " vs" in s or "versus" in s or " than " in s or "compared " in s
    ):
        s = EN_COMPARED.sub(_en_compared, s)
    return s


def count_choice(s: str) -> str:
    """``s`` with each choice of two counts of one card written as their range (see the module)."""
    if "both " in s and (" or " in s or " and " in s):  # 'one A100 or two both OOM': tried, both failed
        s = EN_BOTH_FAILED.sub(_en_failed, s)
    if " or " in s:
        s = EN_CARD_BETWEEN.sub(_en, s)
        if "both" in s:
            s = EN_OR_BOTH.sub(_en, s)
    if "还是" in s or "或" in s:
        s = ZH_CHOICE.sub(_zh, s)
    if ("g or " in s or "gb or " in s or "g 还是" in s or "g还是" in s or "g 或" in s or "g或" in s) and (
        MEMORY_CHOICE.search(s)
    ):
        s = MEMORY_CHOICE.sub(r"\g<card> \g<m1> \g<join> \g<card> \g<m2>", s)
    if "和" in s and ("都" in s or "也" in s):  # '单卡和双卡都 OOM' (s36)
        s = ZH_BOTH.sub(_zh_both, s)
    return s
