"""No value left behind (issue 24, session 10): at the end of parsing, every number of the message is used
by the request or named as not used (docs/design.md §8).

The roles step names the numbers it reads and cannot place (``unread``); what it never sees are the numbers
a reader before it masked — a setting, a flag, a name — and then dropped. This audit finds those: a number
of the normalized text whose place the readers masked, that is no part of a name (a digit glued after a
letter, a dash, a dot: 'qwen2.5-7b', 'llama-3'), whose value no request field holds in a unit the
parser converts to for that field (k, M, B, T, 万, 亿 for counts; 2k = 2048 for lengths; days ↔ hours;
a percentage ↔ a fraction), and that no item named
as not used already writes. Each is named as typed, with the reason ``unread``. A number the request uses
is never named: the check is on values, so a number that could be the one used is left alone — unless
the field holding that value was read at another place (a used number's span: '--ep 8' beside '8 A100').
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Mapping
from typing import Any

from bot.parse.fixed_patterns import GROUP_MARKS

_MAGNITUDES = (1.0, 1e3, 1e4, 1e6, 1e8, 1e9, 1e12)
"""Decimal magnitudes (k, M, B, T) and Chinese ones (万 1e4, 亿 1e8): counts, money, rates."""
_LENGTH = (1.0, 1e3, 1024.0, 1e4)
"""Token lengths: '2k' as 2000 or 2048; '2万' as 20,000 (s17)."""
_MEMORY = (1.0, 1e3, 1024.0, 1e-3, 1 / 1024)
"""Memory sizes in GiB: GB/GiB, TB/TiB, MB/MiB."""
_SCALES_OF: dict[str, tuple[float, ...]] = {
    **dict.fromkeys(
        ("params_total", "params_active", "tokens", "num_samples", "budget", "price_per_gpu_hour",
         "achieved_tflops_per_gpu", "tokens_per_second_per_gpu"),
        _MAGNITUDES,
    ),
    # a rate per minute is stored per second ('1M tokens per minute' → 16,667/s: bot.parse.throughput_words)
    "target_tokens_per_s": (*_MAGNITUDES, *(m / 60 for m in _MAGNITUDES)),
    **dict.fromkeys(
        ("seq_len", "tokens_per_sample", "max_model_len", "max_completion_length", "prompt_tokens",
         "prefix_tokens"),
        _LENGTH,
    ),
    **dict.fromkeys(("gpu_memory_gib", "total_memory_gib", "host_memory_gib"), _MEMORY),
    **dict.fromkeys(("deadline_days", "deadline_default_days"), (1.0, 7.0, 30.0, 365.0, 1 / 24)),
    "hours": (1.0, 24.0, 168.0, 720.0, 1 / 60),
    **dict.fromkeys(("mfu", "gpu_memory_utilization"), (1.0, 0.01)),
}  # fmt: skip
"""The units the parser converts a written number by before it lands in each field (review s10 item 10:
each field compared in its own units, so a dropped '2' no longer hides behind a seq_len of 2048)."""
_DEFAULT_SCALES = (1.0, 1e3, 1e4)
"""Any other numeric field: as written, or in thousands ('1k users') or 万."""
_COMPUTED_SCALES = (1.0, 1e3, 1024.0, 1 / 1024)
"""Values a field was computed from (the accumulation steps, the data parallelism, the card's memory)."""
_NUMBER_RE = re.compile(r"\d+(?:\.\d+)?")
_TOKEN_RE = re.compile(
    r"(?<![\d.,_a-z\-/:#@\\])\d+(?:[,_]\d{3})*(?:\.\d+)?(?!\d|[.,_]\d|e[-+]?\d)"
    r"(?!\s*(?:-\s*)?(?:bits?|比特|位|bpw)(?![a-z])|\s*(?:/|of)\s*(?:my\s+)?(?:\w+'s\s+)?\d+\s*layers?"
    r"|\s*(?:/\s*\d+\s*)?(?:layers?|层)(?![a-z]))"
)
"""A number as typed ('8,192', '120_000', '0.95'), not part of a name, a version or a path (after a letter,
a dash, a dot: 'qwen2.5-7b', 'llama-3'), a bit width ('4-bit', '4 比特': the precision's) or layers on the
GPU ('44 of 81 layers': the offload); nor the mantissa of scientific notation ('2e3 iterations': the 2000
read, s44 fixread)."""
_GATE = re.compile(r"\d")
_UNIT_AFTER = re.compile(
    r"\s*(?:[kmbtgw]|[kmgt]i?b|thousand|million|billion|trillion|percent|%|weeks?|months?|days?|hours?|hrs?"
    r"|h|years?|mins?|minutes?)(?![a-z])|\s*(?:千|万|亿|兆|周|星期|个月|月|天|日|小时|钟头|年|分钟)"
)
"""A unit written after a number: only then may the number have been converted (a bare '2' is no '2k')."""
_MAGNITUDE_AFTER = re.compile(r"\s*(?:(?P<zh>千|万|亿)|(?P<en>[km])(?![a-z]))")
_MAGNITUDES = {"千": 1e3, "万": 1e4, "亿": 1e8, "k": 1e3, "m": 1e6}


def _as_written(s0: str, raw: str, start: int, value: float) -> float:
    """``value`` times the magnitude written after it ('10万' → 100,000, '2k' → 2,000), as a named item
    writes it ('requests_per_day: 100000', trial s21 #5: the '10' of '10万' named again as unread)."""
    m = _MAGNITUDE_AFTER.match(s0, start + len(raw))
    return value * _MAGNITUDES[m.group("zh") or m.group("en")] if m else value


def _values(
    request: Mapping[str, Any] | Iterable[Any], extra: tuple[float, ...], converted: bool = True
) -> list[float]:
    """Every value a written number could have become, sorted: each numeric field of ``request`` (its
    fields by name) in each of its own units (:data:`_SCALES_OF`), the digits of its names ('RTX-4090',
    'Llama-3.1-8B', 'int4') as written, and ``extra`` (values a field was computed from: the
    accumulation steps) in :data:`_COMPUTED_SCALES`. A request given as bare values (no names) takes
    every field's units; ``converted`` False: each value as it is (a number written with no unit)."""
    items = request.items() if isinstance(request, Mapping) else (("", v) for v in request)
    every = tuple({x for scales in (*_SCALES_OF.values(), _DEFAULT_SCALES) for x in scales})
    computed_scales = _COMPUTED_SCALES if converted else (1.0,)
    out: list[float] = [float(x) / s for x in extra if x is not None for s in computed_scales]
    for name, v in items:
        if v is None or isinstance(v, bool):
            continue
        scales = (_SCALES_OF.get(name, _DEFAULT_SCALES) if name else every) if converted else (1.0,)
        for x in v if isinstance(v, list | tuple) else (v,):
            if isinstance(x, str):
                out += [float(m) for m in _NUMBER_RE.findall(x)]
            elif isinstance(x, int | float):
                out += [float(x) / s for s in scales]
    return sorted(out)


def _scaled(request: Mapping[str, Any] | list[Any]) -> list[float]:
    """s45-workmiss (en37-028): the values the request's fields could have been written as with a magnitude
    after them ('4k', '32k', '10万'): each field divided by its own units other than 1, so a '4k' is no field
    holding 4 (the nodes of '4 nodes of 8 GPUs … max seq length 4k') while a '32k' is still a seq_len of
    32768. Never empty (a list holding 0.0 when no field has a unit), so it is made once per message."""
    items = request.items() if isinstance(request, Mapping) else (("", v) for v in request)
    out = [0.0]
    for name, v in items:
        if isinstance(v, int | float) and not isinstance(v, bool):
            out += [float(v) / x for x in _SCALES_OF.get(name, _DEFAULT_SCALES) if x != 1.0]
    return sorted(out)


def _could_be(n: float, values: list[float]) -> bool:
    """Whether ``n`` is one of the sorted ``values`` (each already divided by its field's units)."""
    i = bisect_left(values, n * (1 - 1e-6))
    return i < len(values) and values[i] <= n * (1 + 1e-6) + 1e-9


def _named_numbers(items: list[tuple[str, str]], extra: list[str]) -> set[float]:
    texts = " ".join([*(t for t, _ in items), *extra])
    return {float(m.group()) for m in _NUMBER_RE.finditer(texts.replace(",", ""))}


def _in_name(s: str, start: int) -> bool:
    """Whether the masked run holding ``start`` begins with a name's mark (bot.parse.normalize.mask: a
    model or a GPU is masked as a private-use character and spaces; a setting as spaces)."""
    i = start
    while i > 0 and s[i] == " ":
        i -= 1
    return "\ue000" <= s[i] <= "\uf8ff"


def _masked(s0: str, s: str) -> list[tuple[str, float, bool, int]]:
    """The numbers of ``s0`` (as typed, their value, whether a unit follows, and where it starts) a
    reader masked in ``s`` that are no part of a name, a version, a path, a bit width or a layer count."""
    found = [m for m in _TOKEN_RE.finditer(s0) if s[m.start()] == " "]  # not masked: the roles step's
    out = []
    for m in found:
        if not _in_name(s, m.start()):
            value, unit = float(GROUP_MARKS.sub("", m.group())), bool(_UNIT_AFTER.match(s0, m.end()))
            out.append((m.group(), value, unit, m.start()))
    return out


def spans(roles: Iterable[Any], used: set[int]) -> tuple[tuple[int, float], ...]:
    """(start, value) of each number the roles step used (``roles`` with ``id`` in ``used``): the places a
    field's value was read at, for :func:`left_behind`."""
    return tuple([(r.tok.start, r.tok.value) for r in roles if id(r) in used])  # a list: one frame


_NUMBER_AT_RE = re.compile(r"\d+(?:\.\d+)?")


def _aligned(s0: str, used_at: tuple[tuple[int, float], ...]) -> tuple[tuple[int, float], ...]:
    """The places of ``used_at`` that hold their number in ``s0`` too: a reader that rewrote the text
    before the roles step ('并发数要增加到 64' → '并发 64') moved the places after it, and a place that no
    longer points at its number is no evidence of where a value was read (s14 merge: a used 64 named)."""
    out = []
    for at, value in used_at:
        m = _NUMBER_AT_RE.match(s0, at)
        if m is not None and float(m.group()) == value:
            out.append((at, value))
    return tuple(out)


def _held_elsewhere(
    value: float, start: int, request: Mapping[str, Any] | list[Any], used_at: tuple[tuple[int, float], ...]
) -> bool:
    """Whether every request field that holds ``value`` as written can be a number the roles step read at
    another place (``used_at``: (start, value) of each number it used): '--ep 8' beside '8 A100' — the
    gpu_count is the '8 A100' (s14: an equal used value no longer hides a number not read)."""
    elsewhere = sum(1 for at, v in used_at if at != start and v == value)
    if not elsewhere or not isinstance(request, Mapping):
        return False
    held = sum(
        1
        for v in request.values()
        if not isinstance(v, bool) and isinstance(v, int | float) and float(v) == value
    )
    return held <= elsewhere


def left_behind(
    s0: str,
    s: str,
    request: Mapping[str, Any] | Iterable[Any],
    named: list[tuple[str, str]],
    extra: list[str] = (),
    computed: tuple[float, ...] = (),
    used_at: tuple[tuple[int, float], ...] = (),
) -> list[str]:
    """The numbers of the normalized text ``s0`` that a reader masked (blank in the final text ``s``) and
    that neither the request (``request``: its fields by name, each compared in its own units when a
    unit is written after the number; ``computed``: values a field was computed from, and the sized
    card's memory) uses nor an item named (``named``: (text, reason) pairs; ``extra``: other texts the
    answer names, names as typed) writes, as typed. A number written without a unit whose value only
    fields that numbers read at other places (``used_at``: (start, value) of each number the roles step
    used) hold is named too (:func:`_held_elsewhere`): the check is by place where places are known."""
    if len(s) != len(s0) or not _GATE.search(s0):
        return []
    masked = _masked(s0, s)
    if not masked:
        return []
    request = dict(request) if isinstance(request, Mapping) else list(request)
    values, exact = _values(request, computed), _values(request, computed, converted=False)
    seen = _named_numbers(named, list(extra))
    out: list[str] = []
    keyed = _values((), computed, converted=False)
    used_at = _aligned(s0, used_at)
    scaled: list[float] = []
    for raw, value, unit, start in masked:
        if value in seen or _as_written(s0, raw, start, value) in seen:
            continue
        typed = raw
        if _could_be(value, values if unit else exact) and (
            unit or _could_be(value, keyed) or not _held_elsewhere(value, start, request, used_at)
        ):
            after = s0[start + len(raw) : start + len(raw) + 3]  # '4k', '10万': a magnitude (s45-workmiss)
            if not (
                unit and value in exact and after[:1] and after[:1] in "k千万亿" and not after[1:2].isalpha()
            ):
                continue  # 'value in exact' (a field holds the digits as written): a C test, no frame
            scaled = scaled or _scaled(request)
            if _could_be(value, scaled):
                continue
            typed = raw + after[:1]  # named as written, '4k': its key's reader finds it there
        others = [v for r, v, _, _ in masked if r != raw]
        if any(_could_be(value + v, values) for v in others):  # a prompt and a completion summed
            continue
        out.append(typed)
    return out  # one item per place: the same text dropped twice is named twice


_ALT_MEMORY_CUES = ("呢", "不行", "不够", "换", "或", "要么", "/", " or ", "about", "if not", "otherwise")
"""Literals one of which every other-memory cue holds: ``in`` tests before the pattern's scan."""
_ALT_MEMORY_RE = re.compile(
    r"(?:如果不行|不行的话|不够的话|换成|换到|或者|要么|\bif\s+not\b|\botherwise\b"
    r"|\b(?:what|how)\s+about\b)[^。？?！!；;\n]{0,30}?(?<![\d.])(?P<n>\d+(?:\.\d+)?)\s*(?:gib|gb|g)(?![a-z])"
    r"(?=[^。；;\n]{0,12}?(?:[?？]|吗|呢))"
    r"|(?<![\d.])(?P<m>\d+(?:\.\d+)?)\s*(?:gib|gb|g)\s*(?:显存\s*)?(?:的\s*)?(?:卡|版本?)?\s*呢"
    r"|(?<![\d.])(?P<a>\d+(?:\.\d+)?)\s*(?:gib|gb|g)?\s*(?:/|或|\bor\b)\s*(?:the\s+)?(?P<b>\d+(?:\.\d+)?)\s*(?:gib|gb|g)(?![a-z])"
)
"""A card memory said as the other option, asked ('如果不行，RTX A2000 12GB 可以吗', 'what about the 12GB
one?', '80G 的呢'), or as one of two memories ('12G / 24G 够吗', '24GB or 48GB'; s44: 'the 40GB or the 80GB
A100?')."""


def other_memories(s0: str, memory: float | None, items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Round 32: ``items`` with each number left unread that is a card memory said as another option of
    the job ('RTX A2000 6GB 能跑吗？如果不行，RTX A2000 12GB 可以吗？') named as another setup: the
    request sizes the memory said first (``memory``); the other is never dropped, nor left as unread."""
    for cue in _ALT_MEMORY_CUES:  # a loop of C tests: no search, no frame
        if cue in s0:
            break
    else:
        return items
    found = {n for m in _ALT_MEMORY_RE.finditer(s0) for n in m.group("n", "m", "a", "b") if n}
    other = {raw for raw in found if float(raw) != memory}
    named = [
        (f"{raw} GB", "other_setup") if why == "unread" and raw in other else (raw, why) for raw, why in items
    ]
    return named
