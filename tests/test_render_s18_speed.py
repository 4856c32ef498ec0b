"""The render's fast paths of session 18 (issue 23 item 7) write what the code they replace wrote:
Markdown's escaping by a translation table instead of a pattern's substitution, and its hard line
breaks without a pattern run per line. Each is compared with the former code, written out here, on
made-up texts full of the characters and line shapes that matter and on the corpus's Markdown replies."""

from __future__ import annotations

import random
import re

import pytest

from bot.render.dialect import md_escape, md_finish

_SPECIAL_BEFORE = re.compile(r"([\\`*_\[\]<>|~&#])")
_FENCE_BEFORE = re.compile(r"^(`{3,}|~{3,})")


def _escape_before(text: str) -> str:
    """``dialect.md_escape`` before session 18, as it was."""
    return _SPECIAL_BEFORE.sub(r"\\\1", text)


def _finish_before(text: str) -> str:
    """``dialect.md_finish`` before session 18, as it was."""
    lines = text.split("\n")
    out: list[str] = []
    fence = ""
    for i, line in enumerate(lines):
        opened = _FENCE_BEFORE.match(line)
        if opened and (not fence or line.strip() == fence):
            fence = "" if fence else opened[1]
            out.append(line)
            continue
        following = lines[i + 1] if i + 1 < len(lines) else ""
        hard = not fence and line and following and not line.startswith("#")
        hard = hard and not _FENCE_BEFORE.match(following) and not line.endswith("\\")
        out.append(line + "\\" if hard else line)
    return "\n".join(out)


_PIECES = ["a", "中", " ", "\\", "`", "``", "```", "````", "~", "~~~", *"*_[]<>|&#"]
_LINES = ["", " ", "text", "# head", "## 标题", "```", "````", "```py", "~~~", "~~~~", " ```", "a\\", "\\"]


def _made_up_texts(n: int) -> list[str]:
    rng = random.Random(18)
    texts = ["", "\n", "\n\n", "```", "```\n```", "a\nb", "a\n```\nb\n```\nc"]
    for _ in range(n):
        texts.append("".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 12))))
        lines = [rng.choice(_LINES) + rng.choice(["", "", "x", " ```"]) for _ in range(rng.randint(0, 12))]
        texts.append("\n".join(lines))
    return texts


@pytest.mark.parametrize("text", _made_up_texts(400))
def test_markdown_escape_and_line_breaks_are_the_former_code(text: str):
    assert md_escape(text) == _escape_before(text)
    assert md_finish(text) == _finish_before(text)


def test_markdown_escape_keeps_every_special_character_once_escaped():
    assert md_escape("a*b_c `d` [e](f) <g> h|i ~j & #k \\") == (
        "a\\*b\\_c \\`d\\` \\[e\\](f) \\<g\\> h\\|i \\~j \\& \\#k \\\\"
    )


def test_markdown_line_breaks_of_the_corpus_replies_are_the_former_code():
    from bot.core.pipeline import answer
    from bot.render.dialect import MARKDOWN
    from bot.render.env import _render_raw
    from bot.render.renderer import render
    from tests.cli_run import CORPUS_QUESTIONS

    for q in CORPUS_QUESTIONS[::5]:
        reply = render(answer(q), "markdown")
        assert reply.count("\\\n") > 0 or "\n" not in reply
    plain = MARKDOWN.__class__(**{**MARKDOWN.__dict__, "finish": None})
    ans = answer(CORPUS_QUESTIONS[0])
    from bot.render.context import build_context

    ctx = build_context(ans.report, ans.lang, ans.parsed, ans)
    unfinished = _render_raw("reply.j2", ans.lang, plain, ctx)
    reply = render(answer(CORPUS_QUESTIONS[0]), "markdown")
    assert md_finish(unfinished) == _finish_before(unfinished) == reply


def _num_before(x: float, digits: int) -> str:
    """``Fmt.num`` (en, zh: "," and ".") before session 18: the shortest repr rounded half-even by Decimal."""
    from decimal import ROUND_HALF_EVEN, Decimal

    q = Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_EVEN)
    text = f"{q:,f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _numbers() -> list[float]:
    rng = random.Random(18)
    out = [0.0, -0.0, 0.5, 1.5, 2.5, 2.675, 0.125, 0.375, 1e-5, 6.6e-5, 123456789.125, 999999999999999.0]
    out += [0.05, 0.15, 0.25, 0.35, 1.005, 7.5, 80.0, 1e14 + 0.5, 2410628900947.257, -59987328717.44505]
    for _ in range(4000):
        out.append(rng.uniform(-1000, 1000))
        out.append(
            round(rng.uniform(0, 100), rng.randint(0, 5)) + rng.choice([0, 5 * 10 ** -rng.randint(1, 7)])
        )
        out.append(rng.randint(0, 10**6) / 2 ** rng.randint(0, 12))
        out.append(10 ** rng.uniform(-8, 14.9) * rng.choice([1, -1]))
        out.append(rng.randint(0, 10**9) / 10 ** rng.randint(0, 9))
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_numbers_are_rounded_as_the_decimal_steps_rounded_them(lang: str):
    """Python's float formatting where it gives the Decimal steps' digits (no tie, at most the shortest
    repr's own digits); ties (``2.5``, ``0.125``), exponents and more than six digits take the Decimal."""
    from bot.render.fmt import fmt_for

    f = fmt_for(lang)
    got = [f.num(x, d) for x in _numbers() for d in range(9)]
    assert got == [_num_before(x, d) for x in _numbers() for d in range(9)]
    assert [f.num(x, 1) for x in (2.25, 2.35, 0.05, 1234.56, 7, -0.04)] == [
        "2.2",
        "2.4",
        "0",
        "1,234.6",
        "7",
        "0",
    ]
