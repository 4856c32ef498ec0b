"""s34-fixa: wrong answers found while trying the merged tree, each tested with sentences of our own
(must-read and must-not-misread), in both languages where the form exists.

1. A card named by its number after a card word ('on 4090 tokens/s', 'RTX 3090 tok/s', '用 4090 tokens/s')
   is the card, not a rate of 4,090 tokens/s (:func:`bot.parse.tps_forms.rate_search`).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json


def _req(text: str) -> dict[str, Any]:
    return answer_json(text)["request"]


# 1. a card named by its number before a tokens/s unit --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("ollama run llama3:8b on 4090 tokens/s", "RTX-4090", None),
        ("llama3 8b on rtx 4090 tokens per second?", "RTX-4090", None),
        ("vllm serve Qwen2.5-7B-Instruct on a 3090 tok/s?", "RTX-3090", None),
        ("llama3 8b on 2x 3090 tok/s?", "RTX-3090", 2),
        ("用4090 tokens/s 能到多少，llama3 8b", "RTX-4090", None),
    ],
)
def test_card_number_before_a_rate_unit_is_the_card(text: str, gpu: str, count: int | None) -> None:
    r = _req(text)
    assert r["gpu"] == gpu
    assert r["target_tokens_per_s"] is None
    if count is not None:
        assert r["gpu_count"] == count


def test_a_rate_of_the_same_digits_without_a_card_word_stays_a_rate() -> None:
    r = _req("llama3 8b on H100, we need 4090 tokens/s in total")
    assert r["gpu"] == "H100-SXM5-80GB"
    assert r["target_tokens_per_s"] == 4090.0
    r = _req("Qwen2.5-7B 部署在 A100 上，需要 3090 tokens/s")
    assert r["gpu"] == "A100-SXM4-80GB"
    assert r["target_tokens_per_s"] == 3090.0


def test_the_card_numbers_are_the_catalogs() -> None:
    from bot.parse.gpus import _gpu_index
    from bot.parse.tps_forms import CARD_NUMBERS, TPS_RE

    assert sorted(CARD_NUMBERS) == sorted(k for k in _gpu_index().names if k.isdigit())
    assert TPS_RE.search("on a 4090 tokens/s") is None
    m = TPS_RE.search("on a 4100 tokens/s")  # no card is called 4100: a rate
    assert m is not None and m.group("v").strip() == "4100"


# 2. unsloth named as the maker of a quantized file --------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "DeepSeek-R1 1.58-bit unsloth dynamic GGUF on llama.cpp, how many tokens/s with 2x4090?",
        "用 unsloth 的 1.58bit 动态量化 GGUF 在 llama.cpp 上跑 DeepSeek-R1，2张4090 每秒多少 token",
        "DeepSeek-R1 GGUF from unsloth on llama.cpp, 2x4090, speed?",
        "unsloth 的 GGUF 在 ollama 上跑 qwen2.5 32b，24G 显存够吗",
    ],
)
def test_unsloth_as_the_quantized_files_maker_is_serving(text: str) -> None:
    r = _req(text)
    assert r["stage"] == "inference"
    assert r["training_tool"] is None
    assert r["method"] is None


def test_unsloth_dynamic_gguf_keeps_its_bits_and_runtime() -> None:
    r = _req("DeepSeek-R1 1.58-bit unsloth dynamic GGUF on llama.cpp, how many tokens/s with 2x4090?")
    assert r["runtime"] == "llama.cpp"
    assert r["bits_per_weight"] == 1.58
    assert (r["gpu"], r["gpu_count"]) == ("RTX-4090", 2)


@pytest.mark.parametrize(
    "text",
    [
        "fine-tune Llama 3 8B with unsloth, then export to GGUF for llama.cpp, on a 4090",
        "unsloth qlora llama3 8b on 4090",
        "QLoRA Llama 3 8B with unsloth's dynamic 4-bit quant on a 4090",
        "用 unsloth 微调 llama3 8b 后导出 GGUF，4090",
    ],
)
def test_unsloth_with_training_words_stays_the_training_tool(text: str) -> None:
    r = _req(text)
    assert r["stage"] == "finetune"
    assert r["training_tool"] == "Unsloth"


# 3. a memory written as the machine's VRAM after a count of stock cards is their total -----------------


@pytest.mark.parametrize(
    ("text", "gpu"),
    [
        ("2x4090 48GB VRAM, can I run Qwen2.5-32B AWQ with vLLM?", "RTX-4090"),
        ("2张4090 48G显存，能跑 Qwen2.5-32B AWQ 吗", "RTX-4090"),
        ("2x 3090 48GB VRAM, llama3 70b awq", "RTX-3090"),
    ],
)
def test_count_times_memory_written_as_vram_is_the_total(text: str, gpu: str) -> None:
    a = answer_json(text)
    r = a["request"]
    assert (r["gpu"], r["gpu_count"]) == (gpu, 2)
    assert r["gpu_memory_gib"] is None  # two stock 24 GB cards: 2 × 24 = 48
    assert a["report"]["hardware"]["memory_gib"] == 24
    assert {"text": "48 GB", "reason": "cards_total"} in a["interpretation"]["ignored"]


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("2x4090 48GB VRAM each, qwen2.5 72b awq vllm", 2),  # said each: modified 48 GB cards
        ("4090 48GB VRAM, qwen2.5 32b", 1),  # one card: its own (modified) memory
        ("2张4090 魔改 48G 显存，部署 Qwen2.5-72B AWQ", 2),  # 魔改: per card
    ],
)
def test_a_modified_cards_memory_stays_per_card(text: str, count: int) -> None:
    r = _req(text)
    assert (r["gpu"], r["gpu_count"], r["gpu_memory_gib"]) == ("RTX-4090", count, 48.0)


# 4. lmdeploy's share too high: the body follows the verdict (the lowered share that starts) ------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("lmdeploy 部署 Qwen2.5-72B-Instruct-AWQ，2 张 4090，够吗", "--cache-max-entry-count 到 0.65"),
        ("lmdeploy serve Qwen2.5-72B-Instruct-AWQ on 2x 4090, enough?", "--cache-max-entry-count to 0.65"),
    ],
)
def test_lmdeploy_reserve_short_is_sized_at_the_share_that_starts(text: str, words: str) -> None:
    a = answer_json(text)
    report = a["report"]
    assert (report["feasible"], report["feasible_reason"]) == ("no", "engine_reserve")
    p = next(w for w in report["warnings"] if w["code"] == "engine_reserve_short")["params"]
    free = p["reserve_bytes"] / (1 - p["share"])  # (1 − 0.8) of the free memory is the reserve
    # the largest 0.05 step whose reserve (1 − s) × free holds one prefill: 1 − 1.26/3.71 = 0.659 → 0.65
    assert p["fits"] == 0.65 == int((1 - p["need_bytes"] / free) / 0.05) * 0.05
    assert (1 - p["fits"]) * free >= p["need_bytes"] > (1 - p["fits"] - 0.05) * free
    inf = report["inference"]
    assert inf["usable_bytes_per_gpu"] - inf["workspace_bytes_per_gpu"] > 0
    # the KV cache at 0.65 holds 14,656 tokens (at 0.8 it held 18,048): 3 sequences of 4,096
    assert inf["kv_capacity_tokens"] // inf["context_tokens"] == inf["max_concurrency"] == 3
    line1 = a["reply"].splitlines()[0]
    assert words in line1 and "3" in line1


def test_lmdeploy_at_a_share_that_starts_is_not_lowered() -> None:
    text = "lmdeploy serve api_server internlm/internlm2_5-7b-chat on one H100, fits?"
    report = answer_json(text)["report"]
    assert report["feasible"] == "yes"
    assert not any(w["code"] == "engine_reserve_short" for w in report["warnings"])


# 5. the per-GPU figure (with the CUDA context) and the usable share agree with the verdict -------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            "vllm 在一张 4090 上跑 Qwen2.5-32B-Instruct-AWQ，8k 上下文，每张卡显存占多少",
            "另有引擎份额之外的 CUDA 上下文 1 GiB）：每卡可用 21.4 GiB 中占 21.0 GiB",
        ),
    ],
)
def test_tight_fit_states_the_share_basis(text: str, words: str) -> None:
    a = answer_json(text)
    r, inf = a["report"], a["report"]["inference"]
    assert (r["feasible"], r["feasible_reason"]) == ("borderline", "tight")
    # 17.9 GiB of weights + 2 GiB (256 KiB × 8,192) of KV + 1.2 GiB workspace + 1 GiB context = 22.0 GiB
    assert inf["bytes_per_gpu"] > inf["usable_bytes_per_gpu"]  # as nvidia-smi shows it, with the context
    assert inf["context_bytes_per_gpu"] == 2**30
    assert inf["bytes_per_gpu"] - inf["context_bytes_per_gpu"] <= inf["usable_bytes_per_gpu"]
    assert words in a["reply"].splitlines()[0]


def test_the_context_is_counted_for_a_fit_that_is_not_tight() -> None:
    inf = answer_json("Llama 3 8B bf16 on a 4090 with vllm")["report"]["inference"]
    assert inf["context_bytes_per_gpu"] == 2**30
    assert inf["bytes_per_gpu"] - inf["context_bytes_per_gpu"] < inf["usable_bytes_per_gpu"]


# 6. 'do I need QLoRA?': the method asked about is the alternative, the run stated stays the run ---------


@pytest.mark.parametrize(
    ("text", "methods"),
    [
        ("Fine-tuning Llama 3 8B in bf16 on a 4090, do I need QLoRA?", ["full", "qlora"]),
        ("微调 Qwen2.5-7B，一张 3090，要不要用 QLoRA", ["full", "qlora"]),
        ("微调 Qwen2.5-7B，一张 3090，需要 QLoRA 吗", ["full", "qlora"]),
        ("should I use LoRA to fine-tune Qwen2.5-14B on 2 A100?", ["full", "lora"]),
        ("LoRA fine-tuning Llama 3 8B in bf16 on a 4090, do I need QLoRA?", ["lora", "qlora"]),
    ],
)
def test_a_method_asked_whether_needed_is_the_compared_alternative(text: str, methods: list[str]) -> None:
    r = _req(text)
    assert r["stage"] == "finetune"
    assert r["methods"] == methods
    assert r["method"] == methods[0]  # the run stated (16-bit) is sized first


def test_the_alternative_row_is_shown_beside_the_run() -> None:
    reply = answer_json("Fine-tuning Llama 3 8B in bf16 on a 4090, do I need QLoRA?")["reply"]
    assert "• Full fine-tuning: does not fit on 1 GPU" in reply
    assert "• QLoRA: ≈ 10.6 GiB per GPU on 1 GPU" in reply


@pytest.mark.parametrize(
    ("text", "method"),
    [
        ("QLoRA Llama 3 8B on a 4090", "qlora"),
        ("我需要 QLoRA 微调 Qwen2.5-7B，一张 3090", "qlora"),  # a need stated, not asked
        ("用 QLoRA 微调 70B 要不要 2 张 A100", "qlora"),  # the count is asked, not the method
    ],
)
def test_a_method_stated_stays_the_run(text: str, method: str) -> None:
    r = _req(text)
    assert (r["method"], r.get("methods")) == (method, None)
