"""The Telegram HTML checker accepts what the Bot API accepts and rejects what it rejects.

Cases follow the Bot API "Formatting options" section (HTML style), which lists every tag and
entity Telegram understands.
"""

from __future__ import annotations

import pytest
from htmlcheck import MAX_TEXT_CHARS, assert_telegram_html, telegram_html_problems, telegram_html_text

VALID = [
    "plain text",
    "<b>bold</b>, <strong>bold</strong>",
    "<i>italic</i>, <em>italic</em>",
    "<u>underline</u>, <ins>underline</ins>",
    "<s>strike</s>, <strike>strike</strike>, <del>strike</del>",
    '<span class="tg-spoiler">spoiler</span>, <tg-spoiler>spoiler</tg-spoiler>',
    '<b>bold <i>italic bold <s>italic bold strike <span class="tg-spoiler">spoiler</span></s>'
    " <u>underline italic bold</u></i> bold</b>",
    '<a href="http://www.example.com/">inline URL</a>',
    '<a href="tg://user?id=123456789">inline mention of a user</a>',
    '<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji>',
    "<code>inline fixed-width code</code>",
    "<pre>pre-formatted fixed-width code block</pre>",
    '<pre><code class="language-python">print("x")</code></pre>',
    "<blockquote>Block quotation started\nBlock quotation continued</blockquote>",
    "<blockquote expandable>Expandable block quotation\nhidden part</blockquote>",
    "7B 预训练 1 万亿 token ≈ 9.3 万 A100·时",
    "a &lt; b &amp;&amp; c &gt; d &quot;q&quot; caf&#233; &#x1F600;",
    "<b>GPU-hours</b>: 93,483\n<blockquote expandable>C = 6·N·D = 4.2×10²²</blockquote>",
    "x" * MAX_TEXT_CHARS,
    "<b>" + "x" * MAX_TEXT_CHARS + "</b>",  # tags do not count towards the limit
    "&lt;" * MAX_TEXT_CHARS,  # neither do entities: each is one character
]

INVALID = [
    ("<p>paragraph</p>", "unsupported tag"),
    ("line<br>break", "unsupported tag"),
    ("line<br/>break", "self-closing"),
    ("<div>x</div>", "unsupported tag"),
    ("<b>unclosed", "unclosed tag <b>"),
    ("closed</b>", "unmatched end tag"),
    ("<b><i>crossed</b></i>", "improper nesting"),
    ('<span class="red">x</span>', "tg-spoiler"),
    ("<span>x</span>", "tg-spoiler"),
    ("<a>no href</a>", "href"),
    ('<a href="http://x" target="_blank">x</a>', "unsupported attribute"),
    ('<b class="x">x</b>', "unsupported attribute"),
    ("<tg-emoji>👍</tg-emoji>", "emoji-id"),
    ("<code><b>x</b></code>", "inside <code>"),
    ("<pre><b>x</b></pre>", "inside <pre>"),
    ('<code class="language-python">x</code>', "directly inside <pre>"),
    ('<pre><code class="python">x</code></pre>', "language-"),
    ("<blockquote>a<blockquote>b</blockquote></blockquote>", "cannot be nested"),
    ('<a href="http://a">a <a href="http://b">b</a></a>', "links cannot be nested"),
    ("a < b", "raw '<'"),
    ("a > b", "raw '>'"),
    ("AT&T", "'&' must start"),
    ("&nbsp;space", "'&' must start"),
    ("&copy; 2024", "'&' must start"),
    ("&lt missing semicolon", "'&' must start"),
    ("<!-- comment -->x", "comments"),
    ("", "empty"),
    ("  \n ", "empty"),
    ("<b></b>", "empty"),
    ("x" * (MAX_TEXT_CHARS + 1), "limit"),
]


@pytest.mark.parametrize("text", VALID)
def test_accepts_bot_api_formatting_examples(text: str) -> None:
    assert_telegram_html(text)


@pytest.mark.parametrize(("text", "reason"), INVALID)
def test_rejects_what_telegram_rejects(text: str, reason: str) -> None:
    problems = telegram_html_problems(text)
    assert any(reason in p for p in problems), problems
    with pytest.raises(AssertionError, match="invalid Telegram HTML"):
        assert_telegram_html(text)


def test_parsed_text_drops_tags_and_decodes_entities() -> None:
    assert telegram_html_text("<b>a</b> &lt;b&gt; &amp; &#233;\n") == "a <b> & é"


def test_one_mistake_gives_one_problem() -> None:
    assert len(telegram_html_problems("<b><i>x</b> y")) == 1
