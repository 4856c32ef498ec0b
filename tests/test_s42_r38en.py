"""Session 42, round 38 en (issue 24): readers for what r38work en missed at its freeze, each tested on
sentences of our own (must-read and must-not-misread), in both languages.

- an AWS Neuron instance is its chips with their memory, from AWS's instance pages (inf2.xlarge and
  inf2.8xlarge one Inferentia2 of 32 GB, inf2.48xlarge twelve, trn1.32xlarge sixteen Trainium of 32 GB),
  sized as an unknown device of that memory and named as typed, never as an A100 (bot.parse.instances);
- a count of NeuronCores ('20 NeuronCores', '24 个 NeuronCore') is that many 16 GB devices (two
  NeuronCore-v2 share a chip's 32 GB, the Neuron SDK's architecture pages);
- a Neuron checkpoint's compiled shapes in its name ('…-seqlen-2048-bs-2', optimum-neuron's exports) are the
  context and the batch;
- the numbers the parser wrote for a Neuron instance ('1', '32') are never named as the user's unread ones;
- decoding is serving: a time per output token ('35 ms per token', '每个 token 50 毫秒') or a decode speed
  says the stage when no other stage word does; 'decoder-only' and a training word keep their stage;
- '1000+ GB' is 1000 GB at least, read; 'Max+ 395' stays a name;
- a range of percentages with a dash ('30%-35% MFU') is a range, never a negative '-35';
- an architecture word between a count and its card ('two Blackwell RTX 6000 Pro Max-Q GPUs', '8 Hopper
  H100s', '4 张 Ampere A100') keeps the count.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json


def _ask(text: str) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    answer = answer_json(text)
    items = (answer.get("interpretation") or {}).get("ignored") or []
    return answer["request"], [(i.get("reason"), i.get("text")) for i in items]


# --- AWS Neuron instances and NeuronCores ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "chip", "count", "memory"),
    [
        ("Recompiling Llama 3 70B on an inf2.48xlarge: which settings fit?", "inferentia2", 12, 32),
        ("在 inf2.48xlarge 上部署 Llama 3 70B，够吗？", "inferentia2", 12, 32),
        ("Our Llama 2 7B chat on an ml.inf2.8xlarge is slow, is that expected?", "inferentia2", 1, 32),
        ("在 ml.inf2.xlarge 上跑 Llama 2 7B 推理，速度正常吗？", "inferentia2", 1, 32),
        ("Serve Llama 3 70B on a trn1.32xlarge", "trainium", 16, 32),
        (
            "Llama 2 70B fails: 21 partitions cannot be spread over 20 NeuronCores evenly",
            "neuroncore",
            20,
            16,
        ),
        ("用 24 个 NeuronCore 部署 Llama 2 70B 够吗？", "neuroncore", 24, 16),
    ],
)
def test_a_neuron_instance_is_its_chips(text: str, chip: str, count: int, memory: int) -> None:
    """AWS: inf2.48xlarge 12 Inferentia2 (32 GB each, 384 GB), inf2.xlarge / 8xlarge one; trn1.32xlarge 16
    Trainium (512 GB); a NeuronCore-v2 is half a chip's 32 GB."""
    request, ignored = _ask(text)
    assert request["gpu"].lower() == chip and request["gpu_count"] == count
    assert request["gpu_memory_gib"] == memory
    assert not any(t in ("1", "12", "16", "32") and why == "unread" for why, t in ignored)


@pytest.mark.parametrize(
    "text",
    [
        "Serve Mistral 7B on a g5.xlarge",  # a G5 stays its A10G
        "在 g5.12xlarge 上部署 Mistral 7B 推理",
    ],
)
def test_other_instances_keep_their_gpus(text: str) -> None:
    request, _ = _ask(text)
    assert request["gpu"] == "A10G"


@pytest.mark.parametrize(
    "text",
    [
        "codellama on an inf2.xlarge gives 50 ms per token but 30 ms per token on a g5.xlarge: why?",
        "codellama 在 inf2.xlarge 上每个 token 50 毫秒，在 g5.xlarge 上 30 毫秒，为什么？",
    ],
)
def test_the_chips_written_are_no_numbers_of_the_user(text: str) -> None:
    """The '1 x inferentia2 32gb' the parser writes for an inf2.xlarge beside a g5 card: the other device is
    named, its written '1' and '32' never as unread nor over the card."""
    _, ignored = _ask(text)
    assert not any(t in ("1", "32", "32 GB") for _, t in ignored)


# --- Neuron compiled shapes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "seq", "batch"),
    [
        (
            "Llama 2 7B chat on an ml.inf2.8xlarge (aws-neuron/Llama-2-7b-chat-hf-seqlen-2048-bs-2) is slow",
            2048,
            2,
        ),
        (
            "在 inf2.xlarge 上用 aws-neuron/Mistral-7B-Instruct-v0.2-seqlen-4096-bs-1 推理，速度多少？",
            4096,
            1,
        ),
    ],
)
def test_a_neuron_checkpoints_shapes_are_read(text: str, seq: int, batch: int) -> None:
    request, ignored = _ask(text)
    assert request["seq_len"] == seq and request["batch_size"] == batch
    assert not any(why == "unread" for why, _ in ignored)


@pytest.mark.parametrize(
    "text",
    [
        "Serve Qwen2.5-7B-Instruct-1M on one A100 with a 2048 context",
        "用一张 A100 部署 Qwen2.5-7B-Instruct-1M，上下文 2048",
    ],
)
def test_a_name_without_compiled_shapes_is_left_alone(text: str) -> None:
    request, _ = _ask(text)
    assert request["seq_len"] == 2048 and request["batch_size"] is None


# --- decoding is serving -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Running codellama on a g5.xlarge I get about 35 ms per token, is that normal?",
        "codellama 在 g5.xlarge 上每个 token 50 毫秒，正常吗？",
        "Qwen2.5-7B on one RTX 4090, decode speed is 40 tok/s, is that normal?",
        "Qwen2.5-7B 在一张 4090 上解码速度 40 tok/s，正常吗？",
    ],
)
def test_a_decode_speed_is_serving(text: str) -> None:
    request, _ = _ask(text)
    assert request["stage"] == "inference"


@pytest.mark.parametrize(
    ("text", "stage"),
    [
        ("Llama 7B decoder-only pretraining on 8 A100", "pretrain"),
        ("Full fine-tune Llama 7B on 8 A100, decode eval at 30 tok/s", "finetune"),
        ("Llama 7B 全参微调，8 张 A100，评测时解码 30 tok/s", "finetune"),
    ],
)
def test_decoder_and_training_words_keep_their_stage(text: str, stage: str) -> None:
    request, _ = _ask(text)
    assert request["stage"] == stage


# --- '1000+ GB' and '30%-35%' ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Llama 4 Maverick full fine-tune with CPU offloading on 32 H200, 1000+ GB of CPU memory per node",
        "Llama 70B 推理，8 张 A100，服务器 1000+ GB 内存，能放下吗？",
    ],
)
def test_a_plus_after_a_number_is_that_much_at_least(text: str) -> None:
    request, ignored = _ask(text)
    assert request["host_memory_gib"] == 1000
    assert not any(t == "1000" for _, t in ignored)


@pytest.mark.parametrize(
    ("text", "gpu"),
    [
        # s48 cat: the Ryzen AI Max+ 395 is the catalog's Strix Halo card now (was named as typed); its '+'
        # still part of the name, never a 'more than' on the 395
        ("Qwen3 32B on a Ryzen AI Max+ 395 with 128GB", "Strix-Halo-395-128GB"),
        ("Qwen3 32B 在 Ryzen AI Max+ 395（128GB）上能跑吗？", "Strix-Halo-395-128GB"),
    ],
)
def test_a_names_plus_stays_a_name(text: str, gpu: str) -> None:
    request, _ = _ask(text)
    assert request["gpu"] == gpu


@pytest.mark.parametrize(
    "text",
    [
        "Training bf16 Llama2 on 8 A100 I only get 30%-35% MFU",
        "Llama 7B 预训练，8 张 A100，MFU 只有 30%-35%",
    ],
)
def test_a_percent_range_is_no_negative_number(text: str) -> None:
    request, ignored = _ask(text)
    assert request["mfu"] == 0.3
    assert not any(why == "nonpositive" for why, _ in ignored)


@pytest.mark.parametrize(
    "text",
    [
        "Llama 7B pretraining on 8 A100 at 30% MFU with 35 GB used",
        "Llama 7B 预训练，8 张 A100，MFU 30%，显存用了 35 GB",
    ],
)
def test_a_percent_then_another_number_is_no_range(text: str) -> None:
    request, _ = _ask(text)
    assert request["mfu"] == 0.3


# --- architecture words between a count and its card -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        (
            "DeepSeek V4 with vLLM on two Blackwell RTX 6000 Pro Max-Q GPUs: is 93 tok/s reasonable?",
            "RTX-PRO-6000-Blackwell",
            2,
        ),
        ("Llama 70B full fine-tune on 8 Hopper H100s, how long?", "H100-SXM5-80GB", 8),
        ("Llama 70B 在 4 张 Ampere A100 上推理够吗？", "A100-SXM4-80GB", 4),
    ],
)
def test_an_architecture_word_keeps_the_count(text: str, gpu: str, count: int) -> None:
    request, _ = _ask(text)
    assert request["gpu"] == gpu and request["gpu_count"] == count


@pytest.mark.parametrize(
    "text",
    [
        "FP4 is one of 2 Blackwell features; can I serve Llama 70B on 4 H100?",
        "FP4 是 2 个 Blackwell 新特性之一；4 张 H100 能部署 Llama 70B 吗？",
    ],
)
def test_an_architecture_word_without_a_card_after_is_no_count(text: str) -> None:
    request, _ = _ask(text)
    assert request["gpu"] == "H100-SXM5-80GB" and request["gpu_count"] == 4


# --- a range of times per output token -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Running codellama on a g5.xlarge I get about 50 to 60 ms per token, is that normal?",
        "codellama 在 g5.xlarge 上每个 token 50-60 毫秒，正常吗？",
    ],
)
def test_a_range_of_times_per_token_is_two_rates(text: str) -> None:
    """1000 / 50 = 20 and 1000 / 60 = 16.7 tokens/s, both named as measured; neither end left unread."""
    request, ignored = _ask(text)
    assert request["stage"] == "inference"
    assert ("observed", "20 tok/s") in ignored and ("observed", "16.7 tok/s") in ignored
    assert not any(why == "unread" for why, _ in ignored)


@pytest.mark.parametrize(
    "text",
    [
        "Serve codellama on a g5.xlarge for prompts of 50 to 60 tokens",
        "在 g5.xlarge 上部署 codellama，每个请求 50-60 个 token",
    ],
)
def test_a_range_of_tokens_is_no_rate(text: str) -> None:
    _, ignored = _ask(text)
    assert not any("tok/s" in t for _, t in ignored)
