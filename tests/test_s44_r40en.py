"""Session 44, round 40 en (issue 24): readers for what r40work en missed at its freeze, each tested on
sentences of our own (must-read and must-not-misread), in both languages.

- an integer width written with a space or dash inside ('(int 8)', 'int-4', 'int 8 量化'): that weight format
  (CTranslate2's ``int8`` compute type, written spaced by its users), never fp16 with an '8' left unread;
- the layers on the GPU written before the words ('with 2 gpu layers', '2 个 GPU 层'; text-generation-webui's
  ``n-gpu-layers`` in prose), never two GPUs;
- one prompt at a time ('43 tok/s, one prompt at a time', '一次只处理一个请求'): one sequence in flight;
- an MFU with a word of degree before it ('model flops utilization of only 7%', '利用率仅 7%');
- nanoGPT's ``block_size`` (karpathy/nanoGPT train.py: GPTConfig's context length), read as the sequence
  length beside nanoGPT or its config files, never vLLM's KV block ('--block-size 16');
- a count of training tokens with the word between ('47,316,670 train tokens', '4731 万训练 token').
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json


def _ask(text: str) -> tuple[dict[str, Any], list[tuple[str | None, str | None]]]:
    answer = answer_json(text)
    items = (answer.get("interpretation") or {}).get("ignored") or []
    return answer["request"], [(i.get("reason"), i.get("text")) for i in items]


# --- an integer width with a space inside ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "precision"),
    [
        ("With CTranslate2, llama 2 70B chat (int 8) on one A100 takes 90s for 500 tokens", "int8"),
        ("Serve Llama-2-70B int-4 on one A100", "int4"),
        ("用 int 8 量化部署 Llama-2-70B，一张 A100 够吗？", "int8"),
        ("Llama-2-70B 用 INT 4 跑，一张 A100 行不行", "int4"),
    ],
)
def test_spaced_integer_width_is_the_format(text: str, precision: str) -> None:
    request, items = _ask(text)
    assert request["precision"] == precision
    assert ("unread", precision[-1]) not in items


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama-2-70B on one A100; print 8 lines of output",
        "Serve Llama-2-70B on one A100, int 8 GB of it is free",
        "部署 Llama-2-70B，一张 A100，uint 8 的 token id",
    ],
)
def test_spaced_integer_width_needs_its_own_word(text: str) -> None:
    assert _ask(text)[0]["precision"] not in ("int8", "int4")


# --- layers on the GPU before the words -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Loading mistral-7b-instruct-v0.2.Q4_K_M.gguf with 2 gpu layers and a 2048 context on a 4GB RTX 3060",
        "用 2 个 GPU 层加载 mistral-7b Q4_K_M，显卡是 12G 的 3060，上下文 2048",
    ],
)
def test_gpu_layers_before_the_words_are_layers(text: str) -> None:
    request, _ = _ask(text)
    assert request["gpu_layers"] == 2
    assert request["gpu_count"] in (None, 1)


@pytest.mark.parametrize(
    "text",
    ["Serve mistral-7b on 2 gpus, 32 layers on each", "在 2 张 GPU 上部署 mistral-7b，每张 32 层"],
)
def test_cards_before_layers_stay_cards(text: str) -> None:
    request, _ = _ask(text)
    assert request["gpu_count"] == 2
    assert request.get("gpu_layers") in (None, 32)
    assert request.get("gpu_layers") != 2


# --- one prompt at a time --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Qwen 2.5 7B runs at only 43 tok/s on an H100 once warmed, one prompt at a time",
        "Qwen 2.5 7B 在一张 H100 上一次只处理一个请求，速度 43 tok/s",
    ],
)
def test_one_prompt_at_a_time_is_one_sequence(text: str) -> None:
    assert _ask(text)[0]["concurrency"] == 1


@pytest.mark.parametrize(
    ("text", "load"),
    [
        ("Qwen 2.5 7B on an H100 for 16 users, each sends one prompt at a time", 16),
        ("Qwen 2.5 7B 在一张 H100 上给 16 个用户用，每人一次发一个请求", 16),
    ],
)
def test_one_prompt_at_a_time_never_replaces_a_stated_load(text: str, load: int) -> None:
    assert _ask(text)[0]["concurrency"] == load


# --- MFU with a word of degree ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Training GPT-2 124M on a Quadro RTX 8000, the model flops utilization is only 7%",
        "nanoGPT prints a model flops utilization of only 7% on my Quadro RTX 8000 for GPT-2 124M",
        "在 Quadro RTX 8000 上训练 GPT-2 124M，模型算力利用率仅 7%",
    ],
)
def test_mfu_after_a_word_of_degree(text: str) -> None:
    request, items = _ask(text)
    assert request["mfu"] == pytest.approx(0.07)
    assert ("unread", "7") not in items


@pytest.mark.parametrize(
    "text",
    [
        "Training Llama-2-7B on 8 A100, only 30% of the data is English",
        "在 8 张 A100 上训练 Llama-2-7B，数据里只有 30% 是英文",
    ],
)
def test_a_share_of_data_is_no_mfu(text: str) -> None:
    assert _ask(text)[0].get("mfu") is None


# --- nanoGPT's block_size --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Training GPT-2 with nanoGPT on 2x TITAN Xp, batch_size = 4, block_size = 512, "
        "gradient_accumulation_steps = 128",
        "用 nanoGPT 在 2 张 TITAN Xp 上训练 GPT-2，batch_size = 4，block_size = 512",
    ],
)
def test_nanogpt_block_size_is_the_sequence(text: str) -> None:
    assert _ask(text)[0]["seq_len"] == 512


@pytest.mark.parametrize(
    "text",
    [
        "vllm serve Qwen2.5-7B on one 4090 with --block-size 16 and --max-model-len 8192",
        "用 vllm serve 在一张 4090 上部署 Qwen2.5-7B，--block-size 16，--max-model-len 8192",
    ],
)
def test_vllm_block_size_is_no_sequence(text: str) -> None:
    request, _ = _ask(text)
    assert request["max_model_len"] == 8192
    assert request["seq_len"] != 16


# --- training tokens with the word between ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("GPT-2 on 2x TITAN Xp; the data is 47,316,670 train tokens, 2,490,352 val tokens", 47316670),
        ("Pretrain a 1B model on 8 H100 on 20B pre-training tokens", 20e9),
        ("在 2 张 TITAN Xp 上训练 GPT-2，数据是 4731 万训练 token", 47.31e6),
        ("8 张 H100 预训练 1B 模型，200 亿训练 tokens", 20e9),
    ],
)
def test_training_tokens_with_the_word_between(text: str, tokens: float) -> None:
    request, _ = _ask(text)
    assert request["tokens"] == pytest.approx(tokens)
    assert request["seq_len"] < 1e6


@pytest.mark.parametrize(
    "text",
    [
        "Serve Qwen2.5-7B on one 4090 with 8k tokens of context; its training is done",
        "在一张 4090 上部署 Qwen2.5-7B，上下文 8k tokens，训练已经做完了",
    ],
)
def test_a_context_near_a_training_word_is_no_data(text: str) -> None:
    request, _ = _ask(text)
    assert request.get("tokens") is None
    assert request["seq_len"] == 8192


# --- a program started by its serve subcommand -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("On an RTX 4090, realizar serve --gpu gives Qwen2.5-Coder-1.5B only 10.2 tok/s", "realizar"),
        ("用 tokenspeed serve --model Qwen2.5-7B 在一张 H100 上部署，能到多少并发？", "tokenspeed"),
    ],
)
def test_a_program_started_by_serve_is_the_runtime_named(text: str, name: str) -> None:
    assert ("runtime_not_modelled", f"runtime: {name}") in _ask(text)[1]


@pytest.mark.parametrize(
    ("text", "runtime"),
    [
        ("vllm serve Qwen2.5-7B --max-model-len 8192 on one 4090, how many users?", "vLLM"),
        ("先 ollama serve 再 ollama run qwen2.5:7b，一张 4090 速度多少？", "Ollama"),
        ("Can they serve -- with Qwen2.5-7B on one 4090 for 8 users?", None),
        ("vllm bench serve --model Qwen2.5-7B --num-prompts 100 on one H100: what throughput?", "vLLM"),
    ],
)
def test_a_known_engine_or_a_sentence_names_no_new_runtime(text: str, runtime: str | None) -> None:
    request, items = _ask(text)
    assert request.get("runtime") == runtime or runtime is None
    assert not [i for i in items if i[0] == "runtime_not_modelled"]


# --- the partners' GB10 boxes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("I got two Asus Ascent GX10 boxes; Qwen 2.5 7B runs at 43 tok/s, one prompt at a time", 2),
        ("One Lenovo ThinkStation PGX: how fast is Qwen2.5-72B in int4?", 1),
        ("我有两台 Ascent GX10，用 vLLM 跑 Qwen2.5-7B 多快？", 2),
        ("一台 HP ZGX Nano 跑 Qwen2.5-72B int4 多快？", 1),
    ],
)
def test_partner_gb10_boxes_are_the_dgx_spark(text: str, count: int) -> None:
    """NVIDIA's GTC 2025 DGX Spark partners (ASUS Ascent GX10, Lenovo ThinkStation PGX, HP ZGX Nano …: GB10,
    128 GB LPDDR5x on each maker's product page) are the catalog's DGX Spark, with their count."""
    request, _ = _ask(text)
    assert (request["gpu"], request["gpu_count"]) == ("DGX-Spark-GB10-128GB", count)


@pytest.mark.parametrize(
    "text",
    [
        "An Acer laptop with an RTX 4060: can it run Qwen2.5-7B?",
        "一台华硕笔记本，RTX 4060，能跑 Qwen2.5-7B 吗？",
    ],
)
def test_a_makers_name_alone_is_no_gb10(text: str) -> None:
    assert _ask(text)[0]["gpu"] != "DGX-Spark-GB10-128GB"
