"""Issue 23 item 7, render stage: static includes inlined at load time and a direct ``a.b`` for plain
dicts (bot.render.env), checked through the real CLI and against Jinja's own behaviour. Speed never
changes an answer: the inlined templates render every corpus reply byte for byte as the includes do."""

from __future__ import annotations

import pytest
from jinja2 import Environment, FileSystemLoader, Template, Undefined, pass_context
from jinja2.runtime import Context as JinjaContext

from bot.core.pipeline import Context, answer
from bot.render import env as render_env
from bot.render.renderer import render
from tests.cli_run import CORPUS_QUESTIONS, ask_quietly

QUESTIONS = CORPUS_QUESTIONS
ask = ask_quietly


def test_a_reply_loads_only_its_own_template(monkeypatch):
    """One training reply (it used to include ~10 templates, each looked up and given a new context,
    and import the macros) now looks up reply.j2 alone: the includes, the stage name, the advice and the
    tools included in place of the old macros, are written out in place."""
    ask("--", "7B模型1万亿token要多少A100")  # warm: environments built
    looked_up: list[str] = []
    real = Environment.get_template

    def spy(self, name, *args, **kwargs):
        looked_up.append(str(name))
        return real(self, name, *args, **kwargs)

    monkeypatch.setattr(Environment, "get_template", spy)
    render_env._environment.cache_clear()  # s40-speed: a warm environment keeps its templates (env.loaded)
    try:
        out = ask("--", "7B模型1万亿token要多少A100")
    finally:
        render_env._environment.cache_clear()
    assert out.startswith("7B 预训练 1万亿 token ≈ 9.3万 A100·时")
    assert "卡数 → 天数（区间）：" in out  # the days table, from the inlined _days_table.j2
    assert looked_up == ["reply.j2"]
    looked_up.clear()
    ask("--", "7B模型1万亿token要多少A100")  # warm again: found in env.loaded, not looked up
    ask("--", "7B模型1万亿token要多少A100")
    assert looked_up == ["reply.j2"]  # once, by the first of the two (a fresh environment)


def test_the_inlined_source_keeps_each_included_file_in_its_own_scope():
    env = render_env.new_environment("plain")
    source, _name, uptodate = env.loader.get_source(env, "_memory.j2")
    assert '{% include "' not in source
    assert source.count("{% with %}\n") == source.count("{% endwith %}") == 3  # _extras, _plan, _alternatives
    assert uptodate()


@pytest.mark.parametrize("fmt", ["html", "text", "markdown"])
def test_inlined_templates_render_every_corpus_reply_as_the_includes_did(monkeypatch, fmt: str):
    answers = [answer(q, Context(fixed_lang=lang)) for q in QUESTIONS for lang in ("en", "zh")]
    inlined = [render(a, fmt) for a in answers]
    render_env._environment.cache_clear()
    monkeypatch.setattr(render_env, "InliningLoader", FileSystemLoader)
    try:
        included = [render(a, fmt) for a in answers]
    finally:
        render_env._environment.cache_clear()
    assert len(inlined) == 250
    assert sum("•" in text for text in inlined) > 200  # real replies, not help texts
    assert inlined == included


class Keyed(dict):
    fits = "an attribute"


@pytest.mark.parametrize(
    ("obj", "name"),
    [
        ({"gh": "93,483"}, "gh"),
        ({"gh": None}, "gh"),
        ({}, "gh"),
        ({"items": "a key"}, "items"),  # the method, as Jinja gives it
        ({"get": 1}, "get"),
        ({"__class__": 1}, "__class__"),
        (Keyed(fits="a key"), "fits"),  # a subclass: Jinja's way (its attribute)
        ("text", "upper"),
        (None, "gh"),
    ],
)
def test_a_dict_attribute_is_what_jinja_gives(obj, name: str):
    fast = render_env.new_environment("plain").getattr(obj, name)
    jinja = Environment().getattr(obj, name)
    if isinstance(jinja, Undefined):
        assert isinstance(fast, Undefined) and fast._undefined_name == name and fast._undefined_obj is obj
    else:
        assert fast == jinja
        assert type(fast) is type(jinja)


def test_a_reply_makes_one_jinja_context(monkeypatch):
    """With the includes inlined (the old macros too) a reply makes exactly one context."""
    ask("--", "Serve Llama-3-70B, 100 concurrent, 8k context")
    made: list[str] = []
    real = Template.new_context

    def spy(self, *args, **kwargs):
        made.append(self.name)
        return real(self, *args, **kwargs)

    real_render = render_env.ReplyTemplate.render

    def spy_render(self, *args, **kwargs):  # s40-speed: our render makes its context in place
        made.append(self.name)
        return real_render(self, *args, **kwargs)

    monkeypatch.setattr(Template, "new_context", spy)
    monkeypatch.setattr(render_env.ReplyTemplate, "render", spy_render)
    out = ask("--", "Serve Llama-3-70B, 100 concurrent, 8k context")
    assert "vLLM" in out  # the advice and the tools were written
    assert made == ["reply.j2"]  # ReplyTemplate.render's own context: no other one (an include's) made


def test_gettext_is_called_directly_and_no_context_is_derived(monkeypatch):
    """Our gettext reads only the eval context: a reply calls it ~30 times without Jinja's probing,
    and a call inside a loop no longer derives a context (a copy of every variable) to hand over."""
    ask("--", "7B模型1万亿token要多少A100")
    derived: list[str] = []
    jinja_calls: list[str] = []
    real_derived, real_call = JinjaContext.derived, JinjaContext.call

    def spy_derived(self, *args, **kwargs):
        derived.append(self.name)
        return real_derived(self, *args, **kwargs)

    def spy_call(self, obj, *args, **kwargs):
        jinja_calls.append(getattr(obj, "__name__", type(obj).__name__))
        return real_call(self, obj, *args, **kwargs)

    monkeypatch.setattr(JinjaContext, "derived", spy_derived)
    monkeypatch.setattr(JinjaContext, "call", spy_call)
    out = ask("--", "7B模型1万亿token要多少A100")
    assert "• 计算量：C = 6ND = 4.2×10²² FLOPs" in out
    assert derived == []
    assert "gettext" not in jinja_calls
    assert jinja_calls == []  # no macros either: the stage name, advice and tools are written in place


@pytest.mark.parametrize(
    "source",
    [
        "{% for x in [1, 2] %}{{ seen('x') }}{{ seen('y') }}{% endfor %}",
        "{% set y = 3 %}{% for x in [1, 2] %}{{ seen('y') }}{% endfor %}",
        "{% macro m(y) %}{{ seen('y') }}{% endmacro %}{{ m(4) }}{{ seen('z') }}",
    ],
)
def test_another_context_function_goes_jinjas_way(source: str):
    """Only the marked gettext skips Jinja's call: any other pass_context function gets what Jinja
    gives it (the same resolved names, a derived context where Jinja derives one)."""
    got: list[str] = []

    @pass_context
    def seen(context, name):
        got.append(type(context).__name__)
        return context.resolve(name)

    ours, jinja = render_env.new_environment("plain"), Environment()
    ours.globals["seen"] = jinja.globals["seen"] = seen
    assert ours.from_string(source).render(z=5) == jinja.from_string(source).render(z=5)
    assert set(got) == {"ReplyContext", "Context"}
