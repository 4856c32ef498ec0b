"""Round 26 of the real questions, Chinese (issue 24; tests/data/real_questions/zh_r26.json): kinds of writing
the r26work half showed the parser missing, each read for its axis and tested through the CLI
(``sizing-bot ask --format json``):

- a model named without a size in a message naming no other model, as speech, OCR and image models are
  ('FooVoice2 用 TensorRT 加速后', 'Foo-Extract-Kit 一跑就爆显存', 'FooOCR2.0 默认跑起来',
  'FooVoice 语音模型', 'FooDiT 大模型'): named as typed (bot.parse.verb_names.BEFORE_JOB_RE,
  bot.parse.model_names.CALLED_RE);
  a name after '跑' is the model and the one before it the means ('ComfyUI 跑 …'), and a tool, an engine or a
  card is no model;
- a release by its name and size apart ('FooBot 的 7B 模型'): named as typed and sized
  (bot.parse.model_names.SPACED_NAME_RE), and 'train' it is a fine-tuning (bot.parse.stage_hints.
  OWNED_RELEASE_RE), unless from scratch or a release's own training is told of (no model word);
- NVIDIA's TensorRT itself and ComfyUI as the engines a model runs on (bot.parse.more_engines), named as not
  modelled; TensorRT-LLM stays itself;
- '单请求' before its speed or latency ('单请求 decode 速度'): one request at a time (bot.parse.written_names.
  SINGLE_LOAD_RE); a request's length is no load;
- a model config's 'max_position_embeddings' raised to a value: the context (bot.parse.generic_values.WORDS).

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


def _ignored(out: dict[str, Any]) -> list[str]:
    return [i["text"] for i in out["interpretation"]["ignored"] or []]


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("BarSpeech3 用 TensorRT 加速以后显存多占了 3G，正常吗？", "BarSpeech3"),
        ("我的显卡是 3060 12G，Bar-Layout-Kit 一跑就爆显存，要多大显存？", "Bar-Layout-Kit"),
        ("装好了。BarOCR1.5 默认跑起来需要多少显存？", "BarOCR1.5"),
        ("本地启用 BarVoice 语音模型以后很卡，显存占了 10G。", "BarVoice"),
        ("这个 BarDiT 大模型在 8G 显存上推理能跑吗？", "BarDiT"),
    ],
)
def test_a_model_named_without_a_size_is_named_as_typed(
    capsys: pytest.CaptureFixture[str], text: str, typed: str
) -> None:
    out = ask(capsys, text)
    assert out["interpretation"]["unknown_model"] == typed
    assert out["request"]["model"] is None  # never swapped for a catalog model


@pytest.mark.parametrize(
    "text",
    [
        "ComfyUI 跑 BarFlux 爆显存了怎么办？",  # the means before '跑', the model after it
        "vLLM 一跑就爆显存，A100 40G",  # an engine
        "DeepSpeed 一跑就 OOM，8 张 3090",  # a training tool
        "RTX4090 跑起来很慢，显存也不够",  # a card
    ],
)
def test_a_means_a_tool_or_a_card_before_a_run_word_is_no_model(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    out = ask(capsys, text)
    assert out["interpretation"]["unknown_model"] in (None, "BarFlux")


def test_a_release_by_its_name_and_size_apart_is_named_sized_and_tuned(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = ask(capsys, "请问 BarBot 的 13B 模型最低要多少训练显存？")
    assert out["interpretation"]["unknown_model"] == "BarBot 13B"
    assert out["request"]["params_total"] == 13e9
    assert out["request"]["stage"] == "finetune"


@pytest.mark.parametrize(
    "text",
    [
        "从头训练 BarBot 的 13B 模型要多少卡？数据 2T tokens",  # from scratch: a pre-training
        "BarLM1 的 13B 在 1000 多张卡上训练速度是 3000 tokens/gpu/second，我 16 卡能到多少？",  # its own run
        "训练一个 13B 模型要多少显存？",  # a size alone: a model made anew
    ],
)
def test_a_pretraining_stays_one(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert ask(capsys, text)["request"]["stage"] == "pretrain"


def test_tensorrt_and_comfyui_are_named_as_engines_not_modelled(capsys: pytest.CaptureFixture[str]) -> None:
    out = ask(capsys, "BarSpeech3 用 TensorRT 加速以后显存多占了 3G")
    assert "runtime: TensorRT" in _ignored(out)
    out = ask(capsys, "这个 BarDiT 大模型经过 ComfyUI 优化，8G 还是跑不动")
    assert "runtime: ComfyUI" in _ignored(out)
    out = ask(capsys, "用 TensorRT-LLM 部署 Qwen2.5-7B 要多少显存？")
    assert "runtime: TensorRT-LLM" in _ignored(out) and "runtime: TensorRT" not in _ignored(out)


@pytest.mark.parametrize(
    "text",
    [
        "2 张 A100 用 vLLM 跑 Qwen2.5-32B，单请求 decode 速度能到 40 tokens/s 吗？",
        "单个请求的延迟大概多少？vLLM 部署 Qwen2.5-7B，一张 L40",
    ],
)
def test_one_request_before_its_speed_is_a_load_of_one(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert ask(capsys, text)["request"]["concurrency"] == 1


def test_a_requests_length_is_no_load(capsys: pytest.CaptureFixture[str]) -> None:
    out = ask(capsys, "vLLM 部署 Qwen2.5-7B，单个请求的输入长度 8k，A100 够吗？")
    assert out["request"]["concurrency"] != 1
    assert out["request"]["prompt_tokens"] == 8000


def test_a_raised_max_position_embeddings_is_the_context(capsys: pytest.CaptureFixture[str]) -> None:
    out = ask(
        capsys,
        "8 张 H20 用 vLLM 部署 Qwen2.5-72B，config.json 里 max_position_embeddings 改成 65536，长输入报错",
    )
    assert out["request"]["seq_len"] == 65536 or out["request"]["max_model_len"] == 65536
    assert "65536" not in _ignored(out)
