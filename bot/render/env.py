"""Jinja2 environments (one per language and format) and the text passes after rendering."""

from __future__ import annotations

import logging
import re
from functools import cache
from pathlib import Path
from typing import Any, Literal

from jinja2 import BytecodeCache, Environment, FileSystemLoader
from jinja2.bccache import Bucket
from markupsafe import Markup

from bot.render.html import TELEGRAM_MAX_CHARS, tag, truncate_html, visible_length
from bot.render.i18n import templates_dir, translations

log = logging.getLogger("bot.render")

Format = Literal["html", "text"]


SHORT_SOURCE_CHARS = 80
"""Sources in the ledger are cut to this length when the full reply would exceed the limit."""


def _indent(value: Any) -> str:
    return "\n".join(("  " + line) if line else line for line in str(value).splitlines())


_PRE_TAG_RE = re.compile(r"</?pre>")
_DETAIL_BLANKS_RE = re.compile(r"\n\s*\n(\s*\n)+")


def _details_html(value: Any) -> Markup:
    """The details block: one ``<blockquote expandable>`` (collapsed in Telegram), nothing when empty.
    Telegram draws no ``<pre>`` inside a blockquote (entities other than bold/italic cannot nest), so
    tables inside it are plain lines."""
    body = _DETAIL_BLANKS_RE.sub("\n\n", _PRE_TAG_RE.sub("", str(value))).strip()
    return Markup(f"<blockquote expandable>{body}</blockquote>") if body else Markup("")


def _details_text(value: Any) -> str:
    """In plain text the details follow the key figures after a blank line (the ledger is indented)."""
    body = _DETAIL_BLANKS_RE.sub("\n\n", str(value)).strip("\n")
    return "\n" + body if body.strip() else ""


COMPILED_DIR = "_compiled"
"""Folder beside the templates that holds their compiled code per format (written at build time by
``hatch_build.py``; read only at run time)."""


class CompiledTemplates(BytecodeCache):
    """Template bytecode compiled when the package was built: loaded, never written (the installed
    package stays read-only). Keyed by the template's name, not its path (the build and the install
    live in different folders); Jinja checks the source's checksum, so an edited template is compiled
    in memory instead. ``writable`` is for the build hook only."""

    def __init__(self, directory: Path, writable: bool = False) -> None:
        self.directory = directory
        self.writable = writable

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        return name

    def _path(self, bucket: Bucket) -> Path:
        return self.directory / (bucket.key.replace("/", "__") + ".cache")

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            with self._path(bucket).open("rb") as fh:
                bucket.load_bytecode(fh)
        except OSError:
            return

    def dump_bytecode(self, bucket: Bucket) -> None:
        if self.writable:
            self.directory.mkdir(parents=True, exist_ok=True)
            with self._path(bucket).open("wb") as fh:
                bucket.write_bytecode(fh)


def new_environment(fmt: Format, cache: BytecodeCache | None = None) -> Environment:
    """A Jinja2 environment for replies in ``fmt``, with our filters and the i18n extension's policies,
    but no translations installed yet (:func:`environment` adds them per language). The build hook
    uses it to compile the templates; its compiled code is what :class:`CompiledTemplates` loads."""
    html_mode = fmt == "html"
    env = Environment(
        loader=FileSystemLoader(str(templates_dir())),
        autoescape=html_mode,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
        bytecode_cache=cache or CompiledTemplates(templates_dir() / COMPILED_DIR / fmt),
    )
    env.policies["ext.i18n.trimmed"] = True
    if html_mode:
        env.filters.update(
            b=tag("b"),
            i=tag("i"),
            code=tag("code"),
            pre=tag("pre"),
            quote=tag("blockquote", "expandable"),
            details=_details_html,
            ledger=str,
        )
    else:
        env.filters.update(
            b=str, i=str, code=str, pre=str, quote=_indent, details=_details_text, ledger=_indent
        )
    return env


@cache
def environment(lang: str, fmt: Format) -> Environment:
    """The Jinja2 environment for one language and format, with that catalog installed (cached)."""
    env = new_environment(fmt)
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    return env


_BLANKS_RE = re.compile(r"\n{3,}")


_EN_ONE_RE = re.compile(
    r"(?<![\d.,])1 ((?:[A-Za-z0-9]+ )?[A-Za-z0-9]+-hour|day|GPU|sequence|node|hour|replica|card)s\b"
)


_MAC_WORDS = (
    (re.compile(r"(\d+) 张 (M\d (?:Ultra|Max))"), r"\1 台 \2"),
    (re.compile(r"(\d+) 张卡："), r"\1 台："),
    (re.compile(r"每卡可用"), "GPU 可用"),
)


def mac_words(text: str) -> str:
    """A Mac is a machine, not a card: '1 台 M2 Ultra', 'GPU 可用' (Chinese measure words)."""
    for pattern, repl in _MAC_WORDS:
        text = pattern.sub(repl, text)
    return text


def english_singulars(text: str) -> str:
    """'1 days' → '1 day': English's n = 1 rule for the unit words our messages put after a number
    (msgids carry the plural; a count of exactly one is common for GPUs, days and sequences)."""
    return _EN_ONE_RE.sub(r"1 \1", text)


def _render_raw(template: str, lang: str, fmt: Format, ctx: dict[str, Any]) -> str:
    text = environment(lang, fmt).get_template(template).render(fmt=fmt, **ctx)
    text = "\n".join(line.rstrip() for line in text.splitlines())
    if lang == "en":
        text = english_singulars(text)
    return _BLANKS_RE.sub("\n\n", text).strip()


def render_capped(template: str, lang: str, fmt: Format, ctx: dict[str, Any]) -> str:
    text = _render_raw(template, lang, fmt, ctx)
    if fmt != "html" or visible_length(text) <= TELEGRAM_MAX_CHARS:
        return text
    # 1) shorten the ledger's sources, 2) drop the details block, 3) cut safely
    if ctx.get("assumptions"):
        short = [
            {
                **a,
                "source": _shorten(a["source"], SHORT_SOURCE_CHARS),
                "cite": _shorten(a["cite"], SHORT_SOURCE_CHARS) if a.get("cite") else "",
            }
            for a in ctx["assumptions"]
        ]
        text = _render_raw(template, lang, fmt, {**ctx, "assumptions": short})
        if visible_length(text) <= TELEGRAM_MAX_CHARS:
            return text
    text = _render_raw(template, lang, fmt, {**ctx, "show_details": False})
    return truncate_html(text, TELEGRAM_MAX_CHARS)


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
