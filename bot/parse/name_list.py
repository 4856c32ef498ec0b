"""Weight formats and model sizes written as a list (session 39, issue 24; the reading half of the rows of
bot.core.per_value for them): 'fp16、int8 还是 int4', 'at fp16 / int8 / int4', 'in bf16 or fp8' of a model
served; '7B/13B/70B 分别', 'a 7B, 13B or 70B model', '8B 和 70B 模型' with no model named (bare sizes).

The parse sizes one value and names the others ('precision: int8', 'model: 13B'); these are a list only when
the message writes them as one (:data:`FORMAT_RUN_RE`, :data:`SIZE_RUN_RE`: joined by a comma, 、, /, or,
and, 或, 和, 还是, vs) and the run holds as many as were read: 'served at bf16 last week; now int4?' (two
setups) and 'ran a 7B last month; now 70B' (an earlier model) are no list, nor is a range ('7-8B') or a
value refused before the list ('不要 fp16，int8 就够了'), nor two items joined by a bare comma (two clauses:
'跑 7B，14B 能放下吗？'). Weight formats make rows for a model served only
(a training's compute precision is bf16 whatever is said: estimator.training). A family's sizes after a
catalog model ('Qwen2.5-7B、14B、32B') are that family's models compared (bot.parse.models_compared).
Imported only where bot.parse.value_list reads a named format or model."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot.parse.value_list import REFUSED_RE

if TYPE_CHECKING:
    from estimator.models import SizingRequest

_SEP = r"\s*(?:,|，|、|/|\bor\b|\band\b|\bvs\.?|或者?|和|与|跟|还是|及)\s*(?:(?:at|in|with)\s+|[用按])?\s*"
_FORMAT = (
    r"(?:fp|bf|int)\s?(?:32|16|8|4|3|2)(?:_e[45]m[23])?|q\d(?:_k)?(?:_[msl0-9])?|\d{1,2}[\s\-]?(?:bits?|位|比特)|nf4|awq"
    r"|gptq|mxfp4|nvfp4"
)
"""A weight format as people write it, normalized: 'fp16', 'int8', 'int 4', 'q4_k_m', '8-bit', '8 位',
'awq'."""
FORMAT_RUN_RE = re.compile(rf"(?<![\w.])(?:{_FORMAT})(?:{_SEP}(?:{_FORMAT}))+(?![\w])", re.I)
"""Weight formats written as a list ('fp16、int8 还是 int4', 'fp16 / int8 / int4', 'bf16 or fp8')."""
_FIGURE = (
    r"(?:\s*(?:needs?|takes?|uses?|requires?|is|需要|要|占用?)?\s*(?:about|around|roughly|~|≈|约|大约)?\s*"
    r"\d{1,4}(?:\.\d{1,2})?\s?(?:gb|gib|g)\b)?"
)
FORMAT_FIGURE_RUN_RE = re.compile(
    rf"(?<![\w.])(?:{_FORMAT}){_FIGURE}(?:{_SEP}(?:{_FORMAT}){_FIGURE})+(?![\w])", re.I
)
"""s46 (en38-039): weight formats listed each with the memory it takes ('FP16 needs about 168 GB, Q4_K_M
about 47 GB and Q3_K_M about 36.1 GB', 'FP16 需要 168GB，Q4_K_M 约 47GB'): the same list, a row each; the
figures are the asker's, the rows size each format themselves."""
_SIZE = r"\d{1,4}(?:\.\d{1,2})?\s?[bm]"
SIZE_RUN_RE = re.compile(rf"(?<![\w.])(?:{_SIZE})(?:{_SEP}(?:{_SIZE}))+(?![\w])", re.I)
"""Model sizes written as a list ('7b/13b/70b', '7b, 13b or 70b', '8b 和 70b'); a range ('7-8b') is none."""
BARE_SIZE_RE = re.compile(r"\s*(\d{1,4}(?:\.\d{1,2})?)\s?([bm])\s*", re.I)
"""A model named by its size alone ('13B', '1.5B', '500M'), as the parse names it ('model: 13B')."""


def names_listed(s: str, request: SizingRequest, named: list[str]) -> tuple[str, list] | None:
    """('precision', formats) or ('params_total', sizes), the sized value first, of a list written in ``s``
    (the normalized message) holding the request's value and the others ``named`` ('precision: int8',
    'model: 13B'), else None."""
    formats = [t[len("precision: ") :] for t in named if t.startswith("precision: ")]
    if formats and request.precision is not None and request.stage in (None, "inference"):
        from estimator.request import Precision

        values = list(dict.fromkeys([str(request.precision), *(_format(f) for f in formats)]))
        known = {p.value for p in Precision}  # a format the estimate sizes (an 'nf4' is named as typed)
        sized = [sized_format(v) for v in values]  # s46: 'Q3_K_M' sized as int4, named in its row
        if not set(sized) <= known or len({SAME_WIDTH.get(v, v) for v in sized}) < len(values):
            return None  # 'fp16/bf16': one width written two ways, no rows to tell apart
        from bot.parse.written_values import one_unit_each  # '4, 8 or 16-bit': each a width (r35 en)

        one = one_unit_each(s)
        if _run_holds(FORMAT_RUN_RE, one, len(values)) or _run_holds(FORMAT_FIGURE_RUN_RE, one, len(values)):
            return "precision", values
    sizes = [_size(t[len("model: ") :]) for t in named if t.startswith("model: ")]
    if sizes and all(sizes) and request.model is None and request.params_total:
        values = list(dict.fromkeys([float(request.params_total), *sizes]))
        if _run_holds(SIZE_RUN_RE, s, len(values)):
            return "params_total", values
    return None


SAME_WIDTH = {"bf16": "fp16", "int8": "fp8"}
"""Formats of one width whose rows would be the same figures ('fp16/bf16', 'FP8 or 8-bit': one option)."""
_BITS = {"8": "int8", "4": "int4", "3": "int3", "2": "int2"}
"""An integer width as people write it ('8-bit', '4 bit') → its weight format, as the parse reads it."""


def sized_format(value: str) -> str:
    """The format a listed one is sized as: itself, or for a GGUF type the estimator has no width of
    ('q3_k_m') the next wider one (bot.parse.precision_words.NEAREST_FORMAT: 'int4'), an upper bound its
    row names."""
    from bot.parse.precision_words import NEAREST_FORMAT, PRECISION_MAP

    return PRECISION_MAP[value] if value in NEAREST_FORMAT else value


def _format(typed: str) -> str:
    """A format named as typed as the request holds it ('8-bit' → 'int8'; 'int8' as is)."""
    m = re.fullmatch(r"\s*(\d{1,2})[\s\-]?bits?\s*", typed, re.I)
    return _BITS.get(m.group(1), typed.strip()) if m else typed.strip()


def _run_holds(pattern: re.Pattern[str], s: str, n: int) -> bool:
    """Whether ``s`` writes a list of at least ``n`` items of ``pattern`` whose first is not refused."""
    for m in pattern.finditer(s):
        if REFUSED_RE.search(s, max(0, m.start() - 16), m.start()):
            continue
        seps = re.findall(_SEP, m.group(0))
        if len(seps) + 1 >= n and (len(seps) > 1 or seps[0].strip() not in (",", "，")):
            return True  # two items joined by a bare comma are two clauses ('跑 7B，14B 能放下吗？')
    return False


def _size(typed: str) -> float | None:
    """The parameters of a model named by its size alone ('13B': 13e9), else None."""
    m = BARE_SIZE_RE.fullmatch(typed)
    return float(m.group(1)) * (1e9 if m.group(2).lower() == "b" else 1e6) if m else None


def named_value(text: str, setting: str) -> float | str | None:
    """The value of a format or size the parse named ('int8' of ' int8'; 13e9 of ' 13B') for ``setting``."""
    return _format(text) if setting == "precision" else _size(text)
