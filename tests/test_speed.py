"""Issue 23 item 7, speed without a different answer (part S5-speed): the layout search keeps whole
breakdowns per layout (:attr:`estimator.memory.SearchMemo.full`) and drops a layout whose states,
buckets, kept activations and CUDA context already pass the limit; the shell breakdown and
``least_memory_plan`` share the search's memo; ``sizing-bot ask`` builds no schema of a model it does
not use, does not import ``tomllib`` and pauses the garbage collector. The byte-identical answers over
the corpus are checked by ``bench/compare.py`` (bench/RESULTS.md); here, what the callers rely on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import estimator.memory as memory
from bot.cli import main
from estimator import catalog, model_states
from estimator.memory import SearchMemo, breakdown, breakdown_within
from estimator.models import Method
from estimator.plan import _SHELL_PLAN, HEADROOM, _layouts, least_memory_plan, training_memory
from estimator.setup import TrainingSetup

ROOT = Path(__file__).resolve().parents[1]

CASES = [
    ("Llama-2-70B", "H100-SXM5-80GB", TrainingSetup(seq_len=4096)),
    ("Llama-2-7B", "A100-SXM4-40GB", TrainingSetup(seq_len=4096, zero_stage=1)),
    ("Qwen2.5-72B", "A100-SXM4-80GB", TrainingSetup(method=Method.lora, seq_len=8192)),
    ("Mixtral-8x7B", "H100-SXM5-80GB", TrainingSetup(micro_batch=2)),
]


@pytest.mark.parametrize(("model", "gpu", "setup"), CASES)
def test_a_remembered_or_dropped_layout_is_what_a_fresh_breakdown_says(model, gpu, setup) -> None:
    """Asked twice (the second answer from the memo), at the card and at the comfortable 90 %: None
    only when the fresh breakdown is above the limit, else the same parts in the same order."""
    spec, card = catalog.model(model), catalog.gpu(gpu)
    memo = SearchMemo()
    seen = dropped = remembered = 0
    for limit in (card.addressable_bytes, card.addressable_bytes * HEADROOM):
        for gpus in (1, 8, 64, 512):
            for plan in _layouts(spec, card, gpus, setup):
                full = breakdown(spec, spec.params_total, setup, plan)
                for _ in range(2):
                    remembered += plan in memo.full
                    within = breakdown_within(spec, spec.params_total, setup, plan, limit, memo)
                    seen += 1
                    if within is None:
                        dropped += 1
                        assert sum(full.values()) > limit, plan
                    else:
                        assert within == full and list(within) == list(full), plan  # to the last bit
    assert seen > dropped > 0 and remembered > 0


def test_a_layout_above_the_limit_by_its_activations_skips_the_other_transients(monkeypatch) -> None:
    """Llama-2-70B on 32 × H100, ZeRO-3, selective recompute, no TP: 32.1 GiB of states fit a card,
    the 85 GiB of kept activations (4K tokens, 80 layers) do not."""
    spec, card = catalog.model("Llama-2-70B"), catalog.gpu("H100-SXM5-80GB")
    setup = TrainingSetup(seq_len=4096)
    calls = []
    monkeypatch.setattr(memory, "_with_transients", lambda *a, **k: calls.append(a) or {})
    plan = next(
        p
        for p in _layouts(spec, card, 32, setup)
        if (p.tp, p.pp, p.zero_stage, p.recompute) == (1, 1, 3, "selective")
    )
    states = sum(model_states.state_parts(spec, spec.params_total, setup, plan).values())
    assert round(states / 2**30, 1) == 32.1 and states < card.addressable_bytes
    assert (
        breakdown_within(spec, spec.params_total, setup, plan, card.addressable_bytes, SearchMemo()) is None
    )
    assert calls == []


def test_least_memory_plan_is_the_same_with_the_search_memo() -> None:
    spec, card = catalog.model("Llama-2-70B"), catalog.gpu("A100-SXM4-40GB")
    setup = TrainingSetup(seq_len=4096, zero_stage=2)
    memo = SearchMemo()
    alone = least_memory_plan(spec, spec.params_total, card, 16, setup)
    shared = least_memory_plan(spec, spec.params_total, card, 16, setup, memo)
    again = least_memory_plan(spec, spec.params_total, card, 16, setup, memo)
    assert alone is not None and alone == shared == again
    assert sum(alone[1].values()) > card.addressable_bytes  # ZeRO-2 on 16 × 40G does not fit


def test_training_memory_gives_the_published_figures_for_llama_2_70b_on_h100() -> None:
    """The values the bench case 'train Llama-2-70B, 2T tokens, 1024 × H100' answers with."""
    spec, card = catalog.model("Llama-2-70B"), catalog.gpu("H100-SXM5-80GB")
    mem = training_memory(spec, spec.params_total, card, TrainingSetup(seq_len=4096), requested_gpus=1024)
    assert mem.min_gpus is not None and mem.fits_requested is True
    assert mem.plan_gpus == 1024 and mem.plan is not None
    assert mem.per_gpu_bytes == sum(mem.breakdown.values()) <= card.addressable_bytes
    # the shell's states as summed (s25 acts2: its breakdown's 'gradients' are what the one-GPU ZeRO-0 peak
    # holds, estimator.late_gradients — fewer, so state_bytes of the breakdown is no longer the states)
    assert mem.total_bytes == sum(
        model_states.state_parts(spec, spec.params_total, TrainingSetup(seq_len=4096), _SHELL_PLAN).values()
    )


def _probe(code: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SIZING_BOT_", "TELEGRAM_", "FEISHU_"))}
    done = subprocess.run(
        [sys.executable, "-c", code], env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_ask_builds_no_schema_of_the_offer_and_does_not_import_tomllib() -> None:
    """Without a pre-sales file the answer has no offer: its six models stay unbuilt (each pydantic
    schema costs start-up); the catalogs come compiled, so no TOML parser either."""
    code = (
        "import sys, io, contextlib; from bot.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()): main(['ask', '7B模型1万亿token要多少A100'])\n"
        "import bot.core.offer as o, bot.recipes.model as r\n"
        "models = (o.Offer, o.Pricing, o.Term, o.Exchange, o.Discount, o.Monthly, r.Recipe)\n"
        "built = [c.__name__ for c in models if c.__pydantic_complete__]\n"
        "print(json.dumps([built, 'tomllib' in sys.modules]))"
    )
    built, toml = json.loads(_probe("import json\n" + code))
    assert built == [] and toml is False


def test_deferred_models_validate_as_before_through_the_cli(capsys) -> None:
    """A deferred model validates as before once it is used: the JSON answer through the CLI."""
    assert main(["ask", "--format", "json", "Llama-2-70B 2T tokens on 1024 H100"]) == 0
    report = json.loads(capsys.readouterr().out)["report"]
    assert report["memory"]["plan_gpus"] == 1024 and report["memory"]["min_gpus"] <= 1024


def test_ask_pauses_the_garbage_collector_and_gives_it_back(capsys, monkeypatch) -> None:
    """The collector is off while ``ask`` answers (start-up: ~120 collections of the first answer's
    long-lived objects) and on again after, for a process that goes on (tests, a REPL)."""
    import gc

    import bot.core.pipeline as pipeline

    seen = []
    real = pipeline.answer
    monkeypatch.setattr(pipeline, "answer", lambda *a, **k: seen.append(gc.isenabled()) or real(*a, **k))
    assert gc.isenabled()
    assert main(["ask", "7B模型1万亿token要多少A100"]) == 0
    assert seen == [False] and gc.isenabled()
    assert "A100" in capsys.readouterr().out


@pytest.mark.parametrize("autoescape", [True, False])
def test_remembered_gettext_gives_what_jinjas_gettext_gives(autoescape) -> None:
    """Against ``jinja2.ext._make_new_gettext`` (what the environment installed before), each call
    twice (the second from memory): escaping, Markup kept, and values whose text is not a function of
    their value and type (-0.0, True) never remembered under a key that would confuse them."""
    from jinja2 import Environment
    from jinja2.ext import _make_new_gettext
    from markupsafe import Markup

    from bot.render.env import remembered_gettext

    catalog = {"%(gpu)s × %(n)s": "%(n)s 张 %(gpu)s", "plain": "纯文本"}
    translate = lambda s: catalog.get(s, s)  # noqa: E731
    env = Environment(autoescape=autoescape, extensions=["jinja2.ext.i18n"])
    theirs, ours = {}, {}
    for name, fn in (("theirs", _make_new_gettext(translate)), ("ours", remembered_gettext(translate))):
        env.globals["gettext"] = fn
        out = theirs if name == "theirs" else ours
        template = env.from_string(
            "{{ _('%(gpu)s × %(n)s', gpu=gpu, n=n) }}|{{ _('plain') }}|"
            "{{ _('%(gpu)s × %(n)s', gpu=gpu, n=n) }}"
        )
        for gpu, n in [
            ("<b>A100</b>", 8),
            (Markup("<i>H100</i>"), 2),
            ("A&B", 0.0),
            ("A&B", -0.0),
            ("x", 1),
            ("x", True),
        ]:
            out[(str(gpu), type(gpu), repr(n))] = [template.render(gpu=gpu, n=n) for _ in range(2)]
    assert ours == theirs
    assert ("&lt;b&gt;" in theirs[("<b>A100</b>", str, "8")][0]) is autoescape
    assert theirs[("A&B", str, "-0.0")][0] != theirs[("A&B", str, "0.0")][0]
    assert theirs[("x", str, "True")][0] != theirs[("x", str, "1")][0]


def test_an_html_answer_echoing_markup_is_escaped_the_same_each_time(capsys) -> None:
    question = "<b>Llama-2-7B</b> 1T tokens on 64 A100 80G & more"
    outs = []
    for _ in range(2):
        assert main(["ask", "--format", "html", question]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1] and "<b>Llama" not in outs[0]
