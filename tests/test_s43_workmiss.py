"""Session 43, part workmiss: the working splits' misses of rounds 1–38 (issue 24 items 2 and 4).

1. Reader (bot.parse.echoed_values): another run's value of a setting, said the way the value used was said
   but without the setting's word — 'at concurrency 4 … at 64', 'on 1 GPU … on 4', '一阶段 5 小时、二阶段 20
   小时' — is named as that setting's value of another setup, never left unread; a concurrency or a GPU count
   so named gets its row in ``report.per_value``.
2. Scorer (tests/real_questions.py): model sizes listed get a row each (params_total in ROW_KEYS, as the
   answer has given since s39); a list given rows, with another value said apart and named, is understood;
   global batches, methods and hours of two setups are each used or named (EACH_NAMED).
"""

from __future__ import annotations

import json

import pytest

from tests.real_questions import score


def _answer(question: str) -> dict:
    from bot.cli import ask

    return json.loads(ask(question, None, "json")[0])


def _named(answer: dict) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]]


def _rows(answer: dict, setting: str) -> list[float]:
    return [
        r["value"] for r in (answer.get("report") or {}).get("per_value") or [] if r["setting"] == setting
    ]


# 1. the reader: must read ------------------------------------------------------------------------------


def test_concurrency_said_again_after_at_gets_a_row() -> None:
    """en37-039's form: 'at concurrency 8 … at 32' — the 32 is the other run's concurrency: a row each."""
    a = _answer(
        "Serving Llama-3.1-8B on one H100 with vLLM: 900 tok/s at concurrency 8 and 2,100 at 32. "
        "What concurrency should it serve?"
    )
    assert a["request"]["concurrency"] == 8
    assert a["request"]["values_listed"] == [32]
    assert _rows(a, "concurrency") == [8, 32]


def test_gpu_count_said_again_after_on_gets_a_row() -> None:
    """en37-010's form: '3 hours on 1 GPU … 50 minutes on 4' — 4 GPUs of the other run: a row each."""
    a = _answer(
        "Fine-tuning Qwen2.5-7B with LoRA took 3 hours on 1 GPU of an A100 server and 50 minutes on 4. "
        "Is that scaling normal?"
    )
    assert a["request"]["gpu_count"] == 1
    assert _rows(a, "gpu_count") == [1, 4]
    assert ("4", "unread") not in _named(a)


@pytest.mark.parametrize(
    "question",
    [
        "Fine-tuning Qwen2.5-7B with LoRA on one A100 took 6 hours for stage 1 and 14 hours for stage 2. "
        "Can it be faster?",
        "在 A100 上微调 Qwen2.5-7B，一阶段大概 6 小时、二阶段 14 小时，能更快吗？",
    ],
)
def test_second_duration_with_its_unit_is_another_runs_hours(question: str) -> None:
    """zh38-031's form in both languages: the first duration is the run's known hours, the second (its
    unit written after it, as the first's is) another stage's, named — not 'unread'."""
    a = _answer(question)
    assert a["request"]["hours"] == 6
    assert ("hours: 14", "other_setup") in _named(a)
    assert ("14", "unread") not in _named(a)


# 1. the reader: must not misread -----------------------------------------------------------------------


def test_a_number_after_at_with_a_unit_is_no_concurrency() -> None:
    """'at concurrency 8 … at 350 W': a power draw, its unit after it, is no second concurrency."""
    a = _answer(
        "Serving Llama-3.1-8B with vLLM at concurrency 8 on one RTX 4090 at 350 W: "
        "is 40 tok/s per user right?"
    )
    assert a["request"]["concurrency"] == 8
    assert not any(t.startswith("concurrency:") for t, _ in _named(a))
    assert _rows(a, "concurrency") == []


def test_nodes_after_on_are_no_bare_gpu_count() -> None:
    """'on 1 GPU … on 2 nodes': a count with its own word after it is not the bare form of the rule."""
    a = _answer("Fine-tuning Qwen2.5-7B with LoRA on 1 GPU took 3 hours; on 2 nodes it took 1. Why?")
    assert not any(t.startswith("gpu_count:") for t, _ in _named(a))


@pytest.mark.parametrize(
    ("question", "other"),
    [
        ("在 A100 上微调 Qwen2.5-7B 用了 6 小时，batch 20，能更快吗？", "20"),
        ("Fine-tuning Qwen2.5-7B with LoRA on one A100 took 6 hours with batch 20. Can it be faster?", "20"),
    ],
)
def test_a_number_without_the_hours_unit_is_no_duration(question: str, other: str) -> None:
    """A number beside a stated duration but without the hours unit after it is never named as hours."""
    a = _answer(question)
    assert a["request"]["hours"] == 6
    assert (f"hours: {other}", "other_setup") not in _named(a)


def test_unit_rule_needs_every_place_to_carry_the_unit() -> None:
    """bot.parse.echoed_values._by_unit: '20' written once as '20 小时' and once bare is not named hours."""
    from bot.parse.echoed_values import echoed

    items = [("20", "unread")]
    assert echoed("一阶段 5 小时、二阶段 20 小时", items, {"hours": 5}) == [("hours: 20", "other_setup")]
    assert echoed("一阶段 5 小时、二阶段 20 小时，共 20 步", items, {"hours": 5}) == items
    assert echoed("stage one 5 hours, stage two 20 hours", items, {"hours": None}) == items
    assert echoed("stage one 5 hours, stage two 20 hours", [("20", "observed")], {"hours": 5}) == [
        ("20", "observed")
    ]


# 2. the scorer -----------------------------------------------------------------------------------------


def _rowed(setting: str, values: list[float]) -> list[dict]:
    return [{"setting": setting, "value": v} for v in values]


def test_scorer_takes_model_sizes_with_a_row_each() -> None:
    """zh38-036 '7B、14B、32B、70B 到底该选哪个': a row per size (report.per_value, s39) is each size used."""
    answer = {"request": {"params_total": 7e9}, "report": {"per_value": _rowed("params_total", [7e9, 14e9])}}
    assert score({"stated": {"params_total": [7e9, 14e9]}}, answer) == []
    assert score({"stated": {"params_total": [7, 14]}}, answer) == []  # labelled in billions
    assert score({"stated": {"params_total": [7e9, 14e9, 70e9]}}, answer) == ["params_total"]


def test_scorer_takes_rows_and_a_value_said_apart_named() -> None:
    """zh22-038 '100、120、150 并发都通过 … 再做 50 并发': rows for the list, the 50 named as another
    setup."""
    rows = _rowed("concurrency", [100, 120, 150])
    named = [{"text": "concurrency: 50", "reason": "other_setup"}]
    answer = {
        "request": {"concurrency": 150},
        "report": {"per_value": rows},
        "interpretation": {"ignored": named},
    }
    assert score({"stated": {"concurrency": [100, 120, 150, 50]}}, answer) == []
    answer["interpretation"]["ignored"] = [{"text": "50", "reason": "unread"}]
    assert score({"stated": {"concurrency": [100, 120, 150, 50]}}, answer) == ["concurrency"]
    # no rows: the s16 review's rule stands, a concurrency named alone is not understood
    answer = {"request": {"concurrency": 100}, "interpretation": {"ignored": named}}
    assert score({"stated": {"concurrency": [100, 50]}}, answer) == ["concurrency"]


@pytest.mark.parametrize(
    ("key", "used", "other", "item"),
    [
        ("global_batch", 16, 256, "global batch 256"),
        ("method", "lora", "qlora", "method: QLoRA"),
        ("hours", 5.0, 20, "hours: 20"),
    ],
)
def test_scorer_takes_two_setups_each_used_or_named(key: str, used: object, other: object, item: str) -> None:
    """en34-011 (16 and 256 in total), zh22-007 (LoRA, and QLoRA said to be needed), zh38-031 (5 and 20
    hours): one value sized, the other named as another setup's; unnamed, still a miss."""
    answer = {
        "request": {key: used},
        "interpretation": {"ignored": [{"text": item, "reason": "other_setup"}]},
    }
    assert score({"stated": {key: [used, other]}}, answer) == []
    answer["interpretation"]["ignored"] = []
    assert score({"stated": {key: [used, other]}}, answer) == [key]


# 3. a load said in an observed clause is another run's setting (bot.parse.structure.LOAD_ROLES) ----------


def test_a_second_load_test_concurrency_is_another_setup_zh() -> None:
    """zh22-038's form: the loads tested together get a row each; the next test's load, said in the clause
    that reports the rising memory, is that test's concurrency (other_setup), not a measured figure."""
    a = _answer(
        "用 vLLM 在 8 张 H100 上部署 Qwen2.5-72B，压测 80、100 并发都通过，但显存一直涨、压测完也不降；"
        "再做 40 并发的压测，显存还在涨，会 OOM 吗？"
    )
    assert _rows(a, "concurrency") == [80, 100]
    assert ("40", "other_setup") in _named(a)
    assert ("40", "observed") not in _named(a)


def test_a_second_load_test_concurrency_is_named_en() -> None:
    """The same in English: the second test's 50 concurrent requests are named as a second value, never
    left unread nor taken for a figure measured."""
    a = _answer(
        "Serving Qwen2.5-72B with vLLM on 8 H100: a load test at 100 concurrent requests passed; a second "
        "test at 50 concurrent requests used 70GB per GPU and kept growing. Will it OOM?"
    )
    assert a["request"]["concurrency"] == 100
    assert ("50", "repeated") in _named(a)


def test_a_measured_memory_is_no_load() -> None:
    """Must not misread: LOAD_ROLES holds no measured role — a memory said in the same observed clause is
    never named as another run's setting."""
    from bot.parse.structure import LOAD_ROLES, MEASURED_ROLES

    assert "concurrency" in LOAD_ROLES
    assert not LOAD_ROLES & MEASURED_ROLES
    a = _answer(
        "用 vLLM 在 8 张 H100 上部署 Qwen2.5-72B，100 并发压测通过；"
        "再做 50 并发的压测，显存占用涨到 70G，会 OOM 吗？"
    )
    assert a["request"]["concurrency"] == 100
    assert ("70", "other_setup") not in _named(a)


# 4. a versioned name after a run verb is the model run (bot.parse.verb_names.RUN_VERSIONED_RE) -----------


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("想在个人设备上跑 YAYI2：4090 显卡能运行吗？", "YAYI2"),
        ("想用 4090 跑 Aquila2，能运行吗？", "Aquila2"),
        ("Can I run Aquila2 on a 4090?", "Aquila2"),
        ("Is anyone running Baize3 on two 3090s? How much VRAM does it take?", "Baize3"),
    ],
)
def test_a_versioned_name_run_is_the_unknown_model(question: str, name: str) -> None:
    """zh35-001's form in both languages: a name of letters and a version after 跑 / run is the model run,
    named as typed (unknown_model), never dropped nor taken for a runtime."""
    a = _answer(question)
    assert a["interpretation"]["unknown_model"] == name
    assert not any(t.startswith("runtime:") for t, _ in _named(a))


@pytest.mark.parametrize(
    "question",
    [
        "在 4090 上跑 Python3 脚本要多少显存？",
        "我想跑 RTX4090 的推理，够吗？",
        "Can I run CUDA12 on an RTX4090?",
        "Can I run Ubuntu22 on a 4090 for inference?",
    ],
)
def test_software_or_a_card_run_is_no_model(question: str) -> None:
    """Must not misread: software with a version ('Python3', 'CUDA12', 'Ubuntu22') or a card ('RTX4090')
    after a run verb is no model."""
    assert _answer(question)["interpretation"]["unknown_model"] is None


# 5. parameter-efficient fine-tuning said as such is LoRA (bot.parse.method_words.PEFT_RE) ----------------


@pytest.mark.parametrize(
    "question",
    [
        "For fine-tuning the 20B GPT-NeoX model, both full fine-tuning and parameter-efficient fine-tuning: "
        "how much GPU VRAM does each need?",
        "GPT-NeoX-20B 全参微调和参数高效微调分别要多少显存？",
    ],
)
def test_full_and_peft_are_two_methods_compared(question: str) -> None:
    """en36-028's form in both languages: a row for full fine-tuning and one for LoRA (PEFT's method)."""
    assert _answer(question)["request"]["methods"] == ["full", "lora"]


@pytest.mark.parametrize(
    "question",
    [
        "Fine-tune Qwen2.5-7B with PEFT on one A100, how much memory?",
        "用参数高效微调方法微调 Qwen2.5-7B，一张 A100 够吗？",
    ],
)
def test_peft_alone_is_lora(question: str) -> None:
    assert _answer(question)["request"]["method"] == "lora"


@pytest.mark.parametrize(
    "question",
    [
        "Fine-tune Qwen2.5-7B without PEFT on 8 A100, how much memory?",
        "不用参数高效微调，全量微调 Qwen2.5-7B 要几张 A100？",
        "Full fine-tune Qwen2.5-7B on 8 A100 with transformers 4.40 and peft==0.10.0, "
        "how long for 1B tokens?",
        "全参微调 Qwen2.5-7B，环境 transformers 4.40、peft 0.10，8 张 A100 要多久训 1B token？",
        "Is there a more memory-efficient way to fine-tune Qwen2.5-7B on one A100?",
    ],
)
def test_peft_negated_or_a_release_or_memory_efficient_is_no_lora(question: str) -> None:
    """Must not misread: 'without PEFT', a PEFT release ('peft==0.10.0', 'peft 0.10') and 'memory-efficient'
    leave a full fine-tuning full."""
    request = _answer(question)["request"]
    assert request["method"] == "full"
    assert not request.get("methods")
