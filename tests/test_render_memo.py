"""Issue 23 item 7, render stage: texts worded once per catalog (the assumption ledger's rows …) give
exactly the replies worded afresh, through the real CLI; a swapped catalog starts afresh."""

from __future__ import annotations

import pytest

from bot.render import i18n, notes
from estimator.models import Assumption
from tests.cli_run import CORPUS_QUESTIONS, ask_quietly

QUESTION = "7B模型1万亿token要多少A100"


def test_remembered_ledger_rows_word_every_corpus_reply_as_afresh(monkeypatch):
    """Every corpus reply, in both languages, is the same text with the ledger rows remembered (a row
    recurs: the corpus's 975 rows are 191 distinct ones) as with each row worded anew."""
    questions = [QUESTION, *CORPUS_QUESTIONS[::3]]
    replies = {(q, lang): ask_quietly("--lang", lang, "--", q) for q in questions for lang in ("zh", "en")}
    assert any(notes._ROWS.values()), "no ledger row was remembered"
    monkeypatch.setattr(notes, "_row_key", lambda *_: None)  # nothing remembered: each row worded anew
    afresh = {(q, lang): ask_quietly("--lang", lang, "--", q) for q in questions for lang in ("zh", "en")}
    assert replies == afresh
    assert "MFU 区间：24.9%–52.4%" in replies[(QUESTION, "zh")]


def test_a_swapped_catalog_words_the_ledger_afresh(tmp_path, monkeypatch):
    """The rows are remembered per catalog object: with no catalog (English msgids, as when the
    compiled catalog is missing) the Chinese rows remembered before are not reused."""
    assert "典型卡·时的 ×0.764–×1.604" in ask_quietly("--lang", "zh", "--", QUESTION)
    monkeypatch.setattr(i18n, "locales_dir", lambda: tmp_path)
    i18n.translations.cache_clear()
    try:
        bare = ask_quietly("--lang", "zh", "--", QUESTION)
    finally:
        i18n.translations.cache_clear()
    assert "×0.764–×1.604 of the likely GPU-hours" in bare
    assert "典型卡·时" not in bare


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ({"value": 1}, {"value": 1.0}),  # equal values written differently: an int, a float
        ({"value": 1}, {"value": True}),
        ({"value": 0.4}, {"value": 0.5}),
        ({"params": {"n": 8}}, {"params": {"n": 8.0}}),
        ({"params": {"n": 8}}, {"params": {"m": 8}}),
        ({"also": ["x"]}, {"also": []}),
        ({"citation": "a"}, {"citation": None}),
    ],
)
def test_rows_that_may_be_worded_differently_have_different_keys(a: dict, b: dict):
    one = Assumption(**{"field": "mfu", "value": 0.4, "why": "default", **a})
    two = Assumption(**{"field": "mfu", "value": 0.4, "why": "default", **b})
    assert notes._row_key(one, "zh", None) != notes._row_key(two, "zh", None)
    assert notes._row_key(one, "zh", None) != notes._row_key(one, "en", None)
    assert notes._row_key(one, "zh", None) != notes._row_key(one, "zh", "USD")


def test_a_float_zero_is_not_remembered():
    """``-0.0 == 0.0`` as a key, but they are written differently: such a row is worded every time."""
    assert notes._row_key(Assumption(field="x", value=-0.0, why="default"), "en", None) is None
    assert notes._row_key(Assumption(field="x", value=1, why="d", params={"p": 0.0}), "en", None) is None
    assert notes._row_key(Assumption(field="x", value=0, why="default"), "en", None) is not None


def test_template_globals_are_one_plain_dict_and_reply_as_jinjas_chain_map(monkeypatch):
    """A reply template's globals are one dict made when it is loaded (no ChainMap read per render);
    every sampled corpus reply, in html and markdown, is what Jinja's own ChainMap globals give."""
    from jinja2 import Environment

    from bot.render import env as render_env

    questions = [QUESTION, *CORPUS_QUESTIONS[1::4]]
    formats = ("html", "markdown")
    ours = {(q, f): ask_quietly("--format", f, "--", q) for q in questions for f in formats}
    template = render_env.environment("zh", "html").get_template("reply.j2")
    assert type(template.globals) is dict and "gettext" in template.globals
    monkeypatch.setattr(render_env.ReplyEnvironment, "make_globals", Environment.make_globals)
    render_env._environment.cache_clear()
    try:
        assert type(render_env.environment("zh", "html").get_template("reply.j2").globals) is not dict
        theirs = {(q, f): ask_quietly("--format", f, "--", q) for q in questions for f in formats}
    finally:
        render_env._environment.cache_clear()
    assert ours == theirs


def test_display_widths_are_remembered_and_right():
    """The memory bars and labels of a text reply are measured once per text (bot.render.fmt._wide_width)
    and the widths are those counted a character at a time. Session 28 (s28-spest): a reply measures
    each label once (memory_text._memory_bars), so the hits are the second reply's."""
    import unicodedata

    from bot.render import fmt

    fmt._wide_width.cache_clear()
    reply = ask_quietly("--", "13B模型LoRA微调，DeepSpeed ZeRO-2，2张A100 40G，每卡显存多少？")
    assert "█" in reply
    assert ask_quietly("--", "13B模型LoRA微调，DeepSpeed ZeRO-2，2张A100 40G，每卡显存多少？") == reply
    info = fmt._wide_width.cache_info()
    assert info.currsize > 0 and info.hits > 0
    for line in reply.splitlines():
        counted = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)
        assert fmt.display_width(line) == counted


def test_a_short_html_reply_is_not_counted_again(monkeypatch):
    """Telegram's visible length is at most a text's UTF-16 length, so a reply that short skips the
    count; one over it is still counted and cut to 4,096 visible characters (the corpus has both)."""
    from bot.render import env as render_env
    from bot.render.dialect import dialect_for
    from bot.render.html import TELEGRAM_MAX_CHARS, visible_length

    html = dialect_for("html")
    for text in ["<b>a</b> &amp; &#128512; &lt", "x" * 5000, "<i>" + "字" * 4095 + "</i>", "😀" * 2049]:
        assert render_env._fits(html, text) is (visible_length(text) <= TELEGRAM_MAX_CHARS)
    from bot.render import html as html_module

    counted = []

    class Counting:  # visible_length's tag pattern: each count of a reply calls its .sub once
        def sub(self, repl, text):
            counted.append(text)
            return tag_re.sub(repl, text)

    tag_re = html_module._TAG_RE
    monkeypatch.setattr(html_module, "_TAG_RE", Counting())
    visible_length("<b>x</b>")
    assert counted == ["<b>x</b>"]
    counted.clear()
    short = ask_quietly("--format", "html", "--", QUESTION)
    assert counted == []  # the reply (2,164 visible characters) was not counted
    assert visible_length(short) <= TELEGRAM_MAX_CHARS
    # the reply as sent: `ask` prints it with a newline of its own (s30: a reply cut to exactly 4,096)
    replies = [ask_quietly("--format", "html", "--", q).removesuffix("\n") for q in CORPUS_QUESTIONS]
    assert all(visible_length(r) <= TELEGRAM_MAX_CHARS for r in replies)
