"""The templates' code written by :class:`bot.render.codegen.ReplyCodeGenerator` (session 12, issue 23
item 7) renders what Jinja's own code generator's code renders: every corpus answer in every dialect and
language, and made-up templates on each shortcut's edges (a dict without the key, a dict attribute name,
objects that are not dicts, Markup / str / int / None output, a gettext that is not ours, gettext in
loops, blocks and macros)."""

from __future__ import annotations

import json
import tomllib
from collections import namedtuple
from importlib.metadata import version
from pathlib import Path
from types import CodeType

import markupsafe
import pytest
from jinja2 import compiler as jinja_compiler
from jinja2 import pass_context
from jinja2.bccache import Bucket
from jinja2.compiler import CodeGenerator
from jinja2.runtime import Context
from markupsafe import Markup
from packaging.requirements import Requirement

from bot.core.pipeline import answer
from bot.render import codegen, html
from bot.render import env as render_env
from bot.render.codegen import CODEGEN_TAG
from bot.render.dialect import dialect_for
from bot.render.env import COMPILED_DIR, CompiledTemplates, ReplyEnvironment, environment, new_environment
from bot.render.i18n import templates_dir
from bot.render.renderer import render
from bot.settings.chat import ChatSettings

QUESTIONS = [q["text"] for q in json.loads((Path(__file__).parent / "data" / "questions.json").read_text())]
EXTRA = [
    "Pre-train a 7B model on 1T tokens: A100 vs H100 vs H800, which is cheapest?",
    "7B模型1万亿token预训练，A100和H100哪个便宜",
    "全量、LoRA、QLoRA分别要多少显存 7B A100",
    "hello",
    "",
]
FORMATS = ("html", "text", "markdown")


class _StockEnvironment(ReplyEnvironment):
    """Our environment with Jinja's own code generator and context (its ``call``: no fast path for our
    gettext nor for macros)."""

    code_generator_class = CodeGenerator
    context_class = Context


@pytest.fixture(scope="module")
def replies() -> dict[tuple[int, str, str], str]:
    """Every reply rendered with our code and with Jinja's, from the same answers."""
    settings = {lang: ChatSettings(lang=lang) for lang in ("en", "zh")}
    answers = [(answer(q, settings=settings[lang]), lang) for q in [*QUESTIONS, *EXTRA] for lang in settings]
    ours = {(i, lang, fmt): render(a, fmt) for i, (a, lang) in enumerate(answers) for fmt in FORMATS}
    saved = ReplyEnvironment.code_generator_class, CompiledTemplates.load_bytecode
    render_env._environment.cache_clear()
    try:
        ReplyEnvironment.code_generator_class = CodeGenerator  # type: ignore[misc]
        CompiledTemplates.load_bytecode = lambda self, bucket: None  # type: ignore[method-assign]
        stock = {(i, lang, fmt): render(a, fmt) for i, (a, lang) in enumerate(answers) for fmt in FORMATS}
    finally:
        ReplyEnvironment.code_generator_class, CompiledTemplates.load_bytecode = saved  # type: ignore[misc]
        render_env._environment.cache_clear()
    return {key: (ours[key], stock[key]) for key in ours}  # type: ignore[misc]


def test_every_corpus_reply_is_the_same_with_jinjas_code(replies: dict) -> None:
    differ = [key for key, (ours, stock) in replies.items() if ours != stock]
    assert len(replies) == len(FORMATS) * 2 * (len(QUESTIONS) + len(EXTRA))
    assert not differ, differ[:5]


def test_the_reply_template_uses_the_written_out_code() -> None:
    env = environment("en", "html")
    source, filename, _ = env.loader.get_source(env, "reply.j2")
    code = env.compile(source, "reply.j2", filename, raw=True)
    assert "_g[" in code and "_d(True, *_a)" in code  # the autoescape known when compiled
    assert "OUT.get(type(_e := " in code and "), escape)(_e)" in code
    assert "TAGS.get(t_" in code and "else identity)(" not in code
    stock = _stock_like(env).compile(source, "reply.j2", filename, raw=True)
    assert code.count("environment.getattr(") < stock.count("environment.getattr(") * 2  # one fallback each
    assert "_g[" not in stock


def test_a_nested_gettext_is_written_once() -> None:
    """Each ``_()`` call's arguments appear once in the code: a gettext in another's keyword wrote the
    inner call twice, four times one level down (reply.j2's html code was 2.8 times Jinja's, and the
    idle process past its 80 MiB budget, tests/test_warmup.py)."""
    env = environment("en", "html")
    nested = "{{ _('a %(x)s', x=_('b %(y)s', y=_('c %(z)s', z=t))) }}"
    code = env.compile(nested, raw=True)
    assert [code.count(f"'{m} %(") for m in "abc"] == [1, 1, 1]
    source, filename, _ = env.loader.get_source(env, "reply.j2")
    ours = env.compile(source, "reply.j2", filename, raw=True)
    assert len(ours) < 2 * len(_stock_like(env).compile(source, "reply.j2", filename, raw=True))


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_remembered_text_is_read_for_equal_plain_variables_only(fmt: str) -> None:
    """The written-out ``_()`` reads the text its gettext remembered (codegen.ALONE) for the same message
    and equal variables of the same plain types: 1 and True, 0.0 and -0.0, str and Markup are told apart."""
    ours = environment("en", fmt)
    stock = _stock_like(ours)
    snippet = '{% for v in vs %}{{ _("n %(v)s", v=v) }} {{ _("Formulas") }} {{ _("%(a)s", a=v|b) }};'
    snippet += "{% endfor %}"
    values = {"vs": [1, True, 1, 0.0, -0.0, -0.0, "<x>", Markup("<x>"), "<x>", None, None, 1]}
    for _ in range(2):
        assert ours.from_string(snippet).render(**values) == stock.from_string(snippet).render(**values)


def test_a_written_out_tag_filter_calls_a_filter_that_is_no_tag() -> None:
    """Code compiled where ``b`` is a tag filter, loaded where it is not (a derived dialect's own filter),
    calls that filter: the written-out tags are taken only for a :data:`bot.render.html.TAGS` filter."""
    env = environment("en", "html")
    code = env.compile("{{ t|b }}|{{ t|i }}")
    other = new_environment(dialect_for("html"))
    other.filters["b"] = lambda value: f"[{value}]"
    template = other.template_class.from_code(other, code, other.make_globals(None))
    assert template.render(t="<t>") == "[&lt;t&gt;]|<i>&lt;t&gt;</i>"  # its str output escaped
    assert env.from_string("{{ t|b }}").render(t="<t>") == "<b>&lt;t&gt;</b>"


def test_compiled_bytecode_is_keyed_by_the_code_generator(tmp_path: Path) -> None:
    cache = CompiledTemplates(tmp_path)
    plain = super(CompiledTemplates, cache).get_source_checksum("{{ x }}")
    assert cache.get_source_checksum("{{ x }}") != plain
    assert cache.get_source_checksum("{{ x }}") == super(CompiledTemplates, cache).get_source_checksum(
        "{{ x }}\0" + CODEGEN_TAG
    )


def _stock_like(env: ReplyEnvironment) -> _StockEnvironment:
    """An environment as ``env`` (options, filters, globals: the same gettext) with Jinja's code."""
    stock = _StockEnvironment(
        autoescape=env.autoescape,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
        **({"finalize": env.finalize} if env.finalize is not None else {}),
    )
    stock.policies["ext.i18n.trimmed"] = True
    stock.filters.update(env.filters)
    stock.globals.update(env.globals)
    return stock


Point = namedtuple("Point", "x y items")


class Obj:
    label = "attr <b>"
    items = "an attribute named items"

    def __getitem__(self, key: str) -> str:
        return f"item {key}"


SNIPPETS = [
    "{{ d.a }}|{{ d.b }}|{{ d.missing }}|{{ d.items is defined }}|{{ d.get is defined }}",
    "{{ d.a.x }}|{{ d.nested.x }}|{{ d.nested.x.y }}|{{ (d.nested or {}).x }}",
    "{{ p.x }}|{{ p.items }}|{{ o.label }}|{{ o.other }}|{{ o.items }}|{{ n.a }}|{{ s.upper }}",
    "{% for r in rows %}{{ r.a }}-{{ r.b }};{% endfor %}",
    "{{ m }}|{{ t }}|{{ i }}|{{ f }}|{{ none }}|{{ u }}|{{ m ~ t }}|{{ d.a|upper }}",
    '{{ _("Hello %(name)s", name=t) }}|{{ _("plain") }}|{{ gettext("x %(n)s", n=i) }}',
    '{% for r in rows %}{{ _("row %(a)s", a=r.a) }};{% endfor %}'
    '{% set v %}{{ _("in %(m)s", m=m) }}{% endset %}[{{ v }}]',
    '{% macro k(x, y="z") %}<{{ x.a }}{{ y }}{{ _("m %(q)s", q=x.b) }}>{% endmacro %}'
    "{{ k(d) }}{{ k(d, y=t) }}",
    '{% with q = d %}{{ q.a }}{{ _("w %(a)s", a=q.missing) }}{% endwith %}{% if d.a %}yes{% endif %}',
    "{{ _('%(a)s and %(b)s', a=m, b=i) }}{{ _('%(a)s', a=none) }}{{ _('odd %(x)s', x=f) }}",
    # a gettext in another's keyword (each argument tuple is taken before the next call's names)
    "{{ _('o %(a)s %(b)s', a=_('i %(c)s', c=_('j %(d)s', d=t)), b=_('k')) }}"
    '{% for r in rows %}{{ _("r %(a)s", a=_("s %(b)s", b=r.b)) }}{% endfor %}',
    # s32: a tag filter written in place (str, Markup, int, None, undefined, nested, in a gettext keyword),
    # set blocks and filter blocks made Markup (or kept) without Markup's or identity's frame
    "{{ t|b }}|{{ m|i }}|{{ i|b }}|{{ none|b }}|{{ u|b }}|{{ f|i }}|{{ t|b|i }}|{{ d.a|b ~ m|i }}"
    '{{ _("%(x)s: %(y)s", x=t|b, y=_("z")|i) }}{% for r in rows %}{{ r.b|b }}{{ r.a|i }};{% endfor %}',
    "{% set v %}<{{ t }}>{{ m }}{% endset %}{{ v }}|{{ v|b }}|{% set w %}{% endset %}[{{ w }}]"
    "{% filter b %}{{ t }}<raw>{% endfilter %}{% filter upper %}{{ m }}x{% endfilter %}"
    "{% set g | upper %}{{ t }}{% endset %}{{ g }}",
    # autoescape changed by a block: known when compiled, or only at run time (volatile)
    '{% autoescape false %}{{ _("a %(x)s", x=t) }}{{ _("Formulas") }}{{ t|b }}{% endautoescape %}'
    '{% autoescape i == 42 %}{{ _("a %(x)s", x=t) }}{{ _("Formulas") }}{{ t }}{% endautoescape %}'
    '{% autoescape i == 41 %}{{ _("a %(x)s", x=t) }}{% set z %}{{ t }}{% endset %}{{ z }}{% endautoescape %}',
]


def _ctx() -> dict:
    return {
        "d": {"a": "<a&>", "b": Markup("<b>ok</b>"), "items": "shadowed", "nested": {"x": 1.5}},
        "p": Point(1, 2, "pi"),
        "o": Obj(),
        "n": None,
        "s": "text",
        "rows": [{"a": 1, "b": "<x>"}, {"a": Markup("<i>m</i>")}, {}],
        "m": Markup("<em>safe</em>"),
        "t": "<t>",
        "i": 42,
        "f": -0.0,
        "none": None,
    }


def _foreign_gettext() -> object:
    @pass_context
    def gettext(context: object, message: str, **variables: object) -> str:
        return "«" + (message % variables if variables else message) + "»"

    return gettext


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("snippet", SNIPPETS)
def test_made_up_templates_render_as_with_jinjas_code(snippet: str, lang: str, fmt: str) -> None:
    ours = environment(lang, fmt)
    stock = _stock_like(ours)
    assert stock.globals["_"] is ours.globals["_"]  # the same gettext: ours (html, text) or Markdown's
    assert ours.from_string(snippet).render(**_ctx()) == stock.from_string(snippet).render(**_ctx())
    foreign = {"_": _foreign_gettext(), "gettext": _foreign_gettext()}  # not a remembered gettext
    assert ours.from_string(snippet).render(**_ctx(), **foreign) == stock.from_string(snippet).render(
        **_ctx(), **foreign
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_fresh_environment_compiles_every_template(fmt: str) -> None:
    env = new_environment(dialect_for(fmt), CompiledTemplates(Path("/nonexistent")))
    env.install_null_translations(newstyle=True)  # type: ignore[attr-defined]
    for name in env.list_templates(extensions=["j2"]):
        assert env.get_template(name) is not None


def _code_objects(code: CodeType) -> list[CodeType]:
    return [code, *(c for k in code.co_consts if isinstance(k, CodeType) for c in _code_objects(k))]


@pytest.mark.skipif(not (templates_dir() / COMPILED_DIR / "html").is_dir(), reason="no built templates")
def test_the_built_template_code_keeps_lines_not_columns() -> None:
    """hatch_build compiles the templates with ``-X no_debug_ranges``: line numbers (Jinja's template
    tracebacks) without column ranges (most of reply.j2's code-object memory)."""
    env = environment("en", "html")
    source, _, _ = env.loader.get_source(env, "reply.j2")
    cache = CompiledTemplates(templates_dir() / COMPILED_DIR / "html")
    bucket = Bucket(env, "reply.j2", cache.get_source_checksum(source))
    cache.load_bytecode(bucket)
    assert bucket.code is not None  # the build's bytecode is current
    positions = [p for c in _code_objects(bucket.code) for p in c.co_positions()]
    assert len(positions) > 1000 and any(line for line, *_ in positions)
    assert all(column is None for _, _, column, _ in positions)


def test_the_installed_jinja_and_markupsafe_are_within_the_pins() -> None:
    """The private hooks (codegen.py's, markupsafe's _escape_inner) were tested with these ranges only."""
    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["project"]
    pins = {r.name.lower(): r.specifier for r in map(Requirement, project["dependencies"])}
    assert str(pins["jinja2"]) in (">=3.1.6,<3.2", "<3.2,>=3.1.6")
    assert str(pins["markupsafe"]) in (">=3.0,<3.1", "<3.1,>=3.0")
    for name in ("jinja2", "markupsafe"):
        assert pins[name].contains(version(name)), (name, version(name))
    assert codegen.hooks_present() and html.escape_str is markupsafe._escape_inner  # the fast paths in use


def test_missing_private_hooks_fall_back_to_the_public_api(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(CodeGenerator, "_output_child_pre")
    assert not codegen.hooks_present()
    monkeypatch.undo()
    monkeypatch.delattr(jinja_compiler, "optimizeconst")
    assert not codegen.hooks_present()
    monkeypatch.delattr(markupsafe, "_escape_inner")
    assert html.str_escape() is markupsafe.escape  # markupsafe 2.x


def test_the_fallbacks_render_every_reply_byte_identically(monkeypatch: pytest.MonkeyPatch) -> None:
    """Jinja's code generator and markupsafe's public escape (what a version without the private names
    gets) render the very text of the fast paths, in every dialect and language."""
    settings = {lang: ChatSettings(lang=lang) for lang in ("en", "zh")}
    answers = [answer(q, settings=settings[lang]) for q in [*QUESTIONS, *EXTRA] for lang in settings]
    fast = [render(a, fmt) for a in answers for fmt in FORMATS]
    monkeypatch.setattr(html, "escape_str", markupsafe.escape)  # str_escape() without _escape_inner
    monkeypatch.setattr(render_env, "escape_str", html.escape_str)
    monkeypatch.setattr(ReplyEnvironment, "code_generator_class", CodeGenerator)  # as CODE_GENERATOR then
    monkeypatch.setattr(CompiledTemplates, "load_bytecode", lambda self, bucket: None)
    render_env._environment.cache_clear()
    try:
        public = [render(a, fmt) for a in answers for fmt in FORMATS]
    finally:
        render_env._environment.cache_clear()
    assert len(public) == len(fast) > 100
    assert public == fast


def test_the_one_read_load_is_jinjas_load(tmp_path: Path) -> None:
    """CompiledTemplates reads a template's code in one read: the code Jinja's own ``Bucket.load_bytecode``
    reads from the same file; a file for another source (its checksum) or a damaged one leaves the bucket
    empty, so the template is compiled afresh."""
    env = new_environment(dialect_for("markdown"), CompiledTemplates(Path("/nonexistent")))
    env.install_null_translations(newstyle=True)  # type: ignore[attr-defined]
    source, _, _ = env.loader.get_source(env, "reply.j2")
    cache = CompiledTemplates(tmp_path, writable=True)
    written = Bucket(env, "reply.j2", cache.get_source_checksum(source))
    written.code = env.compile(source, "reply.j2", "reply.j2")
    cache.dump_bytecode(written)
    ours, jinjas = (Bucket(env, "reply.j2", written.checksum) for _ in range(2))
    cache.load_bytecode(ours)
    with (tmp_path / "reply.j2.cache").open("rb") as fh:
        jinjas.load_bytecode(fh)
    assert ours.code is not None and ours.code == jinjas.code == written.code
    stale = Bucket(env, "reply.j2", cache.get_source_checksum(source + " "))
    cache.load_bytecode(stale)
    assert stale.code is None
    (tmp_path / "reply.j2.cache").write_bytes((tmp_path / "reply.j2.cache").read_bytes()[:5000])
    damaged = Bucket(env, "reply.j2", written.checksum)
    cache.load_bytecode(damaged)
    assert damaged.code is None


# Session 26 (part s26-spstart): plain text and Telegram HTML replies render in environments without
# Jinja's i18n extension (bot.render.env.new_environment, i18n=False): the same code, the same gettext.

I18N_ONLY = ("{% trans", "{%- trans", "pluralize", "ngettext", "pgettext")
"""What only the i18n extension (or its installed globals) would give a template."""


def test_no_template_needs_the_i18n_extension() -> None:
    sources = {p.name: p.read_text(encoding="utf-8") for p in Path(templates_dir()).glob("*.j2")}
    assert len(sources) > 10
    assert [(name, w) for name, text in sources.items() for w in I18N_ONLY if w in text] == []


@pytest.mark.parametrize("fmt", ("html", "text"))
def test_templates_compile_to_the_same_code_without_the_extension(fmt: str) -> None:
    nowhere = CompiledTemplates(Path("/nonexistent"))
    with_ext, without = (new_environment(dialect_for(fmt), nowhere, i18n=flag) for flag in (True, False))
    assert "jinja2.ext.InternationalizationExtension" in with_ext.extensions and not without.extensions
    for name in with_ext.list_templates(extensions=["j2"]):
        source, _, _ = with_ext.loader.get_source(with_ext, name)
        assert with_ext.compile(source, name, raw=True) == without.compile(source, name, raw=True), name
    assert not environment("en", fmt).extensions and environment("en", "markdown").extensions
