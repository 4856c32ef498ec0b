"""Round 16 of the real questions, Chinese (issue 24; tests/data/real_questions/zh_r16.json): kinds of writing
the r16work half showed the parser missing, each read for its axis and tested through the CLI
(``sizing-bot ask --format json``):

- memory used said as '占显存 15g': measured on the run, never the card's memory (bot.parse.structure);
- the host's memory with its DDR generation between the size and 内存 ('256G D4 内存', '192G DDR5 内存'):
  the host's, never a card's (bot.parse.prose_forms.HOST_MEMORY_RE);
- a serving load with its classifier ('并发 8 条', '并发数为 16 个请求'): the load, not 8 data samples
  (bot.parse.load_forms);
- a serving context beside a request's input and output lengths ('输入 1024、输出 512 … 64K 上下文'): the
  engine's limit, the request the sequence (before, the request was dropped in silence;
  bot.parse.negated_values.seq_role);
- an accelerator the catalog lacks, by its product name ('300I Duo', Sophgo's '1684x' of round 15's
  r15work) or after the maker's word ('NVIDIA AX600'): named as typed, never another card sized
  (bot.parse.lexicon.UNKNOWN_GPU_RE);
- a software version before a job word ('vllm 0.7.3 部署 OCRFlux'): never the model's name; the name after
  the verb is (bot.parse.verb_names); a name with a word saying how small ('HunyuanOCR 才 1B 参数'): named
  (bot.parse.model_names.SPACED_NAME_RE);
- a token budget's key ('--token_batch 10') beside '--batch_size 1': never the batch (bot.parse.role_left);
- PyTorch Lightning's DeepSpeed strategy name ('--strategy deepspeed_stage_2'): that ZeRO stage
  (bot.parse.settings.ZERO_RE); RWKV-LM's '--grad_cp 1': full recompute (bot.parse.recompute_words).

The sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.cli_run import ignored_pairs


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    """The JSON answer of ``sizing-bot ask --format json TEXT``."""
    from bot.cli import main

    assert main(["ask", "--format", "json", text]) in (0, 2)
    return json.loads(capsys.readouterr().out)


def test_memory_taken_is_measured_not_the_cards(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "Qwen2.5-14B 做了 int4 量化，部署后还占显存 12g，正常吗？")
    assert data["request"].get("gpu_memory_gib") != 12
    assert ("12", "observed") in ignored_pairs(data)


@pytest.mark.parametrize(
    "text", ["显卡 2*4090、192G D5 内存，能跑多大的模型？", "一张 4090，128G DDR4 内存能跑多大的模型？"]
)
def test_host_memory_with_its_ddr_generation(capsys: pytest.CaptureFixture[str], text: str) -> None:
    data = ask(capsys, text)
    assert data["request"]["host_memory_gib"] in (192, 128)
    assert data["request"].get("gpu_memory_gib") not in (192, 128)


def test_a_load_with_its_classifier(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "用 vllm 部署 Qwen2.5-7B，一张 L40S，并发 16 个请求，每个输入 2048，能撑住吗？")
    assert data["request"]["concurrency"] == 16
    assert data["request"].get("num_samples") != 16


@pytest.mark.parametrize(
    "text",
    [
        "用 vllm 部署 Qwen2.5-7B，输入 2048 tokens、输出 512 tokens，并发 4，32K 上下文，要几张 L20？",
        "Serving Qwen2.5-7B with vLLM: 2048 input tokens and 512 output tokens, 4 concurrent, 32K context",
    ],
)
def test_a_context_beside_the_request_shape_is_the_limit(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    data = ask(capsys, text)
    assert data["request"]["max_model_len"] == 32768
    assert data["request"]["prompt_tokens"] == 2048
    assert data["request"]["seq_len"] == 2560


def test_an_atlas_inference_card_is_named_as_typed(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "在 2 张 300I Duo 上部署 Qwen2.5-7B，速度大概多少？")
    assert data["interpretation"]["unknown_gpu"] == "300I Duo"


@pytest.mark.parametrize(
    ("text", "card"),
    [("用单芯 1684x 跑 Qwen2.5-7B 能跑吗？", "1684x"), ("BM1688 上跑 Qwen2.5-1.5B 多快？", "BM1688")],
)
def test_a_sophgo_tpu_is_named_as_typed(capsys: pytest.CaptureFixture[str], text: str, card: str) -> None:
    assert ask(capsys, text)["interpretation"]["unknown_gpu"] == card


def test_a_card_after_the_makers_word_is_named_as_typed(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "我用 NVIDIA BX700 部署 Qwen2.5-7B 占了多少显存？")
    assert data["interpretation"]["unknown_gpu"] == "BX700"  # sized on a default card, and said so


def test_a_version_is_never_the_model(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "用 sglang 0.4.6 部署 FooOCR 要多少显存？")
    assert data["interpretation"]["unknown_model"] == "FooOCR"


def test_a_name_with_how_small_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "BarVision 只有 2B 参数，为什么推理要 20GB 显存？")
    assert "BarVision" in data["interpretation"]["unknown_model"]
    assert data["request"]["params_total"] == 2e9


def test_a_token_budget_key_is_not_the_batch(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(
        capsys,
        "lora 微调 Qwen3-8B：python train.py --batch_size 2 --token_batch 16 --epoch 2，单卡 A100 40G 够吗？",
    )
    assert data["request"]["batch_size"] == 2


def test_lightning_deepspeed_strategy_and_rwkv_checkpointing(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(
        capsys,
        "全量训练 7B 模型，8 张 A800：--strategy deepspeed_stage_3 --grad_cp 1 --micro_bsz 2 --ctx_len 2048，"
        "显存够吗？",
    )
    assert data["request"]["zero_stage"] == 3
    assert data["request"]["recompute"] == "full"
