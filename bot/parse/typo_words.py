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
WORDS_OF_THEIR_OWN = frozenset({"raining", "retrain", "retraining", "budge", "suers", "tokes", "billon"})
"""One-edit variants that are words of their own ('raining', 'retrain', 'budge', 'billon'): never
changed; a singular or plural of the word is the word (:func:`_plural_of`), and 'Emory' mid-sentence a
name (:func:`_a_name`). A test checks that no word of the working splits and the paraphrases is a typo
here (tests/test_s36_fixh.py): a real word the users write joins this list, not the typo table."""


def _plural_of(typo: str, word: str) -> bool:
    """'parameter' for 'parameters', 'token' for 'tokens': the same word, singular or plural, never a typo."""
    return typo + "s" == word or word + "s" == typo or typo + "es" == word or word + "es" == typo


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
    if len(typo) >= 5
    and typo not in KEY_WORDS
    and typo not in WORDS_OF_THEIR_OWN
    and not _plural_of(typo, word)
}
"""Typo → the key word. Built once at import (a few hundred short strings)."""
SPACES = str.maketrans({c: " " for c in ",.;:!?()[]\"'/"})
"""Punctuation a word may end with ('usres?'), made a space for the word test."""


def typos_in(s: str, raw: str = "") -> list[tuple[str, str]]:
    """(typo, word) for each typo of ``s`` (lower case) whose word is not in ``s`` itself, nor a name in
    the message ``raw`` as typed (:func:`_a_name`)."""
    words = s.translate(SPACES).split()
    present = set(words)
    found = [(w, TYPOS[w]) for w in dict.fromkeys(words) if w in TYPOS and TYPOS[w] not in present]
    return [(w, k) for w, k in found if not _a_name(w, raw)] if found and raw else found


def _a_name(typo: str, raw: str) -> bool:
    """'I'm at Emory': capitalised each time it is typed and never first in its sentence, a name."""
    import re  # past the gate: a message with a typo

    at = [m for m in re.finditer(rf"(?<![\w-]){re.escape(typo)}(?![\w-])", raw, re.IGNORECASE)]
    first = [not raw[: m.start()].rstrip() or raw[: m.start()].rstrip()[-1] in ".!?。！？\n" for m in at]
    return bool(at) and all(m.group(0)[0].isupper() and not f for m, f in zip(at, first, strict=True))


def without_typos(s: str, raw: str = "") -> str:
    """The normalized text ``s`` with each typo of :func:`typos_in` written as its word."""
    import re  # past the gate: a message with a typo

    for typo, word in typos_in(s, raw):
        s = re.sub(rf"(?<![\w-]){re.escape(typo)}(?![\w-])", word, s)
    return s


def typos_read(normalized: str, raw: str) -> list[tuple[str, str, str]]:
    """(typo as typed, the word read, 'typo_read') for each typo of the message."""
    low = raw.lower()
    out = []
    for typo, word in typos_in(normalized, raw):
        i = low.find(typo)
        out.append((raw[i : i + len(typo)] if i >= 0 else typo, word, "typo_read"))
    return out
