"""Session 24's merged tree, checked by a reviewer and a second fresh-user trial: the defects they found
in the parts' interactions, each pinned with the figure it must show."""

from __future__ import annotations

import re

import pytest

from tests.cli_run import ask_in_process, ask_quietly, named

GH_LINE = re.compile(r"(?:GPU-hours|GPU 时长)[:：] ?([\d,]+)")


@pytest.mark.parametrize(
    ("question", "headline"),
    [
        # 256 A100 is past the scale-out reference: the GPU-hours line is the user's count's (94,796);
        # the headline read the 30-day deadline count's days-table row (90.3K) instead
        ("pretrain llama 2 7b on 1T tokens with 256 A100", "(94.8K A100-hours)"),
        ("pretrain a 13B model on 200B tokens on 56 H800", "(16.9K H800-hours)"),
        ("训练一个7B模型，数据500亿token，16张A100要多久", "（共 5,019 A100·时）"),
        ("从零预训练一个13B的模型，3000亿token，64张H100，大概要几天？多少钱？", "（共 2.5万 H100·时）"),
    ],
)
def test_a_stated_count_heads_with_its_own_gpu_hours(question: str, headline: str) -> None:
    """The headline, the GPU-hours line and the cost are one value on the user's count (trial s23 #5; the
    s24 merge's regression: bot.render.sections.training_section read the deadline count's row)."""
    out = ask_quietly(question)
    first = out.splitlines()[0]
    assert headline in first, first
    line = GH_LINE.search(out)
    assert line is not None
    billed = line.group(1)
    assert f"{billed} GPU-hours ×" in out or f"{billed} 卡·时 ×" in out  # the cost bills the same hours


def test_one_mac_that_cannot_hold_the_model_offers_the_weights_that_fit() -> None:
    """One Mac, fp16 70B: the headline's need and the usable memory in one unit (GiB), the lighter
    weights that fit on it (INT4: 70.6B × ~0.56 B ≈ 40 GiB of 47 usable), and no 'takes 3 cards, more than
    one machine holds' warning; the Mac named beside its chip is not 'another device'."""
    en = ask_quietly("can a mac studio m2 max 64GB run llama 3 70b in fp16?")
    lines = en.splitlines()
    assert lines[0].endswith("need ≈ 133 GiB, more than its 47 GiB of usable memory"), lines[0]
    assert lines[1] == "With INT4 (GPTQ/AWQ) weights it fits on this Mac."
    assert "more than one machine holds" not in en and "mac studio" not in en
    zh = ask_quietly("mac studio m2 max 64G 能跑 llama 3 70b fp16 吗")
    assert "换成 INT4 (GPTQ/AWQ) 权重，这台 Mac 放得下。" in zh
    assert "mac studio" not in zh


@pytest.mark.parametrize(
    "question",
    [
        "用Ollama在MacBook Pro M3 Max 64G上跑qwen2.5:32b，速度大概多少",
        "ollama qwen2.5:32b on a MacBook Pro M3 Max 64GB, speed?",
    ],
)
def test_the_mac_named_with_its_chip_is_that_machine(capsys, question: str) -> None:
    """'MacBook Pro M3 Max 64G': the MacBook is the chip's machine, not a device left unsized."""
    data = ask_in_process(capsys, question)
    assert data["request"]["gpu"].startswith("Apple-M3-Max")
    assert not [t for t in named(data) if "macbook" in t.lower()]


def test_a_mac_beside_a_catalog_card_is_still_another_device(capsys) -> None:
    """'my macbook and an rtx 3090': the MacBook is not the 3090's machine: named as not sized (s23)."""
    data = ask_in_process(capsys, "my macbook and an rtx 3090, can I run qwen2.5-32b?")
    assert named(data).get("macbook") == "unknown_other_device"


def test_a_stated_sample_length_past_the_models_context_is_kept_and_said(capsys) -> None:
    """'GPT-2 1.5B on 10k samples of 2k tokens each': the 2,000-token samples are the user's sequences
    (20M tokens), not capped to GPT-2's 1,024 positions with 'below the usual default'; the answer says the
    model was released for at most 1,024 tokens (review s24 #5)."""
    data = ask_in_process(capsys, "fine-tune GPT-2 1.5B on 10k samples of 2k tokens each on one A100")
    assert data["request"]["seq_len"] == 2000 and data["request"]["tokens"] == 20_000_000
    assert "released for at most 1,024 tokens" in data["reply"]
