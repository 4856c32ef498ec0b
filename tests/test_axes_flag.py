"""The tool-vocabulary axis stress set (tests/data/axes/flag_{zh,en}.json, s19-audit: first-contact fault kind
D of rounds 9–12, tests/data/real_questions/README.md): a tool's own flags and keys in prose and commands
(TGI --num-shard, lmdeploy --tp / session_len, SGLang mem_fraction_static, Megatron's parallel sizes, verl's
rollout TP, Ollama num_ctx, FSDP SHARD_GRAD_OP …). The work two-thirds stay understood in full, and the frozen
third is the one frozen before s19-audit's two fixes (scored for totals only)."""

from __future__ import annotations

from pathlib import Path

from tests.axes import DATA, frozen_digest, records
from tests.real_questions import answer_json, score

WORK_FLOOR = 16
"""Work records understood in full after s19-audit (of 16; 14 at the freeze: 'FSDP 用 SHARD_GRAD_OP 策略' was
read as FSDP's default FULL_SHARD, 'rollout 的 tensor_model_parallel_size=2' as the training layout's TP)."""


def test_frozen_third_is_unchanged() -> None:
    stored = Path(DATA / "frozen_flag.sha256").read_text().strip()
    assert frozen_digest("flag") == stored


def test_work_split_floor() -> None:
    work = records("flag", "work")
    assert len(work) == 16
    full = sum(not score(r, answer_json(r["text"])) for r in work)
    assert full >= WORK_FLOOR


def test_fsdp_strategy_after_a_verb_and_rollout_tp_after_a_possessive() -> None:
    fsdp = answer_json("FSDP 用 SHARD_GRAD_OP 策略，8 张 A10G 全参微调 Qwen2-7B，放得下吗？")["request"]
    assert fsdp["zero_stage"] == 2  # PyTorch FSDP docs: SHARD_GRAD_OP ≈ ZeRO-2
    rl = answer_json(
        "verl 做 GRPO 训练 Qwen2.5-7B，8 张 H100，rollout 的 tensor_model_parallel_size=2，显存够吗？"
    )
    assert rl["request"]["rollout_tp"] == 2 and rl["request"].get("tp") in (None, 1)
