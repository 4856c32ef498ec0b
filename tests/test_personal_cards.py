"""Personal cards named without a count are the user's one card (serving, fine-tuning), with one user and
local formats; a small card known only by its memory is personal; bare sizes get the GQA shape, said so.
Field cases f08 and f14 (issue 13)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from field_checks import run_case

from bot.cli import main

FIELD_CASES = Path(__file__).parent / "data" / "field_cases.json"
THIS_ISSUE = ("f08", "f14")


def ask(capsys: pytest.CaptureFixture[str], question: str) -> dict:
    main(["ask", "--format", "json", question])
    return json.loads(capsys.readouterr().out)


def whys(d: dict) -> dict[str, str]:
    return {a["field"]: a["why"] for a in d["assumptions"]}


@pytest.mark.parametrize("case_id", THIS_ISSUE)
def test_field_case(capsys: pytest.CaptureFixture[str], case_id: str) -> None:
    case = next(c for c in json.loads(FIELD_CASES.read_text(encoding="utf-8"))["cases"] if c["id"] == case_id)
    assert run_case(ask(capsys, case["q"]), case["checks"]) == [], case["q"]


def test_a_9b_in_q4_on_an_8gb_4060_is_sized_for_that_one_card(capsys: pytest.CaptureFixture[str]) -> None:
    d = ask(capsys, "Can I run a 9B model in Q4 on my 8GB RTX 4060?")
    assert d["request"]["gpu"] == "RTX-4060" and d["request"]["gpu_count"] == 1
    assert whys(d)["gpu_count"] == "personal_one_card"
    assert d["request"]["concurrency"] == 1
    inf = d["report"]["inference"]
    assert inf["runtime"] == "llama.cpp"
    # the generic 9B shape: 8 KV heads of 128 → 2 × 8 × 128 × 2 bytes = 4,096 bytes per layer per token
    layers = next(a for a in d["assumptions"] if a["field"] == "architecture")
    assert layers["why"] == "generic_shape" and layers["params"] == {"heads": 32, "kv_heads": 8}
    assert inf["kv_bytes_per_token"] % 4096 == 0 and inf["kv_bytes_per_token"] <= 48 * 4096
    assert d["report"]["feasible"] in ("yes", "borderline")


def test_a_6gb_card_outside_the_catalog_is_personal(capsys: pytest.CaptureFixture[str]) -> None:
    d = ask(capsys, "7B模型8bit量化推理，6G显存的显卡够吗？")
    assert d["request"]["gpu"] == "GPU-6GB"
    assert whys(d)["gpu_personal"] == "generic_personal"
    assert d["request"]["concurrency"] == 1  # one user, not a team's 16
    assert d["report"]["feasible"] == "no"  # 7.3 GB of int8 weights on 6 GB
    assert d["report"]["inference"]["recommended_gpus"] <= 2  # no 16-card plan for a home card


def test_a_16gb_card_outside_the_catalog_is_not_assumed_personal(capsys: pytest.CaptureFixture[str]) -> None:
    """'a 14GB card' is one card of that memory (session 8 trial: a card known only by its memory was
    sized as several, or as another vendor's card; the count changed on purpose), not a personal card."""
    d = ask(capsys, "serve a 7B model on a 14GB card")
    assert d["request"]["gpu"] == "GPU-14GB"
    assert "gpu_personal" not in whys(d) and d["request"]["gpu_count"] == 1
    # round 11 (bot.parse.one_card): 'a 14GB card' states one card, read as such; before, assumed
    assert whys(d).get("gpu_count") in (None, "memory_one_card")


def test_a_model_that_fits_only_in_4_bit_on_one_4090(capsys: pytest.CaptureFixture[str]) -> None:
    d = ask(capsys, "Can I run Qwen2.5-32B on my 4090?")
    assert d["request"]["gpu_count"] == 1 and d["request"]["precision"] == "q4_k_m"
    assert (d["report"]["feasible"], d["report"]["feasible_reason"]) == ("borderline", "local_4bit")


@pytest.mark.parametrize(
    "question",
    [
        "在4090上预训练7B模型100B token要多久",  # pre-training asks how many cards
        "serve Llama-3-70B on A100",  # not a personal card
        "用4090部署Llama-3-70B，准备200G显存",  # a total memory
        "full fine-tune 7B on 4090 within 3 days on 1B tokens",  # a deadline
    ],
)
def test_no_count_is_assumed(capsys: pytest.CaptureFixture[str], question: str) -> None:
    d = ask(capsys, question)
    assert "gpu_count" not in whys(d)


def test_more_cards_than_one_machine_is_not_a_home_setup(capsys: pytest.CaptureFixture[str]) -> None:
    d = ask(capsys, "serve Llama-3.1-405B on RTX 4090")
    note = next(w for w in d["report"]["warnings"] if w["code"] == "personal_beyond_one_machine")
    assert note["params"]["gpus"] > note["params"]["gpus_per_node"] == 8
    assert "not a home setup" in d["reply"]


def test_a_bare_size_says_its_shape_and_warns_about_older_models(capsys: pytest.CaptureFixture[str]) -> None:
    d = ask(capsys, "serve a 13B model on 2 A100")
    shape = next(a for a in d["assumptions"] if a["field"] == "architecture")
    assert shape["why"] == "generic_shape" and shape["params"] == {"heads": 40, "kv_heads": 8}
    assert "grouped-query attention with 8 KV heads for 40 query heads" in d["reply"]
    [note] = [w for w in d["report"]["warnings"] if w["code"] == "generic_shape_mha"]
    assert note["params"] == {"times": 5}  # Llama 2 13B: 40 KV heads, 5 × the GQA shape's 8
    assert "multi-head attention" in d["reply"]
    named = ask(capsys, "serve Llama-2-13B on 2 A100")
    assert not [w for w in named["report"]["warnings"] if w["code"] == "generic_shape_mha"]
