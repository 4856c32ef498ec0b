"""Session 37 part gen (issue 24): readers for the kinds the working splits still miss.

Each reader has must-read cases (the form read) and must-not-misread cases (the neighbouring forms that
must keep their answer), in sentences of this file, both languages where the form is written in both.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import ask


def _answer(text: str) -> dict[str, Any]:
    out, _ = ask(text, None, "json")
    return json.loads(out)


def _ignored(a: dict[str, Any]) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in a["interpretation"]["ignored"]]


# 1. Lightning's precision values without their key ('16-mixed', '32-true'; lightning/fabric/connector.py)
@pytest.mark.parametrize(
    "text",
    [
        "Fine-tune Falcon-7B on 8 V100 32GB in both 16-mixed and 32-true precision: both OOM. Why?",
        "用 lit-gpt 在 8 张 V100 32G 上微调 Falcon-7B，16-mixed 和 32-true 都 OOM",
    ],
)
def test_lightning_precision_values_read(text: str) -> None:
    a = _answer(text)
    assert a["request"]["precision"] == "fp16"  # 16-mixed: fp16 mixed precision
    assert ("precision: fp32", "repeated") in _ignored(a)  # 32-true: the other setup, named
    assert not any(why == "unread" for _, why in _ignored(a))  # '16' and '32' no longer left unread


def test_lightning_value_alone_is_fp16() -> None:
    a = _answer("Fine-tune Falcon-7B on one A100 80GB with 16-true")
    assert a["request"]["precision"] == "fp16"


@pytest.mark.parametrize(
    ("text", "precision"),
    [
        ("Fine-tune Falcon-7B on 8 V100 32GB with bf16-mixed", "bf16"),  # its format is in the word
        ("Fine-tune Falcon-7B on 8 V100 32GB with --precision 16-mixed", "fp16"),  # the key form, as before
    ],
)
def test_precision_words_with_a_format_unchanged(text: str, precision: str) -> None:
    a = _answer(text)
    assert a["request"]["precision"] == precision
    assert not any(t.startswith("precision:") for t, _ in _ignored(a))


def test_hyphenated_numbers_are_no_precision() -> None:
    a = _answer("Serve Llama-2-7B on a 16-GPU cluster of A100 80GB")  # '16-gpu' is a count, never fp16
    assert a["request"]["gpu_count"] == 16
    assert a["request"]["precision"] != "fp32"


# 2. A count of images with their resolution after it ('75,866 images of 750x750', '张 750x750 的图片')
@pytest.mark.parametrize(
    ("text", "n"),
    [
        (
            "I am fine-tuning Qwen2-VL-7B on 75,866 images of 750x750, micro batch 4, on 8 A100",
            75866,
        ),
        ("Fine-tune Qwen2-VL-7B on 20k images of 1024x1024 on 4 H100", 20000),
        ("用 75866 张 750x750 的图片微调 Qwen2-VL-7B，8 张 A100", 75866),
        ("用 2 万张 1024×1024 像素的图片微调 Qwen2-VL-7B，4 张 H100 够吗", 20000),
    ],
)
def test_images_of_a_resolution_are_samples(text: str, n: int) -> None:
    a = _answer(text)
    assert a["request"]["num_samples"] == n
    assert a["request"]["gpu_count"] in (4, 8)  # '张 … 的图片' is no count of cards
    assert not any(t in ("1048576", "562500") for t, _ in _ignored(a))  # never the side × side


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tune Qwen2-VL-7B on 4 H100 with 2 images of 448x448 per sample",  # a part of one sample
        "Video-LLaVA samples 8 images of 256 tokens each; fine-tune it on 4 A100",  # as before (s33)
    ],
)
def test_images_per_sample_are_no_data_set(text: str) -> None:
    a = _answer(text)
    assert a["request"]["num_samples"] is None
    assert a["request"]["gpu_count"] == 4


def test_token_product_keeps_lengths() -> None:
    a = _answer("fine-tune llama-2-7b with max_seq_length 64 * 1024 on 8 H100")
    assert a["request"]["seq_len"] == 65536  # 64 × 1024 tokens, as before


# 3. Two stages asked with a verb or an object between ('train and run inference', 'fine-tune X and to run
# inference on them'); a vision-language model trained is its language model tuned
@pytest.mark.parametrize(
    ("text", "stage", "other"),
    [
        ("Can I train and run inference of Llama-2-7B on 8 RTX 4090?", "inference", "stage: finetune"),
        (
            "What GPU memory does it take to fine-tune your LongLoRA models and to run inference on them?",
            "finetune",
            "stage: inference",
        ),
        ("训练和做推理 Llama-2-7B 分别需要多少显存？", "inference", "stage: finetune"),
        (
            "How much GPU memory to fine-tune and run inference of Llama-2-7B on RTX 4090s?",
            "finetune",
            "stage: inference",
        ),
    ],
)
def test_two_stages_with_a_verb_named(text: str, stage: str, other: str) -> None:
    a = _answer(text)
    assert a["request"]["stage"] == stage
    assert (other, "other_setup") in _ignored(a)


@pytest.mark.parametrize(
    "text",
    [
        "How much memory do training data and inference of Llama-2-7B take on an A100?",  # a noun of training
        "I fine-tune Llama-2-7B on 4 A100 and then run inference on one",  # serving after the tuning
        "Fine-tune Llama-2-7B on 4 A100, how long does it take?",
    ],
)
def test_one_stage_stays_one(text: str) -> None:
    a = _answer(text)
    assert not any(t.startswith("stage:") for t, _ in _ignored(a))


@pytest.mark.parametrize(
    "text",
    [
        "May I run LLaVA training with a single 3090 GPU? It OOMs with per_device_train_batch_size=1.",
        "训练 InternVL2 需要几张 A100？",
        "训练 Qwen-VL 要多少显存",
    ],
)
def test_vision_language_model_trained_is_tuned(text: str) -> None:
    assert _answer(text)["request"]["stage"] == "finetune"


@pytest.mark.parametrize(
    "text",
    ["Train a 7B model from scratch on 8 A100", "Train a 7B vision-language model from scratch on 64 A100"],
)
def test_training_from_scratch_stays_pretraining(text: str) -> None:
    assert _answer(text)["request"]["stage"] == "pretrain"


def test_vision_language_model_in_two_stages_named() -> None:
    a = _answer("I am using 8 RTX 4090 GPUs with 24GB each. Can I train and run inference of LLaVA on them?")
    assert a["request"]["stage"] == "inference"
    assert ("stage: finetune", "other_setup") in _ignored(a)  # never 'stage: pretrain'
    assert a["interpretation"]["unknown_model"] == "LLaVA"  # 'inference of LLaVA': named as typed


# 4. A model named after serving said as a noun ('inference of LLaVA', 'inference for InternVL')
def test_inference_for_a_name_names_it() -> None:
    a = _answer("What does inference for InternVL need on one A100?")
    assert a["interpretation"]["unknown_model"] == "InternVL"


@pytest.mark.parametrize(
    "text",
    [
        "Is inference for Chinese users slow on one 4090?",  # a language, no model
        "inference of 8 requests at once on an H100",
    ],
)
def test_inference_of_words_names_no_model(text: str) -> None:
    a = _answer(text)
    assert a["interpretation"]["unknown_model"] is None
    assert a["request"]["model"] is None


# 5. An engine's token budget written in prose (TGI MAX_BATCH_PREFILL_TOKENS): named as not used (no_field),
# as a pasted command's is; vLLM's --max-num-batched-tokens is used since s46 (the profile's forward pass)
def test_vllm_token_budget_in_prose_used() -> None:
    a = _answer("用 vllm 部署 Qwen2-7B，单卡 A100，--max-num-batched-tokens 8192")
    assert a["request"]["max_num_batched_tokens"] == 8192
    assert not any(why in ("unread", "no_field") for _, why in _ignored(a))


@pytest.mark.parametrize(
    ("text", "item"),
    [
        (
            "Serving Llama-2-13b with TGI on 4 T4: MAX_INPUT_LENGTH 128, MAX_BATCH_PREFILL_TOKENS 256",
            "--max-batch-prefill-tokens: 256",
        ),
    ],
)
def test_token_budget_in_prose_named(text: str, item: str) -> None:
    a = _answer(text)
    assert (item, "no_field") in _ignored(a)
    assert not any(why == "unread" for _, why in _ignored(a))


def test_token_budget_beside_read_flags_keeps_them() -> None:
    a = _answer(
        "Serving Llama-2-13b with TGI on 4 T4 --max-input-length 1024 --max-batch-prefill-tokens 4096"
    )
    assert a["request"]["prompt_tokens"] == 1024  # TGI's --max-input-length, read as before
    assert ("--max-batch-prefill-tokens: 4096", "no_field") in _ignored(a)


def test_pasted_command_budget_unchanged() -> None:
    a = _answer("vllm serve Qwen/Qwen2-7B --max-num-batched-tokens 8192 --max-model-len 32768 on one A100")
    assert a["request"]["max_model_len"] == 32768
    assert a["request"]["max_num_batched_tokens"] == 8192  # s46: used (was named once as no_field)
    assert not any("max-num-batched-tokens" in text for text, _ in _ignored(a))


# 6. An evaluation's batch by any key name ('test_batch_size', 'val_batch_size', '测试集 batch size'): named,
# never the training micro-batch
@pytest.mark.parametrize(
    ("text", "item"),
    [
        ("Full fine-tune ChatGLM-6B on an RTX 3090 24G, per_device_train_batch_size 4, test_batch_size 2",
         "test_batch_size: 2"),
        ("全参数微调 ChatGLM-6B，单卡 3090，batch size 4，测试集 batch size 8", "测试集 batch size: 8"),
        ("Fine-tune Qwen2-7B with LoRA on one 4090, val_batch_size 8, batch_size 4", "val_batch_size: 8"),
    ],
)  # fmt: skip
def test_evaluation_batch_named(text: str, item: str) -> None:
    a = _answer(text)
    assert a["request"]["batch_size"] == 4
    assert (item, "no_field") in _ignored(a)


@pytest.mark.parametrize(
    "text",
    [
        "Full fine-tune ChatGLM-6B on an RTX 3090 24G with batch size 4",
        "全参数微调 ChatGLM-6B，单卡 3090，batch size 4",
    ],
)
def test_training_batch_unchanged(text: str) -> None:
    a = _answer(text)
    assert a["request"]["batch_size"] == 4
    assert not any(why == "no_field" for _, why in _ignored(a))


# 7. A bare 'NPU' (a class of accelerators): named as typed with the catalog's NPUs offered, never an A100
# sized in silence
@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("用 8 张 NPU 微调 Qwen2-7B 需要多久", "NPU"),
        ("How many NPUs do I need to fine-tune Qwen2-7B?", "NPUs"),
    ],
)
def test_bare_npu_named_as_typed(text: str, typed: str) -> None:
    a = _answer(text)
    assert a["interpretation"]["unknown_gpu"] == typed
    out, _ = ask(text, None, "text")
    assert "Ascend 910B" in out  # the NPUs the catalog holds, offered (never the H line by letters)


@pytest.mark.parametrize(
    "text",
    [
        "用 8 张 910B NPU 微调 Qwen2-7B",  # a catalog NPU named: that card
        "torch_npu 上微调 Qwen2-7B，8 张 910B",  # a library's name
        "npu-smi 显示 8 张 910B 显存占满，微调 Qwen2-7B",  # a tool's name
    ],
)
def test_npu_beside_a_catalog_card_is_that_card(text: str) -> None:
    a = _answer(text)
    assert (a["request"]["gpu"], a["request"]["gpu_count"]) == ("Ascend-910B", 8)
    assert a["interpretation"]["unknown_gpu"] is None


# 8. Images in one sample ('each sample has 2 images', '每条样本 2 张图片'): no count of samples; the data
# set's own count beside it is the one read
@pytest.mark.parametrize(
    ("text", "n", "per"),
    [
        ("每条样本有 2 张图片，共 5000 条，用 4 张 H100 微调 Qwen2-VL-7B", 5000, "2"),
        ("每条数据包含 3 张图片，共 1 万条，用 4 张 H100 微调 Qwen2-VL-7B", 10000, "3"),
        ("Each sample has 2 images and there are 10k samples; fine-tune Qwen2-VL-7B on 4 H100", 10000, "2"),
    ],
)
def test_images_in_a_sample_are_no_data_set(text: str, n: int, per: str) -> None:
    a = _answer(text)
    assert a["request"]["num_samples"] == n
    # named as not used, never the data set; s40 fixt #1: read as images per sample, whose visual tokens
    # need a resolution (was ('2', 'unread'): "no word said what it is", though the words said it)
    assert (f"images_per_sample: {per}", "image_no_resolution") in _ignored(a)


@pytest.mark.parametrize(
    ("text", "n"),
    [
        ("用 2 万张图片微调 Qwen2-VL-7B，4 张 H100", 20000),
        ("One image per sample, 20k images; fine-tune Qwen2-VL-7B on 4 H100", 20000),
    ],
)
def test_image_data_sets_unchanged(text: str, n: int) -> None:
    assert _answer(text)["request"]["num_samples"] == n
