"""A size written right after a model's name, in brackets or not ('gpt2 large (774M)', 'GPT-2 (774M)',
'foo-net, 350m'). Three cases (trial s24-2 leftovers, issue 24):

- a name the catalog does not size ('foo-net, 350m'): the size is the model's, sized with a generic shape;
- a family or version named without a size whose name and that size together are a catalog release
  ('GPT-2 (774M)' is GPT-2-774M, 'Llama-2 (70B)' is Llama-2-70B — the alias table of
  estimator/data/models/*.toml, matched whole as :mod:`bot.parse.size_apart` does): that release, never a
  generic shape of the same size;
- a catalog release whose size the user states again and that agrees ('GPT-2 Large (774M)': 774,030,080
  parameters per estimator/data/models/gpt.toml): the size is used (it confirms the release), never named
  as an unread number.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.parse.normalize import mask
from bot.parse.regex import rc
from estimator import catalog

BRACKET_SIZE_RE = rc(
    r"\s*(?:[(（]\s*(\d+(?:\.\d+)?)\s*([bm])\s*[)）]"
    r"|[,:\-]?\s*(\d+(?:\.\d+)?)\s?([bm])(?![a-z0-9.])(?!\s*(?:tokens?|toks?|context|ctx|上下文|词元)))"
)
"""A size right after a name, in brackets or not ('gpt2 large (774M)', 'gpt2 large 774M', 'foo-net, 350m';
the paraphrases of issue 24: people drop the brackets); not a token count ('1B tokens')."""

AGREES = 0.1
"""Relative gap within which a stated size is the catalog release's (as bot.parse.asked_model.SAME_SIZE:
'7B' of Qwen2.5-7B's 7.61B parameters, '774M' of GPT-2-774M's 774,030,080)."""

Resolve = Callable[[str], str | None]
"""A written release ('gpt-2 774m') → its catalog id when that is a catalog name exactly, else None."""


def sizes_in_brackets(s: str, mentions: list[Any], resolve: Resolve) -> str:
    """``s`` with each size read after a mention masked; the mentions (bot.parse.models.ModelMention)
    take the size, or the catalog release the name and size make, as the module says."""
    for mm in mentions:
        m = BRACKET_SIZE_RE.match(s, mm.end)
        if m is None or mm.size is not None:
            continue
        value, unit = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        size = float(value) * (1e9 if unit == "b" else 1e6)
        if mm.model_id is not None:  # a catalog release: its size said again, used when it agrees
            have = catalog.model(mm.model_id).params_total
            if abs(have - size) <= AGREES * max(have, size):
                s = mask(s, m.start(), m.end(), " ")
            continue
        mm.size = size
        release = resolve(f"{mm.text.lower()} {value}{unit}")
        if release is not None:  # 'GPT-2 (774M)': the release of that name and size
            mm.model_id, mm.suggestions = release, []
        s = mask(s, m.start(), m.end(), " ")
    return s
