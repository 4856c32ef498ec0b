"""Round 18 of the real questions, Chinese (issue 24; tests/data/real_questions/zh_r18.json): kinds of writing
the r18work half showed the parser missing, each read for its axis and tested through the CLI
(``sizing-bot ask --format json``):

- an engine's context key in a training command named by the key as typed ('--vllm_max_model_len 6144' →
  'vllm_max_model_len: 6144', no longer 'vllm_maxlen'; bot.parse.configs.limits.typed_key);
- a serving flag typed as a unique prefix of the engine's flag, as argparse takes it ('--max-num-seq 16' is
  vLLM's --max-num-seqs; an ambiguous prefix stays unknown; bot.parse.configs.abbrev);
- a second ZeRO stage written with its word ('stage 2 和 stage 3'): named as another setup;
- '全量预训练' / '全参预训练': a pre-training of every weight, no fine-tuning (bot.parse.lexicon.FINETUNE_RE);
- each card's memory in MiB as nvidia-smi prints it ('每张 46068MiB' = 45 GiB; bot.parse.memory_forms);
- Huawei's A2 server after '机' as after '台' ('2 机 A2'; bot.parse.lexicon.UNKNOWN_GPU_RE);
- an engine started as a service ('用 Foollm 起服务'): named as typed (bot.parse.unknown_tools, tool_slots);
- a bare GeForce GTX 10/16 number before a card word ('1060 的显卡'): an unknown card named as typed;
- a project's own stage run ('跑 tinytrainer 的 pretrain'): the project named as the training tool
  (bot.parse.lower_tools);
- a pre-training of an instruction-tuned release ('全量预训练 Baichuan2-13B-Chat'): a continued pre-training
  (bot.parse.stage_hints.lora_pretraining).

The sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.parse.configs.abbrev import expand_prefix
from bot.parse.configs.limits import typed_key
from tests.cli_run import ignored_pairs


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    """The JSON answer of ``sizing-bot ask --format json TEXT``."""
    from bot.cli import main

    assert main(["ask", "--format", "json", text]) in (0, 2)
    return json.loads(capsys.readouterr().out)


def test_an_engine_context_in_training_is_named_by_its_key_as_typed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = ask(capsys, "ms-swift GRPO 训练 Qwen2.5-7B，8 张 A100，--vllm_max_model_len 6144")
    assert ("vllm_max_model_len: 6144", "no_field") in ignored_pairs(data)
    assert data["request"].get("max_model_len") is None  # the rollout engine's, not a serving context
    assert typed_key("vllm maxlen 8000") == "vllm_maxlen"


def test_a_unique_flag_prefix_is_the_flag_argparse_takes(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "vllm serve Qwen2.5-14B --max-num-seq 16，两张 A100，能跑多少并发？")
    assert data["request"]["max_num_seqs"] == 16
    ambiguous = ask(capsys, "vllm serve Qwen2.5-14B --max-num 16，两张 A100")
    assert ("--max-num: 16", "unknown_key") in ignored_pairs(ambiguous)  # --max-num-seqs or -batched-tokens
    assert expand_prefix("vllm", "--max-num-seq") == "--max-num-seqs"
    assert expand_prefix("vllm", "--max-num-seqs") is None  # the flag itself
    assert expand_prefix("ollama", "--max-num-seq") is None  # no argparse engine


def test_a_second_zero_stage_with_its_word_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "用 deepspeed stage 2 和 stage 3 全量微调 Qwen2.5-14B 都 OOM，8 张 A100")
    assert data["request"]["zero_stage"] == 2
    assert ("zero_stage: 3", "other_setup") in ignored_pairs(data)


@pytest.mark.parametrize(
    ("text", "stage"),
    [
        ("全量预训练一个 3B 模型，100B token，64 张 H100 要多久？", "pretrain"),
        ("全参预训练 Qwen2.5-1.5B，10B token，8 张 A100", "pretrain"),
        ("全量微调 Qwen2.5-7B，8 张 A100", "finetune"),
    ],
)
def test_full_pretraining_is_no_fine_tuning(
    capsys: pytest.CaptureFixture[str], text: str, stage: str
) -> None:
    assert ask(capsys, text)["request"]["stage"] == stage


def test_each_cards_memory_in_mib(capsys: pytest.CaptureFixture[str]) -> None:
    request = ask(capsys, "4 张 A40，每张 46068MiB，部署 Qwen2.5-32B")["request"]
    assert (request["gpu_count"], request["gpu_memory_gib"]) == (4, 45)


def test_an_a2_server_after_ji(capsys: pytest.CaptureFixture[str]) -> None:
    assert ask(capsys, "用 2 机 A2 部署 Qwen3-235B-A22B")["interpretation"]["unknown_gpu"] == "A2"


def test_an_engine_started_as_a_service_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "用 Foollm 起服务跑 Qwen2.5-7B，一张 A10")
    assert ("runtime: Foollm", "runtime_not_modelled") in ignored_pairs(data)


def test_a_bare_gtx_number_before_a_card_word(capsys: pytest.CaptureFixture[str]) -> None:
    assert ask(capsys, "1060 的显卡能跑 Qwen2.5-1.5B 推理吗")["interpretation"]["unknown_gpu"] == "1060"
    assert ask(capsys, "1080 张图片，用 A100 训练 Qwen2.5-7B")["interpretation"].get("unknown_gpu") is None


def test_a_projects_own_stage_names_the_project(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "跑 tinytrainer 的 pretrain 要多久，一张 4090")
    assert ("training_tool: tinytrainer", "no_field") in ignored_pairs(data)


@pytest.mark.parametrize(
    ("text", "stage"),
    [
        ("用 2 台 8 卡 A800 全量预训练 Baichuan2-13B-Chat，显存够吗？", "continued_pretrain"),
        ("预训练 Qwen2.5-7B-Instruct，10B token，8 张 A100 要多久？", "continued_pretrain"),
        ("用 8 张 A100 预训练一个 7B 模型，数据 10B token 要多久？", "pretrain"),
    ],
)
def test_pretraining_an_instruction_tuned_release_continues_it(
    capsys: pytest.CaptureFixture[str], text: str, stage: str
) -> None:
    assert ask(capsys, text)["request"]["stage"] == stage
