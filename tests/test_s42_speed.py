"""Issue 23 item 7, ``sizing-bot ask`` start-up (session 42, s42-speed).

- 35 modules a plain question runs nothing of are imported on their first call (``estimator.later.later``
  stand-ins: in ``bot.later_names`` for the parse and render readers, beside the caller in
  ``bot.core.pipeline``, ``estimator.serving`` and ``estimator.inference``, or an import at the call site):
  a plain training question in either language imports none of them, and the questions that need one
  load it and are answered as before (answers byte-identical over the corpus: bench/answers_dump.py).
- The schema store reads a field's declaration slots with one ``attrgetter`` call: the same values as
  one ``getattr`` a slot (so the same declaration text is compared with the stored one).
- The catalog's name keys come from a bound ``Pattern.sub``: the same keys as ``re.sub``.
- ``bench/latency.py`` times the ``sizing-bot`` beside its interpreter (not pyenv's shim first on PATH).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from estimator.later import Later
from tests.startup_probe import ask_loaded

ROOT = Path(__file__).resolve().parents[1]

S42_DEFERRED = (
    "estimator.serving_verdict", "bot.core.offer_sizing", "bot.core.ttft_bind", "bot.core.budget_lead",
    "bot.parse.configs.prose_stage", "bot.parse.configs.launch_line", "bot.parse.configs.megatron_shape",
    "estimator.context_window", "estimator.exl2_weights", "bot.core.unused_local",
    "bot.render.budget_pick_text", "bot.render.calendar_text", "bot.parse.active_name",
    "bot.parse.called_card", "bot.parse.notebook_gpus", "bot.parse.card_variants",
    "bot.parse.reasoning_words", "bot.parse.rounded_context", "bot.parse.per_million",
    "bot.render.steps_text", "bot.parse.family_version", "bot.render.fp16_cards",
    "bot.render.serving_memory_first", "bot.parse.now_rate", "bot.parse.script_reads",
    "bot.parse.shared_value", "bot.parse.transformers_version", "bot.parse.card_slots",
    "bot.parse.load_change", "bot.parse.gpu_kinds", "bot.parse.port_names", "bot.parse.slash_memory",
    "bot.parse.served_adapters", "bot.parse.network_ports", "bot.parse.asked_precision",
)  # fmt: skip


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("7B模型1万亿token要多少A100", "A100"),
        ("How many A100 to pretrain a 7B model on 1T tokens?", "A100"),
    ],
    ids=["zh", "en"],
)
def test_a_plain_training_question_imports_none_of_them(question: str, said: str) -> None:
    reply, loaded = ask_loaded(S42_DEFERRED, question)
    assert said in reply and loaded == []


@pytest.mark.parametrize(
    ("question", "needed", "said"),
    [
        # a serving answer: the serving verdict (estimator.serving's stand-ins)
        ("serve Llama-3-70B on 4 H100 with vLLM, 32 users", "estimator.serving_verdict", "TP=4"),
        # an EXL2 release: its bits per weight (estimator.inference's stand-ins)
        ("serve Llama-3-70B exl2 4.0bpw on 2 RTX 4090", "estimator.exl2_weights", "ExLlama"),
        # a free notebook's card (bot.parse.normalize's stand-in, behind its 'colab' cue)
        ("free colab t4 能跑 Qwen2.5-7B 推理吗", "bot.parse.notebook_gpus", "T4"),
        # '推理' as a reasoning model's word (bot.parse.words' stand-in, behind its cue): still pre-training
        ("训练一个推理模型，7B，1万亿token，要多少A100", "bot.parse.reasoning_words", "预训练"),
        # a stated length past the model's window notes it (estimator.ledger's import at its call)
        ("Llama 3 8B 全参微调 seq len 32k 需要多少 H100", "estimator.context_window", "32,768"),
    ],
    ids=["serving-en", "exl2-en", "colab-zh", "reasoning-zh", "window-zh"],
)
def test_a_question_that_needs_one_loads_it_and_is_answered(question: str, needed: str, said: str) -> None:
    reply, loaded = ask_loaded((needed,), question)
    assert said in reply and loaded == [needed]


CALLERS_STAND_INS = {
    "bot.core.pipeline": {
        "bot.core.ttft_bind": ("ttft_bound",),
        "bot.core.budget_lead": ("budget_led",),
        "bot.parse.configs.prose_stage": ("training_prose",),
        "bot.core.offer_sizing": ("offer_gpu", "offer_terms_for", "offered_instead"),
    },
    "estimator.serving": {
        "estimator.serving_verdict": (
            "at_stated_share", "refused_to_start", "runtime_edges", "serving_need", "serving_verdict"
        ),
        "estimator.active_users": ("active_sequences",), "estimator.kv_types": ("one_byte_kv",),
        "estimator.load_cost": ("with_load_cost",),
        "estimator.serving_group": ("attention_tp", "dp_engine_ranks", "stated_group"),
    },
    "estimator.inference": {
        "estimator.exl2_weights": ("exl2_name", "exl2_weight_bytes"), "estimator.kv_types": ("kv_pair",),
    },
    # s48-startup
    "estimator.plan": {"estimator.least_memory": ("least_memory_plan",)},
    "estimator.rollout": {"estimator.trainer_decode": ("generate_speed", "generates_in_trainer")},
    "estimator.training_setup": {"estimator.trainer_decode": ("generates_in_trainer",)},
    "bot.parse.normalize": {"bot.parse.sci_numbers": ("sci_plus",)},
    # s50-startup
    "bot.parse.more_roles": {
        "bot.parse.long_context": ("long_context_length",), "bot.parse.doc_length": ("document_length",),
        "bot.parse.too_long": ("request_length",),
    },
    "bot.parse.users_load": {"bot.parse.load_range": ("upper_load",)},
    "bot.parse.side_phrases": {"bot.parse.slot_words": ("slots_as_flag",)},
    "bot.parse.asked_count": {"bot.parse.others_run": ("others_at", "others_cue")},
    "bot.parse.field_steps": {"bot.parse.others_run": ("others_at", "others_cue")},
    "bot.parse.configs.rl_handlers": {"bot.parse.configs.demo_datasets": ("dataset_paths", "demo_samples")},
    "bot.render.serving_text": {
        "bot.render.fp8_swap": ("fp8_swap", "fp8_unswapped"), "bot.render.sized_split": ("sized_split",),
    },
}  # fmt: skip
"""The stand-ins made beside their callers (bot.later_names' own are checked by tests/test_startup_s30.py)."""


def test_the_callers_stand_ins_name_functions_of_their_modules() -> None:
    for caller, table in CALLERS_STAND_INS.items():
        space = vars(importlib.import_module(caller))
        for module, names in table.items():
            for name in names:
                real = getattr(importlib.import_module(module), name)
                assert inspect.isfunction(real) and real.__module__ == module, (module, name)
                got = space[name]  # a stand-in, or the real function once called in this process
                assert got is real or (isinstance(got, Later) and (got.module, got.name) == (module, name))


def _per_slot(info: object) -> list[object]:
    from estimator import _schema_store as store

    return [getattr(info, slot, None) for slot in store._FIELD_SLOTS]


def test_a_field_s_slots_are_those_read_one_at_a_time() -> None:
    from bot.parse.result import ParseResult
    from estimator import _schema_store as store
    from estimator.models import SizingReport, SizingRequest

    fields = [
        info for model in (SizingRequest, SizingReport, ParseResult) for info in model.model_fields.values()
    ]
    assert len(fields) > 100
    for info in fields:
        want = _per_slot(info)
        factory = want[2]
        if factory is not None and hasattr(factory, "__qualname__"):
            want[2] = f"{factory.__module__}:{factory.__qualname__}"
        assert store._field_values(info) == want
    # an object lacking a slot: None for it, as getattr(..., None) gave
    partial = SimpleNamespace(annotation=int, default=3)
    got = store._field_values(partial)
    assert got[:2] == [int, 3] and got[2:] == [None] * (len(store._FIELD_SLOTS) - 2)


def test_the_catalog_name_keys_are_re_sub_s() -> None:
    from estimator import catalog

    names = [n for g in catalog.gpus().values() for n in (g.family, g.id, g.name, *g.aliases)]
    names += ["RTX 4090", "H100-SXM5", "a_b  -c", "A100\u3000PCIe", "\tMI300X\n"]  # U+3000: \s in both
    assert len(names) > 300
    for name in names:
        assert catalog._name_key(name) == re.sub(r"[\s\-_]+", "", name).lower()
    assert catalog._name_key("A100\u3000PCIe") == "a100pcie"


def test_latency_times_the_interpreter_s_own_sizing_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location("bench_latency_s42", ROOT / "bench" / "latency.py")
    latency = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(latency)  # type: ignore[union-attr]
    python = tmp_path / "python"
    own = tmp_path / "sizing-bot"
    own.write_text("#!/bin/sh\n")
    own.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(python))
    assert latency._ask_command() == [str(own)]
    own.chmod(0o644)  # not executable: PATH's, else python -m bot
    monkeypatch.setenv("PATH", str(tmp_path / "none"))
    assert latency._ask_command() == [str(python), "-m", "bot"]
