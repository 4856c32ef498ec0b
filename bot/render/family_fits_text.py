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
    lines += [_row(row, fits.count, lang, GGUF_NAMES) for row in fits.sizes]
    example = f"{fits.family} {(top or fits.sizes[0]).size}"
    lines.append(translate(lang, ASK_ONE, example=example))
    return "\n".join(lines)


def _row(row: SizeFit, count: int, lang: str, names: dict[str, str]) -> str:
    """One size's line: fits with its memory, or the fewest cards it needs."""
    values = {"size": row.size, "format": names.get(row.weight_format, row.weight_format)}
    if row.fits:
        usable = row.usable_bytes * count
        return translate(lang, FITS, need=_gb(row.required_bytes), usable=_gb(usable), **values)
    return translate(lang, NO_FIT, need=_gb(row.required_bytes), gpus=row.min_gpus, **values)


def _gb(n: float) -> str:
    """Bytes as GB with one decimal (10^9 B, as the serving reply's weights line)."""
    return f"{n / 1e9:.1f} GB"
