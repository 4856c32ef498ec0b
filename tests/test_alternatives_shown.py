"""s17 trial t2 item 2: after 'OOM on 4 and on 8 A100 80GB' the options showed "With CPU offload: 4 GPUs"
beside a plan that already offloads and "With 8-bit AdamW: 4 GPUs", a count the user saw fail, unsaid;
'试了 4 卡和 8 卡都 OOM（ZeRO-3）' showed '不用全量重计算：48 张' under a 64-GPU plan with selective
recompute (no full recompute already), and its headline said '（ZeRO-3）' twice. An option the plan or
request already has is not shown; a count at or below the largest that failed says it is the estimate's
(the run disagrees with it where the estimate fits at 8, else the failed run lacked the change)."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

EN_70B = (
    "Full fine-tune of a seventy billion parameter model with DeepSpeed ZeRO-3 and offload_param, OOM on 4 "
    "and on 8 A100 80GB. How many GPUs do I actually need?"
)
ZH_70B = "70B 全参微调，ZeRO-3 加 offload_param，A100 80G 4 卡和 8 卡都 OOM，到底要几张？"
ZH_72B = "Qwen2.5-72B 全参微调，A100 80G 试了 4 卡和 8 卡都 OOM（ZeRO-3），到底要几张卡才够？"
EN_72B = "Qwen2.5-72B full fine-tune, tried 4 and 8 A100 80GB, both OOM (ZeRO-3). How many GPUs?"


def _ask(capsys, *args: str) -> str:
    capsys.readouterr()
    assert main(["ask", *args]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(
    ("question", "line"),
    [
        (EN_70B, "• With 8-bit AdamW: 4 GPUs by the estimate, which your run on 8 GPUs disagrees with"),
        (ZH_70B, "• 改用 8-bit AdamW：4 张（这是估算；你在 8 张卡上的运行爆了显存，与估算不符"),
    ],
)
def test_offload_plan_shows_no_offload_option_and_failed_counts_are_said(capsys, question, line) -> None:
    reply = _ask(capsys, question)
    assert "With CPU offload" not in reply and "开启 CPU offload" not in reply  # the plan offloads already
    assert line in reply
    plan = json.loads(_ask(capsys, "--format", "json", question))["report"]["memory"]["plan"]
    assert plan["offload"] is True and plan["dp"] == 16


@pytest.mark.parametrize(
    ("question", "head", "line"),
    [
        (
            ZH_72B,
            "Qwen2.5 72B 全参微调（ZeRO-3）：24 张 A100 80G 放得下",  # s25 trfix3 #14: zh headline word order
            "• 开启 CPU offload：4 张（这是按这个改法的估算；你在 8 张卡上爆显存的那次没有用它）",
        ),
        (
            EN_72B,
            "Qwen2.5 72B full fine-tuning (ZeRO-3) fits on 24 × A100 80G (≈ 1/3 more compute",
            "• With CPU offload: 4 GPUs by the estimate for this change; your run that ran out of memory "
            "on 8 GPUs lacked it",
        ),
    ],
)
def test_no_recompute_option_beside_a_plan_with_full_recompute(capsys, question, head, line) -> None:
    """s29 M3: a ZeRO-3 job's recommended count turns full recompute on when keeping the activations needs
    more nodes (estimator.layouts.prefer_recompute): 24 GPUs (3 nodes) with it, not 64 (8 nodes) without
    it, so the 48 GPUs of 'no full recompute' is an option the reply now shows (it was left out beside a
    plan without full recompute, before s29)."""
    reply = _ask(capsys, question)
    assert reply.startswith(head)  # '（ZeRO-3）' once
    assert "不用全量重计算：48 张" in reply or "Without full recompute: 48 GPUs" in reply
    assert line in reply
    m = json.loads(_ask(capsys, "--format", "json", question))["report"]["memory"]
    assert (m["recommended_gpus"], m["plan"]["recompute"]) == (24, "full")
    kept = next(a for a in m["alternatives"] if a["change"] == "no_full_recompute")
    assert kept["min_gpus"] == 48


def test_alternatives_of_a_run_without_failed_counts_are_unchanged(capsys) -> None:
    reply = _ask(capsys, "full fine-tune Qwen2.5-14B on A100 80GB, how many GPUs?")
    assert "• With 8-bit AdamW: 2 GPUs\n" in reply and "by the estimate" not in reply
