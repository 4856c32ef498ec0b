"""s27-trgen: whether an RL run loads a reference model follows each tool's source (estimator.rl_reference):
verl builds one only with ``use_kl_loss`` or ``use_kl_in_reward`` (both false by default: 8·N·D, no reference
forward), OpenRLHF with ``--init_kl_coef`` above 0 (0.01 by default: 10·N·D for GRPO), ms-swift's GRPO with
``beta`` unset at 0.04, TRL's GRPO not at its ``beta`` 0.0; and the keys that state them are read from the
tools' own example scripts."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.parse import parse
from estimator.models import Algorithm, SizingRequest
from estimator.rl_reference import (
    OPENRLHF_INIT_KL_COEF,
    SWIFT_GRPO_BETA,
    TRL_GRPO_BETA,
    VERL_KL_COEF,
    VERL_KL_LOSS_COEF,
    default_kl,
    has_reference,
)
from tests.real_questions import answer_json

CONFIGS = Path(__file__).parent / "data" / "configs"


def test_the_tools_kl_defaults_are_their_sources():
    assert (
        VERL_KL_COEF == 0.0
    )  # verl actor.yaml L95 use_kl_loss: false; ppo_trainer.yaml L87 use_kl_in_reward
    assert VERL_KL_LOSS_COEF == 0.001  # verl actor.yaml L105 kl_loss_coef: 0.001
    assert OPENRLHF_INIT_KL_COEF == 0.01  # OpenRLHF train_ppo_ray.py --init_kl_coef default=0.01
    assert SWIFT_GRPO_BETA == 0.04  # ms-swift rlhf_args.py L355–356
    assert TRL_GRPO_BETA == 0.0  # TRL grpo_config.py L671 (v1.9.0)
    assert default_kl("verl", "grpo") == 0.0 and default_kl("OpenRLHF", "ppo") == 0.01
    assert default_kl(None, "grpo") is None  # no tool: GRPO as published, with its KL term


@pytest.mark.parametrize(
    ("tool", "algorithm", "beta", "loaded"),
    [
        ("verl", "grpo", None, False),  # need_reference_policy: both KL switches default false
        ("verl", "ppo", None, False),
        ("verl", "grpo", 0.001, True),  # use_kl_loss=True at its kl_loss_coef
        ("OpenRLHF", "ppo", None, True),  # --init_kl_coef 0.01 > 0: ReferenceModelActor built
        ("OpenRLHF", "grpo", 0.0, False),  # --init_kl_coef 0: ref_model = None
        ("ms-swift", "grpo", None, True),  # beta None → 0.04
        ("ms-swift", "grpo", 0.0, False),  # beta 0.0 → ref_model = None
        ("TRL", "grpo", None, False),  # beta 0.0
        ("TRL", "rloo", None, True),  # RLOOConfig beta 0.05
        (None, "grpo", None, True),  # DeepSeekMath §4.1
    ],
)
def test_reference_model_by_tool(tool, algorithm, beta, loaded):
    req = SizingRequest(algorithm=Algorithm(algorithm), training_tool=tool, kl_beta=beta)
    assert has_reference(req) is loaded


def test_verl_grpo_is_8nd_without_its_kl_and_openrlhf_10nd_with_its_default():
    """GRPO = 6·N·D training + 2·N·D generation + 2·N·D reference forward when a reference is loaded."""
    flops = {}
    for tool in ("verl", "OpenRLHF"):
        report = answer_json(f"GRPO full fine-tune of Qwen2.5-7B with {tool} on 8 A100, 1B tokens, how long?")
        flops[tool] = (report["report"]["flops_formula"], report["report"]["flops"])
    assert flops["verl"][0] == "8ND" and flops["OpenRLHF"][0] == "10ND"
    assert flops["OpenRLHF"][1] == pytest.approx(flops["verl"][1] * 10 / 8)
    off = answer_json(
        "GRPO full fine-tune of Qwen2.5-7B with OpenRLHF on 8 A100, 1B tokens, --init_kl_coef 0"
    )
    assert off["request"]["kl_beta"] == 0.0 and off["report"]["flops_formula"] == "8ND"


def test_verl_example_script_switches_its_kl_loss_on():
    """volcengine/verl@b178a3c examples/grpo_trainer/run_deepseek7b_llm.sh: ``use_kl_loss=True``,
    ``kl_loss_coef=0.001``, ``use_kl_in_reward=False`` → a reference model at 0.001; the same script with
    ``use_kl_loss=False`` has none."""
    script = (CONFIGS / "verl" / "run_deepseek7b_llm.sh").read_text()
    assert parse("How many GPUs for this?\n" + script).request.kl_beta == 0.001
    off = script.replace("use_kl_loss=True", "use_kl_loss=False")
    assert parse("How many GPUs for this?\n" + off).request.kl_beta == 0.0


def test_openrlhf_v011_example_dotted_flags_are_read():
    """OpenRLHF/OpenRLHF@3c3be62 (v0.11.0) examples/scripts/train_reinforce_baseline_hybrid_engine.sh: the
    dotted flags of the rollout and its KL (``--rollout.n_samples_per_prompt 8``, ``--rollout.max_new_tokens
    64000``, ``--data.max_len 74240``, ``--algo.kl.init_coef 1e-5``, ``--ds.zero_stage 3`` …)."""
    script = (CONFIGS / "openrlhf" / "train_reinforce_baseline_hybrid_engine.sh").read_text()
    data = answer_json("How many GPUs for this?\n" + script)
    want = {
        "num_generations": 8, "max_completion_length": 64000, "seq_len": 74240, "global_batch": 1024,
        "batch_size": 1, "epochs": 1.0, "zero_stage": 3, "recompute": "full", "rollout_tp": 2,
        "rollout_gpu_memory_utilization": 0.7, "kl_beta": 1e-05, "training_tool": "OpenRLHF", "gpu_count": 4,
    }  # fmt: skip
    assert {k: data["request"][k] for k in want} == want
    used = data["stack_config"]["used"]
    assert (
        used["algo.kl.init_coef"] == "kl_beta" and used["rollout.n_samples_per_prompt"] == "num_generations"
    )
