"""bot.parse.close_names.close_matches gives exactly difflib.get_close_matches (issue 23 item 7: the
unknown-model suggestions cost ~1.1 ms a name with difflib; speed never buys a different answer)."""

from __future__ import annotations

import difflib
import random

import pytest

from bot.parse.close_names import close_matches
from estimator import catalog

NAMES = [
    "foolm", "internvl", "emollm", "blip3o", "monkey", "flan-t5-xl", "mistral-small3.1", "qwen",
    "lama", "deepseak-v3", "l1", "a", "", "gpt-oss", "starcoder", "minicpm-v", "xyz123", "qwen2.5-72b",
]  # fmt: skip


def _words() -> list[str]:
    ids = [i.lower() for i in catalog.models()]
    rng = random.Random(23)
    mangled = []
    for i in ids[::3]:
        chars = list(i)
        rng.shuffle(chars)
        mangled += [i[: len(i) // 2], "".join(chars[:6]), i.replace("-", "")]
    return NAMES + mangled


@pytest.mark.parametrize("cutoff", [0.0, 0.3, 0.5, 0.6])
@pytest.mark.parametrize("n", [1, 3, 5])
def test_same_as_difflib(cutoff: float, n: int) -> None:
    ids = [i.lower() for i in catalog.models()]
    for word in _words():
        assert close_matches(word, ids, n=n, cutoff=cutoff) == difflib.get_close_matches(
            word, ids, n=n, cutoff=cutoff
        ), word


def test_ties_broken_as_difflib() -> None:
    pool = ["ab", "ba", "aa", "bb", "abc", "cab", "bca"]  # equal ratios: the larger string first
    for word in ("ab", "ba", "abc", "c", "zz"):
        for n in (1, 2, 3):
            assert close_matches(word, pool, n=n, cutoff=0.0) == difflib.get_close_matches(
                word, pool, n=n, cutoff=0.0
            )


def test_bad_arguments_raise_as_difflib() -> None:
    with pytest.raises(ValueError):
        close_matches("a", ["a"], n=0)
    with pytest.raises(ValueError):
        close_matches("a", ["a"], cutoff=1.5)
