"""Wording a fresh user found wrong (s15 trial #4): the critic of RLHF is '价值模型（Critic）' in Chinese,
and host memory channels said ('dual channel', '四通道') are named as said, not 'two unless you said'."""

from __future__ import annotations

import pytest

from bot.parse import parse
from bot.render.i18n import translate
from tests.cli_run import ask_quietly

E5 = "Running Qwen3-30B-A3B Q4_K_M on an RTX 3060 12GB with llama.cpp --n-cpu-moe 30, 64GB DDR4-3200 {ch}. "


def test_critic_is_the_value_model_in_chinese() -> None:
    assert translate("zh", "critic") == "价值模型（Critic）"


@pytest.mark.parametrize(
    ("q", "channels", "gbps", "said"),
    [
        (E5.format(ch="dual channel") + "What tokens/s should I expect?", 2, 51.2, "2 channels, as you said"),
        (
            E5.format(ch="quad-channel") + "What tokens/s should I expect?",
            4,
            102.4,
            "4 channels, as you said",
        ),
        (
            "3060 12G 用 llama.cpp 跑 Qwen3-30B-A3B Q4_K_M，--n-cpu-moe 30，"
            "内存 64G DDR4-3200 四通道，能有多少 token/s？",
            4,
            102.4,
            "你说的 4 通道",
        ),
    ],
)
def test_channels_said_are_named_as_said(q: str, channels: int, gbps: float, said: str) -> None:
    req = parse(q).request
    # channels × 8 bytes × 3,200 MT/s (JEDEC DDR4-3200)
    assert (req.host_channels, req.host_bandwidth_gbps) == (channels, gbps)
    text = ask_quietly(q)
    assert said in text and "unless you said" not in text and "未说通道数" not in text


@pytest.mark.parametrize(
    ("q", "said"),
    [
        (
            "Full fine-tune Mistral-7B on 1B tokens: 8x A100 vs 8x MI300X, which finishes first?",
            "the winner rests on an assumed MFU for MI300X (21%",
        ),
        (
            "全参微调 Mistral-7B，10亿 token：8 张 A100、8 张 MI300X，哪个最快跑完？",
            "取决于 MI300X 的假定 MFU（21%",
        ),
    ],
)
def test_a_winner_on_an_uncalibrated_mfu_says_so(q: str, said: str) -> None:
    """s15 trial #5: MI300X at the uncalibrated 30 % default beat H100's calibrated 28 %: the headline says
    the winner rests on that assumption. s42 fixleft (s41 trial #9): MI300X's default is the H100's per-GPU
    throughput, 28 % × 989.4 / 1,307.4 = 21 % (estimator.efficiency.CDNA3_PARITY), so against H100 it is a
    tie (below); against A100 it still wins, on that assumption (was 8 H100 vs 16 A100 vs 8 MI300X, 30 %)."""
    head = ask_quietly(q).splitlines()[0]
    assert "MI300X" in head.split("(")[0].split("（")[0] and said in head


@pytest.mark.parametrize(
    ("q", "said"),
    [
        (
            "Full fine-tune Mistral-7B on 1B tokens: 8x H100 vs 16x A100 vs 8x MI300X, which finishes first?",
            "About the same time: 8 × H100 80G (≈ 0.23 days; 16 × A100 80G ≈ 0.27 days; "
            "8 × MI300X ≈ 0.23 days) — MI300X's MFU is assumed (21%",
        ),
        (
            "全参微调 Mistral-7B，10亿 token：8 张 H100、16 张 A100、8 张 MI300X，哪个最快跑完？",
            "训完时间差不多：8 × H100 80G",
        ),
    ],
)
def test_a_tie_on_an_uncalibrated_mfu_names_no_winner(q: str, said: str) -> None:
    head = ask_quietly(q).splitlines()[0]
    assert head.startswith(said) and "Finishes first" not in head and "先训完" not in head
    assert "MI300X" in head and ("assumed (21%" in head or "假定的（21%" in head)


def test_a_winner_on_a_calibrated_mfu_says_nothing_of_it() -> None:
    head = ask_quietly("Full fine-tune Mistral-7B on 1B tokens: 8x H100 vs 16x A100, which finishes first?")
    assert head.startswith("Finishes first: 8 × H100") and "assumed MFU" not in head
