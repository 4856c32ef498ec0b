"""s10 trial B3: a LLaMA-Factory YAML's ``gradient_accumulation_steps: 16`` was named as not used "until
the GPU count is known", then the answer picked one GPU itself and used 64 accumulation steps (its own
default of 128 sequences per step). A stated accumulation is now used as stated on the layout the
answer picks: global batch = micro-batch × accumulation × data-parallel GPUs (DeepSpeed's
``_batch_assertion``, deepspeed/runtime/config.py; HF TrainingArguments). And ``deepspeed: ds_z2.json``,
read as ZeRO-2 from the file name alone, is said to be an assumption in the reply."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main

LF_YAML = (
    Path(__file__).parent / "data" / "configs" / "llamafactory" / "trial_s10_qlora_14b.yaml"
).read_text()
ASSUMED = {
    "en": "Used: “deepspeed: ds_z2.json” (an assumption: the ZeRO stage (and offload) read from the file "
    "name alone",
    "zh": "已使用：“deepspeed: ds_z2.json”（这是假设：ZeRO 阶段（和 offload）只从文件名读出",
}


def _ask(capsys, *args: str) -> str:
    capsys.readouterr()
    assert main(["ask", *args]) == 0
    return capsys.readouterr().out


@pytest.fixture
def lf_yaml(tmp_path: Path) -> Path:
    path = tmp_path / "lf.yaml"
    path.write_text(LF_YAML)
    return path


def test_the_stated_accumulation_is_used_on_the_gpus_the_answer_picks(capsys, lf_yaml: Path) -> None:
    answer = json.loads(_ask(capsys, "--format", "json", "--config", str(lf_yaml)))
    assert answer["request"]["gradient_accumulation"] == 16 and answer["request"]["global_batch"] is None
    assert answer["request"]["zero_stage"] == 2
    plan = answer["report"]["memory"]["plan"]
    assert (plan["tp"], plan["pp"], plan["dp"], plan["micro_batch"]) == (1, 1, 1, 2)  # one GPU
    assert (plan["gradient_accumulation"], plan["global_batch_sequences"]) == (16, 32)  # was 64, 128
    texts = {i["text"]: i["reason"] for i in answer["interpretation"]["ignored"]}
    assert "gradient_accumulation_steps: 16" not in texts  # was needs_gpu_count
    assert texts["deepspeed: ds_z2.json"] == "zero_from_file_name"


@pytest.mark.parametrize(
    ("lang", "question"), [("en", "how long for 20k samples?"), ("zh", "2万条数据要多久")]
)
def test_zero_read_from_the_file_name_is_said_as_an_assumption(capsys, lf_yaml: Path, lang, question) -> None:
    reply = _ask(capsys, "--config", str(lf_yaml), question)
    assert reply.splitlines()[1].startswith(ASSUMED[lang])
    assert "gradient_accumulation_steps: 16" not in reply  # used, so never named as not used


def test_a_stated_accumulation_sets_the_batch_on_several_gpus(capsys) -> None:
    """With no GPU count the answer picks two A100s here: the 16 steps stay, the batch is 2 × 16 × 2."""
    text = (
        "full fine-tune Qwen2.5-7B on A100, per_device_train_batch_size 2, gradient_accumulation_steps 16, "
        "10k samples of 2048 tokens"
    )
    plan = json.loads(_ask(capsys, "--format", "json", text))["report"]["memory"]["plan"]
    assert plan["gradient_accumulation"] == 16
    assert plan["global_batch_sequences"] == 2 * 16 * plan["dp"] == 64
