"""Session 34, general readers (branch s34-gen, issue 24): the working splits' misses by kind, each read as a
way of writing in both languages and tested through the CLI (``sizing-bot ask --format json``):

- **a quantize call with its width** ('.quantize(4)', 'model.half().quantize(8).cuda()', 'quantize(bits=4)';
  ChatGLM's remote code, THUDM/ChatGLM-6B README ``.half().quantize(4).cuda()``): that integer weight format;
  two calls in one message: the first sized, the other named as a second value; **a quantizer's weight-bits
  key** ('--wbits 4', 'bits=4', '"bits": 8', '"w_bit": 4'): that integer format; **PyTorch's .half()**: fp16,
  unless a quantize call says the weights' format (bot.parse.written_names);
- **a format word beside a quantization group size** ('int4 with group size 128', '用 int8 量化，group size
  128', 'bits=4, group_size=128'): the format is read; before, the group-size reader masked it with the
  key (bot.parse.rl_words.group_span);
- **a keyed number of the other kind of job** ('in batches of 32' of an embedding run, '批次大小我开的 32' of
  a vLLM service, 'max num seqs 设成 64' of a LoRA fine-tuning): named with its key as not used for this
  job ('training_only' / 'serving_only'), never left 'unread'; **a second keyed value** of a field already
  set ('梯度累积 8 … 梯度累积步数是 16', 'epochs 3 and the epochs of 5'): named 'repeated' with its key
  (bot.parse.generic_values.place_unread; the key–value grammar's own vocabulary, so every key it knows).

Each reader has sentences it must read and sentences it must leave as they were. The sentences are written
for these tests (none is from the real-question corpus)."""

from __future__ import annotations

import json
from typing import Any

import pytest


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    """The JSON answer of ``sizing-bot ask --format json TEXT``."""
    from bot.cli import main

    assert main(["ask", "--format", "json", text]) in (0, 2)
    return json.loads(capsys.readouterr().out)


def ignored(answer: dict[str, Any]) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]]


# -- a quantize call with its width


@pytest.mark.parametrize(
    ("text", "precision", "other"),
    [
        # s34 review: the two sentences before were read on main already (tests/test_s34_fixf.py keeps them)
        ("chatglm2-6b 用 model.quantize (4) 部署在 1080Ti 上要多少显存？", "int4", None),
        ("ChatGLM3-6B with model = model.quantize(bits=4) on a 1080Ti, how much VRAM?", "int4", None),
        (
            "With .quantize(4) chatglm3-6b fits on my 1080Ti. Is quantize(8) faster than no quantization?",
            "int4",
            "int8",
        ),
        ("chatglm2-6b 先 quantize(bits=8) 再部署到一张 T4，够吗？", "int8", None),
    ],
)
def test_quantize_call_is_its_format(
    capsys: pytest.CaptureFixture[str], text: str, precision: str, other: str | None
) -> None:
    a = ask(capsys, text)
    assert a["request"]["precision"] == precision
    if other:  # the second call: a second value for the format, named (never the bare '8' unread)
        assert (f"precision: {other}", "repeated") in ignored(a)
    assert all(reason != "unread" for _, reason in ignored(a))


@pytest.mark.parametrize(
    ("text", "unread"),
    [
        # another argument than the width alone: no width the call takes, left as it was
        ("I call quantize(model, 4) on Llama-2-7B, how much memory on one T4?", "4"),
        # a width ChatGLM's quantize does not take (4 or 8 only)
        ("chatglm-6b 用 .quantize(3) 能在 T4 上跑吗", None),
    ],
)
def test_quantize_call_must_not_misread(
    capsys: pytest.CaptureFixture[str], text: str, unread: str | None
) -> None:
    a = ask(capsys, text)
    assert a["request"].get("precision") not in ("int4", "int3")
    if unread:
        assert (unread, "unread") in ignored(a)


def test_quantize_word_alone_is_left(capsys: pytest.CaptureFixture[str]) -> None:
    """'quantize it to 4 bits' is prose the precision reader reads already ('4 bits'): unchanged, int4."""
    a = ask(capsys, "Can I quantize Llama-2-7B to 4 bits and serve it on one T4?")
    assert a["request"]["precision"] == "int4"


# -- a keyed number of the other kind of job, or a second keyed value


@pytest.mark.parametrize(
    ("text", "item"),
    [
        (
            "How long does embedding 200,000 chunks take on one T4 in batches of 32?",
            ("batch_size: 32", "training_only"),
        ),
        (
            "用 vLLM 部署 Qwen2.5-7B，一张 L20，批次大小我开的 32，能撑多少并发？",
            ("batch_size: 32", "training_only"),
        ),
        ("LoRA 微调 Qwen2.5-7B，两张 4090，max num seqs 设成 64", ("max_num_seqs: 64", "serving_only")),
        (
            "Fine-tune Qwen2.5-7B with LoRA on two 4090s; gpu memory utilization is 0.9 in my script",
            ("gpu_memory_utilization: 0.9", "serving_only"),
        ),
        (
            "LoRA 微调 Qwen2.5-7B，一张 A100，梯度累积 8，同事说梯度累积步数是 16",
            ("gradient_accumulation_steps: 16", "repeated"),
        ),
        ("Fine-tune Llama-3-8B on 8 H100s with epochs 3 and the epochs of 5", ("epochs: 5", "repeated")),
    ],
)
def test_keyed_number_is_named(capsys: pytest.CaptureFixture[str], text: str, item: tuple[str, str]) -> None:
    a = ask(capsys, text)
    assert item in ignored(a)
    field = item[0].split(":")[0]
    if item[1] != "repeated":  # not used: the request has no such setting from it
        assert a["request"].get(field) is None
    assert all(reason != "unread" for _, reason in ignored(a))


def test_second_value_keeps_the_first(capsys: pytest.CaptureFixture[str]) -> None:
    """The value used stays the first one said; the second is named, not sized (8 × micro 1 × 1 GPU)."""
    a = ask(capsys, "LoRA 微调 Qwen2.5-7B，一张 A100，梯度累积 8，同事说梯度累积步数是 16")
    assert a["request"]["gradient_accumulation"] == 8


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        # in scope: placed and used, as before
        (
            "Serve Qwen2.5-7B with vLLM on one L20, gpu memory utilization is 0.85",
            "gpu_memory_utilization",
            0.85,
        ),
        ("LoRA 微调 Qwen2.5-7B，一张 A100，梯度累积步数是 16", "gradient_accumulation", 16),
        # the same value said twice: used, nothing named
        ("Fine-tune Llama-3-8B on 8 H100s with epochs 3; yes, the epochs of 3", "epochs", 3),
    ],
)
def test_keyed_number_in_scope_unchanged(
    capsys: pytest.CaptureFixture[str], text: str, field: str, value: float
) -> None:
    a = ask(capsys, text)
    assert a["request"][field] == value
    assert not [t for t, _ in ignored(a) if t.startswith(f"{field}:") or t == str(value)]


def test_number_with_a_role_keeps_its_reason(capsys: pytest.CaptureFixture[str]) -> None:
    """A number another reader gave a role keeps that reader's reason ('other_setup'), not 'repeated'."""
    a = ask(capsys, "LoRA 微调 Qwen2.5-7B，一张 A100，序列长度设为 4096，后来序列长度改成 8192 就 OOM 了")
    assert a["request"]["seq_len"] == 8192
    assert ("4096", "other_setup") in ignored(a)


# -- a quantizer's weight-bits key, PyTorch's .half(), a format beside a group size


@pytest.mark.parametrize(
    ("text", "precision"),
    [
        ("python server.py --model llama-30b --wbits 4 on two 3090, how much VRAM?", "int4"),
        ("BaseQuantizeConfig(bits=4, group_size=128) for Qwen-14B, does it fit one 4090?", "int4"),
        ('quantize_config.json has "bits": 8, "group_size": 128 for Qwen2.5-14B-Instruct on one L4', "int8"),
        (
            'AutoAWQ quant_config {"q_group_size": 128, "w_bit": 4}, Qwen2.5-32B, one 4090',
            "int4",
        ),
        ("qwen-7b 加了 model.half() 之后在 3090 上跑推理要多少显存", "fp16"),
        ("chatglm-6b 用 model.half().quantize(bits=4).cuda() 在 T4 上跑要多少显存", "int4"),  # s34 review
        ("Qwen-14B in int4 with group size 128, does it fit one 4090?", "int4"),
        ("Qwen-14B 用 int8 量化，group size 128，一张 4090 够吗", "int8"),
    ],
)
def test_weight_bits_written_as_code(capsys: pytest.CaptureFixture[str], text: str, precision: str) -> None:
    a = ask(capsys, text)
    assert a["request"]["precision"] == precision
    assert "precision" not in a["request"]["assumed_fields"]
    assert all(reason != "unread" for _, reason in ignored(a))


@pytest.mark.parametrize(
    ("text", "not_precision"),
    [
        # the KV cache's bits (lmdeploy's kv_bits), never the weights'
        ("lmdeploy 部署 Qwen2.5-7B，kv_bits=8，一张 4090", "int8"),
        # activation bits are no weight format
        ("Llama-2-7B with act_bits=8 on one T4, how much memory?", "int8"),
        # a width no quantizer key gives ('bits=16' is no integer format the rewrite knows)
        ("Llama-2-7B with bits=16 on one T4, how much memory?", "int4"),
    ],
)
def test_weight_bits_must_not_misread(
    capsys: pytest.CaptureFixture[str], text: str, not_precision: str
) -> None:
    assert ask(capsys, text)["request"].get("precision") != not_precision


def test_gptq_group_size_is_no_generations(capsys: pytest.CaptureFixture[str]) -> None:
    """GPTQ's group size stays a quantization setting, named as such; GRPO's group size is still read."""
    a = ask(capsys, "BaseQuantizeConfig(bits=4, group_size=128) for Qwen-14B, does it fit one 4090?")
    assert ("quantization group_size: 128", "no_field") in ignored(a)
    assert not [t for t, _ in ignored(a) if t.startswith("num_generations")]
    grpo = ask(capsys, "GRPO on Qwen2.5-7B with group size 8 on 8 H100, how long for 10k prompts?")
    assert grpo["request"]["num_generations"] == 8


def test_written_format_is_the_one_asked(capsys: pytest.CaptureFixture[str]) -> None:
    """A quantize call is how the model loads now; a format written as a word in the question is the one
    asked ('放得下 int8 吗'): int8 sized, the call's int4 named as a second value."""
    a = ask(capsys, "1080Ti 跑 chatglm3-6b，加上 .quantize(4) 之后就能跑了。11GB 的卡放得下 int8 吗？")
    assert a["request"]["precision"] == "int8"
    assert ("precision: int4", "repeated") in ignored(a)
    b = ask(capsys, "My 1080Ti runs chatglm3-6b with .quantize(4). Would it fit in int8?")
    assert b["request"]["precision"] == "int8"
