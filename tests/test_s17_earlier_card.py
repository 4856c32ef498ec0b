"""Trial s17 #3: an earlier run of the same model and method on another card ('8 张 A800 … 20 小时，现在
… 16 张 H100') is no longer thrown away as 'another model, method or card': its MFU (its throughput ÷ its
card's dense peak) times the new job on the new card, and the reply says so and that a newer card often
reaches a different MFU. Another model or another method on the other card is still named, not used."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def _ask(capsys, question: str, fmt: str = "json"):
    main(["ask", "--format", fmt, question])
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


def _named(d: dict) -> dict[str, str]:
    return {
        i["text"]: i["reason"] for i in d["interpretation"]["ignored"] if i["reason"].startswith("earlier")
    }


# 6 × 7.6e9 (Qwen2.5-7B's catalog size) × 2e8 ÷ (4 × 12 h × 3,600 s) = 52.8 TFLOPS per A100; ÷ 312 = 16.9 %;
# carried to the H800 (H100-class) by the calibrated likely-MFU ratio 0.28 ÷ 0.40 = 0.7: 11.8 % (review #5)
RATIO = 0.28 / 0.40
CASES = [
    (
        "上次用 4 张 A100 80G 全参微调 Qwen2.5-7B，2 亿 token 花了 12 小时。"
        "这次 4 亿 token，改用 8 张 H800，要多久？",
        "Qwen2.5-7B · 4 × A100 · 12 小时 → MFU",
        "换了更新的卡，MFU 往往会不同",
    ),
    (
        "Last time a full fine-tune of Qwen2.5-7B on 200M tokens took 12 hours on 4 A100 80GB. "
        "This time 400M tokens on 8 H800s: how long?",
        "Qwen2.5-7B · 4 × A100 · 12 hours → MFU",
        "a newer card often reaches a different MFU",
    ),
]


@pytest.mark.parametrize(("question", "item", "words"), CASES)
def test_the_runs_mfu_times_the_new_card(capsys, question, item, words):
    d = _ask(capsys, question)
    req, report = d["request"], d["report"]
    assert (req["gpu"], req["gpu_count"], req["tokens"]) == ("H800-SXM5-80GB", 8, 4e8)
    params = req["params_total"]
    mfu = 6 * params * 2e8 / (4 * 12 * 3600) / 312e12 * RATIO
    assert req["mfu"] == pytest.approx(mfu, abs=6e-4) and req["achieved_tflops_per_gpu"] is None
    # the new job at that MFU on the H800's own peak: 6·N·D ÷ (peak × MFU) in GPU-hours
    peak = report["peak_flops"]
    assert report["gpu_hours"]["likely"] == pytest.approx(
        6 * params * 4e8 / (peak * req["mfu"]) / 3600, rel=0.02
    )
    ((text, reason),) = _named(d).items()
    assert text.startswith(item) and reason == "earlier_run_other_card"
    assert words in _ask(capsys, question, "text")


def test_another_method_on_another_card_is_named_not_used(capsys):
    d = _ask(
        capsys,
        "上次用 4 张 A100 80G 全参微调 Qwen2.5-7B，2 亿 token 花了 12 小时。这次用 LoRA 微调 Qwen2.5-7B，"
        "4 亿 token，8 张 H800，要多久？",
    )
    assert list(_named(d).values()) == ["earlier_run_other_job"]
    assert d["report"]["mfu"]["likely"] != pytest.approx(0.169, abs=0.01)  # the calibrated MFU, not the run's
