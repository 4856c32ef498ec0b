"""Session 40, round 36 en (issue 24): readers for what r36work en missed at its freeze, each tested on
sentences of our own (must-read and must-not-misread), in both languages where the form exists in both.

- 'quantized LoRA', 'LoRA on a quantized base', '量化 LoRA' with no bit width is QLoRA (the Q spelled out);
  a width said ('8-bit quantized LoRA', '8bit 量化 LoRA') stays the precision's to decide: 8-bit LoRA is LoRA;
- a 'K/V cache' (and 'K/V 缓存') is the KV cache: its type is the cache's precision, not the weights';
- a figure in GB/s is a bandwidth, never a card's or the cards' memory ('a Jetson Orin Nano 8GB (102 GB/s)',
  'an RTX 4090 (1008 GB/s)'); a memory in brackets stays the card's ('an A100 (40GB)');
- a benchmark's label right before its figure reports what was measured ('prompt evaluation 4031.87 t/s',
  'token generation 119.66 t/s'), never the throughput asked for; a rate asked for stays the target;
- a speed in t/s after a card-like token is tokens per second, never a chip's peak in TFLOPS ('pp512 4000
  t/s'), while '910B 280T' is still the chip's peak;
- llama-bench is llama.cpp's; its test labels ('pp512', 'tg128') are a 512-token prompt and 128 generated
  tokens, never a pipeline-parallel degree of 512 ('pp2' beside TP stays the layout);
- torchtitan's log 'wps N' is N tokens/s per GPU;
- ZeRO with its sharding's name between ('ZeRO sharding (stage 2 or 3)') and a second stage before a place
  ('ZeRO stage 2 or 3 on 8 A100'): the first sized, the other named ('ZeRO-2 or 3 GPUs' is no stage);
- another setup's card is named with the memory said with it ('80GB A100s' → 'A100 80GB'), never its family
  alone (the memory dropped in silence);
- a release's variant word between its family and its size ('Mistral Instruct 7B', 'Llama 2 Chat 13B') is
  that family's release of that size.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json


def _ask(text: str) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    answer = answer_json(text)
    items = (answer.get("interpretation") or {}).get("ignored") or []
    return answer["request"], [(i.get("reason"), i.get("text")) for i in items]


# --- 'quantized LoRA' -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tuning Llama-2-7B with quantized LoRA on one RTX 3090.",
        "I fine-tune Llama-2-7B with LoRA on a quantized base on one RTX 3090.",
        "用量化 LoRA 微调 Qwen2-7B，单卡 4090 够吗？",
    ],
)
def test_quantized_lora_is_qlora(text: str) -> None:
    req, _ = _ask(text)
    assert req["stage"] == "finetune"
    assert req["method"] == "qlora"


@pytest.mark.parametrize(
    ("text", "precision"),
    [
        ("Fine-tuning Llama-2-7B with 8-bit quantized LoRA on one A100.", "int8"),
        ("用 8bit 量化 LoRA 微调 Qwen2-7B", "int8"),
        (
            "Fine-tuning Llama-2-7B with LoRA, then I quantized the merged model for serving, on one A100.",
            None,
        ),
    ],
)
def test_lora_with_a_width_or_a_later_quantization_stays_lora(text: str, precision: str | None) -> None:
    req, _ = _ask(text)
    assert req["method"] == "lora"
    assert req.get("precision") == precision


# --- K/V cache ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Serving Qwen2.5-7B with llama.cpp on one RTX 4090 with a q8_0 K/V cache and 32k context.",
        "用 llama.cpp 在 4090 上跑 Qwen2.5-7B，K/V 缓存用 q4_0。",
    ],
)
def test_kv_cache_with_a_slash_is_the_cache(text: str) -> None:
    req, ignored = _ask(text)
    cache = "q8_0" if "q8_0" in text else "q4_0"
    assert req.get("precision") != cache  # the cache's type, never the weights'
    assert req.get("kv_precision") == cache or ("no_field", f"kv_precision: {cache}") in ignored


# --- GB/s is a bandwidth --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "figure", "gpu"),
    [
        (
            "Qwen2.5-1.5B Q4_K_M on a Jetson Orin Nano 8GB (102 GB/s) with llama.cpp: what speed?",
            "102",
            "Jetson-Orin-Nano-8GB",
        ),
        ("Qwen2.5-7B on an RTX 4090 (1008 GB/s) with llama.cpp: what speed?", "1008", "RTX-4090"),
    ],
)
def test_a_bandwidth_is_no_memory(text: str, figure: str, gpu: str) -> None:
    req, ignored = _ask(text)
    assert req["gpu"] == gpu
    assert req.get("gpu_memory_gib") != float(figure) and req.get("total_memory_gib") is None
    assert ("unread", figure) in ignored  # named, never dropped


def test_a_memory_in_brackets_stays_the_cards() -> None:
    req, _ = _ask("Qwen2.5-7B on an A100 (40GB) with vLLM: what speed?")
    assert req["gpu"] == "A100-SXM4-40GB" and req["gpu_memory_gib"] == 40.0


# --- a benchmark's label reports a measured speed -------------------------------------------------------


def test_benchmark_labels_report_measured_speeds() -> None:
    req, ignored = _ask(
        "Mistral Instruct 7B Q4_K_M on an NVIDIA RTX 3080 with llama.cpp: prompt evaluation 4031.87 t/s and "
        "token generation 119.66 t/s. Is that in line?"
    )
    assert req.get("target_tokens_per_s") is None
    assert ("observed", "4031.87 tok/s") in ignored and ("observed", "119.66 tok/s") in ignored
    assert req["concurrency"] == 1  # before: 400, from the prompt's rate taken as the service's target


def test_a_generation_rate_asked_for_stays_the_target() -> None:
    req, _ = _ask("I need token generation at 50 t/s for Llama-2-7B on one RTX 4090, how?")
    assert req["target_tokens_per_s"] == 50.0


# --- t/s after a card-like token; llama-bench -----------------------------------------------------------


def test_llama_bench_labels_and_speeds() -> None:
    req, ignored = _ask(
        "llama-bench on one RTX 4090 with Llama-2-7B Q4_0 gives pp512 4000 t/s and tg128 150 t/s. "
        "Is that normal?"
    )
    assert req["runtime"] == "llama.cpp"
    assert req.get("pp") is None  # 'pp512' is a 512-token prompt, no pipeline of 512 stages
    assert req["seq_len"] == 512 + 128
    assert not any(reason == "catalog_peak" for reason, _ in ignored)  # 't/s' is no TFLOPS
    assert ("observed", "4000 tok/s") in ignored


def test_a_pipeline_degree_beside_tp_stays_the_layout() -> None:
    req, _ = _ask("Megatron with TP 4 and pp2 on 8 H100 for Llama-2-13B pre-training, 2000 tokens/s per GPU?")
    assert req["tp"] == 4 and req["pp"] == 2


def test_a_chips_peak_after_its_name_is_still_read() -> None:
    _, ignored = _ask("910B 280T 的卡跑 Qwen2.5-72B 训练要几张？")
    assert ("catalog_peak", "peak: 280 TFLOPS") in ignored


# --- torchtitan's wps -----------------------------------------------------------------------------------


def test_wps_is_tokens_per_second_per_gpu() -> None:
    req, ignored = _ask(
        "Pre-training Llama-3-8B with torchtitan on 64 H100, the log shows wps 3500 and mfu 40%."
    )
    assert req["tokens_per_second_per_gpu"] == 3500.0
    assert ("unread", "3500") not in ignored


# --- ZeRO stages ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tuning GPT-NeoX-20B with DeepSpeed ZeRO stage 2 or 3 on 8 A100, how much memory?",
        "Fine-tuning GPT-NeoX-20B on 8 A100: how much can single-node ZeRO sharding (stage 2 or 3) save?",
    ],
)
def test_two_zero_stages_the_first_sized_the_other_named(text: str) -> None:
    req, ignored = _ask(text)
    assert req["zero_stage"] == 2
    assert ("other_setup", "zero_stage: 3") in ignored


def test_a_count_after_a_zero_stage_is_no_stage() -> None:
    req, ignored = _ask("Fine-tuning Llama-2-7B with ZeRO-2 or 3 GPUs?")
    assert req["zero_stage"] == 2 and req["gpu_count"] == 3
    assert ("other_setup", "zero_stage: 3") not in ignored


# --- a variant word before the size ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "model"),
    [
        ("Mistral Instruct 7B Q4_K_M on an RTX 3080 with llama.cpp, what speed?", "Mistral-7B"),
        ("Llama 2 Chat 13B on an RTX 3090 with llama.cpp, what speed?", "Llama-2-13B"),
    ],
)
def test_a_variant_word_before_the_size_is_the_release(text: str, model: str) -> None:
    req, _ = _ask(text)
    assert req["model"] == model


def test_chat_before_a_number_that_is_no_size_changes_nothing() -> None:
    req, _ = _ask("I want to chat 7B hours a week on Llama-2-7B")
    assert req["model"] == "Llama-2-7B"


# --- another setup's card with its memory -------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "The docs say OPT-175B runs only on 80GB A100s. Could I host it on an AWS g4dn.metal with 384 GB RAM "
        "and 8 GPUs?",
        "The README says 4 A100 80GB GPUs can fine-tune LLaMA-7B, but on 8 A100 40GB I get CUDA out of "
        "memory.",
    ],
)
def test_another_setups_card_is_named_with_its_memory(text: str) -> None:
    req, ignored = _ask(text)
    assert req.get("gpu_memory_gib") != 80.0
    assert ("other_setup", "A100 80GB") in ignored  # before: 'A100' alone, the 80 dropped in silence


def test_another_setups_card_said_without_memory_is_its_family() -> None:
    _, ignored = _ask(
        "We tried 8 H100 before; now I have 4 A100 40GB, can I fine-tune Llama-2-13B with LoRA?"
    )
    assert ("other_setup", "H100") in ignored
