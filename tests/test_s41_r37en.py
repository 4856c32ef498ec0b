"""Session 41, round 37 en (issue 24): readers for what r37work en missed at its freeze, each tested on
sentences of our own (must-read and must-not-misread), in both languages.

- SageMaker's ``SM_NUM_GPUS`` (the Hugging Face LLM container's GPUs per replica, which its
  sagemaker-entrypoint.sh passes on as TGI's ``NUM_SHARD``) is the engine's TP, as ``--num-shard`` is;
- a benchmark's shape written as the numbers then 'ISL/OSL' ('1k/1k ISL/OSL') or 'ISL/OSL' then the numbers
  ('ISL/OSL 8k/1k', 'ISL/OSL 为 2k/512') is each request's prompt and reply, as 'ISL 1024 OSL 256' is;
- SGLang's decode log '#running-req: 20' is 20 requests in flight (its scheduler's log_decode_stats);
  '--max-running-requests 128' stays the engine's cap, '#queue-req' no load;
- a count with an owner between it and its cards ('4 of its A100 GPUs', 'two of their H100s') is that many
  cards, as '4 of our A100 GPUs' was;
- a llama.cpp KV type before a bare 'K/V' or 'KV' ('with q8_0 K/V', 'q4_0 KV') is the KV cache's type, never
  left unread nor the weights';
- 'strix-halo' inside a tool's name ('strix-halo-llamacpp') is no card: the device named after it ('a 128 GiB
  Ryzen AI Max+ 395') is, with its memory;
- a setting 'as low as' a value ('batch sizes as low as 2', 'batch size 低至 2') is that value tried; a
  measure 'as low as' one ('memory use is as low as 20GB', '显存占用低至 20GB') stays what was measured.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json


def _ask(text: str) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    answer = answer_json(text)
    items = (answer.get("interpretation") or {}).get("ignored") or []
    return answer["request"], [(i.get("reason"), i.get("text")) for i in items]


# --- SM_NUM_GPUS -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tp"),
    [
        ("Deploying Llama-2-13b-chat with TGI on SageMaker ml.g5.12xlarge, SM_NUM_GPUS 2: does it fit?", 2),
        ("在 SageMaker 上用 TGI 部署 Llama-2-13b-chat，ml.g5.12xlarge，SM_NUM_GPUS 设为 4，够吗？", 4),
    ],
)
def test_sm_num_gpus_is_tgis_shards(text: str, tp: int) -> None:
    request, ignored = _ask(text)
    assert request["runtime"] == "TGI" and request["tp"] == tp
    assert request["gpu"] == "A10G" and request["gpu_count"] == 4  # ml.g5.12xlarge: 4 x A10G (AWS)
    assert not any(text == str(tp) for _, text in ignored)


@pytest.mark.parametrize(
    "text",
    [
        "Serving Llama-2-13b-chat with TGI on 4 A10G, num gpus 2 per replica?",
        "用 TGI 在 4 张 A10G 上部署 Llama-2-13b-chat，每个副本 num gpus 2 够吗？",
    ],
)
def test_a_bare_num_gpus_is_no_shard_count(text: str) -> None:
    request, _ = _ask(text)
    assert request["gpu_count"] == 4 and request["tp"] is None


# --- ISL/OSL after or before the numbers ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "prompt", "seq"),
    [
        ("DeepSeek-R1 with SGLang on 8x B200, 1k/1k ISL/OSL: how many concurrent requests?", 1000, 2000),
        ("DeepSeek-R1 with SGLang on 8x B200, ISL/OSL 8k/1k: how many users?", 8000, 9000),
        ("DeepSeek-R1 用 SGLang 部署在 8 张 B200 上，ISL/OSL 为 2k/512，能撑多少并发？", 2000, 2512),
        ("DeepSeek-R1 用 SGLang 部署在 8 张 B200 上，1k/1k ISL/OSL，能撑多少并发？", 1000, 2000),
    ],
)
def test_isl_osl_pair_is_prompt_and_reply(text: str, prompt: int, seq: int) -> None:
    request, ignored = _ask(text)
    assert request["prompt_tokens"] == prompt and request["seq_len"] == seq
    assert not [t for reason, t in ignored if reason == "unread"]


@pytest.mark.parametrize(
    "text",
    [
        "DeepSeek-R1 with SGLang on 8x B200, OSL 512: how many users?",
        "DeepSeek-R1 用 SGLang 部署在 8 张 B200 上，OSL 512，能撑多少并发？",
    ],
)
def test_osl_alone_stays_the_reply_only(text: str) -> None:
    request, ignored = _ask(text)
    assert request["prompt_tokens"] is None
    assert ("output_in_context", "output_tokens: 512") in ignored


# --- SGLang's '#running-req' ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Qwen3-8B on one H100 with SGLang: the decode log shows #running-req: 48, #token: 90000. More?",
        "Qwen3-8B 用 SGLang 部署在一张 H100 上，日志显示 #running-req: 48，还能加并发吗？",
    ],
)
def test_running_req_is_the_load(text: str) -> None:
    request, _ = _ask(text)
    assert request["concurrency"] == 48


@pytest.mark.parametrize(
    ("text", "cap"),
    [
        ("Qwen3-8B on one H100 with SGLang --max-running-requests 128: how many users?", 128),
        ("Qwen3-8B 用 SGLang 部署在一张 H100 上，--max-running-requests 128，能撑多少用户？", 128),
        ("Qwen3-8B on one H100 with SGLang: the log shows #queue-req: 5. How many users can it take?", None),
        ("Qwen3-8B 用 SGLang 部署在一张 H100 上，日志显示 #queue-req: 5，能撑多少用户？", None),
    ],
)
def test_running_requests_cap_and_queue_are_no_load(text: str, cap: int | None) -> None:
    request, _ = _ask(text)
    assert request["max_num_seqs"] == cap
    assert request["concurrency"] not in (128, 5)


# --- 'N of its CARD' -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count", "card"),
    [
        (
            "Can TGI host two models on one SageMaker ml.p4d instance, 4 of its A100 GPUs for llama-2 70b "
            "and the other 4 for code llama 34b?",
            4,
            "A100",
        ),
        ("serve llama-2 70b with vLLM on two of their H100s", 2, "H100"),
        ("用它的 4 张 A100 部署 llama-2 70b 够吗？", 4, "A100"),
    ],
)
def test_count_with_owner_before_cards(text: str, count: int, card: str) -> None:
    request, _ = _ask(text)
    assert request["gpu_count"] == count and card in request["gpu"]


@pytest.mark.parametrize(
    "text",
    [
        "4 of the runs used A100 GPUs for llama-2 70b serving, is that enough?",
        "其中 4 次实验用 A100 部署 llama-2 70b，够吗？",
    ],
)
def test_count_of_other_things_is_no_card_count(text: str) -> None:
    request, _ = _ask(text)
    assert request["gpu_count"] != 4


# --- a KV type before a bare 'K/V' / 'KV' ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kv"),
    [
        ("Qwen3-32B with llama.cpp on an RTX 4090 with q8_0 K/V at 32k context: does it fit?", "q8_0"),
        ("Qwen3-32B 用 llama.cpp 在 RTX 4090 上跑，q4_0 KV，32k 上下文放得下吗？", "q4_0"),
    ],
)
def test_ggml_type_before_bare_kv_is_the_caches(text: str, kv: str) -> None:
    request, _ = _ask(text)
    assert request["kv_precision"] == kv
    assert request["precision"] != kv  # never the weights' format


@pytest.mark.parametrize(
    "text",
    [
        "Qwen3-32B Q4_0 with llama.cpp on an RTX 4090 and an f16 KV cache at 32k: does it fit?",
        "Qwen3-32B Q4_0 用 llama.cpp 在 RTX 4090 上跑，KV 缓存用 f16，32k 上下文放得下吗？",
    ],
)
def test_weights_type_beside_a_kv_cache_stays_the_weights(text: str) -> None:
    request, _ = _ask(text)
    assert request["precision"] == "q4_0" and request["kv_precision"] == "fp16"


# --- 'strix-halo' inside a tool's name -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "DeepSeek-V4-Flash with strix-halo-llamacpp on a 128 GiB Ryzen AI Max+ 395: how much context fits?",
        "用 strix-halo-llamacpp 在 128G 的 Ryzen AI Max+ 395 上跑 DeepSeek-V4-Flash，能开多长上下文？",
    ],
)
def test_tool_named_after_the_device_is_no_card(text: str) -> None:
    request, ignored = _ask(text)
    # s48 cat: the Ryzen AI Max+ 395 is the catalog's Strix Halo card now (was named as typed)
    assert request["gpu"] == "Strix-Halo-395-128GB" and request["gpu_memory_gib"] == 128
    assert not any(t in ("128", "395") for _, t in ignored)


@pytest.mark.parametrize(
    "text",
    [
        "DeepSeek-V4-Flash on a Strix Halo with 128GB: how much context fits?",
        "DeepSeek-V4-Flash 在 128G 的 Strix Halo 上能开多长上下文？",
    ],
)
def test_strix_halo_itself_stays_the_card(text: str) -> None:
    request, _ = _ask(text)
    assert request["gpu"] == "Strix-Halo-395-128GB" and request["gpu_memory_gib"] == 128  # s48: catalog


# --- a setting 'as low as' a value ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tuning Llama-2-7B on one A100 40GB runs out of memory even with batch sizes as low as 2.",
        "Llama-2-7B 在一张 A100 40GB 上 LoRA 微调，batch size 低至 2 也 OOM。",
    ],
)
def test_setting_as_low_as_a_value_is_that_value(text: str) -> None:
    request, ignored = _ask(text)
    assert request["batch_size"] == 2
    assert ("unread", "2") not in ignored


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tuning Llama-2-7B on one A100 40GB: memory use is as low as 20GB with batch size 4.",
        "Llama-2-7B 在一张 A100 40GB 上微调，显存占用低至 20GB，batch size 为 4。",
    ],
)
def test_a_measure_as_low_as_is_no_setting(text: str) -> None:
    request, ignored = _ask(text)
    assert request["batch_size"] == 4 and ("observed", "20") in ignored
