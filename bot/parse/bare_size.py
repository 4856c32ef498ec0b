"""A size typed without a family ('pretraining 7B on 500B tokens', 'pretrain 1B model'): a generic dense
model of that size, as '13B model on 3T tokens' is, never 'could not find the model “7B”' (trial s22 #7).
The name reader returns such a size as a mention with no catalog model; this tells it apart from a name
the catalog lacks ('Foo-7B'), which is still named as unknown."""

from __future__ import annotations

from typing import Any

from bot.parse.regex import rc

BARE_SIZE_RE = rc(r"\s*\d+(?:\.\d+)?\s*[bmtBMT]\s*")
"""A size alone, as the name reader gives it as typed: '7B', '1.5b', '500M'."""


def named_unknown(unknown: Any) -> Any:
    """``unknown`` (a :class:`bot.parse.models.ModelMention` with no catalog id), or None when its text is
    a size alone: its size is the request's parameters, and there is no name to report."""
    if unknown is None or BARE_SIZE_RE.fullmatch(unknown.text):
        return None
    return unknown
