"""s35 fixb: findings of a fresh-user trial on verdicts and memory figures."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.render.memory_text import tight
from estimator.models import Memory
from estimator.plan import HEADROOM

GIB = 2**30

GRPO_COLOCATE = {
    "en": "GRPOConfig(num_generations=8, max_completion_length=1024, per_device_train_batch_size=8, "
    'use_vllm=True, vllm_mode="colocate") Qwen2.5-3B on 2x A100 80G',
    "zh": "Qwen2.5-3B GRPO 训练，TRL，use_vllm=True vllm_mode=colocate，num_generations=8，"
    "per_device_train_batch_size=8，2张A100 80G",
}


def ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", question])
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_zero_alternative_to_plain_ddp_is_held_to_the_borderline_rule(capsys, lang):
    """#1: TRL runs plain DDP as configured (verdict 'no'); the ZeRO-1 plan offered instead is ≈ 56.0 GiB
    of the 56 GiB that colocated vLLM (0.3 × 80 GiB = 24 GiB) leaves: above 90 % of usable, and the band's
    high end above usable — 'fits only just … borderline', not a plain 'it fits'."""
    out = ask(capsys, GRPO_COLOCATE[lang])
    report, m = out["report"], out["report"]["memory"]
    assert (report["feasible"], report["feasible_reason"]) == ("no", "tool_default_ddp")
    assert m["usable_bytes"] == pytest.approx(56 * GIB, rel=1e-3)  # 80 GiB × (1 − 0.3)
    assert m["per_gpu_bytes_high"] > m["usable_bytes"]
    first = out["reply"].splitlines()[0]
    said = {"en": ("it fits only just", "— borderline (see below)"), "zh": ("勉强放得下", "处于临界")}[lang]
    assert all(x in first for x in said), first
    assert "it fits, ≈" not in first and "就放得下" not in first


def _mem(per_gpu: float, high: float | None, usable: float = 80 * GIB) -> Memory:
    return Memory.model_construct(per_gpu_bytes=per_gpu, per_gpu_bytes_high=high, usable_bytes=usable)


def test_tight_is_the_verdicts_rule():
    """The rule of estimator.verdicts.training_verdict: likely > 90 % of usable ('tight') or high end >
    usable ('high_edge'); worked on 80 GiB: 72 GiB is exactly 90 %."""
    assert HEADROOM == 0.9
    assert not tight(_mem(72 * GIB, 79 * GIB))  # 90.0 %, high end inside
    assert tight(_mem(72.1 * GIB, 79 * GIB))  # above 90 %
    assert tight(_mem(40 * GIB, 80.1 * GIB))  # high end above usable
    assert not tight(_mem(40 * GIB, None))
    assert not tight(None)
