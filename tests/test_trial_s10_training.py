"""Training-estimator defects from the s10 fresh-user trial (/work/notes/s10/trial_report.md A2, A3, A5).

A2: an RL run's rollout decode hours were multiplied by the training recompute factor (ms-swift GRPO 32B:
136 rollout + 54 training = 190 GPU-hours, total shown 228 = 190 × 1.2). Decoding recomputes nothing
(Korthikanti et al. 2022 §5: full recomputation repeats the forward inside the backward), so only the
training part is slowed, and the parts add up to the total.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main

GRPO = {
    "en": "GRPO with ms-swift, Qwen2.5-32B, num_generations 8, vllm_tensor_parallel_size 2, 16 H100, "
    "5000 prompts, max_completion_length 4096",
    "zh": "用 ms-swift 跑 GRPO，Qwen2.5-32B，num_generations 8，vllm_tensor_parallel_size 2，16张H100，"
    "5千条prompt，max_completion_length 4096",
}


def _ask(capsys, question: str) -> dict:
    assert main(["ask", "--format", "json", question]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_rl_recompute_slows_only_the_training_part(capsys, lang: str) -> None:
    """Total = rollout decode + training passes × (k + 2)/k, k = 10 for GRPO (design §3.2)."""
    d = _ask(capsys, GRPO[lang])
    rep = d["report"]
    factor = next(a["value"] for a in d["assumptions"] if a["field"] == "recompute_time")
    assert factor == pytest.approx(1.2)  # (10 + 2) / 10
    roll, total = rep["rollout"], rep["gpu_hours"]["likely"]
    assert total == pytest.approx(roll["gpu_hours"] + roll["training_gpu_hours"]["likely"], rel=1e-9)
    assert roll["gpu_hours"] == pytest.approx(136.3, abs=0.1)  # decode time, unchanged by recompute
    assert roll["training_gpu_hours"]["likely"] == pytest.approx(53.67 * 1.2, abs=0.1)
    assert total == pytest.approx(200.7, abs=0.1)  # was 227.9 = 189.9 × 1.2
