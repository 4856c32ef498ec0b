"""Round 37, Chinese (issue 24 item 5, branch s41-r37zh): the readers the r37work zh first contact asked for,
each tested on sentences of our own in both languages, the must-read and the must-not-misread
(tests/data/real_questions/README.md, "Round 37, Chinese").

1. A KV cache's precision said with a precision word ('KV 精度 fp16', 'KV cache precision: bf16'): the KV
   cache's, never the weights' (bot.parse.kv_cache_types, bot.parse.vocab_patterns.KV_FP8_RE).
2. A serving summary's window as a token count ('Context tokens 131072', '上下文 token 数 32768'): the length
   (bot.parse.generic_values.WORDS).
3. A log's host memory ('system memory total="127.8 GiB"', Ollama's scheduler line): the host's RAM, not the
   cards' (bot.parse.prose_forms.HOST_MEMORY_RE).
4. A config key's value after a past setting word ('model_max_length 设的 1024', 'cutoff_len 开的 4096')
   (bot.parse.vocab_patterns._SEP).
5. A card's memory in brackets after the card word ('RTX5090 的显卡（32G）', '4090 显卡（24G）')
   (bot.parse.memory_forms.CARD_THEN_MEMORY_RE).
6. One card said '单个' or '是一台' ('gpu 是单个 16G 的 V100', 'GPU 是一台英伟达 A100') (bot.parse.words).
7. A fine-tuned model quantized, then served ('LoRA 微调 X 后做 awq int4 量化 … 推理'): serving, not a
   fine-tuning (bot.parse.words.TUNED_ADJECTIVE_RE).
8. A size, then a catalog family in lower case after a Chinese word or an article ('lora 的 7b bloom'): that
   release (bot.parse.model_names).
9. Scorer: two micro-batches of two setups, each used or named (tests/real_questions.EACH_NAMED).
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.parse import parse
from tests.real_questions import key_understood


def _req(text: str) -> Any:
    return parse(text).request


def _value(field: Any) -> Any:
    return getattr(field, "value", field)


@pytest.mark.parametrize(
    ("text", "kv"),
    [
        ("Titan RTX 两张跑 Qwen3-30B-A3B-AWQ-4bit，配置：vLLM，W4A16，KV 精度 fp16，Max sequences 1", "fp16"),
        ("vLLM 部署 Qwen3-8B，KV cache 精度 fp8", "fp8"),
        ("vLLM 部署 Qwen3-8B，kv 缓存的精度为 bf16", "bf16"),
        ("KV cache precision: bf16, serving Qwen3-8B with vLLM", "bf16"),
        ("serving Qwen3-8B with vLLM, KV precision fp8", "fp8"),
    ],
)
def test_kv_precision_words_set_the_kv_cache(text: str, kv: str) -> None:
    req = _req(text)
    assert _value(req.kv_precision) == kv
    assert _value(req.precision) != kv or "AWQ" in text  # the weights keep their own format


@pytest.mark.parametrize(
    ("text", "precision"),
    [("微调 Qwen3-8B，精度 bf16", "bf16"), ("serving Qwen3-8B with vLLM, precision: bf16", "bf16")],
)
def test_a_precision_word_without_kv_stays_the_weights(text: str, precision: str) -> None:
    req = _req(text)
    assert _value(req.precision) == precision and req.kv_precision is None


@pytest.mark.parametrize(
    ("text", "n"),
    [
        ("Titan RTX 两张跑 Qwen3-30B-A3B，vLLM，Context tokens 131072，GPU util 0.90", 131072),
        ("vLLM 部署 Qwen3-8B，上下文 token 数 32768", 32768),
        ("serving Qwen3-8B with vLLM, Batch tokens 4096, Context tokens 32768", 32768),
        ("fine-tune Qwen3-8B, context token count 8192", 8192),
    ],
)
def test_context_tokens_are_the_length(text: str, n: int) -> None:
    assert _req(text).seq_len == n


@pytest.mark.parametrize(
    "text",
    ["serving Qwen3-8B with vLLM, Batch tokens 4096", "vLLM 部署 Qwen3-8B，batch tokens 4096"],
)
def test_batch_tokens_are_no_context(text: str) -> None:
    assert _req(text).seq_len != 4096


@pytest.mark.parametrize(
    ("text", "gib"),
    [
        (
            'ollama 日志：parallel=4 available=49607868416 required="21.5 GiB"；'
            'system memory total="127.8 GiB"；--ctx-size 8192',
            127.8,
        ),
        ("system memory total: 64 GB, free 20 GB, 部署 Qwen3-8B", 64.0),
        ("系统内存 total=128 GB，部署 Qwen3-8B", 128.0),
    ],
)
def test_a_logs_system_memory_total_is_the_hosts(text: str, gib: float) -> None:
    req = _req(text)
    assert req.host_memory_gib == gib and req.gpu_memory_gib != gib and req.total_memory_gib != gib


@pytest.mark.parametrize(
    "text", ['system memory free="20 GiB", deploy Qwen3-8B', "显存 total: 24 GB，部署 Qwen3-8B"]
)
def test_free_memory_or_a_cards_total_is_no_hosts(text: str) -> None:
    assert _req(text).host_memory_gib is None


@pytest.mark.parametrize(
    ("text", "n"),
    [
        ("显卡一张 3090 24G，model_max_length 设的 1024，执行 finetune_lora_single_gpu.sh 报 OOM", 1024),
        ("cutoff_len 开的 4096 微调 qwen2-7b", 4096),
        ("max_seq_length 设了 2048，微调 qwen2-7b", 2048),
        ("the max_length was set to 1024, fine-tune qwen2-7b", 1024),
    ],
)
def test_a_key_then_a_past_setting_word_is_its_value(text: str, n: int) -> None:
    assert _req(text).seq_len == n


@pytest.mark.parametrize(
    "text",
    ["max_length 设的不对，4 张卡训练 qwen2-7b", "the max_length was wrong on 4 GPUs, fine-tune qwen2-7b"],
)
def test_a_past_setting_word_without_a_value_reads_no_length(text: str) -> None:
    req = _req(text)
    assert req.seq_len != 4 and req.gpu_count == 4


@pytest.mark.parametrize(
    ("text", "gpu", "gib"),
    [
        ("请问一张 RTX5090 的显卡（32G）可以把 DyFo 跑起来吗？", "RTX-5090", 32.0),
        ("4090 显卡（24G）能跑 qwen2-7b 吗", "RTX-4090", 24.0),
        ("a 4090 card (24GB) for qwen2-7b inference", "RTX-4090", 24.0),
    ],
)
def test_a_cards_memory_in_brackets_is_its_memory(text: str, gpu: str, gib: float) -> None:
    req = _req(text)
    assert req.gpu == gpu and req.gpu_memory_gib == gib


@pytest.mark.parametrize(
    ("text", "count", "gib"),
    [("卡（2 张）跑 qwen2-7b 够吗", 2, None), ("4 张显卡（共 96G）部署 qwen2-72b", 4, 24.0)],
)
def test_a_count_or_a_total_in_brackets_is_no_cards_memory(text: str, count: int, gib: float | None) -> None:
    req = _req(text)
    assert req.gpu_count == count and req.gpu_memory_gib == gib


@pytest.mark.parametrize(
    "text",
    [
        "gpu 是单个 16G 的 V100，遇到了 OOM",
        "用单个 A100 训练 qwen2-7b",
        "本地部署了 deepseek-vl2-small 模型，GPU 是一台英伟达 A100，显存为 40G",
        "a single V100 with 16GB runs out of memory training qwen2-7b",
    ],
)
def test_one_card_said_single_or_one_machine_word(text: str) -> None:
    assert _req(text).gpu_count == 1


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("单个样本 512 token，4 张 A100 训练 qwen2-7b", 4),
        ("GPU 是一台 8 卡 A100 服务器，部署 qwen2-72b", 8),
        ("each sample is 512 tokens, 4 A100s to train qwen2-7b", 4),
    ],
)
def test_single_of_a_sample_or_a_machine_of_cards_is_no_one_card(text: str, count: int) -> None:
    assert _req(text).gpu_count == count


@pytest.mark.parametrize(
    "text",
    [
        "LoRA 微调 qwen1half-7b-chat 后做 awq int4 量化，模型推理速度慢好多。用 swift infer 推理，A5000。",
        "LoRA 微调 qwen2-7b 后的模型推理速度很慢，A5000",
        "After LoRA fine-tuning Qwen2-7B and AWQ-quantizing it, inference is slow on an A5000",
        "After LoRA fine-tuning Qwen2-7B and merging the adapter, how fast is inference on an A10?",
    ],
)
def test_a_tuned_and_quantized_model_served_is_serving(text: str) -> None:
    assert _value(_req(text).stage) == "inference"


@pytest.mark.parametrize(
    "text",
    [
        "先 LoRA 微调 qwen2-7b 后部署给 100 人用，各要几张卡",
        "LoRA 微调 qwen2-7b 需要几张 A100",
        "After fine-tuning Qwen2-7B, how many A100s to serve it for 100 users?",
        "LoRA fine-tune Qwen2-7B and AWQ-quantize it: how many A100s for the fine-tuning?",
    ],
)
def test_a_fine_tuning_asked_stays_the_fine_tuning(text: str) -> None:
    assert _value(_req(text).stage) == "finetune"


@pytest.mark.parametrize(
    ("text", "model"),
    [
        ("4 张 80G 的 A100 好像跑不了 lora 的 7b bloom、batch 为 4 的训练", "BLOOM-7.1B"),
        ("微调 13b llama 需要几张 A100", "LLaMA-13B"),
        ("LoRA fine-tune the 7b bloom on 4 A100", "BLOOM-7.1B"),
    ],
)
def test_a_size_then_a_lower_case_family_is_its_release(text: str, model: str) -> None:
    assert _req(text).model == model


@pytest.mark.parametrize(
    "text",
    [
        "训练 70b tokens 需要多久，用 A100",
        "用 llama.cpp 跑 7b llama.cpp 模型",
        "pretrain on 70b tokens with A100s",
    ],
)
def test_a_size_before_tokens_or_a_tool_is_no_family(text: str) -> None:
    assert _req(text).model is None


@pytest.mark.parametrize(
    "text", ["微调 3b llama 需要几张 A100", "how do i fine-tune a 3b llama on one A100?"]
)
def test_a_family_size_the_catalog_lacks_is_no_new_name(text: str) -> None:
    parsed = parse(text)
    assert parsed.unknown_model is None and parsed.request.model is None


def _answer(batch: int, named: list[str]) -> dict[str, Any]:
    return {
        "request": {"batch_size": batch},
        "interpretation": {"ignored": [{"text": t, "reason": "repeated"} for t in named]},
        "report": {},
    }


def test_scorer_two_batches_each_used_or_named() -> None:
    assert key_understood("batch_size", [4, 1], _answer(4, ["1"]))
    assert not key_understood("batch_size", [4, 1], _answer(4, []))
    assert not key_understood("batch_size", [4, 1], _answer(2, ["1"]))


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("MiniCPM-Llama3-V 2.5 的 int4 版本可以进行 lora 微调吗？显存要求多大？", "MiniCPM-Llama3-V 2.5"),
        ("Kimi-Audio 1.5 inference needs how much VRAM on a 4090?", "Kimi-Audio 1.5"),
    ],
)
def test_a_joined_name_keeps_its_version_typed_apart(text: str, name: str) -> None:
    assert parse(text).unknown_model == name


@pytest.mark.parametrize(
    ("text", "model"),
    [
        ("用 8 卡 A100-80G 的机器 2.5 小时能训完吗", None),
        ("ms-swift 3.0 的 GRPO 训练要几张卡，模型 Qwen2.5-7B", "Qwen2.5-7B"),
        ("LLaMA-Factory 0.9 LoRA fine-tuning of Qwen2-7B: how much memory?", "Qwen2-7B"),
    ],
)
def test_a_cards_or_a_tools_version_is_no_model(text: str, model: str | None) -> None:
    parsed = parse(text)
    assert parsed.unknown_model is None and parsed.request.model == model
