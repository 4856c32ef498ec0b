"""Session 24 trial, item 3: a message with a long run of white space. Reader patterns starting with
``\\s*`` are O(run²) under ``search`` (8,000 newlines: ~5 s in one past-run reader), so the parse
squeezes a run over 64 characters (bot/parse/whitespace.py). Not timed: the squeezed lengths and the
answers are asserted."""

from __future__ import annotations

import pytest

from bot.parse import parse
from bot.parse.normalize import normalize
from bot.parse.whitespace import LONG_RUN, squeeze_whitespace

QUESTION = ("7B模型", "1万亿token要多少A100")


@pytest.mark.parametrize("n", [4000, 10000])
@pytest.mark.parametrize("space", [" ", "\t", "\u3000", "\u00a0", " \t"])
def test_a_run_within_a_line_is_one_space(n: int, space: str) -> None:
    text = QUESTION[0] + space * (n // len(space)) + QUESTION[1]
    assert squeeze_whitespace(text) == QUESTION[0] + " " + QUESTION[1]
    assert len(normalize(text)) <= len(QUESTION[0] + QUESTION[1]) + 1


@pytest.mark.parametrize("n", [4000, 10000])
@pytest.mark.parametrize("newline", ["\n", "\r\n", "\n  \n"])
def test_a_run_of_blank_lines_is_one_blank_line(n: int, newline: str) -> None:
    text = QUESTION[0] + newline * (n // len(newline)) + QUESTION[1]
    assert squeeze_whitespace(text) == QUESTION[0] + "\n\n" + QUESTION[1]


def test_the_next_line_keeps_its_indentation() -> None:
    """A pasted YAML key after many blank lines stays under its parent (2 spaces); an indentation
    over the limit is one space."""
    yaml = "lora:\n" + "\n" * 100 + "  r: 16\n"
    assert squeeze_whitespace(yaml) == "lora:\n\n  r: 16\n"
    assert squeeze_whitespace("a:\n" + " " * 100) == "a:\n\n "


def test_runs_up_to_the_limit_are_kept() -> None:
    """A config's indentation and a paragraph's blank lines are well under 64 characters: unchanged."""
    text = "model:\n" + " " * (LONG_RUN - 1) + "name: x\n\n\n" + "\t" * 8 + "y"  # the newline counts
    assert squeeze_whitespace(text) == text
    assert squeeze_whitespace("a" + " " * (LONG_RUN + 1) + "b") == "a b"


@pytest.mark.parametrize("space", [" " * 10000, "\n" * 10000, "\r\n" * 4000])
def test_the_answer_is_the_one_without_the_run(space: str) -> None:
    """The 10,000-character run changes nothing the parse reads (7B parameters, 10¹² tokens, the A100)."""
    plain = parse(QUESTION[0] + " " + QUESTION[1]).request.model_dump(exclude_none=True)
    padded = parse(QUESTION[0] + space + QUESTION[1]).request.model_dump(exclude_none=True)
    assert padded == plain
    assert (padded["params_total"], padded["tokens"], padded["gpu"]) == (7e9, 1e12, "A100-SXM4-80GB")
