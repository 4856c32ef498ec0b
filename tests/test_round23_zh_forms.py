"""Round 23 of the real questions, Chinese (issue 24; tests/data/real_questions/zh_r23.json): kinds of writing
the r23work half showed the parser missing, each read for its axis and tested through the CLI
(``sizing-bot ask --format json``):

- a bare DeepSpeed stage ('用的是 stage3', 'stage 2') in a message about DeepSpeed or offload: the ZeRO stage
  (bot.parse.tried_settings.bare_stage, read by bot.parse.settings); a training phase ('stage 2 训练'), a
  count ('stage 2 张卡') or a message with neither word is none;
- OpenRLHF's store-true ``--packing_samples`` (``--ds.packing_samples`` in v0.11) in a pasted command: samples
  packed, the ``packing`` field as LLaMA-Factory's ``packing`` sets it (bot.parse.configs.meaning; before, it
  was named ``no_field`` and the run sized as padded).

The sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

import json
from typing import Any

import pytest


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    """The JSON answer of ``sizing-bot ask --format json TEXT``."""
    from bot.cli import main

    assert main(["ask", "--format", "json", text]) in (0, 2)
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("text", "stage"),
    [
        ("全参训练 Qwen2-7B，目前用的是 stage3，优化器也 offload 到内存了，还是 OOM，要多少显存？", 3),
        ("用 DeepSpeed 的 stage 2 全参微调 Qwen2-7B，8 张 A100 够不够？", 2),
        ("全参微调 Qwen2-14B 开了 offload，stage-3 下单卡显存要多少？", 3),
    ],
)
def test_a_bare_stage_in_a_deepspeed_message_is_the_zero_stage(
    capsys: pytest.CaptureFixture[str], text: str, stage: int
) -> None:
    assert ask(capsys, text)["request"]["zero_stage"] == stage


@pytest.mark.parametrize(
    "text",
    [
        "LLaVA 的 stage 2 训练用 DeepSpeed 要多少显存？",  # a training phase
        "第一阶段 stage 1 全参微调 Qwen2-7B 要多少显存？",  # no DeepSpeed, no offload
        "用 DeepSpeed 跑 stage 2 张卡的实验，微调 Qwen2-7B 要多少显存？",  # a count
        "第二阶段（stage 2）开了 offload 微调 Qwen2-7B 要多少显存？",  # a phase, in brackets
        "Qwen2-7B stage 2 fine-tune with DeepSpeed offload on 4 A100",  # a phase before its job
    ],
)
def test_a_stage_that_is_no_zero_stage_is_not_read(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert ask(capsys, text)["request"]["zero_stage"] is None


@pytest.mark.parametrize("flag", ["--packing_samples", "--ds.packing_samples"])
def test_openrlhf_packing_samples_packs_the_samples(capsys: pytest.CaptureFixture[str], flag: str) -> None:
    text = (
        "deepspeed --module openrlhf.cli.train_sft --pretrain Qwen/Qwen2-7B --max_len 4096 "
        f"--micro_train_batch_size 1 --train_batch_size 64 --zero_stage 3 {flag} --bf16"
    )
    answer = ask(capsys, text)
    assert answer["request"]["packing"] is True
    assert "packing_samples" not in json.dumps(answer["interpretation"]["ignored"])


def test_openrlhf_without_packing_samples_sets_no_packing(capsys: pytest.CaptureFixture[str]) -> None:
    text = (
        "deepspeed --module openrlhf.cli.train_sft --pretrain Qwen/Qwen2-7B --max_len 4096 "
        "--micro_train_batch_size 1 --train_batch_size 64 --zero_stage 3 --bf16"
    )
    assert ask(capsys, text)["request"]["packing"] is None


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("fp16 的 Foo-Chat-V-2_5 权重一共 17GB，用 lmdeploy 部署要多少显存？", "Foo-Chat-V-2_5"),
        ("跑 bar-llama3-v-2_5(int4) 支持 2 个并发吗？一张 24G 显卡", "bar-llama3-v-2_5"),
        ("运行 baz-omni-v2 要多大显存？", "baz-omni-v2"),
    ],
)
def test_a_joined_name_before_its_weights_or_after_a_run_verb_is_named(
    capsys: pytest.CaptureFixture[str], text: str, name: str
) -> None:
    answer = ask(capsys, text)
    assert answer["interpretation"]["unknown_model"] == name
    assert answer["request"]["model"] is None  # named as typed, never swapped for a catalog model


@pytest.mark.parametrize(
    "text",
    [
        "跑 vllm-ascend 要多少显存？",  # a serving engine
        "运行 cuda-12.4 的环境要多少显存？",  # software
        "用 flash-attn 跑 Qwen2-7B 要多少显存？",  # the catalog model is the one run
    ],
)
def test_a_run_verb_before_a_tool_names_no_model(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert ask(capsys, text)["interpretation"]["unknown_model"] is None
