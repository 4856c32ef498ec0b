"""The reply to a family named beside a card (:mod:`bot.core.family_fits`, session 31 s31-left #2):
the largest size that fits first, then one line per size with its verdict, the weights it was sized
at and its memory against the card's usable memory. Formats only; the same words in every dialect."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.i18n import N_, translate

if TYPE_CHECKING:
    from bot.core.family_fits import FamilyFits, SizeFit
    from bot.render.dialect import Dialect, Format

HEAD = N_(
    "%(family)s on %(count)s × %(gpu)s (%(context)s context, %(load)s concurrent): the largest that fits "
    "is %(size)s (%(format)s weights)."
)
"""Some size fits: the largest first."""
HEAD_NONE = N_(
    "%(family)s on %(count)s × %(gpu)s (%(context)s context, %(load)s concurrent): none of its sizes fits."
)
"""No size fits."""
FITS = N_("• %(size)s: fits (%(format)s, %(need)s of %(usable)s)")
"""A size that fits: its memory on all the cards against their usable memory."""
TIGHT = N_("• %(size)s: fits, but tight (%(format)s, %(need)s of %(usable)s)")
"""A size that fits with under 10 % of the usable memory left (its own answer's 'fits, but tight')."""
TIGHT_RUNTIME = N_(
    "• %(size)s: fits, but tight (%(format)s, %(need)s of %(usable)s usable under %(runtime)s)"
)
"""The same where the list's usable figures differ by runtime."""
FITS_RUNTIME = N_("• %(size)s: fits (%(format)s, %(need)s of %(usable)s usable under %(runtime)s)")
"""A size that fits, where sizes in the list were sized for runtimes with different usable memory
(llama.cpp has no memory share cap; vLLM keeps 10 %): the runtime says why its usable figure differs."""
OFFLOAD = N_(
    "• %(size)s: runs with CPU offload (%(format)s, %(need)s: %(host)s in CPU memory, "
    "≈ %(low)s–%(high)s tokens/s)"
)
"""A size that fits the cards only with some layers in CPU memory (llama.cpp -ngl): what stays in CPU
memory and the decode speed then; the fewest cards for all of it is the size's own answer."""
NO_FIT = N_("• %(size)s: does not fit (%(format)s needs %(need)s: at least %(gpus)s cards)")
"""A size that does not fit: the fewest cards at that format."""
ASK_ONE = N_(
    "Each size is sized at the weights it would be served with here; ask one (e.g. “%(example)s”) "
    "for its details."
)
"""Where the details are."""


def family_fits_text(fits: FamilyFits, lang: str, fmt: Format | Dialect = "html") -> str:
    """The reply's lines (module doc)."""
    from bot.core.actions import gpu_label
    from bot.render.local_layout import GGUF_NAMES

    gpu = gpu_label(fits.gpu)
    context = (
        f"{fits.context_tokens // 1024}K" if fits.context_tokens % 1024 == 0 else f"{fits.context_tokens:,}"
    )
    head = {
        "family": fits.family,
        "count": fits.count,
        "gpu": gpu,
        "context": context,
        "load": fits.concurrency,
    }
    top = fits.largest
    if top is not None:
        lines = [
            translate(
                lang, HEAD, size=top.size, format=GGUF_NAMES.get(top.weight_format, top.weight_format), **head
            )
        ]
    else:
        lines = [translate(lang, HEAD_NONE, **head)]
    usable = {_gb(r.usable_bytes * fits.count) for r in fits.sizes if r.fits}
    lines += [_row(row, fits.count, lang, GGUF_NAMES, len(usable) > 1) for row in fits.sizes]
    example = f"{fits.family} {(top or fits.sizes[0]).size}"
    lines.append(translate(lang, ASK_ONE, example=example))
    return "\n".join(lines)


def _row(row: SizeFit, count: int, lang: str, names: dict[str, str], runtimes: bool) -> str:
    """One size's line: fits with its memory (naming the runtime when ``runtimes``: usable figures
    differ in the list), runs with CPU offload, or the fewest cards it needs."""
    values = {"size": row.size, "format": names.get(row.weight_format, row.weight_format)}
    if row.fits:
        usable = _gb(row.usable_bytes * count)
        if runtimes and row.runtime:
            label = TIGHT_RUNTIME if row.tight else FITS_RUNTIME
            return translate(
                lang, label, need=_gb(row.required_bytes), usable=usable, runtime=row.runtime, **values
            )
        return translate(
            lang, TIGHT if row.tight else FITS, need=_gb(row.required_bytes), usable=usable, **values
        )
    if row.offload_tokens_per_s is not None:
        low, high = (_speed(v) for v in row.offload_tokens_per_s)
        return translate(
            lang,
            OFFLOAD,
            need=_gb(row.required_bytes),
            host=_gb(row.host_bytes),
            low=low,
            high=high,
            **values,
        )
    return translate(lang, NO_FIT, need=_gb(row.required_bytes), gpus=row.min_gpus, **values)


def _gb(n: float) -> str:
    """Bytes as GB with one decimal (10^9 B, as the serving reply's weights line)."""
    return f"{n / 1e9:.1f} GB"


def _speed(v: float) -> str:
    """Tokens per second: one decimal under 10, else whole."""
    return f"{v:.1f}" if v < 10 else f"{v:.0f}"
