"""Jinja2 environments (one per language and dialect: :mod:`bot.render.dialect`) and the text passes
after rendering."""

from __future__ import annotations

import io
import marshal
import pickle
import re
from collections.abc import Callable, MutableMapping
from functools import cache
from pathlib import Path
from types import FunctionType
from typing import Any

from jinja2 import BytecodeCache, Environment, FileSystemLoader, Template, TemplateNotFound, pass_context
from jinja2.bccache import Bucket, bc_magic
from jinja2.nodes import EvalContext
from jinja2.runtime import Context
from markupsafe import Markup
from markupsafe import escape as markup_escape

from bot.lazylog import lazy_logger
from bot.render.codegen import (
    _DICT_NAMES,
    ALONE,
    CODE_GENERATOR,
    CODEGEN_TAG,
    DIRECT,
    LOOKED,
    NAMESPACE,
    PLAIN_TYPES,
    gettext_call,
)
from bot.render.dialect import _CONTEXT_FREE, BY_KEY, Dialect, context_free, dialect_for
from bot.render.html import escape_str, visible_length
from bot.render.i18n import templates_dir, translations

log = lazy_logger("bot.render")

SHORT_SOURCE_CHARS = 80
"""Sources in the ledger are cut to this length when the full reply would exceed the limit."""


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

    def get_source_checksum(self, source: str) -> str:
        """The source's checksum with :data:`bot.render.codegen.CODEGEN_TAG`: code written by another
        code generator does not match, so it is compiled afresh rather than loaded."""
        return super().get_source_checksum(source + "\0" + CODEGEN_TAG)

    def _path(self, bucket: Bucket) -> Path:
        return self.directory / (bucket.key.replace("/", "__") + ".cache")

    def load_bytecode(self, bucket: Bucket) -> None:
        """Jinja's ``Bucket.load_bytecode`` (magic, the source's pickled checksum, the marshalled code)
        from one read of the file: ``marshal.load`` of a file reads it a few bytes a call (reply.j2's
        ~620 kB code: ~1.5 ms, ~0.8 ms from memory). A damaged or stale file leaves the bucket empty."""
        try:
            data = self._path(bucket).read_bytes()
        except OSError:
            return
        stream = io.BytesIO(data)
        try:
            if stream.read(len(bc_magic)) != bc_magic or pickle.load(stream) != bucket.checksum:
                bucket.reset()
                return
            bucket.code = marshal.loads(memoryview(data)[stream.tell() :])
        except (EOFError, ValueError, TypeError, pickle.UnpicklingError):
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        if self.writable:
            self.directory.mkdir(parents=True, exist_ok=True)
            with self._path(bucket).open("wb") as fh:
                bucket.write_bytecode(fh)


_INCLUDE_RE = re.compile(r'\{% include "([\w.]+)" %\}')
"""A static ``{% include "name" %}`` (a literal name, no options): what :class:`InliningLoader` inlines."""


class InliningLoader(FileSystemLoader):
    """Templates with each static include written out in place, inside an empty ``{% with %}`` block:
    the included text sees the includer's variables, as an include with context does, and its own
    ``{% set %}``s stay inside the block, as an include's do. One reply made ~10 includes, each a template
    lookup and a new Jinja context copying every variable; inlined, they cost nothing. The
    newline after ``{% with %}`` is eaten by ``trim_blocks`` (so the text starts on its own line, as
    the included file does); the included file's one trailing newline is dropped, as Jinja drops it
    (``keep_trailing_newline`` off). A template is reloaded when any file it inlines changes."""

    def get_source(
        self, environment: Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool]]:
        return self._inlined(environment, template, {})

    def _inlined(
        self, environment: Environment, template: str, done: dict[str, tuple[str, Callable[[], bool]] | None]
    ) -> tuple[str, str | None, Callable[[], bool]]:
        """:meth:`get_source` of ``template`` with each include written out, each included file read and
        inlined once per call (``done``: name → its inlined text and up-to-date check, None: not found).
        reply.j2's 18 files were read and inlined 43 times a start (~0.6 ms CPU, ~2.5M instructions of
        ``ask``; bench/RESULTS.md session 45): the same text, and the same checks."""
        source, filename, uptodate = super().get_source(environment, template)
        checks = [uptodate]

        def inline(match: re.Match[str]) -> str:
            name = match.group(1)
            if name in done:
                known = done[name]
            else:
                try:
                    body, _name, fresh = self._inlined(environment, name, done)
                except TemplateNotFound:  # left as an include: Jinja reports it where it is used
                    known = None
                else:
                    known = ("{% with %}\n" + body.removesuffix("\n") + "{% endwith %}", fresh)
                done[name] = known
            if known is None:
                return match.group(0)
            checks.append(known[1])
            return known[0]

        source = _INCLUDE_RE.sub(inline, source)
        return source, filename, lambda: all(check() for check in checks)


_MISSING = object()
_new_str = str.__new__
_new_object = object.__new__
"""``str.__new__(Markup, text)`` is ``Markup(text)`` for a str ``text`` (markupsafe's ``__new__`` only
reads ``__html__`` and an encoding, which a str has not), without its Python-level frame."""


class ReplyContext(Context):
    """Jinja's context with a direct call of our gettext (~30 calls a reply): Jinja's ``call`` probes
    the callable's attributes three times, and inside a loop or block derives a new context (copying
    every variable) only to hand it over. A :func:`context_free` function reads just the eval context,
    which a derived context shares, so it gets the calling context itself; any other callable goes
    Jinja's way."""

    def call(__self, __obj: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if type(__obj) is FunctionType and __obj in _CONTEXT_FREE:
            kwargs.pop("_loop_vars", None)
            kwargs.pop("_block_vars", None)
            direct = _DIRECT.get(__obj)
            if direct is not None and len(args) == 1:  # our gettext: the variables as they came
                return direct(__self.eval_ctx.autoescape, args[0], kwargs)
            return __obj(__self, *args, **kwargs)
        return super().call(__obj, *args, **kwargs)


_DIRECT: dict[Callable[..., Any], Callable[[bool, str, dict[str, Any]], str]] = DIRECT
"""Each :func:`remembered_gettext` function → the same lookup taking (autoescape, message, variables):
:meth:`ReplyContext.call` hands it the keyword dict it was given (no second packing and unpacking)."""


def html_escape(value: Any) -> Markup:
    """markupsafe's ``escape`` with its two commonest cases first: a Markup value is returned as it is
    (``escape`` copies it: ``Markup(value.__html__())``, the same text) and an int needs no escaping.
    An autoescaped reply calls it ~60 times, half of them on Markup from our filters and gettext."""
    kind = type(value)
    if kind is Markup:
        return value
    if kind is str:  # markupsafe's own steps for a str, without Markup's Python-level __new__
        return _new_str(Markup, escape_str(value))
    if kind is int:
        return Markup(int.__repr__(value))
    return markup_escape(value)


class ReplyTemplate(Template):
    """Jinja's template with :func:`html_escape` as the ``escape`` its compiled code calls for each
    ``{{ … }}`` of an autoescaped dialect (the code's module namespace is the template's own)."""

    @classmethod
    def from_code(cls, environment: Environment, code: Any, globals: Any, uptodate: Any = None) -> Template:
        template = super().from_code(environment, code, globals, uptodate)
        namespace = template.root_render_func.__globals__
        if namespace.get("escape") is markup_escape:
            namespace["escape"] = html_escape
        # the names ReplyCodeGenerator's code reads
        namespace.update(NAMESPACE, gettext_call=gettext_call, DIRECT=DIRECT, FunctionType=FunctionType)
        return template

    def render(self, *args: Any, **kwargs: Any) -> str:
        """Jinja's ``render`` with its context made in place (s40-speed): the attributes Jinja's
        ``Template.new_context`` → ``runtime.new_context`` → ``Context.__init__`` → ``EvalContext.__init__``
        (and its blocks' comprehension) set, the same values, without those six Python frames a reply
        (tests/test_s40_speed.py compares the two contexts attribute by attribute)."""
        environment = self.environment
        if args or environment.is_async:
            return super().render(*args, **kwargs)
        glob = self.globals
        escaping = environment.autoescape
        eval_ctx = _new_object(EvalContext)
        eval_ctx.__dict__.update(
            environment=environment,
            autoescape=escaping(self.name) if callable(escaping) else escaping,
            volatile=False,
        )
        ctx = _new_object(environment.context_class)
        blocks = self.blocks
        ctx.__dict__.update(
            parent=dict(glob or (), **kwargs),
            vars={},
            environment=environment,
            eval_ctx=eval_ctx,
            exported_vars=set(),
            name=self.name,
            globals_keys=set() if glob is None else set(glob),
            blocks={k: [v] for k, v in blocks.items()} if blocks else {},
        )
        try:
            return environment.concat(self.root_render_func(ctx))  # type: ignore[attr-defined]
        except Exception:
            environment.handle_exception()
        return ""  # not reached: handle_exception raises


class ReplyEnvironment(Environment):
    """Jinja's environment with a faster ``a.b`` for the plain dicts of our template contexts: Jinja
    tries ``getattr`` first, which for a dict key raises (and catches) an AttributeError on every
    lookup (~120 per reply). A plain dict has no attribute but :data:`_DICT_NAMES`, so for any other
    name the item lookup returns exactly what Jinja returns (the value, or its undefined)."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_NAMES:
            value = obj.get(attribute, _MISSING)
            return self.undefined(obj=obj, name=attribute) if value is _MISSING else value
        return super().getattr(obj, attribute)

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """A template's globals as one plain dict, the environment's and the template's own, made when
        the template is loaded. Jinja's ``ChainMap`` is read through Python-level methods on every
        render (copied into the context, made a set, compared with the imported macros' globals: ~30
        calls a reply); a dict does the same in C. Our environments set their globals before loading
        any template (:func:`_environment`), as Jinja asks of any environment."""
        return {**self.globals, **(d or {})}

    context_class = ReplyContext
    template_class = ReplyTemplate
    code_generator_class = CODE_GENERATOR


def new_environment(fmt: str | Dialect, cache: BytecodeCache | None = None, i18n: bool = True) -> Environment:
    """A Jinja2 environment for replies in ``fmt`` (a dialect or its name), with the dialect's filters
    and the i18n extension's policies, but no translations installed yet (:func:`environment` adds
    them per language). The build hook uses it to compile the templates; its compiled code is what
    :class:`CompiledTemplates` loads.

    ``i18n`` False (:func:`_environment` for a dialect without its own ``localize``: plain text and
    Telegram HTML): without Jinja's i18n extension (``jinja2.ext`` and ``pprint``, ~5M instructions of
    every such ``sizing-bot ask``, measured 2026-12-04, bench/RESULTS.md). Our templates translate with
    ``_()`` calls only (no ``{% trans %}`` block, no ``ngettext``/``pgettext``: tests/test_render_codegen.py),
    which the extension's parser does not touch, so a template compiles to the same code with or without
    it; the ``gettext`` and ``_`` the replies call are the ones :func:`_environment` sets itself."""
    dialect = dialect_for(fmt)
    env = ReplyEnvironment(
        loader=InliningLoader(str(templates_dir())),
        autoescape=dialect.autoescape,
        extensions=["jinja2.ext.i18n"] if i18n else (),
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
        bytecode_cache=cache or CompiledTemplates(templates_dir() / COMPILED_DIR / dialect.key.split("+")[0]),
        **({"finalize": dialect.finalize} if dialect.finalize is not None else {}),
    )
    env.policies["ext.i18n.trimmed"] = True
    env.loaded = {}  # type: ignore[attr-defined]  # _render_raw's templates by name, as get_template returns them
    env.filters.update(dialect.filters)
    return env


def environment(lang: str, fmt: str | Dialect) -> Environment:
    """The Jinja2 environment for one language and dialect, with that catalog installed (built once
    per (language, dialect))."""
    dialect = fmt if isinstance(fmt, Dialect) else dialect_for(fmt)  # render_capped's: no frame
    BY_KEY.setdefault(dialect.key, dialect)  # a derived dialect (bot.render.parts) under its own key
    return _environment(lang, dialect.key)


@cache
def _environment(lang: str, key: str) -> Environment:
    dialect = BY_KEY[key]
    if dialect.localize is None:  # gettext and `_` are ours alone: no i18n extension (new_environment)
        env = new_environment(dialect, i18n=False)
        gettext = remembered_gettext(translations(lang).gettext)
        env.globals.update(gettext=gettext, _=gettext)  # `_` itself: not i18n's alias that looks it up
        return env
    env = new_environment(dialect)
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    dialect.localize(env, translations(lang))
    return env


REMEMBERED_TEXTS = 4096
"""Most translated texts :func:`remembered_gettext` keeps per environment (then it starts afresh)."""

_PLAIN_TYPES = PLAIN_TYPES
"""Variable types whose text is a function of type and value (:data:`bot.render.codegen.PLAIN_TYPES`)."""


def remembered_gettext(translate: Callable[[str], str]) -> Callable[..., str]:
    """Jinja's new-style ``gettext`` (``jinja2.ext._make_new_gettext``: the translation, as Markup
    when autoescaping, ``%`` the variables, escaped) with each message's translation looked up once and
    each escaped result whose variables are plain (:data:`_PLAIN_TYPES`) remembered: a reply calls it
    ~30 times, mostly with the same texts, and Markup's escaping ``%`` was ~10 % of rendering (plain
    text is formatted each time: ``str % dict`` is cheaper than the key)."""
    looked_up: dict[str, str] = {}
    results: dict[tuple, str] = {}

    def lookup(autoescape: bool, __string: str, variables: dict[str, Any]) -> str:
        key: tuple[Any, ...] | None = None
        if not variables:  # a text alone (about a third of the calls): its own key shape, no tuples built
            key = (autoescape, __string)  # the key the templates' `_("…")` reads first (codegen.ALONE)
            done = results.get(key)
            if done is not None:
                return done
        elif not autoescape:  # plain text: str's own `%` in C costs less than the remembering key
            rv = looked_up.get(__string)
            if rv is None:
                rv = looked_up[__string] = translate(__string)
            return rv % variables
        else:
            types = tuple(map(type, variables.values()))  # C calls only: no generator frames per message
            if all(map(_PLAIN_TYPES.__contains__, types)):
                key = (autoescape, __string, tuple(variables.items()), types)
                done = results.get(key)
                if done is not None:
                    return done
        rv = looked_up.get(__string)
        if rv is None:
            rv = looked_up[__string] = translate(__string)
        out = (Markup(rv) if autoescape else rv) % variables
        if key is not None:
            if len(results) >= REMEMBERED_TEXTS:
                results.clear()
            results[key] = out
        return out

    @context_free
    @pass_context
    def gettext(__context: Context, __string: str, **variables: Any) -> str:
        return lookup(__context.eval_ctx.autoescape, __string, variables)

    _DIRECT[gettext] = lookup
    ALONE[gettext] = results
    LOOKED[gettext] = looked_up
    return gettext


_BLANKS_RE = re.compile(r"\n{3,}")


_EN_ONE_RE = re.compile(  # "1" first, the look-behind after it: the engine scans for the literal
    r"1(?<![\d.,]1) ((?:[A-Za-z0-9]+ )?[A-Za-z0-9]+-hour|day|GPU|sequence|node|hour|replica|card)s\b"
)


_MAC_WORDS = (
    # s47-cat: every unified-memory box is a machine: a Mac, a DGX Spark (and its partners'), a Jetson kit
    (re.compile(r"(\d+) 张 (M\d (?:Ultra|Max|Pro)|DGX Spark|Jetson )"), r"\1 台 \2"),
    (re.compile(r"(\d+) 张卡："), r"\1 台："),
    (re.compile(r"(\d+) 张卡放不下"), r"\1 台放不下"),
    (re.compile(r"(至少要|推荐|至少需要) (\d+) 张"), r"\1 \2 台"),
    (re.compile(r"每卡可用"), "GPU 可用"),
)


def mac_words(text: str) -> str:
    """A Mac, a DGX Spark or a Jetson is a machine, not a card: '1 台 M2 Ultra', '2 台 DGX Spark', 'GPU 可用'
    (Chinese measure words); applied to a unified-memory report's Chinese reply (bot.render.renderer)."""
    for pattern, repl in _MAC_WORDS:
        text = pattern.sub(repl, text)
    return text


def english_singulars(text: str) -> str:
    """'1 days' → '1 day': English's n = 1 rule for the unit words our messages put after a number
    (msgids carry the plural; a count of exactly one is common for GPUs, days and sequences)."""
    return _EN_ONE_RE.sub(r"1 \1", text)


def _render_raw(template: str, lang: str, dialect: Dialect, ctx: dict[str, Any]) -> str:
    key = dialect.key  # environment(lang, dialect) in place when the dialect is the one filed under its key
    env = _environment(lang, key) if BY_KEY.get(key) is dialect else environment(lang, dialect)
    loaded = env.loaded.get(template)  # type: ignore[attr-defined]
    if loaded is None:  # get_template's four frames once per template and environment (s40-speed)
        loaded = env.loaded[template] = env.get_template(template)  # type: ignore[attr-defined]
    text = loaded.render(fmt=key, **ctx)
    text = "\n".join(map(str.rstrip, text.splitlines()))
    if lang == "en":
        text = english_singulars(text)
    if "\n\n\n" in text:
        text = _BLANKS_RE.sub("\n\n", text)
    text = text.strip()
    return dialect.finish(text) if dialect.finish is not None else text


def render_capped(template: str, lang: str, fmt: str | Dialect, ctx: dict[str, Any]) -> str:
    """``template`` rendered in ``fmt``'s dialect within its length limit: first with the ledger's
    sources shortened, then without the details block, then cut safely."""
    dialect = dialect_for(fmt)
    text = _render_raw(template, lang, dialect, ctx)
    length = _length_over(dialect, text)
    if length is None:
        return text
    if ctx.get("assumptions"):
        short = [
            {
                **a,
                "source": _shorten(a["source"], SHORT_SOURCE_CHARS),
                "cite": _shorten(a["cite"], SHORT_SOURCE_CHARS) if a.get("cite") else "",
            }
            for a in ctx["assumptions"]
        ]
        if not _past_shortening(dialect, length, ctx["assumptions"], short):
            text = _render_raw(template, lang, dialect, {**ctx, "assumptions": short})
            if _fits(dialect, text):
                return text
    text = _render_raw(template, lang, dialect, {**ctx, "show_details": False})
    return dialect.truncate(text, dialect.limit) if dialect.truncate is not None else text[: dialect.limit]


def within_limit(text: str, fmt: str | Dialect) -> str:
    """``text`` (a reply rendered within the limit, then made longer: its Traditional form, s38) cut safely
    to ``fmt``'s dialect's length limit when it now runs over."""
    dialect = dialect_for(fmt)
    if _fits(dialect, text):
        return text
    return dialect.truncate(text, dialect.limit) if dialect.truncate is not None else text[: dialect.limit]


def _fits(dialect: Dialect, text: str) -> bool:
    """Whether ``text`` is within the dialect's length limit. Telegram's visible length (tags removed,
    entities decoded, UTF-16 units: ~11 µs a reply) is at most the text's own UTF-16 length, so a reply
    that short (most: a median of ~2,400 of 4,096) is within it without counting further."""
    return _length_over(dialect, text) is None


def _length_over(dialect: Dialect, text: str) -> int | None:
    """None when ``text`` is within the dialect's length limit (:func:`_fits`), else its length in the
    dialect's units (measured once: :func:`_past_shortening` reads it)."""
    if dialect.limit is None:
        return None
    if dialect.length is visible_length and len(text.encode("utf-16-le")) // 2 <= dialect.limit:
        return None  # removing tags and decoding entities only shortens a text
    length = dialect.length(text)
    return None if length <= dialect.limit else length


SHORTENING_SLACK = 2
"""Visible characters a shortened assumption may save beyond its source's and cite's own cut (UTF-16
units): the English singular rule (:func:`english_singulars`, ``'1 GPUs'`` → ``'1 GPU'``) can match once
more at each cut's end (``'… 1 GPUs…'``), one character each."""


def _past_shortening(dialect: Dialect, length: int, full: list[Any], short: list[Any]) -> bool:
    """Whether the reply with every source in full (``length``: its visible length, over the limit,
    measured once by :func:`_length_over`) stays over it with the sources and cites shortened, so that
    render is not made (s26: 19 of 1,000 corpus and working-split html replies rendered three times).
    Only for Telegram HTML (visible length, no finishing pass): each assumption's source and cite is
    shown at most once (``templates/_details.j2``, escaped: its visible text is its own), so shortening
    removes at most their UTF-16 lengths' difference + the :data:`SHORTENING_SLACK`; a reply longer
    than the limit by more than that cannot fit shortened."""
    if dialect.length is not visible_length or dialect.finish is not None or dialect.limit is None:
        return False
    saved = 0
    for a, s in zip(full, short, strict=True):
        for key in ("source", "cite"):
            before, after = a.get(key) or "", s.get(key) or ""
            if before != after:
                saved += _units(before) - _units(after) + SHORTENING_SLACK
    return length - saved > dialect.limit


def _units(text: str) -> int:
    """``text``'s length in UTF-16 code units (Telegram's count)."""
    return len(text.encode("utf-16-le")) // 2


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
