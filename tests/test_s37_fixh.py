"""Session 37 fixh: say the user's setting first.

1. A per-GPU memory question with no count ('deepseek-v3 inference on H200, memory per gpu?') leads with each
   GPU's share on the fewest GPUs that hold the sized load, and the count, then the sum and its parts.
2. A DeepSpeed config's ZeRO-2 + optimizer offload that fits their 2 GPUs at micro-batch 1 leads with that
   change, before 'with ZeRO-3: 2 GPUs' (a stage change).
"""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json

# 1. the per-GPU figure first ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lead"),
    [
        # 673 GB fp8 weights + 68.6 KiB × 4,096 × 16 = 4.6 GB KV + 8 GPUs' runtime 39.6 GB = 717 GB;
        # ÷ 8 = 89.6 GB, in GiB (the card's unit, s38 fixs #5: was GB beside a GiB card): 668 and 83.5 GiB
        (
            "deepseek-v3 inference on H200, memory per gpu?",
            "≈ 83.5 GiB of GPU memory per GPU on 8 GPUs, 668 GiB in all",
        ),
        ("deepseek-v3 H200 推理，每张卡显存占多少", "每卡显存约 83.5 GiB（8 张卡），共 668 GiB"),
        # 72.7B × 2 B = 145 GB + 320 KiB × 4,096 × 16 = 21.5 GB + 4 GPUs' runtime 9.3 GB = 176 GB;
        # ÷ 4 = 44.1 GB: 164 GiB ÷ 4 = 41.0 GiB (s38 fixs #5)
        (
            "how much VRAM is needed to serve Qwen2.5-72B?",
            "≈ 41.0 GiB of GPU memory per GPU on 4 GPUs, 164 GiB in all",
        ),
        ("Qwen2.5-72B 推理需要多少显存", "每卡显存约 41.0 GiB（4 张卡），共 164 GiB"),
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
    # 673 GB + 4.6 GB + 39.6 GB in GiB, the card's unit (s38 fixs #5): 627 + 4.3 + 36.9 GiB
    assert "627 GiB + KV cache 4.3 GiB for 16 × 4K + runtime 36.9 GiB)" in out["reply"].splitlines()[0]
    assert out["report"]["inference"]["recommended_gpus"] == 8


# 2. a change that keeps the user's ZeRO stage and offload leads ---------------------------------------

_DS = (
    '{"train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 8, "bf16": {"enabled": true}, '
    '"zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}}}'
)


@pytest.mark.parametrize(
    ("text", "lead"),
    [
        (
            f"Llama 3.1 8B full finetune on 2 A100 40G, my ds_config:\n{_DS}",
            "does not fit on 2 × A100 40G as set (that would take at least 4); on your 2 GPUs: micro-batch 1 "
            "(per_device_train_batch_size) (the high end is then 39.0 GiB per GPU)",
        ),
        (
            f"Llama 3.1 8B 全参微调，2 张 A100 40G，我的 deepspeed 配置：{_DS}",
            "按现在的设置 2 张 A100 40G 放不下（这样设置至少要 4 张）；在你的 2 张卡上：微批次设为 1",
        ),
    ],
)
def test_their_stage_and_offload_kept_first(text: str, lead: str) -> None:
    out = answer_json(text)
    head = out["reply"].splitlines()[0]
    assert lead in head, head
    assert "ZeRO-3" not in head  # the stage change stays in the list below, not first
    assert out["request"]["zero_stage"] == 2 and out["request"]["offload"] is True
    mem = out["report"]["memory"]
    assert mem["fits_requested"] is False and mem["min_gpus"] == 4
    assert [c["setting"] for c in mem["fit_change"]] == ["micro_batch"]
    assert mem["fit_change"][-1]["per_gpu_bytes_high"] / 2**30 == pytest.approx(39.0, abs=0.05)


def test_a_change_of_their_stage_is_not_led_as_theirs() -> None:
    """Must not misread: their ZeRO-2 fits only with ZeRO-3 among the changes; the old headline stands."""
    text = "Llama 3.1 8B full finetune on 2 A100 40G, ZeRO-2, micro batch 4, seq len 8192"
    head = answer_json(text)["reply"].splitlines()[0]
    assert "DeepSpeed ZeRO-3 or FSDP" in head and "does not fit on 2 × A100 40G as set;" in head


def test_no_stage_stated_keeps_the_count_headline() -> None:
    head = answer_json("Llama 3.1 8B full finetune on 2 A100 40G, micro batch 4")["reply"].splitlines()[0]
    assert head.endswith("does not fit on 2 × A100 40G: at least 4 GPUs needed, 8 recommended"), head
