"""Session 46, round 42 en (issue 24): readers for what r42work en missed at its freeze, each tested on
sentences of our own (must-read and must-not-misread), in both languages where the other has the phrasing.

- a family typed without a model, then a member of it typed with its model ('smaller Inferentia instances
  such as inf2.8xlarge', bot.parse.instances writing the Inferentia2): the member is the card named
  (bot.parse.accelerator_family.member_after); the family alone stays a family;
- a card word, a copula, its memory in English ('my server GPU is only 48G', 'my card is 24GB'): that card's
  memory, as '显卡是 48G' was read (bot.parse.memory_forms.CARD_THEN_MEMORY_RE); never 'the weights on GPU
  is 15GB' nor 'GPU usage is 20GB';
- a Strix Halo's SKU after its codename ('a Strix Halo 388 with 64GB'): part of its name, never 388 cards;
- an unknown card's name joined to its memory by a hyphen ('two NVIDIA vGPU-32GB cards'): the card and its
  memory, as 'H20e-141G' is;
- up to three maker, line and family words between a count and its card ('5x AMD Radeon Instinct MI50'):
  the count (bot.parse.role_left.BETWEEN);
- K and V by their letters ('f16 K and V', 'K and V in q8_0', 'K 和 V 都用 q8_0') and llama.cpp's log
  quoting the type ("type_k = 'f16'"): the KV-cache type (bot.parse.kv_cache_types); never the K and V
  projections of a LoRA's targets;
- 'why' and 'how' are question words, never a tool opening its clause ('…, so why doesn't it fit?' named a
  runtime 'why', bot.parse.subject_tools);
- HF's ``paged_adamw_32bit`` (transformers ``OptimizerNames.PAGED_ADAMW``: bitsandbytes' PagedAdamW32bit,
  AdamW's two fp32 moments in paged memory): sized as AdamW, in a config and in prose (before: 'bad_value' in
  a config, dropped in prose); ``paged_adamw_8bit`` stays the 8-bit one.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.parse.configs.training import OPTIMIZERS
from tests.real_questions import answer_json


def _ask(text: str) -> tuple[dict[str, Any], dict[str, Any], list[tuple[str | None, str | None]]]:
    answer = answer_json(text)
    interpretation = answer.get("interpretation") or {}
    items = interpretation.get("ignored") or []
    return answer["request"], interpretation, [(i.get("reason"), i.get("text")) for i in items]


def _card(request: dict[str, Any], interpretation: dict[str, Any]) -> str:
    """The card named: a catalog card's id, or an unknown card as typed."""
    return str(interpretation.get("unknown_gpu") or request.get("gpu"))


# --- a family, then its member -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Is it possible to run llama2-13b on smaller Inferentia instances such as inf2.8xlarge?",
        "想在 Inferentia 实例上部署 llama2-13b，比如 inf2.8xlarge，可以吗？",
    ],
)
def test_a_family_then_its_member_is_the_member(text: str) -> None:
    request, interpretation, _ = _ask(text)
    assert _card(request, interpretation).lower() == "inferentia2"  # AWS: inf2.8xlarge, one Inferentia2
    assert request["gpu_count"] == 1
    assert request["gpu_memory_gib"] == 32  # 32 GB of HBM per Inferentia2 chip (aws.amazon.com inf2 page)


@pytest.mark.parametrize(
    "text", ["Can I run llama2-13b on Intel Gaudi?", "llama2-13b 能在 Intel Gaudi 上跑吗？"]
)
def test_a_family_alone_stays_a_family(text: str) -> None:
    request, interpretation, _ = _ask(text)
    assert _card(request, interpretation) == "Intel Gaudi"


# --- 'my GPU is 48G' ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "My server GPU is only 48G. Can I run Llama-2-7B inference?",
        "My GPU is 48GB, can I run Llama-2-7B inference?",
        "我的服务器显卡是 48G，能跑 Llama-2-7B 推理吗？",
    ],
)
def test_a_card_word_a_copula_and_its_memory(text: str) -> None:
    request, _, items = _ask(text)
    assert request["gpu_memory_gib"] == 48
    assert ("unread", "48") not in items


@pytest.mark.parametrize(
    "text",
    [
        "The weights on GPU is 15GB, can I run Llama-2-7B on an RTX 4090?",
        "My GPU usage is 20GB when serving Llama-2-7B on an RTX 4090, why?",
    ],
)
def test_what_is_on_the_card_is_not_its_memory(text: str) -> None:
    request, _, _ = _ask(text)
    assert request["gpu"] == "RTX-4090" and request.get("gpu_memory_gib") in (None, 24)


# --- a Strix Halo's SKU ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Loading gpt-oss-20b shows 'out of memory' on a Strix Halo 388 with 64GB. Why doesn't it fit?",
        "一台 Strix Halo 388（64GB）加载 gpt-oss-20b 报显存不足，为什么？",
    ],
)
def test_a_strix_halo_sku_is_its_name(text: str) -> None:
    request, interpretation, _ = _ask(text)
    assert _card(request, interpretation) == "Strix Halo 388"
    assert request["gpu_count"] == 1  # before: 388 cards
    assert request["gpu_memory_gib"] == 64


@pytest.mark.parametrize(
    "text", ["Can 2 Strix Halo machines run DeepSeek-V3?", "两台 Strix Halo 能跑 DeepSeek-V3 吗？"]
)
def test_a_count_before_a_strix_halo_stays_a_count(text: str) -> None:
    request, interpretation, _ = _ask(text)
    assert _card(request, interpretation) == "Strix-Halo-395-128GB"  # s48 cat: a catalog card now
    assert request["gpu_count"] == 2


# --- a name joined to its memory ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Training a 7B runs out of GPU memory on two NVIDIA vGPU-32GB cards.",
        "两张 vGPU-32GB 的卡训练 7B 模型显存不够",
    ],
)
def test_an_unknown_name_joined_to_its_memory(text: str) -> None:
    request, interpretation, items = _ask(text)
    assert _card(request, interpretation) == "vGPU"
    assert request["gpu_count"] == 2 and request["gpu_memory_gib"] == 32
    assert ("unread", "32") not in items


def test_a_catalog_card_joined_to_its_memory_keeps_its_name() -> None:
    request, _, _ = _ask("Serving Llama-2-70B on 2 H100-80GB cards")
    assert request["gpu"] == "H100-SXM5-80GB" and request["gpu_count"] == 2


# --- maker, line and family between a count and its card ------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Serving a 32B with llama.cpp across 5x AMD Radeon Instinct MI50 (gfx906): how much memory?",
        "5 张 AMD Radeon Instinct MI50 用 llama.cpp 部署 32B 要多少显存？",
    ],
)
def test_three_words_between_a_count_and_its_card(text: str) -> None:
    request, interpretation, items = _ask(text)
    assert _card(request, interpretation) == "MI50-32GB"  # s48 cat: a catalog card now (was named as typed)
    assert request["gpu_count"] == 5
    assert ("unread", "5") not in items


def test_a_length_before_the_maker_is_no_count() -> None:
    request, _, _ = _ask("Serving a 32B with context 4096 on AMD Radeon Instinct MI50")
    assert request.get("gpu_count") != 4096 and request["seq_len"] == 4096


# --- K and V by their letters ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kv"),
    [
        ("Serving a 32B with llama.cpp, 32k context, f16 K and V: how much memory?", "fp16"),
        ("Serving a 32B with llama.cpp, 32k context, K and V in q8_0: how much memory?", "q8_0"),
        ("Serving a 32B, K/V both bf16, 8k context", "bf16"),
        ("llama_kv_cache_init: kv_size = 32768, type_k = 'f16', type_v = 'f16' for a 32B", "fp16"),
        ("用 llama.cpp 部署 32B，32k 上下文，K 和 V 都用 q8_0，要多少显存？", "q8_0"),
        ("用 llama.cpp 部署 32B，32k 上下文，f16 的 K 和 V，要多少显存？", "fp16"),
    ],
)
def test_k_and_v_by_their_letters_are_the_kv_type(text: str, kv: str) -> None:
    request, _, _ = _ask(text)
    assert request["kv_precision"] == kv
    assert request.get("precision") != kv or kv == "bf16"  # never the weights' format instead


def test_weights_and_kv_types_each_their_own() -> None:
    request, _, items = _ask("A 32B with Q4_K_M weights and K and V at q4_0")
    assert request["precision"] == "q4_k_m" and request["kv_precision"] == "q4_0"
    assert ("repeated", "precision: q4_0") not in items  # before: q4_0 named as a second weight format


@pytest.mark.parametrize(
    "text",
    [
        "LoRA on Llama-2-7B with the Q, K and V projections as targets, 2 GPUs",
        "LoRA 微调 Llama-2-7B，目标是 Q、K 和 V 投影，两张卡",
    ],
)
def test_k_and_v_projections_are_no_kv_type(text: str) -> None:
    assert _ask(text)[0].get("kv_precision") is None


# --- question words are no tools ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Loading gpt-oss-20b shows 'out of memory', so why doesn't it fit?",
        "Llama 7B OOM on an RTX 4090, how doesn't it fit?",
    ],
)
def test_question_words_are_no_tool(text: str) -> None:
    _, _, items = _ask(text)
    assert not [t for _, t in items if t and t.split(": ")[-1] in ("why", "how")]


def test_a_lower_case_tool_as_subject_is_still_named() -> None:
    _, _, items = _ask("optiml says a 7B fine-tune needs 40GB, so why doesn't it fit on my RTX 4090?")
    assert ("no_field", "training_tool: optiml") in items


# --- HF's paged_adamw_32bit ---------------------------------------------------------------------------------


def test_paged_adamw_32bit_maps_to_adamw() -> None:
    assert OPTIMIZERS["paged_adamw_32bit"] == "adamw"  # transformers PAGED_ADAMW: bnb PagedAdamW32bit
    assert OPTIMIZERS["paged_adamw_8bit"] == "paged_adamw_8bit"


@pytest.mark.parametrize(
    "text",
    [
        "QLoRA fine-tune Llama 3 8B on one W7900 48G, optim paged_adamw_32bit, batch 2",
        'QLoRA of Llama 3 8B on one W7900 48G: per_device_train_batch_size=2, optim="paged_adamw_32bit"',
        "QLoRA 微调 Llama 3 8B，一张 W7900 48G，optim 用 paged_adamw_32bit，batch 2",
    ],
)
def test_paged_adamw_32bit_is_sized_as_adamw(text: str) -> None:
    request, _, items = _ask(text)
    assert request["optimizer"] == "adamw"
    assert not [t for why, t in items if why == "bad_value" and t and "paged_adamw" in t]


@pytest.mark.parametrize(
    "text",
    [
        "QLoRA fine-tune Llama 3 8B on one W7900 48G, optim paged_adamw_8bit, batch 2",
        "QLoRA 微调 Llama 3 8B，一张 W7900 48G，optim 用 paged_adamw_8bit，batch 2",
    ],
)
def test_paged_adamw_8bit_stays_8_bit(text: str) -> None:
    assert _ask(text)[0]["optimizer"] == "paged_adamw_8bit"


# --- a name before an English job noun ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "When using a 4090 with 24G for HuatuoGPT inference, it is killed. How much memory is required?",
        "Cost of the HuatuoGPT fine-tuning on 8 A100?",
        "用 4090 24G 做 HuatuoGPT 推理被 kill 了，至少要多少显存？",
    ],
)
def test_a_name_before_a_job_noun_is_the_model(text: str) -> None:
    assert _ask(text)[1].get("unknown_model") == "HuatuoGPT"


@pytest.mark.parametrize(
    "text",
    [
        "How much memory for LLM inference on a 4090?",
        "How much memory for CPU inference of a 7B?",
        "4 GPUs for LoRA fine-tuning of a 7B?",
        "Efficient fine-tuning on a 4090 for a 7B",
    ],
)
def test_a_device_kind_or_method_before_a_job_noun_is_no_model(text: str) -> None:
    assert _ask(text)[1].get("unknown_model") is None


def test_an_engine_before_a_job_noun_stays_the_engine() -> None:
    request, interpretation, _ = _ask("What GPU for vLLM serving of Llama-2-7B?")
    assert request["runtime"] == "vLLM" and request["model"] == "Llama-2-7B"
    assert interpretation.get("unknown_model") is None
