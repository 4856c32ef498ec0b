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
    "en": "Used: “training_tool: DeepSpeed” (its settings you gave — the ZeRO stage, offload — are what "
    "the sizing uses).",
    "zh": "已使用：“training_tool: DeepSpeed”（用的是你给的它的设置：ZeRO 阶段、offload）。",
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
