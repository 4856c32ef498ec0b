"""Typos of the words that decide an answer (issue 24, s36 fixa #4): 'usres' → users, 'infrence' →
inference, 'concurent' → concurrent, 'contxt' → context ('throughtput' is two edits: it stays). A word
typed with one letter left out, two neighbours swapped or one letter doubled ('trainning') is read as the
word, and said ('Read “usres” as “users”'); only for typed words of 5 letters or more, only where the
word itself is not in the message, and never a variant that is a word of its own ('raining', 'retrain':
:data:`WORDS_OF_THEIR_OWN`). English only: Chinese has no such
typos; a misspelt model or card name has its own suggestions (bot.parse.models, bot.parse.gpus)."""

from __future__ import annotations

KEY_WORDS = (
    "users",
    "concurrent",
    "concurrency",
    "inference",
    "finetune",
    "fine-tune",
    "finetuning",
    "fine-tuning",
    "throughput",
    "tokens",
    "context",
    "training",
    "pretrain",
    "pretraining",
    "deploy",
    "serving",
    "latency",
    "requests",
    "parameters",
    "billion",
    "trillion",
    "samples",
    "dataset",
    "budget",
    "memory",
)
"""The vocabulary that decides which question is asked and what its numbers are."""
WORDS_OF_THEIR_OWN = frozenset(
    {"raining", "retrain", "retraining", "budge", "suers", "tokes", "token", "user", "sample", "request"}
)
"""One-edit variants that are words of their own ('raining', 'retrain', 'budge'): never changed."""


def _variants(word: str) -> set[str]:
    """The one-edit typos of ``word``: a letter left out, two neighbours swapped, a letter doubled."""
    out = {word[:i] + word[i + 1 :] for i in range(len(word))}
    out |= {word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1)}
    out |= {word[:i] + word[i] + word[i:] for i in range(len(word))}
    return out


TYPOS: dict[str, str] = {
    typo: word
    for word in KEY_WORDS
    for typo in _variants(word)
    if len(typo) >= 5 and typo not in KEY_WORDS and typo not in WORDS_OF_THEIR_OWN
}
"""Typo → the key word. Built once at import (a few hundred short strings)."""
SPACES = str.maketrans({c: " " for c in ",.;:!?()[]\"'/"})
"""Punctuation a word may end with ('usres?'), made a space for the word test."""


def typos_in(s: str) -> list[tuple[str, str]]:
    """(typo, word) for each typo of ``s`` (lower case) whose word is not in ``s`` itself."""
    words = s.translate(SPACES).split()
    present = set(words)
    return [(w, TYPOS[w]) for w in dict.fromkeys(words) if w in TYPOS and TYPOS[w] not in present]


def without_typos(s: str) -> str:
    """The normalized text ``s`` with each typo of :func:`typos_in` written as its word."""
    import re  # past the gate: a message with a typo

    for typo, word in typos_in(s):
        s = re.sub(rf"(?<![\w-]){re.escape(typo)}(?![\w-])", word, s)
    return s


def typos_read(normalized: str, raw: str) -> list[tuple[str, str, str]]:
    """(typo as typed, the word read, 'typo_read') for each typo of the message."""
    low = raw.lower()
    out = []
    for typo, word in typos_in(normalized):
        i = low.find(typo)
        out.append((raw[i : i + len(typo)] if i >= 0 else typo, word, "typo_read"))
    return out
