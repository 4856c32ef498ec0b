"""Session 40 (s40-speed, issue 23 item 7): the pipeline's machinery in fewer Python frames, every answer
the same (bench/answers_dump.py all/same over 1,601 texts × 4 formats: 0 differ). Each fast path is
checked here against the slow one it replaces: the same objects, fields and numbers."""

from __future__ import annotations

from dataclasses import replace

import pytest
from jinja2 import Template
from pydantic import BaseModel

from bot.core.pipeline import answer
from bot.parse import parse
from bot.render import env as render_env
from bot.render.dialect import dialect_for
from estimator.catalog import gpu, model
from estimator.copying import model_copy
from estimator.models import DaysRow, Precision, SizingRequest
from estimator.runtimes import NO_LOAD, Load, runtime_for
from estimator.runtimes.memo import MemoRuntime


def _state(obj: object) -> dict[str, object]:
    """A context's attributes but its eval context, each dict and set copied (a render fills them)."""
    return {k: v.copy() if isinstance(v, dict | set) else v for k, v in vars(obj).items() if k != "eval_ctx"}


@pytest.mark.parametrize(("lang", "fmt"), [("en", "html"), ("zh", "plain"), ("en", "markdown")])
def test_a_reply_context_is_the_one_jinja_makes(lang: str, fmt: str) -> None:
    """ReplyTemplate.render sets the attributes Jinja's Template.new_context → runtime.new_context →
    Context.__init__ → EvalContext.__init__ set, with the same values (the parent: globals then the
    variables; blocks one list each)."""
    dialect = dialect_for(fmt)
    template = render_env.environment(lang, dialect).get_template("reply.j2")
    made: list[object] = []
    real_root = template.root_render_func

    def root(ctx):  # the context our render hands the compiled code, as it is handed
        made.append((ctx, _state(ctx), dict(vars(ctx.eval_ctx))))
        return real_root(ctx)

    variables = {"fmt": dialect.key, "kind": "none", "model": "Llama", "stage": "pretrain"}
    template.root_render_func = root
    try:
        ours = template.render(**variables)
    finally:
        template.root_render_func = real_root
    jinja = template.new_context(dict(variables))
    ((ctx, state, eval_state),) = made
    assert type(ctx) is type(jinja)
    assert list(state) == list(_state(jinja))  # every attribute, none more
    assert state == _state(jinja)
    assert eval_state == vars(jinja.eval_ctx)
    assert ours == Template.render(template, **variables)  # Jinja's own render: the same text


def test_a_template_is_looked_up_once_per_environment(monkeypatch) -> None:
    """_render_raw keeps each template by name on its environment (env.loaded): a fresh environment looks
    reply.j2 up once, then finds it; the environment of another language keeps its own."""
    render_env._environment.cache_clear()
    looked: list[str] = []
    real = render_env.ReplyEnvironment.get_template

    def spy(self, name, *args, **kwargs):
        looked.append(name)
        return real(self, name, *args, **kwargs)

    monkeypatch.setattr(render_env.ReplyEnvironment, "get_template", spy)
    a = answer("Serve Llama-3-70B, 100 concurrent, 8k context")
    try:
        from bot.render.renderer import render

        first, again = render(a, "html"), render(a, "html")
        assert looked == ["reply.j2"]
        env = render_env.environment(a.parsed.lang, dialect_for("html"))
        assert env.loaded["reply.j2"] is real(env, "reply.j2")  # the template get_template gives
    finally:
        render_env._environment.cache_clear()
    assert first == again


def _pydantic_copy(obj: BaseModel, update: dict | None = None) -> BaseModel:
    return BaseModel.model_copy(obj, update=update)


@pytest.mark.parametrize(
    "update",
    [None, {}, {"gpu_count": 4}, {"gpu_count": 4, "gpu": "A100-SXM4-80GB"}],
)
def test_a_request_copy_is_pydantics(update: dict | None) -> None:
    request = parse("LoRA 微调 Qwen2.5-7B，2 张 4090，要多久").request
    ours, theirs = model_copy(request, update=update), _pydantic_copy(request, update)
    assert type(ours) is SizingRequest
    assert ours.__dict__ == theirs.__dict__ and list(ours.__dict__) == list(theirs.__dict__)
    assert ours.model_fields_set == theirs.model_fields_set
    assert ours.__pydantic_extra__ is theirs.__pydantic_extra__ is None
    assert ours.__pydantic_private__ is theirs.__pydantic_private__ is None
    assert ours == theirs and hash(ours) == hash(theirs)
    assert ours.__dict__ is not request.__dict__ and ours.model_fields_set is not request.model_fields_set
    assert request.gpu_count == 2  # the original untouched
    assert ours.model_dump_json() == theirs.model_dump_json()


def test_the_frozen_models_and_the_parse_bind_the_fast_copy() -> None:
    parsed = parse("70B要几张卡？")
    assert type(parsed).model_copy is model_copy
    assert SizingRequest.model_copy is DaysRow.model_copy is model_copy
    copied = parsed.model_copy(update={"truncated": True})
    assert copied.truncated and not parsed.truncated and "truncated" in copied.model_fields_set
    assert copied.request is parsed.request  # shallow, as pydantic's
    assert copied.model_dump() == {**parsed.model_dump(), "truncated": True}


def test_a_deep_copy_goes_pydantics_way() -> None:
    parsed = parse("70B要几张卡？")
    deep = parsed.model_copy(update={"truncated": True}, deep=True)
    assert deep.truncated and deep.request == parsed.request and deep.request is not parsed.request


@pytest.mark.parametrize("named", [None, "SGLang", "transformers", "vLLM-v0"])
def test_the_serving_memo_answers_as_its_runtime(named: str | None) -> None:
    """MemoRuntime.workspace_bytes kept by (TP, load) as asked and room's workspace read in place: the same
    floats as the runtime's own, asked in any order, again, and on other PP stages (vLLM V1 and V0, whose
    key reads the context; SGLang, whose reserve reads PP; transformers, whose reads the whole load)."""
    spec, card = model("Llama-3.1-70B"), gpu("H100-SXM5-80GB")
    if named == "vLLM-v0":
        inner = replace(runtime_for(card, Precision.bf16), engine_v0=True)
    else:
        inner = runtime_for(card, Precision.bf16, named=named)
    assert named is None or named == "vLLM-v0" or inner.name == named
    memo = MemoRuntime(inner, spec, card)
    loads = [NO_LOAD, Load(context=8192), Load(context=8192, pp=2), Load(context=32768, batch=4)]
    for _ in range(2):
        for load in loads:
            for tp in (1, 2, 4, 8):
                assert memo.workspace_bytes(spec, card, tp, load) == inner.workspace_bytes(
                    spec, card, tp, load
                )
                for pp in (1, 2, 4):
                    want = inner.usable_bytes(card) - inner.workspace_bytes(spec, card, tp, load.with_pp(pp))
                    assert memo.room(spec, card, tp, load, pp) == want
                    assert memo.room(spec, card, tp, load, pp) == inner.room(spec, card, tp, load, pp)
