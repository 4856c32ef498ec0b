"""s25 fresh-user trial findings (/work/notes/s25/trial_findings.md), the small independent ones.

#5: "Used: training framework: DeepSpeed (its settings you gave — the ZeRO stage, offload — …)" for
'DeepSpeed ZeRO-2' with no offload written: the echo names only the settings stated.
#12: "TP 2 is still needed to split the activations" for LoRA Mistral-7B on one RTX 3060 12GB, whose
activations are 0.2 GiB while the bf16 base (7.24B × 2 B = 14.48 GB = 13.5 GiB) is more than 12 GiB: the
reason names the part of the memory breakdown that overflows."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def _ask(capsys, *args: str, rc: int = 0) -> str:
    capsys.readouterr()
    assert main(["ask", *args]) == rc  # 2: the help (nothing sized)
    return capsys.readouterr().out


ZERO2 = {
    "zh": (
        "全量微调Qwen2.5-7B，DeepSpeed ZeRO-2，4张A800 80G，序列长度8192，每卡显存够不够",
        "“训练框架：DeepSpeed”（用的是你给的它的 ZeRO 阶段）",
    ),
    "en": (
        "Full fine-tune Qwen2.5-7B with DeepSpeed ZeRO-2 on 4 A800 80GB, sequence length 8192: does it fit?",
        "“training framework: DeepSpeed” (its ZeRO stage you gave is what the sizing uses)",
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_deepspeed_used_names_only_the_settings_stated(capsys, lang) -> None:
    question, used = ZERO2[lang]
    answer = json.loads(_ask(capsys, "--format", "json", question))
    assert (answer["request"]["zero_stage"], answer["request"]["offload"]) == (2, None)
    reply = _ask(capsys, question)
    assert used in reply
    assert "offload" not in reply.splitlines()[1]


LORA_3060 = {
    "en": (
        "Can I LoRA fine-tune Mistral-7B on a single RTX 3060 12GB? 5k examples, 1024 tokens max.",
        "TP 2 is still needed: the weights alone (13.5 GiB) are more than one GPU's 12 GiB",
    ),
    "zh": (
        "用LoRA微调Mistral-7B，单张RTX 3060 12G能行吗？5000条，每条最长1024 token",
        "这里仍需 TP 2：单是权重（13.5 GiB）就超过一张卡的 12 GiB",
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_tp_without_nvlink_names_the_part_that_overflows(capsys, lang) -> None:
    question, why = LORA_3060[lang]
    answer = json.loads(_ask(capsys, "--format", "json", question))
    memory = answer["report"]["memory"]
    assert memory["min_plan"]["tp"] == 2 and memory["breakdown"]["weights"] == pytest.approx(
        14.48e9, rel=1e-3
    )
    assert memory["breakdown"]["activations"] < 0.3 * 2**30 < memory["usable_bytes"] < 14.48e9
    reply = _ask(capsys, question)
    assert why in reply
    assert "split the activations" not in reply and "分摊激活" not in reply


def test_the_activations_reason_stays_when_they_are_the_largest_part() -> None:
    """No breakdown (a layout alone): the reason keeps its activations wording (tests/test_render.py)."""
    from bot.render.plan_text import plan_reason
    from estimator.models import Plan

    assert plan_reason(Plan(tp=2), False, "en").endswith("TP 2 is still needed to split the activations")


GRPO_CONFIG = """from trl import GRPOConfig
training_args = GRPOConfig(
    output_dir="grpo-run",
    learning_rate=1e-6,
    per_device_train_batch_size=4,
    gradient_accumulation_steps=4,
    num_generations=8,
    max_prompt_length=512,
    max_completion_length=2048,
    num_train_epochs=1,
    bf16=True,
)"""
READ = {
    "en": "From your TRL config I read per_device_train_batch_size, num_generations, max_prompt_length",
    "zh": "从你的 TRL 配置里读到了 per_device_train_batch_size, num_generations, max_prompt_length",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_pasted_config_with_no_model_names_the_keys_read(capsys, lang) -> None:
    """#17: a TRL ``GRPOConfig(...)`` with no model: the help says which keys it read and asks for the
    model (TRL's GRPOConfig has no model field: the model is GRPOTrainer's argument)."""
    question = GRPO_CONFIG + ("\n这个要跑多久？" if lang == "zh" else "\nHow long will this take?")
    answer = json.loads(_ask(capsys, "--format", "json", question, rc=2))
    assert answer["report"] is None and answer["request"]["num_generations"] == 8
    reply = _ask(capsys, question, rc=2)
    assert reply.startswith(READ[lang])
    assert "gradient_accumulation_steps" in reply.splitlines()[0]
    assert "output_dir" not in reply.splitlines()[0]  # not read: it does not change the sizing


def test_the_cost_line_names_the_gpu_hours_shown_beside_those_billed(capsys) -> None:
    """#17: "8.8 H100-hours" above "9 GPU-hours" in the cost line: the cost bills whole GPU-hours rounded
    up (estimator.compute.billed_gpu_hours), and the line now names both, one figure read one way."""
    question = "full fine-tune Qwen2.5-7B on 50M tokens on A100"
    answer = json.loads(_ask(capsys, "--format", "json", question))
    likely = answer["report"]["gpu_hours"]["likely"]
    assert 5.05 < likely < 5.15 and answer["report"]["cost"]["billed_gpu_hours"] == 6
    reply = _ask(capsys, question)
    assert "• GPU-hours: 5.1 A100-hours" in reply
    assert "(5.1 GPU-hours used, billed by the hour started: 6 GPU-hours × $1.20–2.50 per GPU-hour)" in reply
