"""Whether a message that names a model family without a size asks which size fits or runs ('能跑哪个',
'放得下吗', 'which … fits', 'can I run'): :attr:`bot.parse.result.ParseResult.fits_asked`, read here so
that core runs no regex on the message (s31 review: bot.core.family_fits searched the text itself;
tests/test_core_one_pass.py). Called only for a family without a size (``model_family_only``, at the call
site in :func:`bot.parse.parse`)."""

from __future__ import annotations

from bot.parse.regex import rc

WHICH_FITS_RE = rc(
    r"(?i)哪[个些款种一]|能跑|跑得|跑不|能不能跑|可以跑|放得下|装得下|塞得下|能放|能装|多大"
    r"|\bwhich\b|\bwhat\s+size|\bfits?\b|\bfitting\b|\brun(?:s|ning)?\b|\bhold\b|\bload\b"
)
"""The question asks which size fits or runs: only then are the sizes listed (bot.core.family_fits); 'serve
qwen2.5 on 2 4090s' and '几张卡' keep the release's sizes offered."""


def fits_asked(normalized: str) -> bool:
    """Whether ``normalized`` (the message as parsed) asks which size fits or runs."""
    return WHICH_FITS_RE.search(normalized) is not None
