"""RL algorithms named in a question (s7 fix item 3): RLOO is TRL's RLOOTrainer (Ahmadian et al. 2024:
k samples per prompt, the others' mean reward as the baseline, no critic), sized like GRPO: policy and
frozen reference, 10·N·D for full training (estimator.compute.flops_per_param_token). Two algorithms
compared in one message ('grpo or dpo', 'GRPO还是DPO'): the first one named is sized and the other is
named as another setup (``other_setup``), in both languages, through ``sizing-bot ask``."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_json, ask_text

QWEN25_7B_PARAMS = 7.61e9
"""Qwen2.5-7B parameters (Qwen/Qwen2.5-7B config.json; model card 7.61B)."""


@pytest.mark.parametrize(
    ("question", "title"),
    [
        ("RLOO qwen2.5 7b on 8 a100, 10M tokens", "Qwen2.5 7B RLOO training"),
        ("用RLOO训练Qwen2.5-7B，8张A100，1000万token", "Qwen2.5 7B RLOO 训练"),
    ],
)
def test_rloo_is_an_algorithm_sized_like_grpo(question, title):
    """C = 10·N·D = 10 × 7.61e9 × 1e7 = 7.61e17 FLOPs (6ND training + reference and generation forwards)
    and a full-size frozen reference model in memory, as GRPO; the reply names RLOO."""
    d = ask_json(question)
    assert d["request"]["algorithm"] == "rloo"
    report = d["report"]
    assert report["flops_formula"] == "10ND"
    assert report["flops"] == pytest.approx(10 * QWEN25_7B_PARAMS * 1e7, rel=1e-3)
    # GRPO with its reference, as RLOO keeps one (TRL RLOOConfig beta 0.05); TRL's GRPOTrainer (beta 0.0)
    # loads none (s26 trial #6), so the GRPO compared names no tool (the published algorithm's reference)
    grpo = ask_json(question.replace("RLOOTrainer", "GRPO").replace("RLOO", "GRPO"))
    recommended = report["memory"]["recommended_per_gpu_bytes"]
    assert recommended == grpo["report"]["memory"]["recommended_per_gpu_bytes"]
    assert d["reply"].splitlines()[0].startswith(title)


def test_rloo_trainer_is_trl_rloo() -> None:
    """'RLOOTrainer' names TRL's trainer and the algorithm: 10ND with its reference (RLOOConfig beta 0.05),
    and TRL's own recompute modes, none or full (s27-hfsel), so its memory is not the tool-less GRPO's."""
    d = ask_json("用RLOOTrainer训练Qwen2.5-7B，8张A100，1000万token")
    assert (d["request"]["algorithm"], d["request"]["training_tool"]) == ("rloo", "TRL")
    assert d["report"]["flops_formula"] == "10ND"
    assert d["report"]["memory"]["recommended_plan"]["recompute"] in {"none", "full"}
    seq = next(a for a in d["assumptions"] if a["field"] == "seq_len")  # TRL's 512 + 256 tokens (s27-fix2)
    assert (seq["value"], seq["why"]) == (768, "trl_rl_seq_len")
    assert d["report"]["memory"]["breakdown"]["reference"] > 0  # its frozen reference (RLOOConfig beta 0.05)


@pytest.mark.parametrize(
    ("question", "sized", "other"),
    [
        ("grpo or dpo for qwen2.5 7b on 8 a100", "grpo", "algorithm: DPO"),
        ("dpo or grpo for qwen2.5 7b on 8 a100", "dpo", "algorithm: GRPO"),
        ("Qwen2.5-7B 用 GRPO还是DPO，8张A100", "grpo", "algorithm: DPO"),
        ("Qwen2.5-7B 用 DPO还是GRPO，8张A100", "dpo", "algorithm: GRPO"),
        ("RLOO vs GRPO for qwen2.5 7b on 8 a100", "rloo", "algorithm: GRPO"),
    ],
)
def test_the_first_algorithm_named_is_sized_and_the_other_named(question, sized, other):
    d = ask_json(question)
    assert d["request"]["algorithm"] == sized
    assert {"text": other, "reason": "other_setup"} in d["interpretation"]["ignored"]


def test_one_pipeline_is_not_a_comparison():
    """'SFT then DPO' is one DPO pipeline: nothing named as another setup."""
    d = ask_json("SFT then DPO qwen2.5 7b on 8 a100")
    assert d["request"]["algorithm"] == "dpo"
    assert not [i for i in d["interpretation"]["ignored"] if i["reason"] == "other_setup"]


def test_the_reply_says_which_in_both_languages():
    en = ask_text("grpo or dpo for qwen2.5 7b on 8 a100")
    assert en.splitlines()[0].startswith("Qwen2.5 7B GRPO training")
    assert "“algorithm: DPO” (another setup in your message" in en
    zh = ask_text("Qwen2.5-7B 用 GRPO还是DPO，8张A100")
    assert zh.splitlines()[0].startswith("Qwen2.5 7B GRPO 训练")
    assert "“algorithm: DPO”（你消息里的另一套配置" in zh
