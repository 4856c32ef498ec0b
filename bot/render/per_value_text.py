"""The rows of several values of one setting asked in one message (s36-lists, issue 24): 'on 1, 2 or 4
A100', '并发 10、20、50 分别要几张卡', 'at 8k, 32k and 128k context', 'A2000 6GB 能跑吗？12GB 可以吗？';
s39: 'fp16、int8 还是 int4', '7B/13B/70B 分别'.

The headline answers the value sized (the first); the lines after it give one row per value listed
(:attr:`bot.core.answer.Answer.per_value`): its verdict, the GPUs, the memory per GPU, the training days or
the serving speed of one sequence. Only numbers and catalogued wording are written: nothing to escape.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.fmt import fmt_for
from bot.render.i18n import N_, translate

if TYPE_CHECKING:
    from bot.core.answer import Answer
    from bot.core.per_value import PerValue

HEAD = N_("Each value you listed:")
SIZED_AS = N_("%(n)s (sized as %(fmt)s, an upper bound)")
"""A GGUF type the estimator has no width of, sized as the next wider format (s46: 'Q3_K_M' as INT4)."""
VALUE = {
    "gpu_count": N_("GPU count %(n)s"),
    "concurrency": N_("%(n)s concurrent sequences"),
    "seq_len": N_("%(n)s-token context"),
    "gpu_memory_gib": N_("a %(n)s GB card"),
    "batch_size": N_("batch size %(n)s"),
    "precision": N_("%(n)s weights"),
    "params_total": N_("a %(n)s model"),
}
"""How a row names its value, by setting."""
VERDICT = {"yes": N_("fits"), "borderline": N_("tight"), "no": N_("does not fit")}
NEEDS = N_("needs %(n)s GPUs")
NEEDS_ONE = N_("needs 1 GPU")
PER_GPU = N_("%(mem)s per GPU")
DAYS = N_("%(days)s days")
TIME = {"days": DAYS, "hours": N_("%(days)s hours"), "minutes": N_("%(days)s minutes")}
"""A row's training time in the unit it is read in (bot.render.fmt.Fmt.duration: hours under a day, s39)."""
SPEED = N_("%(speed)s tokens/s per sequence")
SPEED_AT = N_("%(speed)s tokens/s per sequence at %(n)s concurrent")
"""The speed of one of the sequences running at once (DecodeSpeed.per_sequence at the load the GPUs run:
the load, or the fewer they hold), said with that count: not one stream alone's (s41 trial #12)."""
HOLDS = N_("holds %(fit)s of the %(load)s sequences")


def _needs(lang: str, n: int | None, f) -> str:
    """'needs 4 GPUs', 'needs 1 GPU' (s41 trial #12: 'needs 1 GPUs')."""
    return translate(lang, NEEDS_ONE) if n == 1 else translate(lang, NEEDS, n=f.int(n))


def _row(row: PerValue, lang: str) -> str:
    f = fmt_for(lang)
    parts = [translate(lang, VERDICT[row.fits])] if row.fits in VERDICT else []
    if _under_card(row):  # what failed was the count, not the card's memory (trial s37 #2)
        parts = [_needs(lang, row.gpus, f)]
    if row.fits is None and row.gpus:
        parts.append(_needs(lang, row.gpus, f))
    if row.fits == "no" and row.gpus_needed and not _under_card(row):  # s39 fixl2 #2: the count it needs
        parts.append(_needs(lang, row.gpus_needed, f))
    fit, load = row.sequences_fit, row.load
    if fit is not None and load and row.fits is not None and fit < load:  # the GPUs hold fewer than the load
        parts.append(translate(lang, HOLDS, fit=f.int(fit), load=f.int(load)))
    if row.memory_gib:
        parts.append(translate(lang, PER_GPU, mem=f.gib(row.memory_gib * 2**30)))
    if row.days:
        n, unit = f.duration(row.days)
        parts.append(translate(lang, TIME[unit], days=n))
    if row.tokens_per_s and (row.fits != "no" or _under_card(row)):  # no speed where it does not fit (s39)
        running = min(load, fit) if load and fit else load  # the sequences decoding at once
        speed = f.num(row.tokens_per_s, 1)
        parts.append(translate(lang, SPEED_AT, speed=speed, n=f.int(running)) if running and running > 1
                     else translate(lang, SPEED, speed=speed))  # fmt: skip
    sep, colon = ("，", "：") if lang == "zh" else (", ", ": ")
    return f"• {translate(lang, VALUE[row.setting], n=_value(row, f, lang))}{colon}{sep.join(parts)}"


def _value(row: PerValue, f, lang: str = "en") -> str:
    """The value as the row names it: a weight format's name upper-cased ('INT8'), a model's size ('13B'),
    else the number (s39)."""
    if isinstance(row.value, str):
        from bot.parse.name_list import sized_format

        sized = sized_format(row.value)  # s46: a GGUF type sized as the next wider format, said so
        return (
            row.value.upper()
            if sized == row.value
            else translate(lang, SIZED_AS, n=row.value.upper(), fmt=sized.upper())
        )
    return f.params(row.value) if row.setting == "params_total" else f.int(row.value)


def _under_card(row: PerValue) -> bool:
    """A card-memory row whose figure per GPU is under the card (GB) but whose verdict is 'no': it takes
    more GPUs than were sized, so the row says how many, never 'does not fit' under a smaller figure."""
    mem, many = row.memory_gib, bool(row.gpus and row.gpus > 1)
    card = row.setting == "gpu_memory_gib" and float(row.value) * 1e9
    return bool(row.fits == "no" and many and mem and card and mem * 2**30 < card)


def per_value_lines(text: str, answer: Answer) -> str:
    """``text`` (a rendered reply) with a row per listed value after its first line; unchanged when the
    message listed no values of one setting."""
    rows = answer.per_value
    if len(rows) < 2:
        return text
    lines = [translate(answer.lang, HEAD), *(_row(r, answer.lang) for r in rows)]
    head, nl, rest = text.partition("\n")
    brk = "\\\n" if "\\\n" in rest else "\n"  # Markdown's hard line breaks where the reply has them
    return head + "\n" + brk.join(lines) + nl + rest
