"""Short forms people type for a stage word, spelt out before the parse steps read the text.

- **ft** ('full ft 7b', 'ft llama3 8b', '微调ft', "ft'd", 'ft-ing'): fine-tuning, the usual short form in
  fine-tuning threads (LLaMA-Factory, axolotl issues). Only the word alone: never inside a name
  ('llama-ft', 'ft8', 'gpt-ft-v2'), so a model typed with it keeps its name."""

from __future__ import annotations

from bot.parse.regex import rc

FT_RE = rc(r"(?<![a-z0-9\-_./])ft(?:'d|'ed|ed|'ing|ing)?(?![a-z0-9\-_/]|\.[a-z0-9])")
"""'ft' as a word of its own, with a past or -ing ending ("ft'd", 'fted'), in a normalized text."""


def expand_abbreviations(s: str) -> str:
    """The normalized text with 'ft' spelt 'fine-tune' ('full ft 7b' → 'full fine-tune 7b')."""
    return FT_RE.sub("fine-tune", s) if "ft" in s else s
