"""Session 37 fixh: say the user's setting first.

1. A per-GPU memory question with no count ('deepseek-v3 inference on H200, memory per gpu?') leads with each
   GPU's share on the fewest GPUs that hold the sized load, and the count, then the sum and its parts.
"""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json

# 1. the per-GPU figure first ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lead"),
    [
        # 673 GB fp8 weights + 68.6 KiB × 4,096 × 16 = 4.6 GB KV + 8 GPUs' runtime 39.6 GB = 717 GB;
        # ÷ 8 = 89.6 GB
        (
            "deepseek-v3 inference on H200, memory per gpu?",
            "≈ 89.6 GB of GPU memory per GPU on 8 GPUs, 717 GB in all",
        ),
        ("deepseek-v3 H200 推理，每张卡显存占多少", "每卡显存约 89.6 GB（8 张卡），共 717 GB"),
        # 72.7B × 2 B = 145 GB + 320 KiB × 4,096 × 16 = 21.5 GB + 4 GPUs' runtime 9.3 GB = 176 GB;
        # ÷ 4 = 44.1 GB
        (
            "how much VRAM is needed to serve Qwen2.5-72B?",
            "≈ 44.1 GB of GPU memory per GPU on 4 GPUs, 176 GB in all",
        ),
        ("Qwen2.5-72B 推理需要多少显存", "每卡显存约 44.1 GB（4 张卡），共 176 GB"),
    ],
)
def test_per_gpu_memory_first_on_the_fewest_gpus(text: str, lead: str) -> None:
    out = answer_json(text)
    head = out["reply"].splitlines()[0]
    assert head.startswith(lead), head
    inf = out["report"]["inference"]
    assert inf["serving_gpus"] == inf["recommended_gpus"]  # no count stated: the fewest that hold the load


def test_per_gpu_share_is_the_sum_over_the_gpus() -> None:
    out = answer_json("deepseek-v3 inference on H200, memory per gpu?")
    assert "673 GB + KV cache 4.6 GB for 16 × 4K + runtime 39.6 GB)" in out["reply"].splitlines()[0]
    assert out["report"]["inference"]["recommended_gpus"] == 8
