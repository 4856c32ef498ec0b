"""The HTML page: the question box, the answer as the bot shows it (headline, key figures, the details
collapsed in ``<details>``, the chart, the actions as follow-up links) and a follow-up form.

No JavaScript; the one stylesheet is served at ``page.css`` (the CSP allows no inline style). Every
text this module echoes goes through :func:`html.escape`; the answer itself is the renderer's
Telegram HTML (escaped there), which is valid browser HTML.
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from bot.web.state import Asked
from bot.web.wording import EXAMPLES, answer_lang, word

if TYPE_CHECKING:
    from bot.core.pipeline import Answer

CSS = """*{box-sizing:border-box}html{-webkit-text-size-adjust:100%}
body{margin:0 auto;max-width:46rem;padding:.75rem;font:16px/1.5 system-ui,-apple-system,"PingFang SC",
"Microsoft YaHei","Noto Sans CJK SC",sans-serif;color:#1a1a1a;background:#fafafa;overflow-wrap:anywhere}
header{display:flex;justify-content:space-between;align-items:baseline;gap:.5rem;flex-wrap:wrap}
h1{font-size:1.2rem;margin:.2rem 0}h1 a{color:inherit;text-decoration:none}
.tag{color:#555;font-size:.9rem;margin:.1rem 0 .6rem}
form{display:flex;gap:.4rem;margin:.5rem 0}input[type=text]{flex:1;min-width:0;font-size:16px;
padding:.5rem;border:1px solid #999;border-radius:.4rem}button{font-size:16px;padding:.5rem .9rem;
border:0;border-radius:.4rem;background:#1f5fbf;color:#fff}
.answer{white-space:pre-wrap;background:#fff;border:1px solid #ddd;border-radius:.5rem;padding:.75rem}
.answer blockquote{margin:0;padding-left:.6rem;border-left:3px solid #ccc}
pre,code{white-space:pre-wrap;font-size:.9em}details{margin-top:.4rem}summary{cursor:pointer;
color:#1f5fbf}.chart{max-width:100%;height:auto;margin-top:.6rem}
nav.acts{display:flex;flex-wrap:wrap;gap:.4rem;margin:.6rem 0}nav.acts a{padding:.3rem .6rem;
border:1px solid #1f5fbf;border-radius:1rem;text-decoration:none;color:#1f5fbf;font-size:.9rem}
table.bars{border-collapse:collapse;white-space:nowrap;font-size:.9em}table.bars td{padding:0 .5rem 0 0}
td.bar{font-family:ui-monospace,monospace;line-height:1.2}td.num{text-align:right}ul.ex{padding-left:1.1rem}.small{font-size:.85rem;color:#555}footer{margin-top:1rem}"""
"""The page's stylesheet (mobile first: one column, wraps at 390 px, nothing wider than the screen)."""

_DETAILS_OPEN = "<blockquote expandable>"


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def link(prefix: str, path: str, asked: Asked, **extra: str) -> str:
    """``prefix + path`` with the conversation in the query (q, each prev, lang), escaped for href."""
    pairs = [("q", asked.q), *(("prev", p) for p in asked.prev)]
    if asked.lang:
        pairs.append(("lang", asked.lang))
    pairs += list(extra.items())
    return _e(f"{prefix}{path}?{urlencode(pairs)}")


def followup_link(prefix: str, asked: Asked, q: str) -> str:
    """The link that asks ``q`` as a follow-up of ``asked``."""
    return link(prefix, "/", Asked(q=q, prev=asked.chain(q), lang=asked.lang))


_PRE_RE = re.compile(r"<pre>(.*?)</pre>", re.S)
_BAR_LINE_RE = re.compile(r"(.*?\S)\s+([\u2580-\u259f]+)\s+(\S.*)")
"""One memory bar line of a ``<pre>`` block: label, bar (block elements), value
(bot.render.memory_text.memory_bars)."""


def _bar_table(m: re.Match[str]) -> str:
    """A ``<pre>`` block of memory bars as a table: a browser draws CJK labels in a proportional fallback
    font, not two monospace cells each, so bars padded with spaces after '权重' and '优化器状态' would not
    line up (s39 fixw #5); in cells they do. Any other block unchanged."""
    rows = [_BAR_LINE_RE.fullmatch(line) for line in m.group(1).split("\n")]
    if not rows or not all(rows):
        return m.group(0)
    cells = "".join(
        f"<tr><td>{r[1]}</td><td class=bar>{r[2]}</td><td class=num>{r[3]}</td></tr>" for r in rows if r
    )
    return f'<table class="bars">{cells}</table>'


def browser_html(reply: str, lang: str) -> str:
    """The renderer's Telegram HTML for a browser: the expandable quote becomes ``<details>``; memory
    bars a table (:func:`_bar_table`)."""
    reply = _PRE_RE.sub(_bar_table, reply) if "<pre>" in reply else reply
    if _DETAILS_OPEN not in reply:
        return reply
    head, rest = reply.split(_DETAILS_OPEN, 1)
    body, sep, tail = rest.partition("</blockquote>")
    summary = f"<details><summary>{_e(word(lang, 'details'))}</summary>"
    return f"{head}{summary}{body}</details>{tail}" if sep else reply


def _form(prefix: str, lang: str, asked: Asked | None, *, followup: bool) -> str:
    hidden = ""
    if asked is not None and followup:
        hidden += "".join(f'<input type="hidden" name="prev" value="{_e(p)}">' for p in asked.chain(""))
    if asked is not None and asked.lang:
        hidden += f'<input type="hidden" name="lang" value="{_e(asked.lang)}">'
    key = "followup_hint" if followup else "placeholder"
    # the top box asks a new question: after a follow-up its words alone ("用 4 张呢") would be asked
    # without the conversation, so it starts empty; the turns are shown above the answer (_turns)
    value = "" if followup or asked is None or asked.prev else asked.q
    label = word(lang, "followup" if followup else "ask")
    return (
        f'<form method="get" action="{_e(prefix)}/" class="{"fu" if followup else "ask"}">{hidden}'
        f'<input type="text" name="q" value="{_e(value)}" maxlength="20000" aria-label="{_e(label)}" '
        f'placeholder="{_e(word(lang, key))}"{"" if followup else " autofocus"}>'
        f"<button>{_e(label)}</button></form>"
    )


def _turns(lang: str, asked: Asked) -> str:
    """The conversation this answer follows (each earlier question, then this one), escaped; empty for a
    first question, whose words stay in the ask box."""
    if not asked.prev:
        return ""
    items = "".join(f"<li>{_e(q)}</li>" for q in (*asked.prev, asked.q))
    return f'<ol class="turns small" aria-label="{_e(word(lang, "conversation"))}">{items}</ol>'


_HTML_LANG = {"zh": "zh-CN", "zh-Hant": "zh-Hant"}
"""The page's ``lang`` attribute: a Traditional page's words are Traditional (s38 fixm #4)."""


def page(
    prefix: str,
    lang: str,
    asked: Asked | None,
    result: Answer | None,
    reply: str = "",
    actions: list[tuple[str, str]] | None = None,
    extras: str = "",
) -> str:
    """The whole page: the empty page with examples when ``result`` is None, else the answer."""
    other = "en" if lang.startswith("zh") else "zh"
    switch_to = Asked(q=asked.q, prev=asked.prev, lang=other) if asked else Asked(q="", lang=other)
    parts = [
        "<!doctype html>",
        f'<html lang="{_HTML_LANG.get(lang, "en")}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width,initial-scale=1">',
        f"<title>{_e(word(lang, 'title'))}</title>",
        f'<link rel="stylesheet" href="{_e(prefix)}/page.css"></head><body>',
        f'<header><h1><a href="{_e(prefix)}/?lang={lang}">{_e(word(lang, "title"))}</a></h1>',
        f'<a href="{link(prefix, "/", switch_to)}" hreflang="{other}" class="lang">'
        f"🌐 {'English' if other == 'en' else '中文'}</a></header>",
        f'<p class="tag">{_e(word(lang, "tagline"))}</p>',
        _form(prefix, lang, asked, followup=False),
    ]
    if result is None or asked is None:
        items = "".join(
            f'<li><a href="{link(prefix, "/", Asked(q=q, lang=lang))}">{_e(q)}</a></li>' for q in EXAMPLES
        )
        parts.append(f"<h2 class='small'>{_e(word(lang, 'examples'))}</h2><ul class='ex'>{items}</ul>")
    else:
        parts.append(_turns(lang, asked))
        parts.append(f'<div class="answer">{browser_html(reply, answer_lang(result))}</div>')
        parts.append(extras)
        if actions:
            acts = "".join(f'<a href="{href}">{_e(text)}</a>' for text, href in actions)
            parts.append(f'<nav class="acts" aria-label="{_e(word(lang, "actions"))}">{acts}</nav>')
        parts.append(_form(prefix, lang, asked, followup=True))
        parts.append(
            f'<p class="small"><a href="{link(prefix, "/", asked)}">{_e(word(lang, "share"))}</a></p>'
        )
    parts.append(f'<footer class="small"><a href="{_e(prefix)}/docs">{_e(word(lang, "api"))}</a></footer>')
    parts.append("</body></html>")
    return "\n".join(parts)


def message_page(prefix: str, lang: str, text: str, asked: Asked | None = None) -> str:
    """A short page with one message (429, 404, an input error); with the question not answered
    (``asked``: a 429), a form to send it again that keeps its conversation (trial s18 #5: the follow-up
    after '请求太频繁' had lost the earlier questions and was answered as a fresh chat)."""
    retry = ""
    if asked is not None and (asked.q.strip() or asked.prev):
        hidden = "".join(f'<input type="hidden" name="prev" value="{_e(p)}">' for p in asked.prev)
        hidden += f'<input type="hidden" name="lang" value="{_e(asked.lang)}">' if asked.lang else ""
        retry = (
            f'<form method="get" action="{_e(prefix)}/" class="fu">{hidden}'
            f'<input type="text" name="q" value="{_e(asked.q)}" maxlength="20000" '
            f'aria-label="{_e(word(lang, "followup"))}"><button>{_e(word(lang, "followup"))}</button></form>'
        )
    return page(prefix, lang, None, None).replace(
        f"<h2 class='small'>{_e(word(lang, 'examples'))}</h2>",
        f"<p role='alert'><b>{_e(text)}</b></p>{retry}<h2 class='small'>{_e(word(lang, 'examples'))}</h2>",
        1,
    )
