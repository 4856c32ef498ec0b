"""Session 24 trial #13: QLoRA 70B on 2 × RTX 3090 with no tool named was "borderline" at TP 2, a layout no
QLoRA tool runs (bitsandbytes 4-bit weights train under PEFT with DDP, DeepSpeed ZeRO or FSDP — Answer.AI's
fsdp_qlora — or on one GPU; Megatron-LM's tensor parallelism takes no bitsandbytes base), while naming
LLaMA-Factory said "does not fit, at least 4". Unnamed, QLoRA now keeps to the same data-parallel layouts."""

from __future__ import annotations

import json

from bot.cli import main

QUESTION = "QLoRA Llama-3.3-70B on 2x RTX 3090 (24GB each), seq len 1024, 10k examples, 2 epochs. Feasible?"


def _report(capsys, question: str) -> dict:
    capsys.readouterr()
    assert main(["ask", "--format", "json", question]) == 0
    return json.loads(capsys.readouterr().out)["report"]


def test_unnamed_qlora_plans_as_a_qlora_tool_does(capsys) -> None:
    unnamed = _report(capsys, QUESTION)["memory"]
    named = _report(capsys, QUESTION + " We use LLaMA-Factory.")["memory"]
    assert unnamed["plan"]["tp"] == unnamed["plan"]["pp"] == 1  # was TP 2
    assert unnamed["plan"]["zero_stage"] == 3  # ZeRO-3 / FSDP shards the NF4 weights (fsdp_qlora)
    assert (unnamed["fits_requested"], unnamed["min_gpus"]) == (False, 4)
    assert (named["fits_requested"], named["min_gpus"]) == (unnamed["fits_requested"], unnamed["min_gpus"])


def test_a_stated_tensor_parallel_layout_is_kept(capsys) -> None:
    """A TP the user states is theirs to state: kept as given (and sized), not replaced."""
    plan = _report(capsys, QUESTION + " TP 2.")["memory"]["plan"]
    assert plan["tp"] == 2
