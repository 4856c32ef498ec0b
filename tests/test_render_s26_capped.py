"""Session 26 (issue 23 item 7, the render's tail): a reply over Telegram's limit is rendered with its
sources shortened only when that can bring it within the limit (bot.render.env._past_shortening): the
skip is a bound, so the reply is the one the full sequence gives."""

from __future__ import annotations

from bot.core.pipeline import answer
from bot.render import env
from bot.render.dialect import dialect_for
from bot.render.html import TELEGRAM_MAX_CHARS
from bot.render.renderer import render
from tests.cli_run import CORPUS_QUESTIONS


def _long_replies() -> list[tuple[str, dict, str, object]]:
    """(the full render, its context, language, dialect) of every corpus html reply over the limit."""
    seen: list[tuple[str, dict, str, object]] = []
    real = env._render_raw

    def first(template, lang, dialect, ctx):
        text = real(template, lang, dialect, ctx)
        if len(seen) == asked:  # the reply's first render only
            seen.append((text, ctx, lang, dialect))
        return text

    env._render_raw = first
    try:
        for asked, q in enumerate(CORPUS_QUESTIONS):
            render(answer(q), "html")
            if len(seen) == asked:  # a help reply: no render_capped
                seen.append(("", {}, "", None))
    finally:
        env._render_raw = real
    return [s for s in seen if s[3] is not None and not env._fits(s[3], s[0]) and s[1].get("assumptions")]


def test_a_skipped_shortening_would_not_have_fit():
    """Every corpus reply the bound skips stays over the limit when shortened (the render it saves
    would have been thrown away), and what shortening saves is within the bound; of the corpus replies
    rendered three times before, one is skipped (18 of the 19 in the corpus and working splits)."""
    skipped = 0
    html = dialect_for("html")
    for text, ctx, lang, dialect in _long_replies():
        short = [
            {**a, "source": env._shorten(a["source"], env.SHORT_SOURCE_CHARS),
             "cite": env._shorten(a["cite"], env.SHORT_SOURCE_CHARS) if a.get("cite") else ""}
            for a in ctx["assumptions"]
        ]  # fmt: skip
        shortened = env._render_raw("reply.j2", lang, dialect, {**ctx, "assumptions": short})
        if env._past_shortening(dialect, dialect.length(text), ctx["assumptions"], short):
            skipped += 1
            assert not env._fits(dialect, shortened)
        # the bound: what shortening saves is at most the cut characters + the slack each
        saved = html.length(text) - html.length(shortened)
        cut = sum(
            env._units(a.get(k) or "") - env._units(s.get(k) or "") + env.SHORTENING_SLACK
            for a, s in zip(ctx["assumptions"], short, strict=True)
            for k in ("source", "cite")
            if (a.get(k) or "") != (s.get(k) or "")
        )
        assert saved <= cut
    assert skipped >= 1  # 5,082 visible characters, 4,304 shortened: the limit is 4,096


def test_only_telegram_html_skips():
    """Plain text and Markdown have no Telegram length (or a finishing pass): never skipped."""
    over = TELEGRAM_MAX_CHARS + 500
    full = [{"source": "s" * 200, "cite": ""}]
    short = [{"source": env._shorten("s" * 200, env.SHORT_SOURCE_CHARS), "cite": ""}]
    assert env._past_shortening(dialect_for("html"), over, full, short)
    assert not env._past_shortening(dialect_for("html"), TELEGRAM_MAX_CHARS + 100, full, short)
    for fmt in ("text", "markdown"):
        assert not env._past_shortening(dialect_for(fmt), over, full, short)
