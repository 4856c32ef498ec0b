"""Issue 24 ("commented out"): a setting put aside with ``#`` in a pasted script or YAML is not a setting.

s27-fix2: OpenRLHF's ``examples/scripts/train_reinforce_baseline_hybrid_engine.sh`` keeps
``# --ds.adam_offload`` inside its ENGINE_ARGS bash array; bash drops the line (bash(1) "COMMENTS"), but the
prose readers read it from the message around the launch command and sized Adam offloaded to the CPU
(the optimizer states left the GPUs: 0 bytes). A LLaMA-Factory YAML with ``# quantization_bit: 4`` and
its ``deepspeed:`` line commented out is LoRA without DeepSpeed. Each such key is named as not used."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.parse.configs import find_stack_config

OPENRLHF = (
    Path(__file__).parent / "data" / "configs" / "openrlhf" / "train_reinforce_baseline_hybrid_engine.sh"
)
LLAMAFACTORY = """model_name_or_path: Qwen/Qwen2.5-14B-Instruct
stage: sft
do_train: true
finetuning_type: lora
lora_rank: 16
# quantization_bit: 4
#deepspeed: examples/deepspeed/ds_z3_offload_config.json
cutoff_len: 4096  # was 2048
per_device_train_batch_size: 2
"""
ASK = {
    "openrlhf": {"en": "How many H100s do I need for this?", "zh": "这个脚本要几张H100？"},
    "llamafactory": {
        "en": "How many A100 80G for this LLaMA-Factory config?",
        "zh": "这个LLaMA-Factory配置要几张A100 80G？",
    },
}
NAMED = {
    "en": "“quantization_bit: 4” (commented out with “#” in your config: the tool does not read it, so it is "
    "not used)",
    "zh": "“quantization_bit: 4”（在你的配置里用“#”注释掉了：工具不读它，所以未使用）",
}


def _ask(capsys, fmt: str, text: str) -> str:
    capsys.readouterr()
    assert main(["ask", "--format", fmt, text]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_openrlhf_commented_adam_offload_is_not_offload(capsys, lang: str) -> None:
    answer = json.loads(_ask(capsys, "json", ASK["openrlhf"][lang] + "\n" + OPENRLHF.read_text()))
    assert answer["request"]["offload"] is None
    assert answer["request"]["zero_stage"] == 3  # '--ds.zero_stage 3', the line above it, is read
    # Qwen3-4B's fp32 master + Adam m, v (12 bytes a parameter) stay on the GPUs: 12 GB, not 0 (offloaded)
    assert answer["report"]["memory"]["breakdown"]["optimizer"] == pytest.approx(12e9, rel=0.01)
    assert answer["stack_config"]["unused"]["ds.adam_offload: True"] == "commented_out"
    ignored = {i["text"]: i["reason"] for i in answer["interpretation"]["ignored"]}
    assert ignored["ds.adam_offload: True"] == "commented_out"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_llamafactory_commented_quantization_and_deepspeed(capsys, lang: str) -> None:
    answer = json.loads(_ask(capsys, "json", ASK["llamafactory"][lang] + "\n" + LLAMAFACTORY))
    request = answer["request"]
    assert (request["method"], request["zero_stage"], request["offload"]) == ("lora", None, None)
    assert request["seq_len"] == 4096  # 'cutoff_len: 4096  # was 2048': the value before the comment
    text = _ask(capsys, "text", ASK["llamafactory"][lang] + "\n" + LLAMAFACTORY)
    assert NAMED[lang] in text
    assert "deepspeed: examples/deepspeed/ds_z3_offload_config.json" in text


def test_the_prose_around_a_config_loses_its_commented_settings_only() -> None:
    text = "# Q: how long on 8 H100?\n" + OPENRLHF.read_text()
    cfg, rest = find_stack_config(text)
    assert cfg is not None and cfg.unused["ds.adam_offload: True"] == "commented_out"
    assert "adam_offload" not in rest and "--critic.adam.lr" not in rest
    assert "Q: how long on 8 H100?" in rest  # a comment that asks is the user's question
    assert "critic.adam.lr: 9e-6" not in cfg.unused  # no sizing field: dropped, not named
