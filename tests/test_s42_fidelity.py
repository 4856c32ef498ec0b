"""Session 42, fidelity: verdicts that match real runs (tests/test_verdict_outcomes.py's "fits" for runs that
ran out of memory).

lmdeploy before v0.2.2 takes ``cache_max_entry_count`` as a share of the card's TOTAL memory
(InternLM/lmdeploy ``src/turbomind/models/llama/BlockManager.cc`` ``GetBlockCount`` at v0.2.0 and v0.2.1:
``total * ratio``, default 0.5 in ``lmdeploy/messages.py``, all blocks allocated at start-up:
``cache_chunk_size = -1``); commit 0f324a4cf "fix OOM in BlockManager" (#973, first in v0.2.2) made it
``free * ratio``. The thread it answers, InternLM/lmdeploy#978 (lmdeploy 0.2.0,
``pipeline("internlm/internlm2-chat-7b")`` on one RTX 3090, "CUDA runtime error: out of memory"), was fixed by
the maintainer with ``TurbomindEngineConfig(cache_max_entry_count=0.2)``.
Its figures: internlm2-chat-7b has 7.74e9 parameters (15.48 GB in fp16); the 3090 reports 24 GiB.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.parse.engines_named import stated_lmdeploy_version
from estimator.lmdeploy_release import shares_total

GIB = 2**30
INTERNLM2_7B_WEIGHTS = 7.74e9 * 2  # fp16 bytes (lmdeploy#978's model)

EN_978 = (
    "lmdeploy==0.2.0 pipeline internlm/internlm2-chat-7b on one RTX 3090 with default settings: does it fit?"
)
ZH_978 = "lmdeploy 0.2.0 用 pipeline 跑 internlm2-chat-7b，一张 3090，默认配置，放得下吗？"
EN_FIXED = (
    "lmdeploy==0.2.0 pipeline internlm/internlm2-chat-7b on one RTX 3090 with "
    "TurbomindEngineConfig(cache_max_entry_count=0.2): does it fit?"
)
ZH_FIXED = (
    "lmdeploy 0.2.0 跑 internlm2-chat-7b，一张 3090，"
    "TurbomindEngineConfig(cache_max_entry_count=0.2)，放得下吗？"
)
ZH_OOM = (
    "一张 3090 用 lmdeploy v0.2.0 turbomind 跑 internlm2 7B chat，"
    "报 CUDA runtime error: out of memory，为什么？"
)
EN_OOM = "lmdeploy v0.2.1 turbomind runs internlm2-chat-7b out of memory on one RTX 3090. Why?"


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


def _text(capsys, question: str) -> str:
    main(["ask", "--format", "text", "--", question])
    return capsys.readouterr().out


def test_releases_before_v0_2_2_share_the_total():
    assert shares_total("0.2.0") and shares_total("0.2.1") and shares_total("0.1.0")
    assert not shares_total("0.2.2") and not shares_total("0.2.5") and not shares_total("0.10.0")
    assert not shares_total(None) and not shares_total("")
    assert shares_total("0.1") and not shares_total("0.2")  # 'v0.2' may be v0.2.5: the patch unknown


@pytest.mark.parametrize(
    ("text", "version"),
    [
        ("lmdeploy==0.2.0 pipeline", "0.2.0"),
        ("pip install lmdeploy==0.2.1 then serve", "0.2.1"),
        ("用 lmdeploy v0.2.5 跑 internlm2", "0.2.5"),
        ("lmdeploy 版本 0.2.0，单卡 3090", "0.2.0"),
        ("用lmdeploy0.1.0部署", "0.1.0"),
        ("lmdeploy 0.4.2 serve api_server", "0.4.2"),
        ("lmdeploy version: 0.2.1", "0.2.1"),
    ],
)
def test_a_stated_release_is_read(text, version):
    assert stated_lmdeploy_version(text) == version


@pytest.mark.parametrize(
    "text",
    [
        "lmdeploy 0.5 of the memory for the cache",  # a bare two-part number: a share as often
        "lmdeploy 用 0.2 的显存给 KV 缓存",
        "lmdeploy --cache-max-entry-count 0.2",
        "vLLM 0.2.7 and lmdeploy on a 3090",  # another engine's release
        "lmdeploy v0.8 GB",  # a number with a unit after it
        "用 lmdeploy 部署，显存 0.2.0 以上",  # a number not written after the engine
    ],
)
def test_numbers_near_lmdeploy_that_are_not_its_release(text):
    assert stated_lmdeploy_version(text) is None


@pytest.mark.parametrize("question", [EN_978, ZH_978])
def test_v0_2_0_defaults_do_not_fit_a_3090_as_in_lmdeploy_978(capsys, question):
    """0.5 × 24 GiB of KV blocks beside 15.48 GB of weights, the CUDA context and a prefill: > 24 GiB."""
    out = _ask(capsys, question)
    report = out["report"]
    assert out["request"]["lmdeploy_version"] == "0.2.0" and out["request"]["runtime"] == "lmdeploy"
    assert (report["feasible"], report["feasible_reason"]) == ("no", "lmdeploy_total_share")
    note = next(w["params"] for w in report["warnings"] if w["code"] == "lmdeploy_total_share")
    total = note["total_bytes"]
    assert 23.5 * GIB <= total <= 24 * GIB  # the 3090's 24 GiB as CUDA reports it
    assert note["share"] == 0.5 and note["kv_bytes"] == pytest.approx(0.5 * total)
    assert note["beside_bytes"] > INTERNLM2_7B_WEIGHTS  # the weights, CUDA context and a prefill
    assert note["kv_bytes"] + note["beside_bytes"] > total
    assert 0.2 <= note["largest_share"] < 0.5  # the maintainer's 0.2 fits, the default does not


@pytest.mark.parametrize("question", [EN_FIXED, ZH_FIXED])
def test_the_maintainers_0_2_fits(capsys, question):
    report = _ask(capsys, question)["report"]
    assert report["feasible"] in ("yes", "borderline")
    assert not any(w["code"] == "lmdeploy_total_share" for w in report["warnings"])


@pytest.mark.parametrize(
    "question",
    [
        EN_978.replace("lmdeploy==0.2.0", "lmdeploy==0.2.2"),  # #973 shipped: a share of the free memory
        EN_978.replace("lmdeploy==0.2.0 ", "lmdeploy "),  # not stated: today's rule
        ZH_978.replace("lmdeploy 0.2.0", "lmdeploy v0.2.5"),
    ],
)
def test_later_or_unstated_releases_keep_the_free_memory_rule(capsys, question):
    report = _ask(capsys, question)["report"]
    assert report["feasible"] == "yes" and report["feasible_reason"] is None


@pytest.mark.parametrize("question", [ZH_OOM, EN_OOM])
def test_a_reported_oom_agrees_with_a_v0_2_0_or_v0_2_1_run(capsys, question):
    """The failed count's note carries the verdict there ('no') and says the estimate agrees."""
    report = _ask(capsys, question)["report"]
    first = report["warnings"][0]
    assert first["code"] == "serving_count_failed_share" and first["params"]["gpu_count"] == 1
    assert first["params"]["feasible"] == "no"


def test_the_wording_in_both_languages(capsys):
    en = _text(capsys, EN_978)
    zh = _text(capsys, ZH_978)
    assert "no with lmdeploy 0.2.0 as set" in en and "share of the card's total memory" in en
    assert "cache_max_entry_count to 0.3" in en  # the largest share that fits, ≥ the maintainer's 0.2
    assert "按你用的 lmdeploy 0.2.0 放不下" in zh and "总显存的比例" in zh
    oom = _text(capsys, ZH_OOM)
    assert "这和按你所说 lmdeploy 版本的估算一致" in oom


# --- an OOM on lmdeploy with no release stated: the estimate fits (today's rule), names v0.2.0/v0.2.1's ---
# lmdeploy#978 (0.2.0) and #1001 (0.2.0: "chat turbomind 炸显存" after updating, 14 GB before on 0.1.0) ran
# them; #1019 (2024-01-22, "3090 跑不了 internlm2 7B chat", create_model_instance out of memory, with
# TurbomindEngineConfig, new in v0.2.0) was filed before v0.2.2 (2024-01-31).

ZH_1019 = (
    "一张 3090 用 lmdeploy turbomind 跑 internlm2 7B chat，报 CUDA runtime error: out of memory，"
    "24G 跑 7B 不够吗？"
)
EN_1019 = "lmdeploy turbomind with internlm2-chat-7b runs out of memory on one RTX 3090. Isn't 24 GB enough?"


@pytest.mark.parametrize("question", [ZH_1019, EN_1019])
def test_an_unstated_release_keeps_the_fit_and_names_the_older_rule(capsys, question):
    report = _ask(capsys, question)["report"]
    first, second = report["warnings"][:2]
    assert first["code"] == "serving_count_failed_fit" and first["params"]["feasible"] == "yes"
    assert second["code"] == "lmdeploy_share_unstated" and "release" not in second["params"]
    assert second["params"]["share"] == 0.5 and 0.2 <= second["params"]["largest_share"] < 0.5


@pytest.mark.parametrize(
    "question",
    [
        ZH_1019.replace("lmdeploy", "lmdeploy v0.2.5"),  # a release stated: its own rule, no guess
        "用 lmdeploy 在一张 3090 上跑 internlm2-chat-7b，显存够吗？",  # no OOM reported
        "vLLM runs internlm2-chat-7b out of memory on one RTX 3090. Isn't 24 GB enough?",  # another engine
    ],
)
def test_no_older_rule_note_elsewhere(capsys, question):
    report = _ask(capsys, question)["report"]
    assert not any(w["code"] == "lmdeploy_share_unstated" for w in report["warnings"])


def test_the_older_rule_note_in_both_languages(capsys):
    assert "If yours is one of those (pip show lmdeploy)" in _text(capsys, EN_1019)
    assert "如果你用的正是这两个版本" in _text(capsys, ZH_1019)
