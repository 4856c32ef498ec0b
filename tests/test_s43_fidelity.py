"""Session 43, fidelity: verdicts that match real runs (tests/test_verdict_outcomes.py's "fits" for runs that
ran out of memory).

TGI v0.9.4 to v1.4.0 give the KV blocks all the memory CUDA reports free at the warm-up's peak and keep none
back: huggingface/text-generation-inference ``server/text_generation_server/models/flash_causal_lm.py``
``warmup`` at v0.9.4 (``free_memory = max(0, total_free_memory - (1 - MEMORY_FRACTION) * total_gpu_memory)``,
``num_blocks = int(free_memory // total_cache_size) + CACHE_MANAGER.num_blocks``), unchanged to v1.4.0;
commit 0d794af6 (PR #1428, first in v1.4.1) keeps 5 % back ("Leave 5% for some wiggle room"). From v0.9.4
(PR #630, commit fe80f536) ``router/src/main.rs`` ignores a stated ``--max-batch-total-tokens`` for
flash-attention models. The threads: huggingface/text-generation-inference#653 (Llama-2-7b-hf on one A10G:
"overwrites the max batch total tokens to 16224 and takes up all of the 22Gb") and #1374 (TGI 1.3.3,
CodeLlama-34B EETQ on one A100 40GB: the warm-up passes, a 4,000-token request runs out of memory).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.parse.engines_named import stated_tgi_version
from estimator.tgi_release import no_headroom

EN_OLD = (
    "TGI 1.3.3 serving meta-llama/Llama-2-7b-hf in fp16 on one A10G, max-total-tokens 4096, one request at a "
    "time: does it fit?"
)
ZH_OLD = "用 TGI 1.3.3 在一张 A10G 上部署 Llama-2-7b-hf（fp16），max-total-tokens 4096，并发 1，放得下吗？"
EN_NEW = EN_OLD.replace("TGI 1.3.3", "TGI 2.0.4")
ZH_NEW = ZH_OLD.replace("TGI 1.3.3", "TGI 1.4.1")
EN_UNSTATED = EN_OLD.replace("TGI 1.3.3", "TGI")
ZH_UNSTATED = ZH_OLD.replace("TGI 1.3.3", "TGI")
EN_OOM = "Llama-2-7b-hf fp16 on one A10G with TGI, MAX_TOTAL_TOKENS 4096, and I get CUDA OOM. Why?"
ZH_OOM = "一张 A10G 用 TGI 部署 Llama-2-7b-hf（fp16），MAX_TOTAL_TOKENS 4096，报 CUDA OOM，为什么？"


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


def _codes(report: dict) -> list[str]:
    return [w["code"] for w in report["warnings"]]


def test_the_releases_that_keep_no_memory_back():
    assert no_headroom("0.9.4") and no_headroom("1.0.0") and no_headroom("1.3.3") and no_headroom("1.4.0")
    assert not no_headroom("0.9.3") and not no_headroom("1.4.1") and not no_headroom("2.0.4")
    assert not no_headroom("3.3.6") and not no_headroom(None) and not no_headroom("")
    assert no_headroom("1.4")  # the minor line as it started: the 5 % came in the v1.4.1 patch


@pytest.mark.parametrize(
    "text, version",
    [
        ("TGI 1.3.3 on one A100 40GB", "1.3.3"),
        ("docker run ghcr.io/huggingface/text-generation-inference:1.3.3 --model-id x", "1.3.3"),
        ("text-generation-inference v1.4 on an L4", "1.4"),
        ("TGI v0.9.4 serving Llama 2", "0.9.4"),
        ("TGI 版本 1.3.3，一张 A10G", "1.3.3"),
        ("用 TGI 1.0.3 部署", "1.0.3"),
    ],
)
def test_a_stated_release_is_read(text, version):
    assert stated_tgi_version(text) == version


@pytest.mark.parametrize(
    "text",
    [
        "TGI 0.9 of the memory",  # a bare two-part number may be a share
        "TGI with --cuda-memory-fraction 0.9 and transformers 4.36.2",
        "TGI on 2 GPUs uses 1.5 GB more",
        "TGI 显存占比 0.9，transformers 版本 4.36.2",
        "用 TGI 部署，显存 1.5 GB",
    ],
)
def test_numbers_near_tgi_that_are_not_its_release(text):
    assert stated_tgi_version(text) is None


@pytest.mark.parametrize("question", [EN_OLD, ZH_OLD])
def test_a_fit_on_those_releases_is_borderline(capsys, question):
    out = _ask(capsys, question)
    report = out["report"]
    assert out["request"]["tgi_version"] == "1.3.3"
    assert report["feasible"] == "borderline" and report["feasible_reason"] == "tgi_no_headroom"
    assert "tgi_no_headroom" in _codes(report)
    # the same run without the rule fits: 13.48 GB of fp16 weights and one 4,096-token sequence's KV cache
    # (2 GiB) in an A10G's 22.49 GiB
    assert report["inference"]["weights_bytes"] == pytest.approx(13.48e9, rel=0.01)


@pytest.mark.parametrize("question", [EN_NEW, ZH_NEW, EN_UNSTATED, ZH_UNSTATED])
def test_later_or_unstated_releases_keep_the_fit(capsys, question):
    report = _ask(capsys, question)["report"]
    assert report["feasible"] == "yes" and report["feasible_reason"] is None
    assert "tgi_no_headroom" not in _codes(report)


def test_the_wording_in_both_languages(capsys):
    main(["ask", "--format", "text", "--", EN_OLD])
    en = capsys.readouterr().out
    assert "fits, but this TGI release keeps no memory back beyond its warm-up" in en
    assert "TGI 1.3.3 gives the KV cache all the memory free" in en and "--cuda-memory-fraction 0.9" in en
    main(["ask", "--format", "text", "--", ZH_OLD])
    zh = capsys.readouterr().out
    assert "这个 TGI 版本在预热之外不留任何显存余量" in zh
    assert "TGI 1.3.3 把预热峰值时空闲的显存全部分给 KV 缓存" in zh and "--cuda-memory-fraction 0.9" in zh


@pytest.mark.parametrize("question", [EN_OOM, ZH_OOM])
def test_an_unstated_release_keeps_the_fit_and_names_the_older_rule(capsys, question):
    report = _ask(capsys, question)["report"]
    codes = _codes(report)
    assert codes[:2] == ["serving_count_failed_fit", "tgi_headroom_unstated"]
    assert report["warnings"][0]["params"]["feasible"] == "yes"  # the verdict at the failed count stays


def test_no_older_rule_note_with_a_later_release_or_another_engine(capsys):
    later = _ask(capsys, "TGI v1.4.1: " + EN_OOM)["report"]
    assert "tgi_headroom_unstated" not in _codes(later)
    vllm = _ask(capsys, EN_OOM.replace("with TGI", "with vLLM"))["report"]
    assert "tgi_headroom_unstated" not in _codes(vllm)


def test_the_older_rule_note_in_both_languages(capsys):
    main(["ask", "--format", "text", "--", EN_OOM])
    en = capsys.readouterr().out
    assert "TGI v0.9.4 to v1.4.0 (July 2023 to February 2024) gave the KV cache all the memory" in en
    main(["ask", "--format", "text", "--", ZH_OOM])
    zh = capsys.readouterr().out
    assert "TGI v0.9.4 到 v1.4.0（2023 年 7 月到 2024 年 2 月）把预热峰值时空闲的显存全部分给 KV 缓存" in zh


def test_the_workspace_assumption_names_the_wiggle_room_by_release(capsys):
    """TGI_WIGGLE_ROOM: 0.95 in server/text_generation_server/models/globals.py from PR #2449 (v2.3.0; 5 %
    kept in flash_causal_lm.py from v1.4.1), 0.90 from PR #3189 (v3.3.0); the sizing uses 0.90
    (estimator.runtimes.others.TGI_WIGGLE_ROOM), which the assumption line now says instead of 0.95."""
    main(["ask", "--format", "text", "--", EN_UNSTATED])
    en = capsys.readouterr().out
    assert "× TGI_WIGGLE_ROOM of the card (0.90 since v3.3.0, 0.95 from v1.4.1, none before)" in en
    assert "TGI_WIGGLE_ROOM 0.95" not in en
    main(["ask", "--format", "text", "--", ZH_UNSTATED])
    zh = capsys.readouterr().out
    assert "（v3.3.0 起为 0.90，v1.4.1 起为 0.95，更早则不留余量）" in zh
