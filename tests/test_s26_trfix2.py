"""s26 fresh-user trial, training findings: #12 a days-table row's GPU-hours are its days × GPUs × 24
(recompute and scale-out alike), #17 one 'Used' item per text, #21 a pasted 'ds_config.json' asks for no
launch recipe."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.parse import parse

BUDGET_72B = (
    "We have a $50,000 budget and 3 weeks to fine-tune Qwen2.5-72B (full parameters) on 2B tokens. "
    "Which GPUs and how many?"
)
DS_PASTE = """Here is my ds_config.json for full fine-tuning Llama-3.1-8B on 4x L40S 48GB, seq len 4096:
{"bf16": {"enabled": true}, "zero_optimization": {"stage": 2,
 "offload_optimizer": {"device": "cpu", "pin_memory": true}}, "train_micro_batch_size_per_gpu": 4}
How much CPU RAM do I need?"""


def ask(capsys: pytest.CaptureFixture[str], question: str, fmt: str = "json") -> dict | str:
    main(["ask", "--format", fmt, question])
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


def test_days_and_gpu_hours_are_one_figure(capsys: pytest.CaptureFixture[str]) -> None:
    """#12: 16 H100s recompute to fit (×4/3) and pay the scale-out past the job's reference count; the row
    said 3.30 days beside 1,166 GPU-hours (= 3.04 days on 16). Now its hours are 3.30 × 16 × 24 ≈ 1,268,
    and the cost bills them."""
    d = ask(capsys, BUDGET_72B)
    row = next(r for r in d["report"]["days_table"] if r["gpus"] == 16)
    assert row["gpu_hours"]["likely"] == pytest.approx(row["likely"] * 16 * 24, rel=1e-6)
    assert row["cost"]["billed_gpu_hours"] == pytest.approx(row["gpu_hours"]["likely"], abs=1)
    for r in d["report"]["days_table"]:  # every row with hours of its own: the same identity
        if r.get("gpu_hours"):
            assert r["gpu_hours"]["likely"] == pytest.approx(r["likely"] * r["gpus"] * 24, rel=1e-6)
    text = ask(capsys, BUDGET_72B, "text")
    assert "(1,268 GPU-hours × $1.50–3.50 per GPU-hour)" in text
    # s40-fixh #3: one figure — the GPU-hours line quotes the 1,268 the headline and the cost bill
    assert "full recompute on 16 GPUs to fit (×1.3) and the scale-out to them, both included" in text
    assert "• GPU-hours: 1,268 H100-hours" in text and "875" not in text


def test_one_used_item_per_text(capsys: pytest.CaptureFixture[str]) -> None:
    """#17: 'Used: “training framework: DeepSpeed” (…); “training framework: DeepSpeed” (…)'."""
    text = ask(capsys, DS_PASTE, "text")
    used = next(line for line in text.splitlines() if line.startswith("Used:"))
    assert used.count("training framework: DeepSpeed") == 1


def test_a_pasted_config_file_asks_for_no_recipe(capsys: pytest.CaptureFixture[str]) -> None:
    """#21: '.json' in 'ds_config.json' read as a recipe word: a stray stderr note about P-tuning recipes."""
    assert parse(DS_PASTE).recipe_tools is None
    main(["ask", DS_PASTE])
    assert "launch recipe" not in capsys.readouterr().err
    assert parse("给我 DeepSpeed 的 json 配置").recipe_tools == ["deepspeed"]  # a recipe word still asks


@pytest.mark.parametrize(
    ("question", "not_used"),
    [
        ("全参微调Qwen2.5-7B，8张H100，数据3亿token，要多久？" * 400, "未使用"),
        ("Full fine-tune Qwen2.5-7B on 8 H100, 300M tokens, how long? " * 200, "Not used"),
    ],
)
def test_a_value_said_again_and_used_is_not_named(
    capsys: pytest.CaptureFixture[str], question: str, not_used: str
) -> None:
    """#18: a long paste repeating its settings said 'Not used: “8” (a second value for the same setting;
    used: 8)' — the 8 is used. The parse still records the repeat (JSON), the reply no longer names it."""
    d = ask(capsys, question[:12000])
    assert d["request"]["gpu_count"] == 8
    assert not_used not in d["reply"].split("\n\n")[0]
