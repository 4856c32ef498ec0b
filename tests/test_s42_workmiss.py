"""Session 42, part workmiss (issue 24 items 2 and 4): the working splits' English misses, by kind of fault.

1. A tool no table has, in lower case, between the job's verb and the card it runs on ('Running Llama-2 7B
   with gpt-fast on an RTX 4090', '用 gpt-fast 在 RTX 4090 上跑'): named as typed (bot.parse.lower_tools).
2. A TPU slice in the plural ('on TPU v3-8s'): the unknown card named as typed, 'TPU v3-8'.
3. A release by its maker's name in the possessive ("training BPO's 7b model", 'BPO 的 7B 模型'): a model
   that exists, so 'train' it is a fine-tuning (bot.parse.stage_hints.OWNED_RELEASE_EN_RE).
4. Hugging Face's implementation ('the normal Hugging Face implementation', 'Hugging Face 的实现'): the
   transformers runtime; 'Hugging' is never a tool's name.
5. A serving context said by the bound it passes ('OOM for any context length above 29000', '上下文大于 16k
   就报错'): the context sized (bot.parse.reach_length).
6. An FP8 kind of KV cache ('--kv-cache-dtype fp8_e5m2'): sized as FP8 and named as typed (fp8_kind).
7. Scorer: a stated TP of 1 with one card sized is understood (tests/real_questions.py).
"""

from __future__ import annotations

import json
from typing import Any

import pytest


def _json(question: str, lang: str | None = None) -> dict[str, Any]:
    from bot.cli import ask

    return json.loads(ask(question, lang, "json")[0])


def _named(answer: dict[str, Any]) -> dict[str, str]:
    return {i["text"]: i["reason"] for i in answer["interpretation"].get("ignored") or []}


# 1. a lower-case tool between the job and its card ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "item"),
    [
        (
            "Running Llama-2 7B with gpt-fast on an RTX 4090 without quantization I get about 65 tokens per"
            " second. What speed should one 4090 give?",
            "runtime: gpt-fast",
        ),
        (
            "Would it be possible to fine-tune GPT-NeoX 20B with mesh-transformer-jax on TPU v3-8s?",
            "training_tool: mesh-transformer-jax",
        ),
        ("用 gpt-fast 在 RTX 4090 上跑 Llama-2 7B，每秒多少 token？", "runtime: gpt-fast"),
        ("用 opensloth 在 4090 上微调 Qwen2-7B", "training_tool: opensloth"),
    ],
)
def test_lower_case_tool_before_the_card_is_named(text: str, item: str) -> None:
    """Must read: the tool as typed, with the reason that the sizing has no model of it."""
    assert _named(_json(text)).get(item) in ("runtime_not_modelled", "no_field")


@pytest.mark.parametrize(
    "text",
    [
        "I fine-tune Qwen2-7B with lora on 8 A100s",
        "run Llama-3-8B with offload on an RTX 3090",
        "I run it with care on an RTX 4090",
        "用 lora 在 8 张 A100 上微调 Qwen2-7B",
        "用 4bit 在 4090 上跑 Qwen2-7B",
        "Running Llama-3-8B with quantization on an RTX 4090, how fast?",
        "Running Llama-3-8B with bitsandbytes on an RTX 4090, how fast?",
        "fine-tune Llama-3-8B with fsdp2 on 8 H100",
        "Running Llama-3-8B with vulkan on an RTX 4090, how fast?",
        "用 fsdp2 在 8 张 H100 上微调 Llama-3-8B",
    ],
)
def test_setting_words_in_the_slot_are_no_tool(text: str) -> None:
    """Must not misread: a method, a switch or a plain word in that slot names no tool."""
    named = _named(_json(text))
    assert not [t for t in named if t.startswith(("runtime:", "training_tool:"))], named


@pytest.mark.parametrize(
    ("text", "runtime"),
    [("we serve Llama-3-8B with vllm on an H100", "vLLM"), ("用 vllm 在 A100 上部署 Qwen2-7B", "vLLM")],
)
def test_a_known_engine_in_the_slot_is_used(text: str, runtime: str) -> None:
    """Must not misread: an engine of the tables is the runtime sized, not a tool named as unknown."""
    answer = _json(text)
    assert answer["request"]["runtime"] == runtime
    assert not [t for t in _named(answer) if t.startswith("runtime:")]


# 2. a TPU slice in the plural ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("Would it be possible to fine-tune GPT-NeoX 20B on TPU v3-8s? How many would I need?", "TPU v3-8"),
        ("Fine-tune GPT-NeoX 20B on a TPU v3-8: does it fit?", "TPU v3-8"),
        ("在 TPU v3-8 上微调 GPT-NeoX 20B 要几个 TPU？", "TPU v3-8"),
    ],
)
def test_tpu_slice_named_as_typed(text: str, typed: str) -> None:
    """Must read: the slice's name, without the plural 's' and never cut to 'TPU v3'."""
    assert _json(text)["interpretation"]["unknown_gpu"] == typed


# 3. a release in the possessive -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "torch.cuda.OutOfMemoryError: CUDA out of memory with a 24G card when training BPO's 7b model. Is 24G"
        " not enough?",
        "How long to train FooBot’s 13B chat model on 8 A100?",
        "用 8 张 A100 训练 FooBot 的 7B 模型要多久",
    ],
)
def test_possessive_release_is_a_fine_tuning(text: str) -> None:
    """Must read: 'train' of a maker's released model (BPO's 7B, github.com/thu-coai/BPO) is fine-tuning."""
    assert _json(text)["request"]["stage"] == "finetune"


@pytest.mark.parametrize(
    "text",
    [
        "Meta's 7B model was trained on 1T tokens; how long on 64 H100?",
        "How long to train a 7B model on 64 H100 like Meta's?",
        "I want to train a 7b model from scratch on 8 A100",
        "从头训练 FooBot 的 7B 模型，用 1T token，要多久？",
    ],
)
def test_pre_training_scale_or_no_owned_model_stays_pre_training(text: str) -> None:
    """Must not misread: a release's own scale (1T tokens), 'from scratch', or no possessive model."""
    assert _json(text)["request"]["stage"] == "pretrain"


# 4. Hugging Face's implementation -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Running Llama-2 7B with gpt-fast on an RTX 4090 I get 65 tokens per second, but the normal Hugging"
        " Face implementation gives about 150 tokens per second. What speed should one 4090 give?",
        "the HF implementation of Llama-2-7B on an A100: how fast?",
        "用 Hugging Face 的实现在 4090 上跑 Llama-2 7B 每秒多少 token?",
        "Hugging Face 原生实现跑 Llama-2 7B，4090 上每秒多少 token？",
    ],
)
def test_hugging_face_implementation_is_transformers(text: str) -> None:
    """Must read: the transformers runtime, and no tool called 'Hugging'."""
    answer = _json(text)
    assert answer["request"]["runtime"] == "transformers"
    assert not [t for t in _named(answer) if "Hugging" in t]


@pytest.mark.parametrize(
    ("text", "runtime"),
    [
        ("download Llama-3-8B from Hugging Face and serve it with vLLM on an A100", "vLLM"),
        ("用 Hugging Face 的数据集微调 Llama-2 7B", None),
        ("用 HuggingFace 微调 Llama-2 7B", None),
    ],
)
def test_hugging_face_hub_is_no_runtime_nor_tool(text: str, runtime: str | None) -> None:
    """Must not misread: the hub a model or data comes from is neither transformers nor a tool."""
    answer = _json(text)
    assert answer["request"].get("runtime") == runtime
    assert not [t for t in _named(answer) if "Hugging" in t]


# 5. a serving context said by the bound it passes -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "length"),
    [
        (
            "Serving Qwen2.5-72B-Instruct with vLLM on 4 A100, the server crashes with Out of Memory for any"
            " context length above 29000. How much memory would longer contexts need?",
            29000,
        ),
        ("Serving Qwen2.5-72B with vLLM on 4 A100, prompts longer than 8k fail with OOM", 8192),
        ("用 vLLM 在 4 张 A100 上部署 Qwen2.5-72B，上下文大于 16k 就报错", 16384),
    ],
)
def test_context_bound_is_the_context_sized(text: str, length: int) -> None:
    """Must read: the length the service held up to, sized (a serving seq_len is its context)."""
    assert _json(text)["request"]["seq_len"] == length


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("Serving Qwen2.5-72B with vLLM on 4 A100, output tokens above 512 get cut", 512),
        ("Serving Qwen2.5-72B with vLLM on 4 A100, we need throughput above 2000 tokens per second", 2000),
        ("用 vLLM 在 4 张 A100 上部署 Qwen2.5-72B，输出长度大于 512 就截断", 512),
        ("fine-tune Llama-2-7B on 4 A100, sequences longer than 4096 OOM", 4096),
    ],
)
def test_output_rate_or_training_bound_is_no_serving_context(text: str, number: int) -> None:
    """Must not misread: an output length, a rate, or a training question's bound is no serving context."""
    assert _json(text)["request"]["seq_len"] != number


# 6. an FP8 kind of KV cache -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        (
            "I run Aphrodite on 2x 3090s with Midnight-Miqu-70B-v1.5 GPTQ: -q gptq -tp 2"
            " --max-model-len 16000 --kv-cache-dtype fp8_e5m2.",
            "fp8_e5m2",
        ),
        ("serve Llama-3-70B on 2 H100 with vllm --kv-cache-dtype fp8_e4m3", "fp8_e4m3"),
        ("用 vLLM 在 2 张 H100 上部署 Llama-3-70B，KV cache 用 fp8 e5m2", "fp8_e5m2"),
    ],
)
def test_fp8_kind_sized_as_fp8_and_named(text: str, typed: str) -> None:
    """Must read: the KV cache sized at FP8's one byte (vLLM's CacheDType fp8_e4m3 / fp8_e5m2, both 8 bits),
    the kind typed named with its reason."""
    answer = _json(text)
    assert answer["request"]["kv_precision"] == "fp8"
    assert _named(answer).get(f"kv_precision: {typed}") == "fp8_kind"


@pytest.mark.parametrize(
    "text",
    [
        "serve Llama-3-70B on 2 H100 with vllm --kv-cache-dtype fp8",
        "用 vLLM 在 2 张 H100 上部署 Llama-3-70B，KV 缓存用 fp8",
    ],
)
def test_plain_fp8_names_no_kind(text: str) -> None:
    """Must not misread: a plain fp8 cache is used as typed, nothing named."""
    answer = _json(text)
    assert answer["request"]["kv_precision"] == "fp8"
    assert "fp8_kind" not in _named(answer).values()


def test_fp8_kind_reason_is_translated() -> None:
    """The reason is said in Chinese to a Chinese question (locales/zh_CN)."""
    from bot.cli import ask

    out = ask("用 vLLM 在 2 张 H100 上部署 Llama-3-70B，KV cache 用 fp8 e5m2", None, "text")[0]
    assert "FP8 的一种" in out
    assert "an FP8 kind" not in out


# 7. the scorer: TP 1 on one card ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "request_", "ok"),
    [
        (1, {"gpu_count": 1}, True),  # one card: TP 1 by necessity
        (1, {"gpu_count": 1, "tp": 1}, True),
        (1, {"gpu_count": 2}, False),  # two cards and no TP said: not shown to be 1
        (2, {"gpu_count": 1}, False),
        (2, {"gpu_count": 2, "tp": 2}, True),
    ],
)
def test_scorer_tp_one_on_one_card(value: int, request_: dict[str, Any], ok: bool) -> None:
    from tests.real_questions import key_understood

    assert key_understood("tp", value, {"request": request_, "interpretation": {}}) is ok


# 8. ZeRO-2/3/Infinity beside Megatron-LM: DeepSpeed's Megatron ------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Testing ZeRO-3 Infinity on two nodes, each with one A100-PCIE-40GB, using the"
        " Megatron-LM-v1.1.5-ZeRO3 example with a 10B model",
        "pretrain a 10B model with Megatron-LM and ZeRO-3 on 8 A100",
        "用 Megatron-LM 加 ZeRO-3 在 8 张 A100 上预训练 10B 模型",
    ],
)
def test_zero_beside_megatron_names_deepspeed(text: str) -> None:
    """Must read: DeepSpeed named as read from its settings (Megatron-LM has no ZeRO-3)."""
    answer = _json(text)
    assert answer["request"]["training_tool"] == "Megatron-LM"
    assert _named(answer).get("training_tool: DeepSpeed") == "tool_inferred"


@pytest.mark.parametrize(
    "text",
    [
        "pretrain a 10B model with Megatron-LM on 8 A100, ZeRO-1 style distributed optimizer",
        "用 Megatron-LM 在 8 张 A100 上预训练 10B 模型，开 zero-1",
        "pretrain a 10B model with Megatron-LM on 8 A100",
    ],
)
def test_megatron_alone_or_zero_one_names_no_deepspeed(text: str) -> None:
    """Must not misread: ZeRO-1 is Megatron-LM's own distributed optimizer's share; no ZeRO, no DeepSpeed."""
    assert "training_tool: DeepSpeed" not in _named(_json(text))


# 9. a batch said with its tokens per batch --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "batch"),
    [
        (
            "We pre-train a 67B-A2B MoE on 10T tokens on TPU v4-1024: with BS=4096 and seq=8192"
            " (33.55M tokens per batch) we get 1,485,929 tok/s. How long?",
            4096,  # 4096 × 8192 = 33,554,432 = 33.55M
        ),
        ("pretrain a 7B on 1T tokens on 64 H100 with batch size 1024 and seq 4096, 4M tokens per step", 1024),
        ("用 64 张 H100 预训练 7B，1T token，batch size 1024，序列长度 4096，每个 batch 4M token", 1024),
    ],
)
def test_batch_times_length_equal_to_tokens_per_batch_is_global(text: str, batch: int) -> None:
    """Must read: the global batch (4096 × 8192 = 33.55M as 2^25; 1024 × 4096 = 4M as 2^22)."""
    assert _json(text)["request"]["global_batch"] == batch


@pytest.mark.parametrize(
    ("text", "micro"),
    [
        ("pretrain a 7B on 1T tokens on 64 H100 with batch size 8 and seq 4096, 4M tokens per step", 8),
        ("fine-tune Llama-2-7B on 8 A100 with batch size 4 and seq 2048, 8192 tokens per batch per GPU", 4),
        ("微调 Llama-2-7B，8 张 A100，batch size 4，序列长度 2048，每个 batch 8192 token 每卡", 4),
    ],
)
def test_batch_not_matching_or_per_device_stays_micro(text: str, micro: int) -> None:
    """Must not misread: a product not the tokens said, or tokens per device, keeps the micro-batch."""
    request = _json(text)["request"]
    assert request["batch_size"] == micro
    assert request.get("global_batch") != micro


# 10. a timed run's generated tokens ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "I ran Llama2-7B 4.0bpw with ExLlamaV2 on an A100-SXM4-80GB: 1024 tokens in 8.56 seconds, 119.64"
        " tokens/second. Is that expected?",
        "用 vLLM 在 A100 上跑 Llama2-7B：8.56 秒生成了 1024 个 token，正常吗？",
    ],
)
def test_tokens_in_seconds_is_the_output_length(text: str) -> None:
    """Must read: the run's output length, in the context sized and named so (119.64 t/s × 8.56 s ≈ 1024)."""
    assert _named(_json(text)).get("output_tokens: 1,024") == "output_in_context"


@pytest.mark.parametrize(
    "text",
    [
        "Serving Llama2-7B with vLLM on an A100: prompt processing of 4096 tokens in 2 seconds",
        "Serving Llama2-7B with vLLM on an A100: it processed 4096 tokens in 2 seconds",
        "fine-tune Llama-2-7B on 8 A100, 8192 tokens in 0.5 seconds per step",
        "用 vLLM 在 A100 上跑 Llama2-7B：处理 4096 个 token 用了 2 秒",
    ],
)
def test_prefill_or_training_step_tokens_are_no_output(text: str) -> None:
    """Must not misread: a prompt's processing or a training step's tokens are no output length."""
    answer = _json(text)
    assert not [t for t in _named(answer) if t.startswith("output_tokens")]
    assert answer["request"].get("max_completion_length") is None


# 11. layers on the GPU counted in words -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "llama.cpp with Llama-2-7B on an RTX 4090 with one layer on the GPU",
        "llama.cpp with Llama-2-7B on a GTX 1060 with only one layer on the GPU",
        "用 llama.cpp 跑 Llama-2-7B，显卡 4090，一层放显卡",
    ],
)
def test_one_layer_on_the_gpu(text: str) -> None:
    """Must read: llama.cpp's -ngl 1 said in words."""
    assert _json(text)["request"]["gpu_layers"] == 1


@pytest.mark.parametrize(
    "text",
    [
        "llama.cpp with Llama-2-7B on an RTX 4090: every layer on the GPU",
        "用 llama.cpp 跑 Llama-2-7B，显卡 4090，每一层放显卡",
        "用 llama.cpp 跑 Llama-2-7B，显卡 4090，第一层放显卡",
    ],
)
def test_every_or_first_layer_is_no_count(text: str) -> None:
    """Must not misread: 'every layer', '每一层' (all of them), '第一层' (the first one) count no layers."""
    assert _json(text)["request"].get("gpu_layers") != 1
