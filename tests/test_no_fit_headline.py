"""User trial (wave 4): a full fine-tune that no count of the card holds with the user's settings
(Qwen2.5-14B, ZeRO-2, 32K sequences on 910B: ≈ 131 GiB per card of 64) led with "用 8 张 Ascend 910B
约需 1.8 天", listed 1–8 cards in the days table, and its warning pointed to an alternatives section the
reply did not have. Line 1 now says it does not fit on the user's cards for their settings (design §8)."""

from __future__ import annotations

import re

import pytest

from bot.cli import main

ZH = "用8张910B全参微调Qwen2.5-14B，序列长度32k，全局batch 64，ZeRO-2，要多久，数据10亿token"
EN = (
    "How long to full fine-tune Qwen2.5-14B on 8 Ascend 910B, sequence length 32k, global batch 64, "
    "ZeRO-2, 1B tokens"
)


SECTION = {
    "换个做法": "换个做法，最少需要：",
    "What would change the answer": "Fewest GPUs with another option:",
}


def ask(capsys, *args: str) -> str:
    assert main(["ask", *args]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(
    ("question", "line1", "memory", "table", "pointer"),
    [
        (
            ZH,
            "Qwen2.5 14B 全参微调（ZeRO-2，序列长度 32,768） 10亿 token：按现在的设置 8 张 Ascend 910B 放不下"
            "（这样设置多少张这种卡都放不下）",
            "每卡约 131 GiB / 64 GiB",
            r"^\s*\d+ 张 →",
            "换个做法",
        ),
        (
            EN,
            "Qwen2.5 14B full fine-tuning (ZeRO-2, 32,768-token sequences) on 1B tokens does not fit on "
            "8 × Ascend 910B as set (no number of these GPUs at these settings)",
            "≈ 131 GiB of 64 GiB per GPU",
            r"^\s*\d+ GPUs? →",
            "What would change the answer",
        ),
    ],
)
def test_a_job_no_count_holds_leads_with_does_not_fit(
    capsys, question: str, line1: str, memory: str, table: str, pointer: str
) -> None:
    reply = ask(capsys, question)
    # Line 1 says first that the user's setting does not fit (design §8), then what fits on their cards
    # (s36-fixe #1): the time is only said of that change, after it. Was "… 用 8 张 Ascend 910B 约需 1.8 天".
    first = reply.splitlines()[0]
    head, sep, change = first.partition("；" if question == ZH else "; ")
    assert head == line1 and sep
    assert memory in reply  # the details it now agrees with
    assert "1.8" not in head
    fits = "所以你的 8 张放得下：" if question == ZH else "so it fits on your 8: "
    assert fits in change and "1.8" not in change.split(fits)[0] and "1.8" in change.split(fits)[1]
    assert not re.search(table, reply, re.M)  # no days on counts that cannot hold it (was 1, 2, 4, 8)
    assert "100,000" in reply  # the warning stays: no count up to the search limit fits
    # no pointer to a section the reply does not have: the section now exists (trial report s10 A8:
    # what fits the user's GPUs), so the pointer is followed by it
    assert pointer not in reply or SECTION[pointer] in reply


def test_the_json_contract_still_says_no(capsys) -> None:
    """The verdict line 1 follows: the report's own memory and feasibility."""
    import json

    data = json.loads(ask(capsys, "--format", "json", ZH))
    assert data["report"]["feasible"] == "no"
    assert data["report"]["memory"]["fits_requested"] is False
    assert data["report"]["memory"]["min_gpus"] is None
    assert "放不下" in data["reply"].splitlines()[0]


def test_a_count_too_small_keeps_its_minimum_and_drops_rows_below_it(capsys) -> None:
    """QLoRA 72B on one RTX 3090 (the existing 'does not fit …: at least 4 GPUs needed' headline):
    the days table starts at the fewest cards that hold the job."""
    reply = ask(capsys, "QLoRA Qwen2.5-72B on 1 RTX 3090, 100M tokens, how long")
    assert "does not fit in the memory of 1 × RTX 3090: at least 4 GPUs needed" in reply.splitlines()[0]
    counts = [int(c) for c in re.findall(r"^\s*(\d+) GPUs? →", reply, re.M)]
    assert counts and min(counts) >= 4, reply
