"""s39-dponly (issue 24 item 3): with no training tool named, LoRA, QLoRA and DPO are sized for the
data-parallel-only stacks people run them with (PEFT on the Hugging Face Trainer, TRL, LLaMA-Factory,
axolotl, OpenRLHF: DeepSpeed ZeRO or FSDP, no tensor or pipeline parallelism); the assumption line says
which stack and why; where only a TP/PP layout fits, the answer says so for that stack and names another
(NeMo / Megatron-LM) with its count. A tool named, a TP/PP stated, a full SFT and RL (verl's Megatron
backend runs TP/PP) keep the full layout search. Sentences written for these tests, zh and en."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

GIB = 2**30


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict:
    assert main(["ask", "--format", "json", text]) == 0
    return json.loads(capsys.readouterr().out)


def _stack(data: dict) -> dict | None:
    return next((a for a in data["assumptions"] if a["field"] == "training_stack"), None)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("DPO 7B 用 4 张 A100 40G", "训练框架（假设）"),
        ("DPO a 7B model on 4x A100 40GB", "Training stack (assumed)"),
    ],
)
def test_dpo_on_four_a100_40g_is_zero3_not_tp(
    capsys: pytest.CaptureFixture[str], text: str, words: str
) -> None:
    """Was TP 4. ZeRO-3 over 4, by hand for the generic 7B (P parameters): policy bf16 weights 2P/4,
    gradients 2P/4, the frozen bf16 reference 2P/4, fp32 master + Adam m + v 12P/4: 18P/4 of model states,
    31.5 GB = 29.3 GiB at P = 7e9; it fits the 40 GiB card with full recompute (DP 4, ZeRO-3)."""
    data = ask(capsys, text)
    m = data["report"]["memory"]
    plan = m["plan"]
    assert (plan["tp"], plan["pp"], plan["dp"], plan["zero_stage"]) == (1, 1, 4, 3)
    p = m["breakdown"]["weights"] * 4 / 2
    assert p == pytest.approx(7e9, rel=0.05)
    states = sum(m["breakdown"][k] for k in ("weights", "gradients", "optimizer", "reference"))
    assert states == pytest.approx(18 * p / 4, rel=1e-6)
    assert m["per_gpu_bytes"] <= 40 * GIB
    stack = _stack(data)
    assert stack is not None and stack["why"] == "dp_tool_dpo"
    assert words in data["reply"] and "TP 4" not in data["reply"]


@pytest.mark.parametrize(
    "text", ["LoRA fine-tune Qwen2.5-32B on 4x RTX 4090", "用 4 张 4090 对 Qwen2.5-32B 做 LoRA 微调"]
)
def test_lora_32b_on_4090s_is_data_parallel(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """Was TP 2 × DP 2. ZeRO-3 shards the frozen bf16 base: 2 × 32.8e9 / 4 = 16.4 GB a card (the base's
    own parameter count, ± its embedding), with full recompute: DP 4."""
    data = ask(capsys, text)
    m = data["report"]["memory"]
    plan = m["plan"]
    assert (plan["tp"], plan["pp"], plan["dp"], plan["zero_stage"]) == (1, 1, 4, 3)
    assert m["breakdown"]["weights"] == pytest.approx(2 * 32.8e9 / 4, rel=0.01)
    assert _stack(data)["why"] == "dp_tool_adapters"


@pytest.mark.parametrize(
    "text", ["Qwen2.5-72B用LoRA微调，8张4090够不够？", "LoRA fine-tune Qwen2.5-72B on 8x RTX 4090, enough?"]
)
def test_only_a_tp_layout_fits_names_the_stack_that_runs_it(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """72B LoRA on 8 × 24 GiB: ZeRO-3 shards the base (72.7e9 × 2 / 8 = 18.2 GB = 16.9 GiB a card) but not
    the activations and logits, so the assumed stack does not fit the 8; NeMo's TP 8 does (8 GPUs)."""
    data = ask(capsys, text)
    m = data["report"]["memory"]
    assert m["plan"]["tp"] == 1 and m["breakdown"]["weights"] == pytest.approx(72.7e9 * 2 / 8, rel=0.01)
    assert data["report"]["feasible"] == "no"
    rows = {a["change"]: a["min_gpus"] for a in m["alternatives"]}
    assert rows["other_stack"] == 8
    assert "NeMo" in data["reply"]


@pytest.mark.parametrize(
    "text",
    [
        "LoRA fine-tune Qwen2.5-72B with NeMo on 8x RTX 4090, enough?",  # a TP stack named
        "Qwen2.5-72B用LoRA微调，TP 8，8张4090够不够？",  # a layout stated
        "全参微调Qwen2.5-14B，8张A100",  # full SFT: the search keeps TP/PP
        "If I switch on every memory-saving trick, what's the fewest GPUs that can run PPO on a 70B policy?",
    ],
)
def test_no_stack_assumed_where_the_rule_does_not_apply(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """Must-not: a tool named, a TP stated, a full SFT and RL keep the search and carry no assumed stack;
    70B PPO keeps its count (40 A100 80G, TP 8 with ZeRO-3; it was None under the DP-only rule)."""
    data = ask(capsys, text)
    assert _stack(data) is None
    m = data["report"]["memory"]
    if "PPO" in text:
        assert m["min_gpus"] == 40 and m["min_plan"]["tp"] == 8
    if "TP 8" in text or "NeMo" in text:
        assert m["plan"]["tp"] == 8
