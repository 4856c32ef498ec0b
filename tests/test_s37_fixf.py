"""Session 37 part fixf: training answers a second fresh-user trial found wrong, on the merged tree.

1. 8B DPO on 8 × RTX 4090 (no NVLink) escaped s37 fixc's 'no TP over PCIe where ZeRO/FSDP fits': ZeRO-3
   with full recompute is ~28 GiB a card (the logits of chosen + rejected over a 128k vocabulary are
   not split by ZeRO), so TP 8 (vocabulary-parallel logits) was the only layout at the card. ZeRO-3 with
   the optimizer states in CPU memory (DeepSpeed offload_optimizer) fits data-parallel; the Hugging Face
   stacks people run DPO with (TRL) have no TP, so that is the layout.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict:
    main(["ask", text, "--format", "json"])
    return json.loads(capsys.readouterr().out)


GIB = 2**30

# --- 1. DPO 8B on 8 × RTX 4090 --------------------------------------------------------------------


@pytest.mark.parametrize("text", ["DPO llama3-8b on 8x 4090, 20k pairs", "8张4090 做 llama3-8b DPO"])
def test_8b_dpo_on_pcie_is_zero3_offload_not_tp(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """Llama 3 8B (8.03e9 parameters), DPO, 8 × RTX 4090. ZeRO-3 over 8, worked by hand: policy bf16
    weights 2·8.03e9/8 = 2.0075e9 B = 1.87 GiB, gradients the same, the frozen bf16 reference the same;
    the fp32 master + Adam m + v (12·8.03e9/8 = 12.0 GB = 11.2 GiB) go to CPU memory, so the card holds
    no optimizer part. The plan is DP 8 with offload, not TP 8 × DP 1 (before), and no TP layout is named
    anywhere in the memory section (the fewest and the recommended count are the user's 8)."""
    data = ask(capsys, text)
    m = data["report"]["memory"]
    assert data["report"]["hardware"]["nvlink"] is False
    for key in ("plan", "min_plan", "recommended_plan"):
        plan = m[key]
        assert (plan["tp"], plan["pp"], plan["dp"], plan["zero_stage"], plan["offload"]) == (1, 1, 8, 3, True)
    parts = m["breakdown"]
    for part in ("weights", "gradients", "reference"):
        assert parts[part] == pytest.approx(2 * 8.03e9 / 8, rel=0.01)
    assert parts.get("optimizer", 0.0) == 0.0
    assert m["per_gpu_bytes"] <= 24 * GIB and m["fits_requested"] is True
    assert "TP 8" not in data["reply"] and "Megatron" not in data["reply"]


def test_7b_dpo_on_pcie_keeps_plain_zero3(capsys: pytest.CaptureFixture[str]) -> None:
    """Must-not-change: where ZeRO-3 fits without offload (7B DPO, 30k pairs on 8 × 4090: ≈ 21.9 GiB of
    24), no offload is added: ZeRO-3 DP 8 as s37 fixc made it."""
    m = ask(capsys, "7b模型DPO,3万对偏好数据,8张4090")["report"]["memory"]
    plan = m["plan"]
    assert (plan["tp"], plan["dp"], plan["zero_stage"], plan["offload"]) == (1, 8, 3, False)


def test_nvlink_8b_dpo_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    """Must-not-change: on NVLink cards (8 × A100 80G) the rule does not apply: no offload."""
    m = ask(capsys, "DPO llama3-8b on 8x A100 80G, 20k pairs")["report"]["memory"]
    assert m["plan"]["offload"] is False
