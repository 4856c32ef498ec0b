"""Core reads the parse once (issue 23 item 2): after :func:`bot.parse.parse` returned, the pipeline
and the conversation never call back into the parser (normalize, explicit_stage, reply_lang); the
stage word, follow-up cues and language come from the :class:`bot.parse.ParseResult`."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.core import conversation, followup, pipeline
from bot.core.conversation import Conversation
from estimator.models import Stage


def _no_callback(*_a, **_k):
    raise AssertionError("core called back into bot.parse after parse()")


@pytest.fixture
def no_callbacks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(followup, "normalize", _no_callback)
    monkeypatch.setattr(followup, "stage_word", _no_callback)
    monkeypatch.setattr(conversation, "reply_lang", _no_callback)


REGEX_CALLS = {"search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split"}
READ_BEFORE_PARSE = {("bot.core.configfile", "split_pasted")}
"""Core's regex reads that are not of the parsed message: a pasted config split off before the parse
(the parse reads the rest)."""
NOT_THE_MESSAGE = {("bot.core.followup", "sibling_model")}
"""… and one of a catalog model id ('Llama-3-8B' → 'Llama-3-70B')."""


def _core_caller(frame) -> tuple[str, str] | None:
    module = frame.f_globals.get("__name__", "")
    return (module, frame.f_code.co_name) if module.startswith("bot.core") else None


@pytest.fixture
def core_regex_reads():
    """Every regex call made from a bot.core function (a compiled pattern's method, ``re.search`` and
    the like, or a LazyPattern's), found with a profile hook: (module, function, method)."""
    seen: list[tuple[str, str, str]] = []

    def hook(frame, event, arg):
        if event == "c_call" and isinstance(getattr(arg, "__self__", None), re.Pattern):
            name, caller = arg.__name__, _core_caller(frame)
        elif event == "call" and frame.f_code.co_name in REGEX_CALLS and frame.f_back is not None:
            module = frame.f_globals.get("__name__", "")
            if module != "re" and not module.startswith("bot.parse.regex"):
                return
            name, caller = frame.f_code.co_name, _core_caller(frame.f_back)
        else:
            return
        if name in REGEX_CALLS and caller is not None and caller not in READ_BEFORE_PARSE | NOT_THE_MESSAGE:
            seen.append((*caller, name))

    sys.setprofile(hook)
    try:
        yield seen
    finally:
        sys.setprofile(None)


ONE_PASS_TALKS = [
    (  # another setup as an aside, then a count asked without the noun
        "A colleague trained a 7B QLoRA on 2 RTX 4090; I have 1 A100 80G and want to LoRA 14B on 100M tokens",
        "what about 8B then, how many do I need?",
    ),
    (
        "同事用 2 张 4090 跑 7B QLoRA，我手上有 1 张 A100 80G，想 LoRA 微调 14B，1 亿 token",
        "那 H100 呢，要几张卡？",
    ),
    (  # an earlier run on the same data, a finished run before the job
        "上次用 8 张 A100 训 7B 用了 3 天，这次 13B 同样 500 亿 token 要多久",
        "We pretrained a 1.3B model on 100B tokens with 32 A100s in 4 days. How long for 7B on 1T tokens "
        "with 256 H100s?",
    ),
]


@pytest.mark.parametrize(("first", "second"), ONE_PASS_TALKS)
def test_core_runs_no_regex_on_the_message(core_regex_reads, first: str, second: str) -> None:
    """Issue 23 item 2 (review s14 MEDIUM 6): asides, earlier runs and the bare 'how many do I need'
    were read by core from the message after the parse; they are parse post-steps now, and any regex
    core runs while answering fails this test (the hook sees C-level pattern calls too)."""
    conv = Conversation()
    conv.ask("telegram:1", "telegram:2", first)
    conv.ask("telegram:1", "telegram:2", second)
    assert core_regex_reads == []


def test_the_hook_sees_a_core_regex_read(core_regex_reads) -> None:
    """The fixture can fail: a regex core runs on text is caught (here the model-id one, not allowed
    when called from elsewhere in core)."""
    from bot.core import followup as core_followup

    core_followup._SIZE_IN_ID_RE.search("Llama-3-8B")  # from this test: not a core frame, not caught
    assert core_regex_reads == []
    exec(compile("import re\nre.search('x', 'y')", "core_probe", "exec"), {"__name__": "bot.core.probe"})
    assert core_regex_reads == [("bot.core.probe", "<module>", "search")]
    core_regex_reads.clear()


def test_the_pipeline_imports_no_parser_callback() -> None:
    for name in ("reply_lang", "explicit_stage", "normalize"):
        assert not hasattr(pipeline, name), name


@pytest.mark.usefixtures("no_callbacks")
def test_a_question_and_its_followups_read_the_parse_only() -> None:
    conv = Conversation()
    first = conv.ask("telegram:1", "telegram:2", "Llama-3-8B 15T tokens, 64 H100, how long?")
    assert first.answer.lang == "en" and first.request.stage == Stage.pretrain
    follow = conv.ask("telegram:1", "telegram:2", "那推理呢")  # the stage word comes from the parse
    assert follow.answer.followup and follow.request.stage == Stage.inference
    assert follow.answer.lang == "zh" and follow.request.model == first.request.model
    lost = pipeline.answer("那H100呢？")  # no question before: the follow-up cue of the parse
    assert pipeline.LOST_FOLLOWUP in lost.parsed.notes and lost.lang == "zh"
    fixed = pipeline.answer("那H100呢？", pipeline.Context(fixed_lang="en"))
    assert fixed.lang == "en"


def test_a_stage_followup_through_the_cli() -> None:
    """The stage word of a follow-up reached through the CLI: a lone '那推理呢' has no question to
    change and says so, in Chinese (the parse's language evidence)."""
    out = subprocess.run(
        [sys.executable, "-m", "bot", "ask", "--", "那推理呢"], capture_output=True, text=True, check=False
    ).stdout
    assert "不保留历史" in out  # fix1 item 4: `ask` keeps no history


@pytest.fixture
def plan_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """chosen_plan calls, wherever core, render and recipes import it."""
    import bot.core.answer
    import bot.recipes
    import bot.recipes.model
    import bot.recipes.training
    import bot.render.advice
    import bot.render.context
    from bot.core.chosen import chosen_plan

    seen: list[int] = []

    def counted(report):
        seen.append(1)
        return chosen_plan(report)

    modules = (bot.core.answer, bot.recipes, bot.recipes.model, bot.recipes.training, bot.render.advice)
    for module in (*modules, bot.render.context):
        monkeypatch.setattr(module, "chosen_plan", counted, raising=False)
    return seen


def test_chosen_plan_once_for_a_json_answer_with_recipes(capsys, plan_calls: list[int]) -> None:
    """The JSON answer's reply, recipes and actions share the Answer's one chosen layout (the training
    recipes chose it again before)."""
    from bot.cli import main

    main(["ask", "--format", "json", "--lang", "en", "Full fine-tune Qwen2.5-14B on 100M tokens with 8 H100"])
    data = json.loads(capsys.readouterr().out)
    tools = [r["tool"] for r in data["report"]["recipes"]]
    assert tools == ["llamafactory", "deepspeed", "deepspeed"]
    assert len(plan_calls) == 1


def test_actions_use_the_answers_plan(plan_calls: list[int]) -> None:
    from bot.core.actions import ActionKind, answer_actions

    a = pipeline.answer("Full fine-tune Qwen2.5-14B on 100M tokens with 8 H100")
    assert a.chosen_plan is not None  # the reply's layout (rendered first) ...
    rows = answer_actions(a)
    assert any(x.kind == ActionKind.RECIPE for row in rows for x in row)
    assert len(plan_calls) == 1  # ... is the one the 🧩 recipe action asks about


def test_the_node_shape_comes_from_the_report_not_the_catalog(monkeypatch: pytest.MonkeyPatch) -> None:
    """TPU v4 hosts hold 4 chips (gpus.toml): the reply's node count reads ``SizingReport.gpu_spec``
    (issue 23 item 2). With the catalog emptied after sizing, the reply still says 4-chip nodes (it
    fell back to 8-GPU nodes when render looked the card up again)."""
    from bot.render.renderer import render
    from estimator import catalog

    question = "serve DeepSeek-V3 on TPU v4"
    out = subprocess.run(
        [sys.executable, "-m", "bot", "ask", "--lang", "en", "--", question], capture_output=True, text=True
    ).stdout
    # bf16 since s7 fix item 4: TPU v4 has no FP8, so DeepSeek-V3's FP8 release is sized as bf16
    assert "48 × TPU v4 (12 × 4-GPU nodes, TP=4 × PP=12)" in out.splitlines()[0]
    a = pipeline.answer(question, pipeline.Context(fixed_lang="en"))
    assert a.report is not None and a.report.gpus_per_node == 4
    monkeypatch.setattr(catalog, "gpus", dict)
    assert "12 × 4-GPU nodes, TP=4 × PP=12" in render(a, "text").splitlines()[0]


RUNTIME_NAME_TEST = re.compile(
    r"""(?:==|!=)\s*["'](?:vLLM|SGLang|transformers|llama\.cpp)["']|in \(["'](?:vLLM|SGLang)"""
)
"""A runtime told by its name (issue 23 item 4: ask estimator.runtimes' object instead)."""


def test_render_recipes_and_core_ask_the_runtime_object() -> None:
    root = Path(__file__).resolve().parents[1] / "bot"
    found = [
        f"{path.relative_to(root)}:{n}"
        for sub in ("core", "recipes", "render")
        for path in sorted((root / sub).rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if RUNTIME_NAME_TEST.search(line)
    ]
    assert found == []


def _json(question: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "bot", "ask", "--format", "json", "--lang", "en", "--", question],
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out)


def test_each_runtimes_recipes_through_the_cli() -> None:
    """llama.cpp (a Mac) offers its own recipes; SGLang named comes first, with its memory fraction
    of the memory free at start-up (0.85 for Llama 3 70B on 4 H100, as before the runtime objects)."""
    mac = _json("serve Llama-3-8B on a M2 Ultra")["report"]
    assert mac["inference"]["runtime"] == "llama.cpp"
    assert [r["tool"] for r in mac["recipes"]] == ["llama.cpp", "ollama"]
    sg = _json("serve Llama-3-70B on 4 H100 with SGLang")["report"]
    assert [r["tool"] for r in sg["recipes"]] == ["sglang", "vllm"]
    assert "--mem-fraction-static 0.85" in sg["recipes"][0]["text"]
