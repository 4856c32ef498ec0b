"""The parse's fast paths of session 9 (issue 23 item 7) answer as the slower code they skip: the typo
pass skipped when no typo stands as a word, the message language read on a long message's head first,
the noise checks counted in C. Each is compared with the former code, written out here, on the corpus
questions and on texts made to sit on each shortcut's edge."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.parse import lang, noise
from bot.parse import spelling_tables as sp
from bot.parse.normalize import _WORD_RE, _fix_typo, _typo_word_in

QUESTIONS = [q["text"] for q in json.loads((Path(__file__).parent / "data" / "questions.json").read_text())]

EDGES = [
    "lama 3 ful fine-tuen", "llama 3 full fine-tune", "fine-tuen.", "x-lama", "lama3", "ful-", "-ful",
    "deepseak-v3", "lama.", "ollama", "qwne-coder 7b", "tokns", "a full trilion tokns", "mnay", "", "ful",
    "fine-tuen-x", "xfine-tuen", "lora-lroa", "7b-lama", "lama_3", "über-lama",
]  # fmt: skip


@pytest.mark.parametrize("text", [*EDGES, *(q.lower() for q in QUESTIONS)])
def test_typo_pass_skipped_only_when_it_changes_nothing(text: str) -> None:
    full = _WORD_RE.sub(_fix_typo, text)  # the pass as it ran whenever any typo was a substring
    if not _typo_word_in(text):
        assert full == text
    if full != text:
        assert any(t in text for t in sp.TYPOS) and _typo_word_in(text)


def _lang_whole(text: str) -> str | None:
    """message_lang before: the whole text at once."""
    if lang.has_cjk(text):
        return "zh"
    rest = lang._DIGIT_TOKEN_RE.sub(" ", text)
    neutral = lang._neutral_words()
    return "en" if any(w.lower() not in neutral for w in lang._WORD_RE.findall(rest)) else None


LONG = [
    "H100 " * 100 + "please",  # the only English word after the head
    "H100 " * 100,  # none at all
    "A100x8 " * 59 + "a100x8ab  tokens",  # a token across the head's end
    "7b" * 200 + " hello",  # one long token over the cut: no whitespace until the end
    "x" * 299 + "1 yes",  # a digit token ending past the cut
    "GPU\t" * 80 + "\nwhy",
]


@pytest.mark.parametrize("text", [*QUESTIONS, *LONG])
def test_message_lang_as_on_the_whole_text(text: str) -> None:
    assert lang.message_lang(text) == _lang_whole(text)


def _looks_random_before(text: str) -> bool:
    if len(text) < noise.NOISE_MIN_CHARS:
        return False
    tokens = text.split()
    total = sum(map(len, tokens))
    words = sum(
        len(t)
        for t in tokens
        if len(t) <= noise.WORD_MAX_CHARS or noise._CJK_RE.search(t) or noise.config_token(t)
    )
    return total > 0 and words < noise.WORD_SHARE_MIN * total


def _letters_random_before(text: str) -> bool:
    import re

    lowered = text.lower()
    letters = len(re.findall(r"[a-z]", lowered))
    if letters < noise.LETTERS_MIN or len(noise._CJK_RE.findall(text)) * 10 > letters:
        return False
    return sum(map(lowered.count, noise.COMMON_LETTERS)) < noise.COMMON_SHARE_MIN * letters


NOISY = [
    "qz" * 150, "x9#k2!@" * 60, "Qwxz " * 80, "İ" * 150 + "qz" * 30, "a" * 199, "zq" * 100,
    "kjhgfdsa" * 40 + " " + "w" * 30, "--max-model-len=70000 " * 20, "中文" * 120 + "qxz" * 10,
]  # fmt: skip


@pytest.mark.parametrize("text", [*QUESTIONS, *NOISY])
def test_noise_checks_as_before(text: str) -> None:
    assert noise.looks_random(text) == _looks_random_before(text)
    assert noise.letters_random(text) == _letters_random_before(text)
