"""Session 38 left part (/work/notes/s38/full_left.md): answers found wrong last session, by kind, each
asserted on ``sizing-bot ask --format json`` in both languages with sentences of our own."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import ask
from estimator import catalog
from estimator.architecture import count_params


def answer(question: str) -> dict[str, Any]:
    """The JSON answer of ``sizing-bot ask``."""
    return json.loads(ask(question, None, "json")[0])


def substitutions(data: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {s["typed"]: (s["used"], s["reason"]) for s in data["interpretation"]["substitutions"]}


# 1. A vision-language release named as typed is that release (catalog entries from config.json), never
#    the text model of a near name; a variant word the catalog entry lacks makes the model unknown, named
#    as typed.


def _qwen2_vl_tower(out_hidden: int) -> int:
    """Qwen2-VL's vision tower worked by hand from config.json vision_config (transformers qwen2_vl):
    Conv3d 3·2·14·14·1280 (no bias); 32 blocks of 2 LayerNorms (weight + bias), qkv 1280→3840 (bias),
    proj 1280→1280 (bias), fc1 1280→5120 and fc2 5120→1280 (bias, mlp_ratio 4); merger LayerNorm(1280)
    + 5120→5120 + 5120→out_hidden (bias)."""
    attention = (1280 * 3840 + 3840) + (1280 * 1280 + 1280)
    block = 2 * 2 * 1280 + attention + (1280 * 5120 + 5120) + (5120 * 1280 + 1280)
    merger = 2 * 1280 + (5120 * 5120 + 5120) + (5120 * out_hidden + out_hidden)
    return 3 * 2 * 14 * 14 * 1280 + 32 * block + merger


@pytest.mark.parametrize(
    ("model", "tower", "total"),
    [
        ("Qwen2-VL-7B", 675_759_104, 8.29e9),  # Hub: Qwen/Qwen2-VL-7B-Instruct 8.29B
        ("Qwen2-VL-72B", 699_356_672, 73.4e9),  # Hub: Qwen/Qwen2-VL-72B-Instruct 73.4B
        ("Qwen2.5-VL-72B", 704_573_696, 73.4e9),  # Hub: Qwen/Qwen2.5-VL-72B-Instruct 73.4B
    ],
)
def test_vl_entries_count_their_tower(model: str, tower: int, total: float) -> None:
    spec = catalog.model(model)
    assert spec.vision is not None and spec.vision.params == tower
    if model.startswith("Qwen2-VL"):
        assert tower == _qwen2_vl_tower(spec.hidden)
    else:  # Qwen2.5-VL: RMSNorms, a gated MLP of intermediate_size 3456, out_hidden_size 8192
        block = 2 * 1280 + 4_919_040 + 1_639_680 + 2 * (1280 * 3456 + 3456) + (3456 * 1280 + 1280)
        assert tower == 1_505_280 + 32 * block + 1280 + 26_219_520 + (5120 * 8192 + 8192)
    computed = count_params(spec)[0]
    assert computed == pytest.approx(total, rel=1e-3)  # the tower counted: the checkpoint's total
    text = catalog.model(model.replace("-VL", ""))
    assert computed - tower == pytest.approx(count_params(text)[0])  # the language model is its text shape


@pytest.mark.parametrize(
    ("question", "model"),
    [
        ("qwen2-vl 7b 推理需要多少显存", "Qwen2-VL-7B"),
        ("How much GPU memory to serve qwen2-vl 7b?", "Qwen2-VL-7B"),
        ("Qwen2-VL-72B-Instruct 部署要几张 A100", "Qwen2-VL-72B"),
        ("serve Qwen2.5-VL-72B on H100s", "Qwen2.5-VL-72B"),
        ("Qwen2VL 7B lora 微调要几张 4090", "Qwen2-VL-7B"),
        ("qwen2.5 vl 3b inference on a T4", "Qwen2.5-VL-3B"),
    ],
)
def test_vl_release_is_its_catalog_entry(question: str, model: str) -> None:
    data = answer(question)
    assert data["request"]["model"] == model
    assert data["interpretation"]["unknown_model"] is None
    assert substitutions(data) == {}  # no 'sized as its language model'
    assert data["request"]["params_total"] == catalog.model(model).params_total


@pytest.mark.parametrize(
    ("question", "typed", "size"),
    [
        ("serve mistral-7b-vision on one A100", "mistral-7b-vision", 7e9),
        ("How much memory for Llama-3.2-11B-Vision?", "Llama-3.2-11B-Vision", 11e9),
        ("部署 qwen2.5-7b-coder 需要多少显存", "qwen2.5-7b-coder", 7e9),
        ("llama-3-8b-math 用 4090 推理够吗", "llama-3-8b-math", 8e9),
        ("Qwen2.5-7B-Omni inference on an L20", "Qwen2.5-7B-Omni", 7e9),
        ("serve Qwen2.5-7B_embedding on a T4", "Qwen2.5-7B_embedding", 7e9),
    ],
)
def test_variant_word_refuses_the_near_catalog_name(question: str, typed: str, size: float) -> None:
    data = answer(question)
    assert data["request"]["model"] is None  # never the text LLM whose name it ends with
    assert data["interpretation"]["unknown_model"] == typed
    assert substitutions(data)[typed][1] == "generic_shape"
    assert data["request"]["params_total"] == size
    assert typed in data["reply"]


@pytest.mark.parametrize(
    ("question", "model"),
    [
        ("serve Qwen2.5-Coder-7B-Instruct on a 4090", "Qwen2.5-Coder-7B"),  # the word in the entry: kept
        ("Qwen2.5-Math-7B 推理要几张卡", "Qwen2.5-Math-7B"),
        ("serve Llama-3.1-8B-Instruct on one A100", "Llama-3.1-8B"),  # release tags are not variants
        ("serve mistral-7b on one A100 for vision-free chat", "Mistral-7B"),  # a spaced word is no variant
    ],
)
def test_variant_reader_must_not_misread(question: str, model: str) -> None:
    data = answer(question)
    assert data["request"]["model"] == model
    assert data["interpretation"]["unknown_model"] is None


def test_unknown_beside_a_catalog_model_is_named() -> None:
    for q in ("olmOCR 7B and Qwen2.5-7B inference on A100", "用 A100 部署 olmOCR 7B 和 Qwen2.5-7B"):
        data = answer(q)
        assert data["request"]["model"] == "Qwen2.5-7B"
        assert {"text": "model: olmOCR 7B", "reason": "other_setup"} in data["interpretation"]["ignored"]
