"""Check that a string is valid Telegram ``parse_mode=HTML`` text, as the Bot API would parse it.

Rules, from the Bot API "Formatting options" section (HTML style):

* Tags: ``b strong i em u ins s strike del``, ``span class="tg-spoiler"``, ``tg-spoiler``,
  ``a href=…``, ``tg-emoji emoji-id=…``, ``code``, ``pre`` (optionally holding one
  ``code class="language-…"``), ``blockquote`` (optionally ``expandable``). Nothing else:
  no ``<br>``, ``<p>``, ``<div>``, comments or self-closing tags.
* Tags balanced and properly nested. Of the documented nesting limits we enforce the ones that
  are unambiguous: nothing inside inline ``code``; only the language ``code`` inside ``pre``;
  no ``blockquote`` in a ``blockquote``; no link in a link.
* ``<``, ``>`` and ``&`` that are not part of a tag or an entity must be escaped; the only named
  entities are ``&lt; &gt; &amp; &quot;``, plus numeric ones (``&#233;``, ``&#x1F600;``).
* The text after parsing is 1–4096 characters long (Telegram trims surrounding whitespace).
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

MAX_TEXT_CHARS = 4096
"""Telegram's cap for a message: 4096 characters after entity parsing."""

_FORMAT_TAGS = {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "tg-spoiler"}
_ALLOWED_TAGS = _FORMAT_TAGS | {"span", "a", "tg-emoji", "code", "pre", "blockquote"}
_NAMED_ENTITIES = {"lt", "gt", "amp", "quot"}
_BAD_AMPERSAND = re.compile(r"&(?!(?:lt|gt|amp|quot|#[0-9]+|#[xX][0-9a-fA-F]+);)")


class _TelegramHTMLParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.problems: list[str] = []
        self.stack: list[str] = []
        self.text_parts: list[str] = []
        self._pre_code_depth: int | None = None

    # -- tags -------------------------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        where = self.get_starttag_text() or f"<{tag}>"
        if tag not in _ALLOWED_TAGS:
            self.problems.append(f"unsupported tag {where}")
            self.stack.append(tag)
            return
        self._check_attrs(tag, dict(attrs), where)
        self._check_nesting(tag, dict(attrs), where)
        self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.problems.append(f"self-closing or void tag not supported: {self.get_starttag_text()}")

    def handle_endtag(self, tag: str) -> None:
        if not self.stack:
            self.problems.append(f"unmatched end tag </{tag}>")
            return
        if self.stack[-1] != tag:
            self.problems.append(f"end tag </{tag}> does not close <{self.stack[-1]}> (improper nesting)")
            if tag in self.stack:  # resynchronise so one mistake gives one message
                while self.stack and self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()

    def _check_attrs(self, tag: str, attrs: dict[str, str | None], where: str) -> None:
        allowed: set[str] = set()
        if tag == "a":
            allowed = {"href"}
            if not attrs.get("href"):
                self.problems.append(f"<a> needs a non-empty href: {where}")
        elif tag == "span":
            allowed = {"class"}
            if attrs.get("class") != "tg-spoiler":
                self.problems.append(f'<span> is only allowed as class="tg-spoiler": {where}')
        elif tag == "tg-emoji":
            allowed = {"emoji-id"}
            if not attrs.get("emoji-id"):
                self.problems.append(f"<tg-emoji> needs emoji-id: {where}")
        elif tag == "code":
            allowed = {"class"}
            cls = attrs.get("class")
            if cls is not None and not re.fullmatch(r"language-[\w+#.-]+", cls):
                self.problems.append(f'<code class> must be "language-…": {where}')
        elif tag == "blockquote":
            allowed = {"expandable"}
            if "expandable" in attrs and attrs["expandable"] not in (None, "", "expandable"):
                self.problems.append(f"<blockquote expandable> takes no value: {where}")
        for name in attrs:
            if name not in allowed:
                self.problems.append(f"unsupported attribute {name!r} on <{tag}>: {where}")

    def _check_nesting(self, tag: str, attrs: dict[str, str | None], where: str) -> None:
        parent = self.stack[-1] if self.stack else None
        if parent == "code":
            self.problems.append(f"nothing may be nested inside <code>: {where}")
        elif parent == "pre" and tag != "code":
            self.problems.append(f'only <code class="language-…"> may be nested inside <pre>: {where}')
        elif "pre" in self.stack and tag != "code":
            self.problems.append(f"nothing may be nested inside <pre>: {where}")
        if tag == "code" and attrs.get("class") is not None and parent != "pre":
            self.problems.append(f"a language class on <code> is only valid directly inside <pre>: {where}")
        if tag == "blockquote" and "blockquote" in self.stack:
            self.problems.append(f"blockquotes cannot be nested: {where}")
        if tag == "a" and "a" in self.stack:
            self.problems.append(f"links cannot be nested: {where}")
        if tag == "pre" and "code" in self.stack:
            self.problems.append(f"<pre> cannot be inside <code>: {where}")

    # -- text and entities ------------------------------------------------------------------
    def handle_data(self, data: str) -> None:
        for ch, name in (("<", "&lt;"), (">", "&gt;")):
            if ch in data:
                self.problems.append(f"raw {ch!r} in text must be escaped as {name}: {data[:40]!r}")
        self.text_parts.append(data)

    def handle_entityref(self, name: str) -> None:
        if name not in _NAMED_ENTITIES:
            self.problems.append(f"unsupported entity &{name};")
        self.text_parts.append(html.unescape(f"&{name};"))

    def handle_charref(self, name: str) -> None:
        try:
            code = int(name[1:], 16) if name[:1] in ("x", "X") else int(name)
            self.text_parts.append(chr(code))
        except (ValueError, OverflowError):
            self.problems.append(f"invalid numeric entity &#{name};")

    # -- everything else HTML allows and Telegram does not -----------------------------------
    def handle_comment(self, data: str) -> None:
        self.problems.append(f"comments are not supported: <!--{data[:30]}-->")

    def handle_decl(self, decl: str) -> None:
        self.problems.append(f"declarations are not supported: <!{decl[:30]}>")

    def handle_pi(self, data: str) -> None:
        self.problems.append(f"processing instructions are not supported: <?{data[:30]}>")

    def unknown_decl(self, data: str) -> None:
        self.problems.append(f"unsupported markup: <![{data[:30]}]>")


def _parse(s: str) -> _TelegramHTMLParser:
    parser = _TelegramHTMLParser()
    for match in _BAD_AMPERSAND.finditer(s):
        snippet = s[match.start() : match.start() + 12]
        parser.problems.append(f"'&' must start &lt; &gt; &amp; &quot; or a numeric entity: {snippet!r}")
    parser.feed(s)
    parser.close()
    for tag in reversed(parser.stack):
        parser.problems.append(f"unclosed tag <{tag}>")
    return parser


def telegram_html_text(s: str) -> str:
    """The plain text Telegram would show: tags removed, entities decoded, whitespace trimmed."""
    return "".join(_parse(s).text_parts).strip()


def telegram_html_problems(s: str) -> list[str]:
    """Every reason the Bot API would reject (or mis-render) ``s`` with parse_mode=HTML."""
    parser = _parse(s)
    problems = list(dict.fromkeys(parser.problems))
    text = "".join(parser.text_parts).strip()
    if not text:
        problems.append("text is empty after parsing (Telegram: 'message text is empty')")
    if len(text) > MAX_TEXT_CHARS:
        problems.append(f"text is {len(text)} characters after parsing; Telegram's limit is {MAX_TEXT_CHARS}")
    return problems


def assert_telegram_html(s: str) -> None:
    """Fail with every problem found if ``s`` is not valid Telegram HTML."""
    problems = telegram_html_problems(s)
    listing = "\n  - ".join(problems)
    assert not problems, f"invalid Telegram HTML:\n  - {listing}\n--- text ---\n{s[:500]}"
