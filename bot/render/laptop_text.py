"""A laptop's one card (s20 #3, :mod:`bot.parse.laptop_note`): a laptop holds one GPU, so the reply never
counts more of them. When the job does not fit that card, the headline says so and what does fit — lighter
weights that fit the one card, llama.cpp/Ollama with part of the layers in the laptop's RAM, or a machine
with more GPU memory — and the notes that count cards (does_not_fit_requested, tp_over_pcie,
consumer_no_nvlink) are left out; a llama.cpp split's 'every layer on n GPUs' alternative becomes the
laptop's own."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot.render.describe import gpu_names, model_label
from bot.render.i18n import N_, translate, translations
from bot.render.notes import note_text
from bot.render.wording import PRECISION_LABELS

if TYPE_CHECKING:
    from bot.core.answer import Answer

NO_FIT = N_(
    "%(model)s does not fit on the laptop's one %(gpu)s: a laptop has one GPU, so more cards are no "
    "option. What fits: %(fits)s."
)
LIGHTER = N_("%(format)s weights on the one card")
OFFLOAD = N_(
    "llama.cpp or Ollama with part of the layers in the laptop's RAM (name llama.cpp and your RAM for the "
    "split and its speed)"
)
ELSEWHERE = N_("or a machine with more GPU memory")
SPLIT_ALTERNATIVE = N_(
    "• A laptop has one GPU: for every layer on it, lighter weights or a machine with more GPU memory"
)
TRAIN_FITS = N_("QLoRA or a shorter sequence (below)")
COUNTING = ("does_not_fit_requested", "tp_over_pcie", "consumer_no_nvlink")
"""Notes that count cards: not said of a laptop."""
COUNTED_LINES = (
    N_("On %(gpus)s GPUs: up to %(n)s concurrent sequences at %(context)s context"),
    N_("On %(gpus)s GPUs: one sequence at a time at %(context)s context"),
    N_("Fewest GPUs with lighter weights — %(alternatives)s"),
    N_("Minimum %(gpus)s"),
)
"""The reply's lines of a plan on more cards (the message ids as bot.render writes them): left out."""
TABLE = N_("Context → max concurrent sequences:")
"""The concurrency table's title: the table is of the plan on more cards, left out with it."""
_ALL_ON_GPUS = {"en": "• Alternative, every layer on GPUs:", "zh": "• 另一种做法，所有层都放 GPU："}


def laptop_reply(text: str, answer: Answer) -> str:
    """``text`` (a rendered reply) worded for a laptop's one card; unchanged for any other answer."""
    report, lang = answer.report, answer.lang
    from bot.parse.laptop_note import LAPTOP

    if report is None or LAPTOP not in answer.parsed.notes:
        return text
    lines = text.split("\n")
    prefix = _ALL_ON_GPUS.get(lang, _ALL_ON_GPUS["en"])
    lines = [translate(lang, SPLIT_ALTERNATIVE) if line.startswith(prefix) else line for line in lines]
    inf, mem = report.inference, report.memory
    short = (
        inf is not None and inf.layer_split is None and (inf.min_gpus or 1) > 1
        if inf is not None
        else mem is not None and (mem.min_gpus or 1) > 1
    )
    if not short:
        return "\n".join(lines)
    drop = {"⚠️ " + note_text(w, lang) for w in report.warnings if w.code in COUNTING}
    counted = [_starts(lang, msgid) for msgid in COUNTED_LINES]
    table, kept, in_table = translate(lang, TABLE), [], False
    for line in lines:
        in_table = (in_table and line.strip() != "") or line == table
        if not in_table and line not in drop and not any(r.match(line) for r in counted):
            kept.append(line)
    fits = _fits(answer)
    kept[0] = translate(lang, NO_FIT, model=model_label(report, lang), gpu=gpu_names(report)[0], fits=fits)
    return "\n".join(kept)


def _starts(lang: str, msgid: str) -> re.Pattern[str]:
    """A whole line of the reply written from ``msgid`` (its bullet, its words, any values)."""
    parts = re.split(r"%\(\w+\)s", translations(lang).gettext(msgid).replace("%%", "%"))
    return re.compile(r"\s*•?\s*" + ".+?".join(map(re.escape, parts)) + "$")


def _fits(answer: Answer) -> str:
    """What fits the one card: lighter weights that fit it, else llama.cpp's offload (serving); and a
    machine with more GPU memory."""
    report, lang = answer.report, answer.lang
    sep = "；" if lang == "zh" else "; "
    inf = report.inference if report is not None else None
    parts = [translate(lang, TRAIN_FITS)]
    if inf is not None:
        one = [a.change for a in inf.alternatives if a.min_gpus == 1 and a.change in PRECISION_LABELS]
        lighter = translate(lang, LIGHTER, format=PRECISION_LABELS[one[0]]) if one else None
        parts = [lighter or translate(lang, OFFLOAD)]
    return sep.join([*parts, translate(lang, ELSEWHERE)])
