"""A pasted LLaMA-Factory config with ``stage: dpo`` (or ``kto``) counts its samples as pairs (s8-t3 item 3).

Prose "5万对" was doubled (a chosen and a rejected sequence per pair, Rafailov et al. 2023; TRL's
DPOTrainer concatenates both into one batch) but the same data as a config, ``stage: dpo`` with
``max_samples: 50000``, was read as 5万 single sequences: 5万 × 2,048 × 2 epochs = 2.05亿 tokens instead
of 5万 × 2 × 2,048 × 2 = 4.1亿. The dataset is the user's own (s35: a bundled demo file such as
dpo_zh_demo is counted at its own 300 rows, tests/test_s35_left2.py)."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

CONFIG = """model_name_or_path: Qwen/Qwen2.5-7B-Instruct
stage: {stage}
do_train: true
finetuning_type: lora
lora_target: all
dataset: my_preference_pairs
cutoff_len: 2048
max_samples: 50000
per_device_train_batch_size: 1
gradient_accumulation_steps: 8
num_train_epochs: 2.0
bf16: true
"""
PAIRS = 50_000 * 2 * 2048 * 2  # 409,600,000 tokens


def _ask(capsys, tmp_path, stage: str, question: str, fmt: str = "json") -> str:
    path = tmp_path / "train.yaml"
    path.write_text(CONFIG.format(stage=stage), encoding="utf-8")
    assert main(["ask", "--format", fmt, "--config", str(path), question]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("stage", ["dpo", "kto"])
def test_preference_config_counts_pairs(capsys, tmp_path, stage: str) -> None:
    answer = json.loads(_ask(capsys, tmp_path, stage, "how long on 8 A100"))
    assert answer["request"]["samples_are_pairs"] is True
    assert answer["request"]["num_samples"] == 50_000
    assert answer["request"]["tokens"] == PAIRS
    assert answer["report"]["flops"] == pytest.approx(6 * 7.61e9 * PAIRS)  # LoRA DPO: 6ND as shown


def test_config_and_prose_pairs_agree_in_both_languages(capsys, tmp_path) -> None:
    text = _ask(capsys, tmp_path, "dpo", "8张A100要训多久", fmt="text")
    assert "5万 对 × 2 条序列（chosen 和 rejected）× 2,048 token × 2 轮 = 4.1亿 token" in text
    text = _ask(capsys, tmp_path, "dpo", "how long on 8 A100", fmt="text")
    assert "50K pairs × 2 sequences (chosen and rejected) × 2,048 tokens × 2 epochs = 410M tokens" in text
    prose = "Qwen2.5-7B LoRA DPO，5万对数据，每条2048 token，2个epoch，8张A100要训多久"
    assert main(["ask", "--format", "json", prose]) == 0
    assert json.loads(capsys.readouterr().out)["request"]["tokens"] == PAIRS


def test_sft_config_samples_stay_single_sequences(capsys, tmp_path) -> None:
    answer = json.loads(_ask(capsys, tmp_path, "sft", "how long on 8 A100"))
    assert not answer["request"].get("samples_are_pairs")
    assert answer["request"]["tokens"] == PAIRS / 2
