"""A count with the cards' maker between it and the cards' word (round 14 en): "8 NVIDIA GPUs with 40GB
of memory each", "4 AMD GPUs", "2 Nvidia cards", "8 张英伟达显卡", "4 块 AMD 的卡". The count rules of
:mod:`bot.parse.roles` read "8 GPUs" and "8 张卡" but not with a maker's name in between, so the count
was left unread and one card sized. Read in :func:`bot.parse.count_forms.count_forms` behind the makers'
names as substrings. The maker names no card (a card named after it, "8 NVIDIA A100
GPUs", is read as before): it is dropped here, the count and the cards' word kept.

Makers: the GPU and accelerator vendors people name before their cards (NVIDIA, AMD, Intel, Huawei, Apple
has no discrete cards), in English and Chinese (英伟达, 华为), and their "N卡"/"A卡" nicknames."""

from __future__ import annotations

from bot.parse.regex import rc

VENDOR_COUNT_RE = rc(
    r"(?<![\d.a-z])(?P<n>\d{1,4}|one|two|three|four|five|six|seven|eight|nine|ten|twelve|sixteen|[一二两三四五六七八九十])\s*(?P<unit>张|块|x)?\s*(?P<maker>nvidia|amd|intel|huawei|英伟达|华为)\s*(?:的\s*)?"
    r"(?=(?:gpus?|cards?|graphics\s+cards?|accelerators?|devices?)(?![a-z])|显卡|卡|gpu)"
)
"""A count (digits or a number word), an optional measure word ('张', '块'), a maker, then the cards' word:
the maker is dropped."""


_REFERENCE_MAKERS = ("nvidia", "英伟达")
"""Makers whose word alone may be dropped: the reference card (A100) is theirs. 'AMD GPUs', 'Intel cards',
'华为的卡' name a family with no model (s26): the maker is kept for
:data:`bot.parse.lexicon.UNKNOWN_GPU_RE`, which names it as typed and asks which model, never the A100."""


_MODEL_AFTER_RE = rc(r"(?:gpus?|cards?|显卡|卡)\s*[(（]\s*[a-z]*\s*\d")
"""The cards' word with their model in brackets after it ('four AMD GPUs (MI210 64GB)'): that card is
read, so the maker may go as NVIDIA's does."""


def count_and_unit(m: object) -> str:
    """The count and its measure word of a match of :data:`VENDOR_COUNT_RE`, without the maker (NVIDIA's);
    the match as it is for another maker."""
    if m.group("maker") not in _REFERENCE_MAKERS and not _MODEL_AFTER_RE.match(m.string, m.end()):  # type: ignore[attr-defined]
        return m.group(0)  # type: ignore[attr-defined]
    n, unit = m.group("n"), m.group("unit")  # type: ignore[attr-defined]
    return f"{n} {unit} " if unit else f"{n} "
