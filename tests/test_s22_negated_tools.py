"""Session 22 (issue 24 item 2): a negated sharding tool is its absence, and a serving retry's plan stays
out of the JSON request.

'no deepspeed', 'plain DDP (no DeepSpeed)', '不用 deepspeed', 'without FSDP': plain data parallelism, ZeRO
stage 0 (PyTorch DDP; FSDP NO_SHARD is the same layout, PyTorch FSDP docs, ShardingStrategy), sized so: every
GPU holds the weights, gradients and AdamW states, 16 bytes per parameter (ZeRO, Rajbhandari et al. 2020 §3),
so Llama-3-8B's 8.03B parameters (128 GB) cannot fit on one 80 GB card and a 0.49B Qwen2.5 (7.8 GB) fits on a
24 GB A10. Before, the negated name was echoed as "not used" and the plan sharded anyway (ZeRO-1), and
'without FSDP' read as FSDP (ZeRO-3).
"""

import json

import pytest

from bot.cli import main


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", question])
    return json.loads(capsys.readouterr().out)


def _ignored(data: dict) -> list[str]:
    return [item["text"] for item in data["interpretation"]["ignored"]]


@pytest.mark.parametrize(
    "question",
    [
        "full fine-tune llama 3 8B on 8 A100, no deepspeed",
        "full fine-tune llama 3 8B on 8 A100 with plain DDP (no DeepSpeed)",
        "full fine-tune llama 3 8B on 8 A100 without FSDP",
        "全参微调 llama3 8B 8张A100 不用 deepspeed",
        "全参微调 llama3 8B，8 张 A100，纯 DDP 不开 zero",
        "全参微调llama3 8B，8张A100，不用DeepSpeed，只用数据并行",
    ],
)
def test_a_negated_sharding_tool_is_plain_ddp_and_does_not_fit(capsys, question):
    data = _ask(capsys, question)
    assert data["request"]["zero_stage"] == 0
    assert data["request"]["gpu_count"] == 8
    assert not any("DeepSpeed" in t or "FSDP" in t for t in _ignored(data))
    assert data["report"]["feasible"] == "no"  # 16 B × 8.03B = 128 GB of states on each 80 GB card


@pytest.mark.parametrize(
    "question",
    [
        "we won't use deepspeed, full finetune qwen2.5 0.5B on 4 A10",
        "full fine-tune qwen2.5 0.5B on 4 A10, no ZeRO, just DDP",
        "全参微调 qwen2.5 0.5B，4张 A10，没开FSDP",
    ],
)
def test_plain_ddp_fits_a_small_model(capsys, question):
    data = _ask(capsys, question)
    assert data["request"]["zero_stage"] == 0
    assert data["report"]["feasible"] != "no"  # 16 B × 0.49B = 7.8 GB on a 24 GB A10


@pytest.mark.parametrize(
    ("question", "stage"),
    [
        ("不用 deepspeed 改用 FSDP，全参微调 qwen2.5 7B 8张 A100", 3),  # the tool switched to is run
        ("full fine-tune qwen2.5 7B on 8 A100 with deepspeed zero2", 2),
        ("train with zero-shot prompts, full fine-tune qwen2.5 7B on 8 A100, no zero-shot eval", None),
    ],
)
def test_a_tool_not_negated_keeps_its_reading(capsys, question, stage):
    assert _ask(capsys, question)["request"]["zero_stage"] == stage


@pytest.mark.parametrize(
    "question",
    [
        "全参微调 qwen2.5 7B 4张 A100 不开 flash attention",
        "full fine-tune qwen2.5 7B on 4 H100 without flash_attn, zero3",
        "full fine-tune qwen2.5 7B on 4 H100, flash attention disabled? no FA2 on these cards",
    ],
)
def test_negated_flash_attention_is_named_not_dropped(capsys, question):
    assert "flash_attention: off" in _ignored(_ask(capsys, question))


@pytest.mark.parametrize(
    ("question", "field", "value"),
    [
        ("full fine-tune qwen2.5 7B on 4 A100 40G with zero3, no offload", "offload", False),
        ("全参微调 qwen2.5 7B 4张 A100 zero3 不开 offload", "offload", False),
        ("full fine-tune qwen2.5 7B on 4 A100 without gradient checkpointing", "recompute", "none"),
        ("fine-tune qwen2.5 7B on 2 4090, no LoRA", "method", "full"),
    ],
)
def test_other_negated_settings_read_as_off(capsys, question, field, value):
    assert _ask(capsys, question)["request"][field] == value


def test_a_serving_retry_keeps_its_tp_out_of_the_request(capsys):
    """en15-006's kind: serving ran out of memory on 8 cards; the answer sizes 16 with TP 16 (the plan,
    report.inference.tp), while the request echoes what the user stated: 8 cards and no TP."""
    data = _ask(
        capsys,
        "What's the minimum GPU configuration for Qwen3-VL-8B? I used the default configuration and ran out "
        "of memory on 8*A100 (80G). What should I change?",
    )
    assert data["request"]["gpu_count"] == 8
    assert data["request"]["tp"] is None
    assert data["report"]["inference"]["tp"] == data["report"]["inference"]["recommended_gpus"] == 16


def test_a_stated_tp_stays_in_the_request_after_a_serving_retry(capsys):
    data = _ask(capsys, "vLLM OOMs on 2 A100 40G serving Llama-3.1-70B with tensor parallel 2")
    assert data["request"]["tp"] == 2
    assert data["request"]["gpu_count"] == 2
