"""An earlier run on the same data, cards and count calibrates the new job (s14 trial): '上次用 8 张 A100 训
7B 用了 3 天，这次 13B 同样 … token 要多久' named '3 天' and '7B' as another setup and answered at the
default 40 % MFU. The earlier run measured a throughput, 6·N·D ÷ (GPUs × seconds) per GPU: the new job is
timed at the MFU it implies, the calibrated MFU kept aside for comparison; a run implying more than the
cards' peak is set aside and said so."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process, ask_quietly, named


def test_the_earlier_run_sets_the_mfu_zh(capsys) -> None:
    q = "上次用 8 张 A100 训 7B 用了 3 天，这次 13B 同样 50 亿 token 要多久"
    d = ask_in_process(capsys, q)
    # 6 × 7e9 × 5e9 FLOPs ÷ (8 GPUs × 3 × 86,400 s) = 101.3 TFLOPS per GPU = 32.5 % of the A100's 312
    assert d["request"]["achieved_tflops_per_gpu"] == pytest.approx(101.3)
    assert d["report"]["mfu"]["likely"] == pytest.approx(101.3 / 312, rel=1e-3)
    assert d["report"]["mfu_calibrated"] == pytest.approx(0.40)  # the default, aside
    # 6 × 13e9 × 5e9 ÷ (101.3e12 × 3,600) = 1,069 A100-hours: 5.6 days on 8
    assert d["report"]["gpu_hours"]["likely"] == pytest.approx(1069.4, abs=0.5)
    assert named(d) == {"7B · 3 天 → MFU 32.5%": "earlier_run"}
    text = ask_quietly(q)
    assert "已使用：“7B · 3 天 → MFU 32.5%”" in text and "约需 5.6 天" in text.splitlines()[0]


def test_the_earlier_run_sets_the_mfu_en(capsys) -> None:
    q = (
        "We pretrained Llama-2-7B on 64 H100 over 100B tokens in 5 days. "
        "Now we want a 13B on the same data: how long?"
    )
    d = ask_in_process(capsys, q)
    # 6 × 6.74e9 (Llama-2-7B) × 1e11 ÷ (64 × 5 × 86,400 s) = 146.3 TFLOPS = 14.8 % of the H100's 989
    assert d["request"]["achieved_tflops_per_gpu"] == pytest.approx(146.3)
    assert d["report"]["mfu"]["likely"] == pytest.approx(0.1479, abs=1e-4)
    assert named(d) == {"Llama-2-7B · 5 days → MFU 14.8%": "earlier_run"}
    assert "Used: “Llama-2-7B · 5 days → MFU 14.8%”" in ask_quietly(q)


def test_an_earlier_run_above_the_peak_is_set_aside(capsys) -> None:
    """The trial's own figures: 7B on 50B tokens in 3 days on 8 A100 is 1,013 TFLOPS per GPU, 3.2× the
    A100's peak: not a calibration (the tokens, GPUs or days of that run must differ)."""
    q = "上次用 8 张 A100 训 7B 用了 3 天，这次 13B 同样 500 亿 token 要多久"
    d = ask_in_process(capsys, q)
    assert d["request"]["achieved_tflops_per_gpu"] is None
    assert d["report"]["mfu"]["likely"] == pytest.approx(0.40)
    assert named(d) == {"7B · 3 天 → MFU 324.6%": "earlier_run_above_peak"}
    assert "超过了这些卡的稠密峰值" in ask_quietly(q)


def test_without_the_same_data_it_stays_another_setup(capsys) -> None:
    d = ask_in_process(capsys, "上次用 8 张 A100 训 7B 用了 3 天，这次 13B 用 50 亿 token 要多久")
    assert d["request"]["achieved_tflops_per_gpu"] is None
    assert named(d) == {"3 天": "other_setup", "model: 7B": "other_setup"}
