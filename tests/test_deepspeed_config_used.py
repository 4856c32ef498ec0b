"""A fresh-user trial of s8-int: a pasted DeepSpeed JSON read "Not used: training_tool: DeepSpeed (…no
setting for it yet)" while its ZeRO stage and offload were what the sizing used; named in prose beside
its ZeRO stage, DeepSpeed was "Used". A tool whose settings were applied is now "used" everywhere
(reason 'settings_applied'), for a config file and a config pasted into the question alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main

DS_JSON = Path(__file__).parent / "data" / "configs" / "deepspeed" / "ds_z3_offload_config.json"
ASK = {
    "en": "full fine-tune Llama-3.1-8B on 8 A100 80G, 100M tokens",
    "zh": "全参微调 Llama-3.1-8B，8张A100 80G，1亿token",
}
USED = {
    # s24 review #2: "training framework: DeepSpeed" in the English reply (the JSON keeps training_tool)
    "en": "Used: “training framework: DeepSpeed” (its settings you gave — the ZeRO stage, offload — are what "
    "the sizing uses).",
    "zh": "已使用：“训练框架：DeepSpeed”（用的是你给的它的设置：ZeRO 阶段、offload）。",
}


def _ask(capsys, *args: str) -> str:
    capsys.readouterr()
    assert main(["ask", *args]) == 0
    return capsys.readouterr().out


def _ways(lang: str) -> dict[str, list[str]]:
    pasted = " ".join(DS_JSON.read_text().split()) + " " + ASK[lang]
    return {"file": ["--config", str(DS_JSON), ASK[lang]], "pasted": [pasted]}


@pytest.mark.parametrize("way", ["file", "pasted"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_deepspeed_config_whose_zero_stage_is_applied_names_deepspeed_used(capsys, lang, way) -> None:
    args = _ways(lang)[way]
    answer = json.loads(_ask(capsys, "--format", "json", *args))
    assert (answer["request"]["zero_stage"], answer["request"]["offload"]) == (3, True)
    assert answer["report"]["memory"]["plan"]["zero_stage"] == 3
    (named,) = [i for i in answer["interpretation"]["ignored"] if "DeepSpeed" in i["text"]]
    assert named == {"text": "training_tool: DeepSpeed", "reason": "settings_applied"}
    reply = _ask(capsys, *args)
    assert reply.splitlines()[1].startswith(USED[lang])
    assert "DeepSpeed” (it changes the answer" not in reply and "DeepSpeed”（会影响结果" not in reply


def test_a_deepspeed_json_without_zero_settings_is_still_not_used(capsys) -> None:
    text = (
        '{"train_batch_size": 32, "bf16": {"enabled": true}, "gradient_accumulation_steps": 4} ' + ASK["en"]
    )
    answer = json.loads(_ask(capsys, "--format", "json", text))
    assert answer["request"]["zero_stage"] is None
    assert {"text": "training_tool: DeepSpeed", "reason": "no_field"} in answer["interpretation"]["ignored"]


AC_BLOCK = {
    "partition_activations": True,
    "cpu_checkpointing": True,
    "contiguous_memory_optimization": False,
    "number_checkpoints": 4,
    "synchronize_checkpoint_boundary": False,
    "profile": False,
}
NO_SUCH_KEY = {"en": "the tool has no setting of that name", "zh": "该工具没有这个名字的参数"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_activation_checkpointing_block_is_deepspeeds_own(capsys, tmp_path, lang) -> None:
    """s10 trial B2: every documented key of DeepSpeed's ``activation_checkpointing`` block (ACT_CHKPT_* in
    deepspeed/runtime/activation_checkpointing/config.py) was named as a key DeepSpeed does not have.
    The three that change memory (partition, CPU checkpointing, contiguous buffer) have no request
    setting (no_field); the checkpoint count, boundary syncs and profiling do not change it (not_sized).
    None of them turns recompute on: the block acts only where the model calls deepspeed.checkpointing."""
    cfg = {"train_micro_batch_size_per_gpu": 2, "zero_optimization": {"stage": 3}}
    path = tmp_path / "ds.json"
    path.write_text(json.dumps({**cfg, "activation_checkpointing": AC_BLOCK}))
    answer = json.loads(_ask(capsys, "--format", "json", "--config", str(path), ASK[lang]))
    reasons = {i["text"].split(":")[0]: i["reason"] for i in answer["interpretation"]["ignored"]}
    got = {k.split(".", 1)[1]: v for k, v in reasons.items() if k.startswith("activation_checkpointing.")}
    assert got == {
        "partition_activations": "no_field",
        "cpu_checkpointing": "no_field",
        "contiguous_memory_optimization": "no_field",
        "number_checkpoints": "not_sized",
        "synchronize_checkpoint_boundary": "not_sized",
        "profile": "not_sized",
    }
    assert answer["request"]["zero_stage"] == 3 and answer["request"]["recompute"] is None
    reply = _ask(capsys, "--config", str(path), ASK[lang])
    assert "partition_activations: True" in reply and NO_SUCH_KEY[lang] not in reply
