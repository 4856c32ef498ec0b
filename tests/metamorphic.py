"""Metamorphic sweep of the working splits: what a passing question stops meaning when written another way.

Each working-split question the bot understands in full (tests/real_questions.py ``score`` is empty) is
rewritten by meaning-preserving rewrites (:data:`FAMILIES`: numbers, model and card spellings, full-width
punctuation, greetings, clause order, case, markdown, an unrelated sentence, Chinese ↔ Arabic numerals),
each family declared once with its expected effect on the record's ``stated`` labels (none, unless its
``restate`` says how). A rewrite *breaks* when the rewritten question is no longer understood in full, or
(``drift``) when a stated key the family leaves alone is sized with another value than the original's.

Only working splits are read (``work``, ``r2work`` …): the frozen splits are never rewritten or shown.

    python -m tests.metamorphic --split r20work          # one split: census and each breakage
    python -m tests.metamorphic --all --markdown PATH    # every working split: the census as a table
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tests import metamorphic_more as more
from tests import metamorphic_s33 as s33
from tests import metamorphic_s34 as s34
from tests import real_questions as rq

Rewrite = Callable[[str, str], Iterator[tuple[str, str]]]
"""(text, lang) → (variant label, rewritten text) for each way the family rewrites this text."""


@dataclass(frozen=True)
class Family:
    """A rewrite family: its name, the rewrite, and the stated keys it is declared to change (``restate``
    gives their new labels from the rewritten text; keys not there must be sized as before)."""

    name: str
    rewrite: Rewrite
    langs: tuple[str, ...] = ("zh", "en")
    restate: Callable[[dict[str, Any], str], dict[str, Any]] | None = None
    changes: frozenset[str] = field(default_factory=frozenset)
    any_case: bool = False
    """s33: the values are compared without their letter case (a name not in the catalog is echoed as
    typed: 'rtx 2070' in a message typed in lower case is the card 'RTX 2070' was)."""


def _sub_each(pattern: re.Pattern[str], text: str, forms: Callable[[re.Match[str]], list[str]]):
    """One rewritten text per alternative form: every match of ``pattern`` replaced by its i-th form."""
    matches = list(pattern.finditer(text))
    if not matches:
        return
    for i in range(max(len(forms(m)) for m in matches)):
        out, last = [], 0
        for m in matches:
            alts = forms(m)
            out += [text[last : m.start()], alts[min(i, len(alts) - 1)]]
            last = m.end()
        new = "".join(out) + text[last:]
        if new != text:
            yield str(i), new


# --- numbers --------------------------------------------------------------------------------------------
_MEM_RE = re.compile(r"(?<![\w.])(\d{1,3})\s?(GB|G|gb|g|Gb)(?![a-zA-Z0-9])")


def memory_units(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """'80G' ↔ '80GB' ↔ '80 GB' ↔ '80g' (a card's memory, or any size in gigabytes)."""
    yield from _sub_each(_MEM_RE, text, lambda m: [f"{m[1]}GB", f"{m[1]} GB", f"{m[1]}G", f"{m[1]}g"][::-1])


_WAN_YI_RE = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s?万亿")
_YI_RE = re.compile(r"(?<![\d.万])(\d+)0000\s?亿")
_T_TOKENS_RE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?([TB])(?=\s?(?:tokens?|token|词元))", re.I)
_WORD_MAG_RE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s(trillion|billion)(?=\s?tokens?)", re.I)


def magnitudes(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """1万亿 ↔ 10000亿 ↔ 1T; '1T tokens' ↔ '1 trillion tokens'; '300B tokens' ↔ '300 billion tokens'."""
    yield from (
        ("wanyi>yi", t) for _, t in _sub_each(_WAN_YI_RE, text, lambda m: [f"{float(m[1]) * 1e4:g}亿"])
    )
    yield from (("wanyi>T", t) for _, t in _sub_each(_WAN_YI_RE, text, lambda m: [f"{m[1]}T "]))
    yield from (("yi>wanyi", t) for _, t in _sub_each(_YI_RE, text, lambda m: [f"{m[1]}万亿"]))
    words = {"t": "trillion", "b": "billion"}
    yield from (
        ("T>word", t) for _, t in _sub_each(_T_TOKENS_RE, text, lambda m: [f"{m[1]} {words[m[2].lower()]} "])
    )
    short = {"trillion": "T", "billion": "B"}
    yield from (
        ("word>T", t) for _, t in _sub_each(_WORD_MAG_RE, text, lambda m: [f"{m[1]}{short[m[2].lower()]}"])
    )


_K_RE = re.compile(r"(?<![\w.\-=/])(\d{1,4})([kK])(?![a-zA-Z0-9])")
_POW2K = {2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}
_FULL_RE = re.compile(r"(?<![\w.\-=/:])(2048|4096|8192|16384|32768|65536|131072)(?![\w.])")


def k_lengths(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """'128k' ↔ '128K' ↔ '131072' (a power-of-two thousand is written in full; the full number as k)."""
    yield from (("case", t) for _, t in _sub_each(_K_RE, text, lambda m: [m[1] + m[2].swapcase()]))
    full = lambda m: [str(int(m[1]) * 1024) if int(m[1]) in _POW2K else m[0]]  # noqa: E731
    yield from (("full", t) for _, t in _sub_each(_K_RE, text, full))
    flagged = lambda m: text[: m.start()].rstrip().rsplit(" ", 1)[-1].startswith("-")  # noqa: E731
    yield from (
        ("k", t)
        for _, t in _sub_each(_FULL_RE, text, lambda m: [m[0] if flagged(m) else f"{int(m[1]) // 1024}k"])
    )


_ZH_COUNT_RE = re.compile(r"(?<![\d.])(\d{1,3})\s?(张|块)(?=\s?(?:卡|显卡|GPU|[A-Za-z]))")
_ZH_KA_RE = re.compile(r"(?<![\d.张块个])(\d{1,3})\s?卡(?!片)")
_CARD = r"(?:NVIDIA\s)?(?:[AHBLV]\d{2,3}S?|RTX\s?\d{4}|[34]090|910B)"
_EN_X_RE = re.compile(r"(?<![\w.])([1-9]|1[0-6])\s?[x×]\s?(?=" + _CARD + r"(?![\w]))", re.I)
_EN_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]


def counts(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """8卡 / 8张 / 8块 / 8x / 8 x / eight: one count of cards in another form."""
    if lang == "zh":
        yield from (
            ("zhang<>kuai", t)
            for _, t in _sub_each(_ZH_COUNT_RE, text, lambda m: [m[1] + {"张": "块", "块": "张"}[m[2]]])
        )
        yield from (("ka>zhangka", t) for _, t in _sub_each(_ZH_KA_RE, text, lambda m: [f"{m[1]}张卡"]))
    yield from (
        ("x-spacing", t)
        for _, t in _sub_each(_EN_X_RE, text, lambda m: [f"{m[1]} x " if "x " not in m[0] else f"{m[1]}x"])
    )
    if lang == "en":
        word = lambda m: [f"{_EN_WORDS[int(m[1])]} " if int(m[1]) <= 10 else m[0]]  # noqa: E731
        yield from (("word", t) for _, t in _sub_each(_EN_X_RE, text, word))


_CARD_TIMES_RE = re.compile(r"(?<![\w.])(\d{1,3})\s?(?:[x×]\s?|张|块|卡\s?)(" + _CARD + r")(?![\w])", re.I)


def card_times(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """'8x A100' / '8张A100' → 'A100*8' and 'A100 x8': the count after the card."""
    yield from (("card*n", t) for _, t in _sub_each(_CARD_TIMES_RE, text, lambda m: [f"{m[2]}*{m[1]}"]))
    yield from (("card xn", t) for _, t in _sub_each(_CARD_TIMES_RE, text, lambda m: [f"{m[2]} x{m[1]}"]))


_CN = "零一二三四五六七八九"
_ZH_CLASSIFIED_RE = re.compile(r"(?<![\d.])(\d{1,2})\s?(?=(?:张|块|台|个节点|节点|天|周|个月|轮|机))")
_CN_NUMERAL_RE = re.compile(
    r"(?<![一二两三四五六七八九十百千万亿\d])([一二两三四五六七八九十]{1,3})(?=(?:张|块|台|个节点|节点|天|周|个月|轮))"
)


def _to_cn(n: int, classifier_two: bool) -> str:
    if n == 2 and classifier_two:
        return "两"
    if n < 10:
        return _CN[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else _CN[tens]) + "十" + (_CN[ones] if ones else "")


def _from_cn(s: str) -> int | None:
    digits = {c: i for i, c in enumerate(_CN)} | {"两": 2}
    if "十" in s:
        head, _, tail = s.partition("十")
        if (head and head not in digits) or (tail and tail not in digits):
            return None
        return (digits[head] if head else 1) * 10 + (digits[tail] if tail else 0)
    return digits.get(s) if len(s) == 1 else None


def numerals(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """Chinese ↔ Arabic numerals before a classifier: '8张' ↔ '八张', '2台' ↔ '两台', '16张' ↔ '十六张'."""
    to_cn = lambda m: [_to_cn(int(m[1]), True) if 0 < int(m[1]) < 100 else m[0]]  # noqa: E731
    yield from (("arabic>cn", t) for _, t in _sub_each(_ZH_CLASSIFIED_RE, text, to_cn))
    to_arabic = lambda m: [str(n) if (n := _from_cn(m[1])) is not None else m[0]]  # noqa: E731
    yield from (("cn>arabic", t) for _, t in _sub_each(_CN_NUMERAL_RE, text, to_arabic))


_EN_COUNTED_RE = re.compile(
    r"(?<![\w.$])([1-9]|10)\s(?=(?:GPUs?|cards?|nodes?|machines?|servers?|days?|weeks?|months?|epochs?)\b)",
    re.I,
)
_EN_WORD_RE = re.compile(
    r"\b(one|two|three|four|five|six|seven|eight|nine|ten)(?=\s(?:GPUs?|cards?|nodes?|machines?|servers?|"
    r"days?|weeks?|months?|epochs?|[AHL]\d{2,3}S?s?)\b)",
    re.I,
)


def en_numerals(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """'8 GPUs' ↔ 'eight GPUs', '2 nodes' ↔ 'two nodes'."""
    yield from (
        ("digit>word", t) for _, t in _sub_each(_EN_COUNTED_RE, text, lambda m: [_EN_WORDS[int(m[1])] + " "])
    )
    yield from (
        ("word>digit", t)
        for _, t in _sub_each(_EN_WORD_RE, text, lambda m: [str(_EN_WORDS.index(m[1].lower()))])
    )


# --- names ----------------------------------------------------------------------------------------------
_QWEN_RE = re.compile(r"(?<![\w\-./])qwen(\d(?:\.\d)?)[\-\s_](\d+(?:\.\d+)?)b(?![\w.]|-a\d)", re.I)
_LLAMA_RE = re.compile(r"(?<![\w\-./])(?:meta-)?llama[\-\s]?(\d(?:\.\d)?)[\-\s](\d+)b(?![\w.])", re.I)
_GENERIC_RE = re.compile(r"(?<![\w\-./])([A-Za-z]{2,12}\d?(?:\.\d)?)-(\d+(?:\.\d+)?)([Bb])(?![\w.])")


def model_spellings(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """Qwen2.5-7B ↔ qwen2.5 7b ↔ Qwen2.5 7B Instruct ↔ 千问2.5 7B; Llama-3-8B ↔ llama3 8b ↔
    Meta-Llama-3-8B-Instruct; any 'Family-7B' as 'family 7b'."""
    qwen = [lambda m: f"qwen{m[1]} {m[2]}b", lambda m: f"Qwen{m[1]} {m[2]}B Instruct"]
    qwen += [lambda m: f"千问{m[1]} {m[2]}B"] if lang == "zh" else []
    for i, form in enumerate(qwen):
        yield from ((f"qwen{i}", t) for _, t in _sub_each(_QWEN_RE, text, lambda m, f=form: [f(m)]))
    llama = [lambda m: f"llama{m[1]} {m[2]}b", lambda m: f"Meta-Llama-{m[1]}-{m[2]}B-Instruct"]
    for i, form in enumerate(llama):
        yield from ((f"llama{i}", t) for _, t in _sub_each(_LLAMA_RE, text, lambda m, f=form: [f(m)]))
    if not (_QWEN_RE.search(text) or _LLAMA_RE.search(text)):
        generic = lambda m: [f"{m[1].lower()} {m[2]}{m[3].lower()}"]  # noqa: E731
        yield from (("generic", t) for _, t in _sub_each(_GENERIC_RE, text, generic))


_CARD_MEM_RE = re.compile(r"(?<![\w\-])([AH]\d{2,3})[\s\-_]?(\d{2,3})\s?GB?(?![\w])", re.I)
_CARD_ALONE_RE = re.compile(r"(?<![\w\-.])(?<!NVIDIA )(?<!Nvidia )(?<!nvidia )([AHL]\d{2,3}S?)(?![\w\-])")


def gpu_spellings(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """A100 80G ↔ A100-80GB ↔ NVIDIA A100 80GB; A100 ↔ a100 ↔ NVIDIA A100."""
    forms = lambda m: [f"{m[1]}-{m[2]}GB", f"NVIDIA {m[1].upper()} {m[2]}GB", f"{m[1].lower()} {m[2]}g"]  # noqa: E731
    yield from (("mem" + i, t) for i, t in _sub_each(_CARD_MEM_RE, text, forms))
    if not _CARD_MEM_RE.search(text):
        yield from (
            ("alone" + i, t)
            for i, t in _sub_each(_CARD_ALONE_RE, text, lambda m: [m[1].lower(), f"NVIDIA {m[1]}"])
        )


# --- punctuation, greetings, order, case, markup --------------------------------------------------------
_HALF = {",": "，", ":": "：", ";": "；", "(": "（", ")": "）", "?": "？", "!": "！"}
_HALF_RE = re.compile(r"([,:;?!])(?=\s|$|[\u4e00-\u9fff])|[()](?![\w]*=)")
_FULL_PUNCT = {"，": ", ", "。": ". ", "：": ": ", "；": "; ", "（": " (", "）": ") ", "？": "? ", "！": "! "}


def widths(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """Half-width punctuation as full-width ('，', '：', '（'), spaces as U+3000, digits as full-width
    digits; Chinese full-width punctuation as half-width (', ', '. ')."""
    yield "full-punct", _HALF_RE.sub(lambda m: _HALF[m[0][0]] if m[0][0] in _HALF else m[0], text)
    yield "ideographic-space", text.replace(" ", "\u3000")
    yield "full-digits", re.sub(r"\d", lambda m: chr(ord(m[0]) + 0xFEE0), text)
    if any(c in text for c in _FULL_PUNCT):
        yield "half-punct", "".join(_FULL_PUNCT.get(c, c) for c in text)


_GREETINGS = {
    "zh": (("hi", "大佬们好，{}"), ("thanks", "{}谢谢！"), ("both", "各位好，请教一下：{} 先谢过！")),
    "en": (
        ("hi", "Hi all, quick question: {}"),
        ("thanks", "{} Thanks in advance!"),
        ("both", "Hello! {}\nThanks!"),
    ),
}


def greetings(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """A greeting or thanks before or after the question."""
    for label, form in _GREETINGS[lang]:
        yield label, form.format(text)


_SENTENCE_RE = re.compile(r"[^。！？!?\n]+(?:[。！？!?]+|\n|$)|(?<=[.])\s")


def _sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[。！？!?\n])|(?<=\.)(?=\s+[A-Z])", text)
    return [p for p in parts if p.strip()]


def clause_order(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """The last sentence (the question, usually) first; the first two sentences swapped."""
    parts = _sentences(text)
    if 2 <= len(parts) <= 6:  # s32: a sentence that leans on the one before it is not moved before it
        if not more.leans_back(parts[-1]):
            yield "last-first", " ".join(p.strip() for p in [parts[-1], *parts[:-1]])
        if not more.leans_back(parts[1]):
            yield "swap-first-two", " ".join(p.strip() for p in [parts[1], parts[0], *parts[2:]])


def case(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """The whole message lower case, or upper case."""
    yield "lower", text.lower()
    yield "upper", text.upper()


_NAME_TOKEN_RE = re.compile(r"(?<![\w\-./`])([A-Za-z][\w.]*\d[\w.\-]*[A-Za-z0-9])(?![\w\-`])")
_FIGURE_RE = re.compile(
    r"(?<![\w.\-/:])(\d+(?:\.\d+)?\s?(?:[BbKk]\b|张|卡|块|台|GPUs?\b|tokens?\b|天|days?\b))"
)


def markdown(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """Names in backticks, figures in bold, the sentences as a bulleted list."""
    yield "backticks", _NAME_TOKEN_RE.sub(lambda m: f"`{m[1]}`", text)
    yield "bold", _FIGURE_RE.sub(lambda m: f"**{m[1]}**", text)
    parts = _sentences(text)
    if len(parts) >= 2:
        yield "bullets", "\n".join(f"- {p.strip()}" for p in parts)


_ASIDES = {
    "zh": (("aside", "{} 另外，我们组下周团建。"), ("aside-number", "{} 另外我们办公室在 3 楼。")),
    "en": (
        ("aside", "{} Unrelated: our team lunch moved to Friday."),
        ("aside-number", "{} Also, our office is on floor 3."),
    ),
}


def asides(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """An unrelated sentence after the question (one with a number no setting is)."""
    for label, form in _ASIDES[lang]:
        yield label, form.format(text)


FAMILIES: tuple[Family, ...] = (
    Family("memory_units", memory_units),
    Family("magnitudes", magnitudes),
    Family("k_lengths", k_lengths),
    Family("counts", counts),
    Family("card_times", card_times),
    Family("numerals_zh", numerals, ("zh",)),
    Family("numerals_en", en_numerals, ("en",)),
    Family("model_spellings", model_spellings),
    Family("gpu_spellings", gpu_spellings),
    Family("widths", widths),
    Family("greetings", greetings),
    Family("clause_order", clause_order),
    Family("case", case, any_case=True),
    Family("markdown", markdown),
    Family("asides", asides),
    Family("mention", more.mention),
    Family("question_mark", more.question_mark),
    Family("line_breaks", more.line_breaks),
    Family("polite_middle", more.polite_middle),
    Family("memory_words", more.memory_words, ("en",)),
    Family("node_forms", more.node_forms, ("en",)),
    Family("card_words", s33.card_words, ("en",)),
    Family("full_letters", s33.full_letters),
    Family("spaced_units", s33.spaced_units),
    Family("thousands", s33.thousands),
    Family("qian", s33.qian, ("zh",), restate=s33.qian_restate, changes=s33.QIAN_KEYS),
    Family("org_names", s33.org_names),
    Family("context_first", s33.context_first),
    Family("hf_links", s34.hf_links),
    Family("labelled_parts", s34.labelled_parts),
)
"""Every rewrite family, once, each with its expected effect: no stated key changes (``changes`` empty)."""


# --- the sweep ------------------------------------------------------------------------------------------
WORKING_SPLITS = ("work", *(f"r{n}work" for n in (2, 3, 4, 5, 6, 7, *range(9, 26))))
"""The working splits only (held-out ones are never rewritten: tests/real_questions.py)."""


@dataclass(frozen=True)
class Outcome:
    """One rewritten question: its record, family and variant, the stated keys missed or drifted."""

    rid: str
    family: str
    variant: str
    text: str
    missed: tuple[str, ...]
    drifted: tuple[str, ...]

    @property
    def broken(self) -> bool:
        return bool(self.missed or self.drifted)


def _sized(record: dict[str, Any], text: str) -> tuple[list[str], dict[str, Any]]:
    """The stated keys missed for ``text`` and the request's values of the stated keys."""
    answer = rq.answer_json(text)
    request = answer.get("request") or {}
    return rq.score(record, answer), {k: request.get(k) for k in record.get("stated") or {}}


def variants(record: dict[str, Any]) -> Iterator[tuple[Family, str, str]]:
    """Every (family, variant, rewritten text) of a record, each distinct text once."""
    seen = {record["text"]}
    for family in FAMILIES:
        if record["lang"] not in family.langs:
            continue
        for label, text in family.rewrite(record["text"], record["lang"]):
            if text not in seen:
                seen.add(text)
                yield family, label, text


def _check(job: tuple[dict[str, Any], dict[str, Any], str, str, str]) -> Outcome:
    record, base, family_name, label, text = job
    family = next(f for f in FAMILIES if f.name == family_name)
    if family.restate:
        record = {**record, "stated": family.restate(record["stated"], text)}
    missed, sized = _sized(record, text)
    drifted = [
        k
        for k in sized
        if k not in family.changes and k in base and _value(sized[k], family) != _value(base[k], family)
    ]
    return Outcome(record["id"], family_name, label, text, tuple(missed), tuple(drifted))


def _value(value: Any, family: Family) -> Any:
    """A sized value as the family compares it: strings in lower case when it is declared ``any_case``."""
    return value.lower() if family.any_case and isinstance(value, str) else value


def _base(record: dict[str, Any]) -> dict[str, Any] | None:
    missed, sized = _sized(record, record["text"])
    return None if missed else sized


def sweep(recs: list[dict[str, Any]], jobs: int = 2, families: set[str] | None = None) -> list[Outcome]:
    """Every rewrite of every record understood in full, checked (in ``jobs`` processes)."""
    from multiprocessing import get_context

    pool = get_context("fork").Pool(jobs) if jobs > 1 else None
    mapper = pool.imap if pool else map
    try:
        bases = list(mapper(_base, recs))
        work = [
            (r, b, f.name, label, text)
            for r, b in zip(recs, bases, strict=True)
            if b is not None
            for f, label, text in variants(r)
            if families is None or f.name in families
        ]
        return list(pool.imap(_check, work, chunksize=8) if pool else map(_check, work))
    finally:
        if pool:
            pool.close()


def census(outcomes: list[Outcome]) -> list[tuple[str, int, int, int, str]]:
    """(family, rewrites, broken, records broken, an example) per family, most broken first."""
    by: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        by[f"{o.family}/{o.variant}"].append(o)
    rows = []
    for name, items in by.items():
        broken = [o for o in items if o.broken]
        example = ""
        if broken:
            o = broken[0]
            example = f"{o.rid}: {', '.join(dict.fromkeys(o.missed + o.drifted))}"
        rows.append((name, len(items), len(broken), len({o.rid for o in broken}), example))
    return sorted(rows, key=lambda r: (-r[2], r[0]))


def table(rows: list[tuple[str, int, int, int, str]]) -> str:
    """The census as a markdown table."""
    lines = ["| family | rewrites | broken | records | example |", "|---|---:|---:|---:|---|"]
    lines += [f"| {n} | {t} | {b} | {r} | {e} |" for n, t, b, r, e in rows]
    lines.append(f"| **all** | {sum(r[1] for r in rows)} | {sum(r[2] for r in rows)} | | |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--split", choices=WORKING_SPLITS, action="append")
    p.add_argument("--all", action="store_true", help="every working split")
    p.add_argument("--family", action="append", help="only these families")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--markdown", help="write the census table to this file")
    p.add_argument("--quiet", action="store_true", help="the census only, no breakage lines")
    args = p.parse_args(argv)
    splits = WORKING_SPLITS if args.all else tuple(args.split or ("work",))
    recs = [r for s in splits for r in rq.records(s)]
    outcomes = sweep(recs, args.jobs, set(args.family) if args.family else None)
    if not args.quiet:
        for o in outcomes:
            if o.broken:
                print(
                    f"{o.rid} {o.family}/{o.variant}: missed {list(o.missed)} drifted {list(o.drifted)}"
                    f" — {o.text[:160]!r}"
                )
    rows = census(outcomes)
    text = table(rows)
    print(text)
    by_lang = Counter(o.rid[:2] for o in outcomes if o.broken)
    print("broken by language:", dict(by_lang), f"of {len(outcomes)} rewrites")
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
