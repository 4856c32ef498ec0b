"""Session 32 fixb: sentences of our own, never corpus records, in both languages."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.renderer import render

# -- the gradient accumulation asked with no model: the formula on their figures (bot.core.accumulation) --

ACCUM_NO_MODEL = [
    (
        "batch size 256 on 4 A100, how much gradient accumulation?",
        256,
        4,
        ((1, 64), (2, 32), (4, 16), (8, 8)),
    ),
    ("global batch 512 on 8 H100, what gradient_accumulation_steps should I use?", 512, 8, ((1, 64), (8, 8))),
    ("4 张 A100 全局 batch 256，梯度累积设多少", 256, 4, ((1, 64), (8, 8))),
    ("8 卡 H800，global batch 1024，梯度累积要设几", 1024, 8, ((1, 128), (8, 16))),
]


@pytest.mark.parametrize(("text", "batch", "gpus", "rows"), ACCUM_NO_MODEL)
def test_accumulation_without_model_is_the_formula(text: str, batch: int, gpus: int, rows: tuple) -> None:
    result = answer(text)
    assert result.report is None  # before: a GPU-hour price (en) or the help (zh)
    acc = result.accumulation
    assert acc is not None and (acc.global_batch, acc.gpus) == (batch, gpus)
    for row in rows:
        assert row in acc.rows
    reply = render(result, "text")
    assert f"{batch}" in reply and ("micro-batch" in reply or "微批次" in reply)
    assert "$" not in reply and "GPU-hours" not in reply


def test_accumulation_with_model_is_sized() -> None:
    result = answer("batch size 256 for Qwen2.5-7B full fine-tune on 4 A100, how much gradient accumulation?")
    assert result.accumulation is None and result.report is not None
    assert "× 64 accumulation × DP 4" in render(result, "text")


# -- lmdeploy's / TGI's batch size: their cap, said once, under the user's key (bot.parse.load_words) ------

CAP_AS_LOAD = [
    ("lmdeploy batch_size 4 for internlm2.5-20b on one A100 40GB", "batch_size 4", 4),
    ("TGI max batch size 8 for Llama-3-8B on an L4", "max batch size 8", 8),
    ("lmdeploy 跑 Qwen2.5-7B，batch_size 设为 8，一张 4090", "batch_size", 8),
]


@pytest.mark.parametrize(("text", "key", "load"), CAP_AS_LOAD)
def test_engine_batch_alone_is_the_cap_sized_as_load(text: str, key: str, load: int) -> None:
    result = answer(text)
    assert result.report is not None and result.report.request.concurrency == load
    reply = render(result, "text")
    assert "max_num_seqs" not in reply  # before: 'Not used: “max_num_seqs: 4”' and then sized as the load
    assert "Not used" not in reply and "未使用" not in reply
    assert key in reply and ("Used:" in reply or "已使用" in reply)


CAP_BESIDE_LOAD = [
    (
        "lmdeploy max_batch_size=16 for Qwen2.5-14B on one A100 80GB, 64 concurrent users",
        "max_batch_size=16",
        64,
    ),
    ("用 lmdeploy 部署 Qwen2.5-14B，max_batch_size 32，100 并发，一张 A100", "max_batch_size 32", 100),
]


@pytest.mark.parametrize(("text", "key", "load"), CAP_BESIDE_LOAD)
def test_engine_batch_beside_a_load_is_named_once(text: str, key: str, load: int) -> None:
    result = answer(text)
    assert result.report is not None and result.report.request.concurrency == load
    reply = render(result, "text")
    assert "max_num_seqs" not in reply and key in reply
    assert "a training setting" not in reply and "训练设置" not in reply  # the batch named once, as the cap


# -- a training tool named in a serving question: not used because serving is sized (interpretation) ------

SERVED_TOOL = [
    ("Unsloth 只用来推理 Qwen3-14B 在 3090 上", "Unsloth"),
    ("Only using Unsloth for inference of Qwen3-14B on a 3090", "Unsloth"),
    ("用 LLaMA-Factory 部署 Qwen2.5-7B 推理，一张 4090", "LLaMA-Factory"),
]


@pytest.mark.parametrize(("text", "tool"), SERVED_TOOL)
def test_training_tool_in_serving_is_not_a_missing_setting(text: str, tool: str) -> None:
    result = answer(text)
    assert result.report is not None and result.report.request.stage == "inference"
    reasons = {i.reason for i in result.interpretation.ignored if tool in i.text}
    assert reasons == {"training_tool_serving"}  # before: 'no_field' ('changes the answer … no setting')
    reply = render(result, "text")
    assert "会影响结果" not in reply and "it changes the answer" not in reply


def test_training_tool_in_training_keeps_its_reason() -> None:
    ignored = answer("LoRA Qwen2.5-7B with SomeNewTrainerX on one 4090").interpretation.ignored
    assert all(i.reason != "training_tool_serving" for i in ignored)
