"""The HIGH findings of session 28's fresh-user trial (/work/notes/s28/trial.md): answer the job the user
described.

- H1: beside a training config that sets its own length and sample count (LLaMA-Factory ``cutoff_len``,
  ``max_samples``), '平均每条 1200 token' / 'avg 1,200 tokens per sample' is each sample's mean length,
  not a sequence length that disagrees with the config: the time is samples × mean length × epochs
  (200K × 1,200 × 2 = 4.8×10⁸ tokens; LoRA 4ND = 4 × 14.7B × 4.8×10⁸ = 2.82×10¹⁹ FLOPs).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import ask

LF_YAML = """\
model_name_or_path: Qwen/Qwen2.5-14B-Instruct
stage: sft
do_train: true
finetuning_type: lora
lora_rank: 64
lora_target: all
deepspeed: examples/deepspeed/ds_z2_config.json
dataset: my_sft_data
template: qwen
cutoff_len: 8192
max_samples: 200000
per_device_train_batch_size: 4
gradient_accumulation_steps: 8
num_train_epochs: 2.0
bf16: true
"""
"""A LLaMA-Factory LoRA SFT YAML in its examples' keys (examples/train_lora/llama3_lora_sft.yaml)."""


def _json(question: str, config: Path | None = None) -> dict:
    out, _ = ask(question, None, "json", str(config) if config else None)
    return json.loads(out)


@pytest.fixture
def lf_yaml(tmp_path: Path) -> Path:
    path = tmp_path / "lf.yaml"
    path.write_text(LF_YAML, encoding="utf-8")
    return path


MEAN_LENGTH = [
    "4张4090能跑吗，大概要多久，平均每条1200 token",
    "4张4090能跑吗，要多久？每条样本平均 1200 token",
    "Will 4x 4090 work and how long? avg 1,200 tokens per sample",
    "Does it fit on 4 RTX 4090s, and how long? Each sample averages 1200 tokens.",
]


@pytest.mark.parametrize("question", MEAN_LENGTH)
def test_a_mean_sample_length_beside_a_config_is_per_sample(question: str, lf_yaml: Path) -> None:
    answer = _json(question, lf_yaml)
    request = answer["request"]
    assert request["seq_len"] == 8192  # the config's cutoff_len: the cap and the memory's length
    assert request["tokens_per_sample"] == 1200
    assert request["tokens"] == pytest.approx(200_000 * 1_200 * 2)  # × 2 epochs
    assert not any(i["reason"] == "config_differs" for i in answer["interpretation"]["ignored"])
    assert answer["report"]["flops"] == pytest.approx(4 * 14.7e9 * 200_000 * 1_200 * 2, rel=0.01)


@pytest.mark.parametrize("question", MEAN_LENGTH[:1] + MEAN_LENGTH[2:3])
def test_a_mean_sample_length_in_a_pasted_config_is_per_sample(question: str) -> None:
    answer = _json(LF_YAML + "\n" + question)
    assert (answer["request"]["seq_len"], answer["request"]["tokens_per_sample"]) == (8192, 1200)
    assert answer["report"]["flops"] == pytest.approx(4 * 14.7e9 * 200_000 * 1_200 * 2, rel=0.01)


@pytest.mark.parametrize(
    "question",
    ["4张4090能跑吗，大概要多久，序列长度 4096", "Will 4x 4090 work and how long? seq_len 4096"],
)
def test_a_sequence_length_beside_a_config_still_differs(question: str, lf_yaml: Path) -> None:
    """Must not misread: a sequence length (no sample word) is the config's to set, and named."""
    answer = _json(question, lf_yaml)
    assert answer["request"]["seq_len"] == 8192
    assert answer["request"].get("tokens_per_sample") is None
    assert any(i["reason"] == "config_differs" for i in answer["interpretation"]["ignored"])
