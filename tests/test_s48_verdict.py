"""Session 48, part verdict (issue 24 items 3–4): runs that ran out of memory and still got "fits".

rl_or_preference: DeepSpeed-Chat's step 3 loads four models on every GPU — the actor, a reference, the
critic and the reward model (DeepSpeedExamples applications/DeepSpeed-Chat dschat/rlhf/rlhf_engine.py
``DeepSpeedRLHFEngine.__init__`` @144e913779df: ``self.ref = self._init_ref(actor_model_name_or_path=…)``,
which calls ``create_hf_model`` on the actor's checkpoint a second time), and LoRA is put on the actor only
(``_init_actor``: ``if self.args.actor_lora_dim > 0: actor_model = convert_linear_layer_to_lora(…)``;
``_init_ref`` converts nothing). So with LoRA its reference is a whole 16-bit copy of the base, not the base
with its adapters switched off as TRL's PEFT path runs it. en17-029 (DeepSpeedExamples#330: a 6.7b actor
with LoRA on one A6000 48G, 512 tokens, OOM after a few steps) moves "fits" → "borderline".
"""

from __future__ import annotations

import pytest

from estimator import catalog
from estimator.model_states import state_parts
from estimator.models import Algorithm, Method, Plan
from estimator.setup import TrainingSetup
from tests.cli_run import ask_json_in_process

LLAMA2_7B = 6.74e9  # meta-llama/Llama-2-7b-hf: 6,738,415,616 parameters, the catalog's 6.74B


def _states(reference_copy: bool, method: Method = Method.lora, algorithm: Algorithm = Algorithm.ppo, dp=1):
    spec = catalog.model("Llama-2-7B")
    setup = TrainingSetup(method=method, algorithm=algorithm, reference_copy=reference_copy)
    plan = Plan(tp=1, pp=1, dp=dp, zero_stage=3 if dp > 1 else 0, recompute="none", micro_batch=1)
    return state_parts(spec, spec.params_total, setup, plan)


def test_reference_copy_is_the_whole_16_bit_base_beside_lora():
    """2 bytes a weight (DeepSpeed-Chat loads the reference in the run's dtype, bf16/fp16): 13.48 GB for
    Llama 2 7B; none without the copy (the base with its adapters off); ZeRO-3 shards it over DP as the
    actor (``_init_ref``: "If actor is ZeRO-3 then we use it for everything")."""
    assert _states(True)["reference"] == pytest.approx(2 * LLAMA2_7B)
    assert "reference" not in _states(False)
    assert _states(True, dp=4)["reference"] == pytest.approx(2 * LLAMA2_7B / 4)
    assert "reference" not in _states(True, algorithm=Algorithm.sft)  # SFT has no reference


def test_full_training_reference_is_unchanged_by_the_flag():
    """Full training always counted the copy: the flag changes nothing there."""
    assert _states(True, Method.full)["reference"] == _states(False, Method.full)["reference"]


@pytest.mark.parametrize(
    "question",
    [
        "DeepSpeed-Chat step 3 (PPO) with a 6.7b actor and LoRA on a single A6000 48G runs a few steps, "
        "with maximum total tokens (input + output) set to 512, and then hits CUDA OOM. Is a single 48G "
        "GPU enough?",
        "用 DeepSpeed-Chat 第三步做 PPO，actor 是 6.7b，LoRA，单张 A6000 48G，最大总 token 512，"
        "跑几步就 OOM，一张卡够吗？",
    ],
)
def test_deepspeed_chat_step3_lora_no_longer_fits_plainly(question):
    """en17-029: the reference's 12.5 GiB (6.7B × 2 B) beside the actor's base and the reward model's copy:
    no longer "fits" on one 48 GB card; the reference is said as used (script_reference)."""
    data = ask_json_in_process(question)
    req, memory = data["request"], data["report"]["memory"]
    assert req["reference_copy"] is True and req["method"] == "lora" and req["algorithm"] == "ppo"
    plan = memory[
        "plan"
    ]  # s49 leftovers #3: the critic, a whole 6.7B trained in full, takes the plan past one
    shard = plan["tp"] * plan["pp"] * (plan["dp"] if plan["zero_stage"] >= 3 else 1)  # GPU: its TP × PP shard
    assert memory["breakdown"]["reference"] == pytest.approx(2 * req["params_total"] / shard)
    assert {"text": "script: DeepSpeed-Chat step 3", "reason": "script_reference"} in data["interpretation"][
        "ignored"
    ]
    reply = data["reply"]
    assert ("参考模型按一整份 16 位基座计入" in reply) if "显存" in reply else ("whole 16-bit copy" in reply)


@pytest.mark.parametrize(
    "question",
    [
        "DeepSpeed-Chat step 3 PPO of Llama-2-7b with LoRA on one A100 80G, how much memory?",
        "用 DeepSpeed-Chat 第三步 PPO 训练 Llama-2-7b，LoRA，一张 A100 80G，显存够吗",
        "RLHF of Llama-2-7b with DeepSpeed-Chat, LoRA, one A100 80G: how much memory?",
    ],
)
def test_catalog_model_reference_is_its_16_bit_size(question):
    """Llama 2 7B: the reference 13.48 GB, the same as the actor's frozen base (``weights``) and the
    reward model's copy, on one GPU (ZeRO 0)."""
    data = ask_json_in_process(question)
    bd = data["report"]["memory"]["breakdown"]
    assert data["request"]["reference_copy"] is True
    assert bd["reference"] == pytest.approx(2 * LLAMA2_7B) == pytest.approx(bd["weights"])


@pytest.mark.parametrize(
    "question",
    [
        "PPO of Llama-2-7b with LoRA using TRL on one A100 80G, how much memory?",
        "用 TRL 做 Llama-2-7b 的 PPO，LoRA，一张 A100 80G，显存够吗",
        "DeepSpeed-Chat step 1 SFT of Llama-2-7b with LoRA on one A100 80G",
        "DeepSpeed-Chat 第一步 SFT，Llama-2-7b，LoRA，一张 A100 80G 够吗",
        "DeepSpeed-Chat step 3 PPO of Llama-2-7b with LoRA and --offload_reference_model on one A100 80G",
        "PPO of Llama-2-7b with LoRA on DeepSpeed ZeRO-3, 4 A100 80G, how much memory?",
    ],
)
def test_other_runs_keep_the_reference_as_the_base_with_adapters_off(question):
    """Must not misread: TRL's PEFT PPO (the reference is the base with its adapters disabled),
    DeepSpeed-Chat's step 1 (SFT, one model), its step 3 with the reference offloaded to CPU, and DeepSpeed
    alone (not DeepSpeed-Chat): no reference copy beside LoRA."""
    data = ask_json_in_process(question)
    assert data["request"].get("reference_copy") is None
    assert "reference" not in data["report"]["memory"]["breakdown"]
    assert "whole 16-bit copy" not in data["reply"] and "一整份 16 位基座" not in data["reply"]
