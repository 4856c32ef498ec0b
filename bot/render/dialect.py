"""Render dialects: how one reply is marked up for one kind of front end.

A :class:`Dialect` bundles what differs between front ends -- the markup filters the templates use
(``b``, ``i``, ``code``, ``pre``, ``quote``, ``details``, ``ledger``, ``link``), escaping of echoed text, the
length limit and how it is counted, truncation, and a last pass over the finished text -- so the
templates and the context code are the same for every platform:

- ``telegram_html`` (alias ``html``): Telegram's HTML subset; the details block is one
  ``<blockquote expandable>`` (collapsed in the app); 4,096 visible characters (sendMessage).
- ``markdown``: CommonMark/GFM -- ``**bold**``, ``*italic*``, ``` `code` ```, fenced blocks; the details
  follow a ``### Details`` heading (a heading, not ``<details>``: no HTML tags, so it reads the same in
  a chat that shows Markdown as text); every line break is a hard break (a trailing ``\\``); echoed text
  has Markdown's punctuation backslash-escaped; no length limit unless one is given
  (:func:`markdown`).
- ``plain`` (alias ``text``): no markup; the details and ledger indented.

A card format (Feishu, WeCom, a web page) takes the reply in parts -- headline, key figures, details --
in any dialect's markup: :func:`bot.render.parts.render_parts`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from jinja2 import pass_context
from markupsafe import Markup, escape

from bot.render.codegen import ALONE, DIRECT, PLAIN_TYPES
from bot.render.html import TELEGRAM_MAX_CHARS, tag, truncate_html, visible_length
from bot.render.i18n import N_

Format = Literal["html", "text", "telegram_html", "markdown", "plain"]
"""The names a dialect is asked for by: the three dialects and the two older names."""

ALIASES = {"html": "telegram_html", "text": "plain"}
"""Older format names, still accepted everywhere (``--format html|text``, ``render(a, "html")``)."""

_PRE_TAG_RE = re.compile(r"</?pre>")
_DETAIL_BLANKS_RE = re.compile(r"\n\s*\n(\s*\n)+")


@dataclass(frozen=True, eq=False)
class Dialect:
    """One front end's markup. ``key`` names its compiled-template folder; ``limit`` is the longest
    reply in ``length`` units (None: no limit); ``truncate(text, limit)`` cuts a reply without breaking
    its markup; ``finish`` is the last pass over the rendered text; ``escape_text`` escapes text echoed
    outside the templates; ``code_text`` marks a value as code there."""

    name: str
    key: str
    autoescape: bool
    filters: Mapping[str, Callable[..., Any]]
    limit: int | None = None
    length: Callable[[str], int] = len
    truncate: Callable[[str, int], str] | None = None
    finish: Callable[[str], str] | None = None
    finalize: Callable[[Any], Any] | None = None
    escape_text: Callable[[str], str] = str
    code_text: Callable[[str], str] = str
    localize: Callable[[Any, Any], None] | None = None

    @property
    def is_html(self) -> bool:
        """Whether replies are Telegram HTML (long ``<code>`` values are shortened to fit, etc.)."""
        return self.name == "telegram_html"


# ---------------------------------------------------------------------------------------------
# telegram_html and plain (today's "html" and "text", unchanged)


def _details_html(value: Any) -> Markup:
    """The details block: one ``<blockquote expandable>`` (collapsed in Telegram), nothing when empty.
    Telegram draws no ``<pre>`` inside a blockquote (entities other than bold/italic cannot nest), so
    tables inside it are plain lines."""
    body = _DETAIL_BLANKS_RE.sub("\n\n", _PRE_TAG_RE.sub("", str(value))).strip()
    return Markup(f"<blockquote expandable>{body}</blockquote>") if body else Markup("")


def _indent(value: Any) -> str:
    return "\n".join([("  " + line) if line else line for line in str(value).splitlines()])  # one frame


def _details_text(value: Any) -> str:
    """In plain text the details follow the key figures after a blank line (the ledger is indented)."""
    body = _DETAIL_BLANKS_RE.sub("\n\n", str(value)).strip("\n")
    return "\n" + body if body.strip() else ""


def _html_link(value: Any, url: str) -> Markup:
    """``<a href="url">value</a>``, both escaped (Telegram HTML supports ``href`` only)."""
    return Markup('<a href="{}">{}</a>').format(url, value)


def _plain_link(value: Any, url: str) -> str:
    return f"{value} ({url})" if url and url != str(value) else str(value)


def _html_escape(text: str) -> str:
    import html

    return html.escape(text)


def _html_code(text: str) -> str:
    return f"<code>{_html_escape(text)}</code>"


TELEGRAM_HTML = Dialect(
    name="telegram_html",
    key="html",
    autoescape=True,
    filters={
        "b": tag("b"),
        "i": tag("i"),
        "code": tag("code"),
        "pre": tag("pre"),
        "quote": tag("blockquote", "expandable"),
        "details": _details_html,
        "ledger": str,
        "link": _html_link,
    },
    limit=TELEGRAM_MAX_CHARS,
    length=visible_length,
    truncate=truncate_html,
    escape_text=_html_escape,
    code_text=_html_code,
)

PLAIN = Dialect(
    name="plain",
    key="text",
    autoescape=False,
    filters={
        "b": str,
        "i": str,
        "code": str,
        "pre": str,
        "quote": _indent,
        "details": _details_text,
        "ledger": _indent,
        "link": _plain_link,
    },
)


# ---------------------------------------------------------------------------------------------
# markdown

DETAILS_TITLE = N_("Details")
"""The heading over the details in Markdown (Telegram collapses them instead; plain text indents)."""

_MD_SPECIAL_RE = re.compile(r"([\\`*_\[\]<>|~&#])")
_PLACEHOLDER_RE = re.compile(r"(%\([^)]*\)[sd]|%%)")
_FENCE_RE = re.compile(r"^(`{3,}|~{3,})")


_MD_ESCAPES = {ord(c): "\\" + c for c in "\\`*_[]<>|~&#"}
"""Each character of :data:`_MD_SPECIAL_RE` → itself after a backslash: ``str.translate`` with this
table is that pattern's substitution in one C call (``re.sub`` with a ``\\1`` template goes through
Python's ``re._subx`` on every call; ~75 escapes a Markdown reply)."""

_new_str = str.__new__
"""``str.__new__(Markup, text)`` is ``Markup(text)`` for a str ``text`` (:data:`bot.render.env._new_str`)."""


def md_escape(text: str) -> str:
    """Backslash-escape the ASCII punctuation that could start Markdown markup (emphasis, code, links,
    HTML, tables, strikethrough, entities, headings), CommonMark §2.4 (:data:`_MD_SPECIAL_RE`'s
    characters, each after a backslash)."""
    return text.translate(_MD_ESCAPES)


def _md(value: Any) -> Markup:
    """``value`` as Markdown: already-marked-up values (``Markup``) as they are, text escaped."""
    kind = type(value)
    if kind is Markup:  # the commonest cases first: filter output, then text (~90 a reply)
        return value
    if kind is str:
        return _new_str(Markup, value.translate(_MD_ESCAPES))
    return value if hasattr(value, "__html__") else Markup(md_escape(str(value)))


def _md_wrap(mark: str) -> Callable[[Any], Markup]:
    def wrap(value: Any) -> Markup:
        inner = _md(value)
        return Markup(f"{mark}{inner}{mark}") if str(inner).strip() else inner

    return wrap


def _md_code(value: Any) -> Markup:
    """Inline code: a backtick run longer than any inside the value (CommonMark §6.1), not escaped."""
    text = str(value)
    ticks = "`" * (max((len(r) for r in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return Markup(f"{ticks}{pad}{text}{pad}{ticks}")


def _md_pre(value: Any) -> Markup:
    """A fenced code block, its fence longer than any backtick run inside."""
    text = str(value).strip("\n")
    fence = "`" * max(3, max((len(r) for r in re.findall(r"`+", text)), default=0) + 1)
    return Markup(f"{fence}\n{text}\n{fence}") if text.strip() else Markup("")


def _md_link(value: Any, url: str) -> Markup:
    """``[value](<url>)``: the text escaped, the URL in angle brackets with ``<``, ``>`` and spaces
    percent-encoded (CommonMark §6.3)."""
    target = str(url).replace(" ", "%20").replace("<", "%3C").replace(">", "%3E")
    return Markup(f"[{_md(value)}](<{target}>)")


def _md_quote(value: Any) -> Markup:
    return Markup("\n".join("> " + line if line else ">" for line in str(_md(value)).splitlines()))


def _md_details(title: str) -> Callable[[Any], Markup]:
    def details(value: Any) -> Markup:
        body = _DETAIL_BLANKS_RE.sub("\n\n", str(_md(value))).strip("\n")
        if not body.strip():
            return Markup("")
        return Markup("\n### " + md_escape(title) + "\n\n" + body)

    return details


_CONTEXT_FREE: set[Callable[..., Any]] = set()
"""Our gettext functions (:func:`context_free`): ``pass_context`` only for the eval context's
autoescape, or not reading the context at all."""


def context_free(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a ``pass_context`` template function that reads nothing of its context but the eval context
    (:meth:`bot.render.env.ReplyContext.call` hands it the calling context as it is)."""
    _CONTEXT_FREE.add(fn)
    return fn


def _md_wording(text: str) -> Markup:
    """Translated wording as Markdown: its punctuation escaped, its ``%(name)s`` placeholders kept."""
    parts = _PLACEHOLDER_RE.split(text)
    return Markup("".join(p if _PLACEHOLDER_RE.fullmatch(p) else md_escape(p) for p in parts))


def _md_format(wording: Markup, variables: dict[str, Any]) -> Markup:
    """``wording % {k: _md(v)}``, as Markup's ``%`` gives it (each value escaped: a Markup as it is, an
    object with ``__html__`` as that), formatted as a str: Markup's ``%`` wraps every value in a
    Python-level helper (~20 calls a reply's gettext in Markdown)."""
    values = {}
    for k, v in variables.items():
        m = v if type(v) is Markup else _md(v)
        values[k] = m if type(m) is Markup else escape(m)
    return _new_str(Markup, str.__mod__(wording, values))


def _md_localize(env: Any, translations: Any) -> None:
    """Install gettext for Markdown in ``env``: the wording escaped, each variable as Markdown (text
    escaped, filter output kept), and the details heading in the reply's language."""

    worded: dict[str, Markup] = {}  # msgid → its translation as Markdown (a reply asks ~30, mostly the same)
    alone: dict[tuple, Markup] = {}  # codegen.ALONE's keys → the text

    def lookup(_autoescape: bool, __string: str, variables: dict[str, Any]) -> Markup:
        rv = worded.get(__string)
        if rv is None:
            rv = worded[__string] = _md_wording(translations.gettext(__string))
        if not variables:
            key: tuple[Any, ...] = (_autoescape, __string)
        else:  # plain variables: the key the templates' `_("…", k=v)` reads first (codegen.ALONE)
            types = tuple(map(type, variables.values()))
            if not all(map(PLAIN_TYPES.__contains__, types)):
                return _md_format(rv, variables)  # always a format string, as Jinja's
            key = (_autoescape, __string, tuple(variables.items()), types)
        if len(alone) >= 4096:  # bounded, as env.remembered_gettext's texts
            alone.clear()
        out = alone[key] = _md_format(rv, variables)
        return out

    @context_free
    @pass_context
    def gettext(__context: Any, __string: str, **variables: Any) -> Markup:
        return lookup(True, __string, variables)

    DIRECT[gettext] = lookup  # the template's `_("…", k=v)` calls the lookup itself (bot.render.codegen)
    ALONE[gettext] = alone  # and its `_("…")` reads the remembered text first

    @context_free
    @pass_context
    def ngettext(__context: Any, __singular: str, __plural: str, __num: int, **variables: Any) -> Markup:
        variables.setdefault("num", __num)
        rv = _md_wording(translations.ngettext(__singular, __plural, __num))
        return rv % {k: _md(v) for k, v in variables.items()}

    env.globals.update(gettext=gettext, _=gettext, ngettext=ngettext)
    env.filters["details"] = _md_details(translations.gettext(DETAILS_TITLE))


def md_finish(text: str) -> str:
    """Hard line breaks: a reply's lines are lines, not one paragraph, so every line followed by
    another (outside fenced blocks; not a heading, a fence or a line already ending in ``\\``) ends
    with a backslash (CommonMark §6.7)."""
    lines = text.split("\n")
    out: list[str] = []
    fence = ""
    for line, following in zip(lines, [*lines[1:], ""], strict=True):
        # a line _FENCE_RE matches starts so: no pattern run for the other lines
        if line[:3] in _FENCE_HEADS and (not fence or line.strip() == fence):
            fence = "" if fence else _FENCE_RE.match(line)[1]  # type: ignore[index]
            out.append(line)
            continue
        if fence or not line or not following or line[0] == "#" or line[-1] == "\\":
            out.append(line)
        else:
            out.append(line if following[:3] in _FENCE_HEADS else line + "\\")
    return "\n".join(out)


_FENCE_HEADS = frozenset({"```", "~~~"})
"""A line's first three characters when it opens or closes a fenced block (:data:`_FENCE_RE`)."""


def md_truncate(text: str, limit: int, ellipsis: str = "…") -> str:
    """Cut Markdown to ``limit`` characters at a line end, closing an open fenced block."""
    if len(text) <= limit:
        return text
    cut = text[: max(0, limit - len(ellipsis) - 4)]
    cut = cut[: cut.rfind("\n")] if "\n" in cut else cut
    fences = sum(1 for line in cut.split("\n") if _FENCE_RE.match(line))
    return cut + ("\n```" if fences % 2 else "") + "\n" + ellipsis


def _md_finalize(value: Any) -> Any:
    return _md(value) if not hasattr(value, "__html__") and value is not None else value


def markdown(limit: int | None = None) -> Dialect:
    """The Markdown dialect; ``limit`` caps a reply's length in characters (None: no cap)."""
    return _markdown(limit)


@cache
def _markdown(limit: int | None) -> Dialect:
    return Dialect(
        name="markdown",
        key="markdown",
        autoescape=True,
        filters={
            "b": _md_wrap("**"),
            "i": _md_wrap("*"),
            "code": _md_code,
            "pre": _md_pre,
            "quote": _md_quote,
            "details": _md_details(DETAILS_TITLE),
            "ledger": _md,
            "link": _md_link,
        },
        limit=limit,
        truncate=md_truncate,
        finish=md_finish,
        finalize=_md_finalize,
        escape_text=md_escape,
        code_text=lambda text: str(_md_code(text)),
        localize=_md_localize,
    )


MARKDOWN = markdown()

DIALECTS = {d.name: d for d in (TELEGRAM_HTML, MARKDOWN, PLAIN)}
"""The dialects by name."""

BY_KEY = {d.key: d for d in DIALECTS.values()}
"""The dialects by the key of their templates' environment (limits aside, a dialect's markup is its
key's)."""


def dialect_for(fmt: str | Dialect) -> Dialect:
    """The dialect named ``fmt`` (a dialect passes through; "html" and "text" are the older names).
    Raises ``ValueError`` for an unknown name."""
    if isinstance(fmt, Dialect):
        return fmt
    name = ALIASES.get(fmt, fmt)
    if name not in DIALECTS:
        raise ValueError(f"unknown reply format {fmt!r}; known: {', '.join([*DIALECTS, *ALIASES])}")
    return DIALECTS[name]
