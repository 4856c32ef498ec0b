"""Session 49, round 45 en (issue 24): readers for what r45work en missed at its freeze, each tested on
sentences of our own (must-read and must-not-misread), in both languages.

- SGLang's ``--torchao-config`` (int8dq, int8wo, int4wo-<group>, fp8wo, fp8dq-per_tensor, fp8dq-per_row)
  is the weight format, in prose and in a pasted launch command (bot.parse.configs.limits.QUANT_FLAG_RE,
  bot.parse.configs.launchers.QUANT, the meaning table's sglang row); the torchao library named alone sets
  none;
- a launcher's ``--dtype`` beside its quantization flag is the quantized weights' compute type whichever
  order they are typed in ('--quantization awq --dtype float16' was sized as fp16; launchers.QUANT_FLAGS);
  ``--dtype`` alone stays the weights' format;
- a laptop's card with NVIDIA's maker word between ('NVIDIA GeForce RTX 3080 Laptop GPU', '笔记本是 NVIDIA
  GeForce RTX 4060') is the laptop part, as 'RTX 3080 Laptop GPU' was (bot.parse.gpus._LAPTOP_BEFORE_RE);
  the desktop card named without a laptop stays the desktop card;
- a size in kilobytes (Linux's ``MemTotal: … kB``, '1056501432 kB of host memory') is the GiB it is
  (bot.parse.kilo_memory); a cache of 512 kB is no machine's memory;
- a memory wanted with up to four words before its bound ('keep the GPU memory usage within 10GB', 'can GPU
  memory usage be limited to 10GB') is named as a memory target, not a card (bot.parse.memory_target);
- 'zero=N' (ColossalAI's plugin argument as written) is a ZeRO stage, a second one named as another setup
  (bot.parse.settings_patterns.ZERO_RE); 'zero=0.0' of a loss is none;
- a ZeRO stage or FSDP said with no stage word is a training cue (bot.parse.lexicon.TRAIN_RE); ZeRO-Inference
  and zero-shot are not.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json


def _ask(text: str) -> tuple[dict[str, Any], list[tuple[str | None, str | None]]]:
    answer = answer_json(text)
    ignored = (answer.get("interpretation") or {}).get("ignored") or []
    return answer["request"], [(i.get("text"), i.get("reason")) for i in ignored]


@pytest.mark.parametrize(
    ("text", "precision"),
    [
        ("Serve Llama-3-70B with SGLang --torchao-config int8dq on one H100: does it fit?", "int8"),
        ("Serve Llama-3-70B with SGLang --torchao-config fp8wo on one H100", "fp8"),
        ("用 SGLang 部署 Qwen2.5-72B，--torchao-config int4wo-128，两张 H20 够吗", "int4"),
        (
            "python -m sglang.launch_server --model-path Qwen/Qwen2.5-72B --tp 2 --torchao-config int8wo"
            ", 两张 H20",
            "int8",
        ),
    ],
)
def test_torchao_config_is_the_weight_format(text: str, precision: str) -> None:
    request, _ = _ask(text)
    assert request["precision"] == precision
    assert request["runtime"] == "SGLang"


@pytest.mark.parametrize(
    "text",
    [
        "I read the torchao library docs. Serve Llama-3-70B with SGLang on one H100",
        "看了 torchao 的文档，用 SGLang 在一张 H100 上部署 Llama-3-70B",
    ],
)
def test_torchao_named_alone_sets_no_format(text: str) -> None:
    request, _ = _ask(text)
    assert request["precision"] == "bf16"


@pytest.mark.parametrize(
    "text",
    [
        "vllm serve Qwen2.5-32B --quantization awq --dtype float16 on two A100",
        "vllm serve Qwen2.5-32B --dtype float16 --quantization awq on two A100",
        "两张 A100 上 vllm serve Qwen2.5-32B --quantization gptq --dtype half，够吗",
    ],
)
def test_dtype_beside_a_quantization_flag_is_the_compute_type(text: str) -> None:
    request, _ = _ask(text)
    assert request["precision"] == "int4"


@pytest.mark.parametrize(
    "text",
    [
        "vllm serve Qwen2.5-32B --dtype float16 on two A100",
        "两张 A100 上 vllm serve Qwen2.5-32B --dtype half，够吗",
    ],
)
def test_dtype_alone_stays_the_weight_format(text: str) -> None:
    request, _ = _ask(text)
    assert request["precision"] == "fp16"


@pytest.mark.parametrize(
    ("text", "gpu"),
    [
        ("Can a 13B model in 4-bit run on an NVIDIA GeForce RTX 3080 Laptop GPU?", "RTX-3080-Laptop-16GB"),
        ("My laptop has an NVIDIA RTX 4060; can it run a 7B model in 4-bit?", "RTX-4060-Laptop"),
        ("我的笔记本是 NVIDIA GeForce RTX 4060，能跑 7B 吗", "RTX-4060-Laptop"),
    ],
)
def test_a_laptops_card_with_the_maker_word_is_the_laptop_part(text: str, gpu: str) -> None:
    request, _ = _ask(text)
    assert request["gpu"] == gpu


@pytest.mark.parametrize(
    "text",
    [
        "Can a 13B model in 4-bit run on an NVIDIA GeForce RTX 3080?",
        "台式机一张 NVIDIA GeForce RTX 3080，能跑 4-bit 的 13B 吗",
    ],
)
def test_the_desktop_card_stays_the_desktop_card(text: str) -> None:
    request, _ = _ask(text)
    assert request["gpu"].startswith("RTX-3080") and "Laptop" not in request["gpu"]


@pytest.mark.parametrize(
    ("text", "gib"),
    [
        ("Serve Llama 3 8B on 1x A100 80GB with 1056501432 kB of host memory", 1007.56),
        ("Serve Llama 3 8B on one A100 80GB, MemTotal: 263856000 kB", 251.63),
        ("单张 A100 80GB 部署 Llama 3 8B，主机内存 527000000 kB 够吗", 502.59),
    ],
)
def test_a_size_in_kilobytes_is_the_host_memory(text: str, gib: float) -> None:
    request, ignored = _ask(text)
    assert request["host_memory_gib"] == gib
    assert not [t for t, r in ignored if r == "unread"]


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama 3 8B on one A100 80GB; the L2 cache is 512 kB",
        "单张 A100 80GB 部署 Llama 3 8B，L2 缓存 512 kB",
    ],
)
def test_a_small_size_in_kilobytes_is_no_host_memory(text: str) -> None:
    request, _ = _ask(text)
    assert request["host_memory_gib"] is None


@pytest.mark.parametrize(
    "text",
    [
        "Can I keep the GPU memory usage within 10GB when fine-tuning bloom-7b with LoRA in int4?",
        "Fine-tune bloom-7b with LoRA in int4: can GPU memory usage be limited to 10GB?",
        "用 LoRA 和 int4 微调 bloom-7b，显存能控制在 10GB 以内吗",
    ],
)
def test_a_memory_wanted_is_a_target(text: str) -> None:
    request, ignored = _ask(text)
    assert ("10 GB", "memory_target") in ignored
    assert request["gpu_memory_gib"] is None


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tune bloom-7b with LoRA in int4 on an RTX 3080 10GB",
        "在一张 RTX 3080 10GB 上用 LoRA 和 int4 微调 bloom-7b",
    ],
)
def test_a_cards_memory_is_no_target(text: str) -> None:
    request, ignored = _ask(text)
    assert request["gpu_memory_gib"] == 10
    assert not [t for t, r in ignored if r == "memory_target"]


@pytest.mark.parametrize(
    "text",
    [
        "Pretrain llama2 70B on 32 GPUs in ColossalAI: tp=8, pp=1, zero=2, then tp=4, pp=2, zero=1; both OOM",
        "用 ColossalAI 在 32 张卡上预训练 llama2 70B：tp=8, pp=1, zero=2，再试 tp=4, pp=2, zero=1，都 OOM",
    ],
)
def test_zero_as_a_key_is_the_stage_the_other_named(text: str) -> None:
    request, ignored = _ask(text)
    assert request["zero_stage"] == 2
    assert ("zero_stage: 1", "other_setup") in ignored


@pytest.mark.parametrize(
    "text",
    [
        "Pretrain a 1B model on 8 A100; the loss dropped to zero=0.0 after a while",
        "在 8 张 A100 上预训练 1B 模型，loss 到了 zero=0.0",
    ],
)
def test_a_zero_value_of_a_loss_is_no_stage(text: str) -> None:
    request, _ = _ask(text)
    assert request["zero_stage"] is None


@pytest.mark.parametrize(
    "text",
    [
        "ZeRO-3 on a 10B model on 8 V100, how much memory per GPU?",
        "Running FSDP on a 10B model on 8 V100s, how much memory per GPU?",
        "用 ZeRO-3 跑 10B 模型，8 张 V100，每张卡显存要多少",
    ],
)
def test_a_zero_stage_said_alone_is_training(text: str) -> None:
    request, _ = _ask(text)
    assert request["stage"] != "inference"


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama 3 70B with ZeRO-Inference on one A100",
        "Serve Llama 3 70B zero-shot on one A100",
        "用 ZeRO-Inference 在一张 A100 上部署 Llama 3 70B",
    ],
)
def test_zero_inference_and_zero_shot_stay_serving(text: str) -> None:
    request, _ = _ask(text)
    assert request["stage"] == "inference"
