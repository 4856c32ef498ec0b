"""Session 33 (s33-sprender, issue 23 item 7, render): the reply templates' ``{% if %}`` tests read a
plain dict's missing key as ``False`` and ``a ~ b`` is joined in one frame (:mod:`bot.render.codegen`),
with the text Jinja's own code gives (tests/test_render_codegen.py renders every corpus reply both ways)."""

from __future__ import annotations

import pytest
from jinja2.runtime import Undefined, markup_join
from markupsafe import Markup

from bot.render import codegen
from bot.render import env as render_env
from bot.render.codegen import markup_concat, truth_getattrs
from bot.render.env import environment
from tests.test_render_codegen import FORMATS, _ctx, _stock_like


class Html:
    """Not a str, with ``__html__``: ``soft_str`` makes it ``str(obj)``, so it is escaped as text."""

    def __html__(self) -> str:
        return "<b>html</b>"

    def __str__(self) -> str:
        return "<str>"


class Safe(str):
    """A str with ``__html__`` that is no Markup: ``escape`` takes its ``__html__``."""

    def __html__(self) -> str:
        return "<safe>"


VALUES = [
    ("<a&>", "b"),
    ("<a&>", Markup("<b>")),
    (Markup("<b>"), "<a&>", 3, -0.0, None),
    (Undefined(name="u"), Markup("<i>")),
    (Html(), "x"),
    (Html(), Markup("<m>")),
    (Safe("<s>"), "<t>"),
    (),
    (1, 2.5),
]


@pytest.mark.parametrize("values", VALUES)
def test_markup_concat_is_jinjas_markup_join(values: tuple) -> None:
    ours, jinjas = markup_concat(values), markup_join(values)
    assert (type(ours), ours) == (type(jinjas), jinjas)


SNIPPETS = [
    # a missing key read for its truth: alone, in and/or/not, in elif; a dict attribute name, not dicts
    "{% if d.missing %}A{% elif d.a and not d.nope %}B{% endif %}|{% if d.missing or d.b %}C{% endif %}"
    "|{% if not (d.missing and d.a) %}D{% endif %}|{% if o.other %}E{% endif %}{% if n.a %}F{% endif %}"
    "|{% if d.items %}G{% endif %}{% if p.x %}H{% endif %}{% if d.nested.x %}I{% endif %}"
    "{% for r in rows %}{% if r.b %}[{{ r.b }}]{% elif not r.a %}none{% endif %}{% endfor %}",
    # where the value itself is read: a test, a comparison, a filter, output, a conditional expression
    "{% if d.missing is defined %}A{% else %}B{% endif %}|{% if d.missing == '' %}C{% endif %}"
    "|{% if d.missing|string %}D{% endif %}|{{ d.missing and d.a }}|{{ 'y' if d.missing else 'n' }}"
    "|{% if (d.missing or 'z')|length == 1 %}E{% endif %}",
    # a ~ b: str, Markup, int, float, None, undefined, set-block text, nested in a filter and a gettext
    "{{ m ~ t }}|{{ t ~ i }}|{{ d.missing ~ m }}|{{ i ~ f ~ none }}|{% set v %}<{{ t }}>{% endset %}"
    '{{ v ~ t ~ m }}|{{ (t ~ i)|b }}|{{ _("%(a)s", a=t ~ m) }}|{{ h ~ t }}|{{ h ~ m }}|{{ s2 ~ t }}'
    "{% autoescape false %}|{{ m ~ t }}{% endautoescape %}",
]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("snippet", SNIPPETS)
def test_truth_tests_and_joins_render_as_with_jinjas_code(snippet: str, lang: str, fmt: str) -> None:
    ours = environment(lang, fmt)
    ctx = {**_ctx(), "h": Html(), "s2": Safe("<s>")}
    assert ours.from_string(snippet).render(**ctx) == _stock_like(ours).from_string(snippet).render(**ctx)


def test_a_truth_test_on_a_missing_key_calls_no_getattr(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three frames a miss before (environment.getattr, Undefined's __init__ and __bool__): none now,
    while an object's attribute still goes through environment.getattr."""
    ours = environment("en", "html")
    template = ours.from_string("{% if d.missing or not d.nope %}A{% endif %}{% if o.label %}B{% endif %}")
    seen: list[str] = []
    real = render_env.ReplyEnvironment.getattr

    def spy(self: object, obj: object, attribute: str) -> object:
        seen.append(attribute)
        return real(self, obj, attribute)

    monkeypatch.setattr(render_env.ReplyEnvironment, "getattr", spy)
    assert template.render(**_ctx()) == "AB"
    assert seen == ["label"]


def test_only_truth_positions_are_collected() -> None:
    ast = environment("en", "html").parse(
        "{% if a.x and not (b.y or c.z) and d.w is defined and e.v == 1 and f.u|length %}{% endif %}"
    )
    test = ast.body[0].test
    assert sorted(n.attr for n in truth_getattrs(test)) == ["x", "y", "z"]


def test_the_reply_code_uses_both_shortcuts() -> None:
    ours = environment("en", "html")
    source = ours.loader.get_source(ours, "reply.j2")[0]
    code = ours.compile(source, "reply", "reply.j2", raw=True)
    assert "markup_concat((" in code and "markup_join((" not in code
    assert code.count("False if type(_g) is dict else environment.getattr") >= 100
    assert "visit_If" in codegen.HOOKS and "visit_Concat" in codegen.HOOKS


def test_plain_text_gettext_with_keywords_reads_the_kept_translation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Text replies: ``_("…", k=v)`` is the translation the lookup kept ``%`` the variables, with no
    lookup frame once the message was translated (~19 frames a text reply); the first call looks it up."""
    ours = environment("zh", "text")
    gettext = ours.globals["_"]
    template = ours.from_string('{{ _("Cost: %(low)s", low=t) }}|{{ _("Cost: %(low)s", low=i) }}')
    calls: list[str] = []
    real = codegen.DIRECT[gettext]

    def spy(autoescape: bool, message: str, variables: dict) -> str:
        calls.append(message)
        return real(autoescape, message, variables)

    monkeypatch.setitem(codegen.DIRECT, gettext, spy)
    codegen.LOOKED[gettext].pop("Cost: %(low)s", None)
    assert template.render(t="<t>", i=42) == "费用：<t>|费用：42"
    assert calls == ["Cost: %(low)s"]
    assert template.render(t="¥1", i=7) == "费用：¥1|费用：7"
    assert calls == ["Cost: %(low)s"]
