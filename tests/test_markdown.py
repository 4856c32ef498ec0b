"""The Markdown dialect through the CLI (issue 23 items 1 and 2): ``sizing-bot ask --format markdown``,
and the dialect object behind it (bot.render.dialect)."""

from __future__ import annotations

import json
import re

import pytest

from bot.cli import main
from bot.render import dialect
from bot.render.env import environment, render_capped

SEED = "7B模型1万亿token要多少A100"
TAG_RE = re.compile(r"</?[a-zA-Z][^>]*>")


def ask(capsys, *args: str) -> str:
    main(["ask", *args])
    return capsys.readouterr().out


def test_markdown_headline_is_bold_and_has_no_html(capsys):
    out = ask(capsys, "--format", "markdown", "--lang", "en", SEED)
    headline = out.split("\n", 1)[0]
    assert headline.startswith("**") and headline.endswith("**")
    assert "7B pre-training on 1T tokens" in headline
    assert not TAG_RE.search(out)
    assert "\n### Details\n" in out  # the details under a heading, not <blockquote> or <details>
    assert "**Assumptions and sources**" in out
    plain = ask(capsys, "--format", "text", "--lang", "en", SEED)
    assert headline.strip("*") == plain.split("\n", 1)[0]  # the same words as plain text


def test_markdown_keeps_line_breaks_and_fences_tables(capsys):
    out = ask(capsys, "--format", "markdown", "--lang", "en", SEED)
    lines = out.split("\n")
    bullets = [i for i, line in enumerate(lines) if line.startswith("• ")]
    assert bullets and all(lines[i].endswith("\\") or not lines[i + 1] for i in bullets)  # hard breaks
    fences = [line for line in lines if line.startswith("```")]
    assert fences and len(fences) % 2 == 0
    table = out.split("```\n", 1)[1].split("\n```", 1)[0]
    # the GPUs ↔ days table, aligned (45–98 before issue 25's refit: interval low ×0.738 → ×0.764)
    assert " 64 GPUs →  61 days (46–98)" in table.split("\n")
    assert "\\" not in table  # code is not escaped


def test_markdown_escapes_echoed_user_text(capsys):
    out = ask(
        capsys, "--format", "markdown", "QLoRA fine-tune open_llama_3b, batch 1, seq 512, LoRA r=16: memory?"
    )
    assert "“open\\_llama\\_3b”" in out  # as typed, its underscores escaped (not italics)
    assert "“open_llama_3b”" not in out
    text = ask(
        capsys, "--format", "text", "QLoRA fine-tune open_llama_3b, batch 1, seq 512, LoRA r=16: memory?"
    )
    assert "“open_llama_3b”" in text


def test_markdown_in_chinese(capsys):
    out = ask(capsys, "--format", "markdown", SEED)
    assert out.startswith("**7B 预训练")
    assert "\n### 详情\n" in out
    assert not TAG_RE.search(out)


def test_old_names_are_the_dialects(capsys):
    assert ask(capsys, "--format", "html", SEED) == ask(capsys, "--format", "telegram_html", SEED)
    assert ask(capsys, "--format", "text", SEED) == ask(capsys, "--format", "plain", SEED)
    assert dialect.dialect_for("html") is dialect.TELEGRAM_HTML
    assert dialect.dialect_for("text") is dialect.PLAIN
    assert environment("en", "html") is environment("en", dialect.TELEGRAM_HTML)  # built once
    with pytest.raises(ValueError, match="unknown reply format"):
        dialect.dialect_for("rtf")


def test_json_reply_stays_plain_text(capsys):
    data = json.loads(ask(capsys, "--format", "json", SEED))
    assert data["reply"] == ask(capsys, "--format", "text", SEED).rstrip("\n")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("a*b_c", "**a\\*b\\_c**"),
        ("[x](y) <b>", "**\\[x\\](y) \\<b\\>**"),
        ("", ""),
    ],
)
def test_markdown_bold_escapes_what_it_wraps(value, expected):
    assert str(dialect.MARKDOWN.filters["b"](value)) == expected


def test_markdown_code_and_fences_outlast_backticks():
    assert str(dialect.MARKDOWN.filters["code"]("a`b")) == "``a`b``"
    assert str(dialect.MARKDOWN.filters["pre"]("x ``` y")) == "````\nx ``` y\n````"


def test_markdown_limit_cuts_at_a_line_and_closes_the_fence():
    ctx_text = "**head**\n\n```\n" + "\n".join(f"row {i}" for i in range(200)) + "\n```"
    cut = dialect.md_truncate(ctx_text, 300)
    assert len(cut) <= 300 and cut.endswith("…")
    assert sum(1 for line in cut.split("\n") if line.startswith("```")) % 2 == 0
    assert dialect.markdown().limit is None and dialect.markdown(500).limit == 500


def test_markdown_limit_applies_in_render(capsys):
    from bot.cli import _ask
    from bot.render.renderer import render

    _, _, answer = _ask(SEED, "en", "json")
    long = render(answer, "markdown")
    short = render(answer, dialect.markdown(1000))
    assert len(long) > 1000 >= len(short)
    assert short.split("\n", 1)[0] == long.split("\n", 1)[0]
    assert render_capped("help.j2", "en", dialect.markdown(200), {}).endswith("…")


def test_link_filter_in_every_dialect():
    url = "https://example.com/a b?x=<1>&y=2"
    md = str(dialect.MARKDOWN.filters["link"]("[vLLM] docs", url))
    assert md == "[\\[vLLM\\] docs](<https://example.com/a%20b?x=%3C1%3E&y=2>)"
    html = str(dialect.TELEGRAM_HTML.filters["link"]("a<b", url))
    assert html == '<a href="https://example.com/a b?x=&lt;1&gt;&amp;y=2">a&lt;b</a>'
    assert dialect.PLAIN.filters["link"]("docs", "https://x.io") == "docs (https://x.io)"
    for d in dialect.DIALECTS.values():
        assert set(d.filters) == {"b", "i", "code", "pre", "quote", "details", "ledger", "link"}
