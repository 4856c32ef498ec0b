"""The s14 design review's findings on the merged readers (each reproduced before the fix)."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process, named

WISHED = [
    "I need a 7B trained for 3 days max on 200B tokens, how many H100?",
    "We need a 7B pretrained over 3 days on 200B tokens, how many H100?",
    "我们需要 3 天训完 7B，200B token，要几张 H100？",
]


@pytest.mark.parametrize("question", WISHED)
def test_a_wished_duration_is_the_deadline(capsys: pytest.CaptureFixture[str], question: str) -> None:
    """'trained for 3 days max' is what the job may take: the deadline, as main read it (the merged
    past-run reader took it as a run's 72 hours on one GPU, 'MFU 3,275 %')."""
    d = ask_in_process(capsys, question)
    assert (d["request"]["deadline_days"], d["request"]["hours"]) == (3.0, None)
    # 6 · 7e9 · 2e11 = 8.4e21 FLOPs in 3 days: 160 H100 (20 nodes of 8)
    assert d["report"]["gpus_for_deadline"] == 160


def test_a_past_run_without_its_cards_keeps_the_days_as_the_deadline(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Without the run's GPU count its cost comes from the GPU-hours (the same at any count): the days
    size the count, never one GPU."""
    d = ask_in_process(capsys, "We trained a 7B on 200B tokens on H100s for 3 days. What did it cost?")
    assert (d["request"]["deadline_days"], d["request"]["hours"]) == (3.0, None)


def test_a_past_run_with_its_cards_is_that_runs_duration(capsys: pytest.CaptureFixture[str]) -> None:
    d = ask_in_process(capsys, "We ran a 7B pretrain on 200B tokens on 64 H100 for 3 days, what did it cost?")
    assert (d["request"]["deadline_days"], d["request"]["hours"], d["request"]["gpu_count"]) == (
        None,
        72.0,
        64,
    )


@pytest.mark.parametrize(
    "question",
    [
        "上次用 8 张 A100 训 7B 用了 3 天，这次用 16 张 A100 训 13B 同样 50 亿 token 要多久",  # another count
    ],
)
def test_an_earlier_run_on_other_cards_or_data_sets_no_throughput(
    capsys: pytest.CaptureFixture[str], question: str
) -> None:
    """The earlier-run calibration holds only for the job's own cards, count and data: '8 张' beside the
    job's 16 divided the run by 16 GPUs (MFU 16.2 % for 32.5 %); '一样的卡' is no same data."""
    d = ask_in_process(capsys, question)
    assert d["request"]["achieved_tflops_per_gpu"] is None


def test_an_earlier_run_of_another_model_on_the_same_cards_gives_its_own_mfu(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Other data on the same cards (s15 trial #2): the run's own throughput on its own count and data,
    6 · 7e9 · 1e9 ÷ (8 × 3 × 86,400 s) = 20.3 TFLOPS per GPU, times the 13B job — never divided by another
    count."""
    d = ask_in_process(
        capsys, "上次用 8 张 A100 训 7B 10 亿 token 用了 3 天，这次用一样的卡训 13B 50 亿 token 要多久"
    )
    assert d["request"]["achieved_tflops_per_gpu"] == 20.3


def test_an_earlier_run_on_the_same_data_calibrates(capsys: pytest.CaptureFixture[str]) -> None:
    d = ask_in_process(capsys, "上次用 8 张 A100 训 7B 用了 3 天，这次 13B 同样 50 亿 token 要多久")
    # 6 · 7e9 · 5e9 / (8 × 259,200 s) = 101.3 TFLOPS per GPU (32.5 % of the A100's 312)
    assert d["request"]["achieved_tflops_per_gpu"] == pytest.approx(101.3)


def test_layers_said_for_a_server_runtime_are_named(capsys: pytest.CaptureFixture[str]) -> None:
    d = ask_in_process(
        capsys, "Serve Qwen2.5-72B with vLLM on one RTX 4090 and 128GB RAM, offload 40 layers to the GPU"
    )
    assert named(d)["gpu_layers: 40"] == "serving_offload"
