"""Session 38 left part (/work/notes/s38/full_left.md): answers found wrong last session, by kind, each
asserted on ``sizing-bot ask --format json`` in both languages with sentences of our own."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from bot.cli import ask
from estimator import catalog
from estimator.architecture import count_params


def answer(question: str) -> dict[str, Any]:
    """The JSON answer of ``sizing-bot ask``."""
    return json.loads(ask(question, None, "json")[0])


def substitutions(data: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {s["typed"]: (s["used"], s["reason"]) for s in data["interpretation"]["substitutions"]}


# 1. A vision-language release named as typed is that release (catalog entries from config.json), never
#    the text model of a near name; a variant word the catalog entry lacks makes the model unknown, named
#    as typed.


def _qwen2_vl_tower(out_hidden: int) -> int:
    """Qwen2-VL's vision tower worked by hand from config.json vision_config (transformers qwen2_vl):
    Conv3d 3·2·14·14·1280 (no bias); 32 blocks of 2 LayerNorms (weight + bias), qkv 1280→3840 (bias),
    proj 1280→1280 (bias), fc1 1280→5120 and fc2 5120→1280 (bias, mlp_ratio 4); merger LayerNorm(1280)
    + 5120→5120 + 5120→out_hidden (bias)."""
    attention = (1280 * 3840 + 3840) + (1280 * 1280 + 1280)
    block = 2 * 2 * 1280 + attention + (1280 * 5120 + 5120) + (5120 * 1280 + 1280)
    merger = 2 * 1280 + (5120 * 5120 + 5120) + (5120 * out_hidden + out_hidden)
    return 3 * 2 * 14 * 14 * 1280 + 32 * block + merger


@pytest.mark.parametrize(
    ("model", "tower", "total"),
    [
        ("Qwen2-VL-7B", 675_759_104, 8.29e9),  # Hub: Qwen/Qwen2-VL-7B-Instruct 8.29B
        ("Qwen2-VL-72B", 699_356_672, 73.4e9),  # Hub: Qwen/Qwen2-VL-72B-Instruct 73.4B
        ("Qwen2.5-VL-72B", 704_573_696, 73.4e9),  # Hub: Qwen/Qwen2.5-VL-72B-Instruct 73.4B
    ],
)
def test_vl_entries_count_their_tower(model: str, tower: int, total: float) -> None:
    spec = catalog.model(model)
    assert spec.vision is not None and spec.vision.params == tower
    if model.startswith("Qwen2-VL"):
        assert tower == _qwen2_vl_tower(spec.hidden)
    else:  # Qwen2.5-VL: RMSNorms, a gated MLP of intermediate_size 3456, out_hidden_size 8192
        block = 2 * 1280 + 4_919_040 + 1_639_680 + 2 * (1280 * 3456 + 3456) + (3456 * 1280 + 1280)
        assert tower == 1_505_280 + 32 * block + 1280 + 26_219_520 + (5120 * 8192 + 8192)
    computed = count_params(spec)[0]
    assert computed == pytest.approx(total, rel=1e-3)  # the tower counted: the checkpoint's total
    text = catalog.model(model.replace("-VL", ""))
    assert computed - tower == pytest.approx(count_params(text)[0])  # the language model is its text shape


@pytest.mark.parametrize(
    ("question", "model"),
    [
        ("qwen2-vl 7b 推理需要多少显存", "Qwen2-VL-7B"),
        ("How much GPU memory to serve qwen2-vl 7b?", "Qwen2-VL-7B"),
        ("Qwen2-VL-72B-Instruct 部署要几张 A100", "Qwen2-VL-72B"),
        ("serve Qwen2.5-VL-72B on H100s", "Qwen2.5-VL-72B"),
        ("Qwen2VL 7B lora 微调要几张 4090", "Qwen2-VL-7B"),
        ("qwen2.5 vl 3b inference on a T4", "Qwen2.5-VL-3B"),
    ],
)
def test_vl_release_is_its_catalog_entry(question: str, model: str) -> None:
    data = answer(question)
    assert data["request"]["model"] == model
    assert data["interpretation"]["unknown_model"] is None
    assert substitutions(data) == {}  # no 'sized as its language model'
    assert data["request"]["params_total"] == catalog.model(model).params_total


@pytest.mark.parametrize(
    ("question", "typed", "size"),
    [
        ("serve mistral-7b-vision on one A100", "mistral-7b-vision", 7e9),
        ("How much memory for Llama-3.2-11B-Vision?", "Llama-3.2-11B-Vision", 11e9),
        ("部署 qwen2.5-7b-coder 需要多少显存", "qwen2.5-7b-coder", 7e9),
        ("llama-3-8b-math 用 4090 推理够吗", "llama-3-8b-math", 8e9),
        ("Qwen2.5-7B-Omni inference on an L20", "Qwen2.5-7B-Omni", 7e9),
        ("serve Qwen2.5-7B_embedding on a T4", "Qwen2.5-7B_embedding", 7e9),
    ],
)
def test_variant_word_refuses_the_near_catalog_name(question: str, typed: str, size: float) -> None:
    data = answer(question)
    assert data["request"]["model"] is None  # never the text LLM whose name it ends with
    assert data["interpretation"]["unknown_model"] == typed
    assert substitutions(data)[typed][1] == "generic_shape"
    assert data["request"]["params_total"] == size
    assert typed in data["reply"]


@pytest.mark.parametrize(
    ("question", "model"),
    [
        ("serve Qwen2.5-Coder-7B-Instruct on a 4090", "Qwen2.5-Coder-7B"),  # the word in the entry: kept
        ("Qwen2.5-Math-7B 推理要几张卡", "Qwen2.5-Math-7B"),
        ("serve Llama-3.1-8B-Instruct on one A100", "Llama-3.1-8B"),  # release tags are not variants
        ("serve mistral-7b on one A100 for vision-free chat", "Mistral-7B"),  # a spaced word is no variant
    ],
)
def test_variant_reader_must_not_misread(question: str, model: str) -> None:
    data = answer(question)
    assert data["request"]["model"] == model
    assert data["interpretation"]["unknown_model"] is None


def test_unknown_beside_a_catalog_model_is_named() -> None:
    for q in ("olmOCR 7B and Qwen2.5-7B inference on A100", "用 A100 部署 olmOCR 7B 和 Qwen2.5-7B"):
        data = answer(q)
        assert data["request"]["model"] == "Qwen2.5-7B"
        assert {"text": "model: olmOCR 7B", "reason": "other_setup"} in data["interpretation"]["ignored"]


# 2. Machines and fleets: a DGX is 8 cards of its generation (NVIDIA DGX A100/H100/H200/B200 datasheets:
#    8 GPUs a system); two machines of different cards each keep their count; a list of three cards keeps all.


@pytest.mark.parametrize(
    "question",
    [
        "2台DGX 训练 7B 1T token 要多久",
        "两台DGX训练7B 1T token要多久",
        "we have 2 DGX, train a 7B on 1T tokens",
    ],
)
def test_plain_dgx_is_eight_cards_and_the_card_is_said_assumed(question: str) -> None:
    data = answer(question)
    assert data["request"]["gpu_count"] == 16  # 2 × 8
    assert substitutions(data)["2 × DGX"] == ("2 × 8 = 16", "dgx_no_card")
    assert data["interpretation"]["unknown_model"] is None  # 'DGX' is no model's name
    assert ("A100, H100, H200, B200" in data["reply"]) or ("A100、H100、H200、B200" in data["reply"])


@pytest.mark.parametrize(
    ("question", "gpu"),
    [
        ("train a 7B on 1T tokens with 2 DGX H100 nodes", "H100-SXM5-80GB"),
        (
            "2台DGX，每台8张H100，训练 7B 1T token",
            "H100-SXM5-80GB",
        ),  # the card named elsewhere: no assumption
        ("4 DGX B200 nodes: train 70B on 2T tokens", "B200-HGX-180GB"),
    ],
)
def test_dgx_with_its_card(question: str, gpu: str) -> None:
    data = answer(question)
    assert data["request"]["gpu"] == gpu
    reasons = [s["reason"] for s in data["interpretation"]["substitutions"]]
    assert "dgx_no_card" not in reasons


@pytest.mark.parametrize(
    "question",
    [
        "one server with 8 RTX 4090 and one with 4 A100: serve Qwen2.5-32B",
        "一台服务器 8 张 4090，另一台 4 张 A100，部署 Qwen2.5-32B",
    ],
)
def test_two_machines_each_keep_their_count(question: str) -> None:
    data = answer(question)
    # the machine with more memory: 4 × 80 GB = 320 GB over 8 × 24 GB = 192 GB
    assert (data["request"]["gpu"], data["request"]["gpu_count"]) == ("A100-SXM4-80GB", 4)
    assert {"text": "8 × RTX 4090", "reason": "other_machine"} in data["interpretation"]["ignored"]
    assert "RTX 4090" in data["reply"] and "A100" in data["reply"]


def test_a_list_of_three_cards_keeps_the_third() -> None:
    first = answer("Qwen2.5-32B 推理用 A100、H100 还是 4090")["reply"].split("\n\n")[0]
    assert "A100 80G" in first and "H100 80G" in first and "RTX 4090" in first


# 3. Everyday units: a daily volume is an average rate at a named peak; '刀' is the US dollar; the memory a
#    user has is their card's.


@pytest.mark.parametrize(
    "question",
    ["serve Llama-3-8B for 8k requests per day on A100", "Llama-3-8B 部署，每天 8000 次请求，用 A100"],
)
def test_a_daily_volume_is_a_rate_at_its_peak(question: str) -> None:
    data = answer(question)
    assert data["request"]["requests_per_day"] == 8000
    # 8,000 / 86,400 s × 3 (the busiest hour, named) × 500 output tokens each
    assert data["request"]["target_tokens_per_s"] == pytest.approx(8000 / 86400 * 3 * 500)


@pytest.mark.parametrize(
    "question",
    [
        "Qwen2.5-7B 推理，4090 3 刀每小时，要多少钱",
        "H100 3 刀一小时，部署 Qwen2.5-7B 每月多少钱",
        "serve Qwen2.5-7B on H100 at $3/hr",
    ],
)
def test_a_price_per_card_hour_in_dollars(question: str) -> None:
    data = answer(question)
    assert (data["request"]["price_per_gpu_hour"], data["request"]["currency"]) == (3.0, "USD")


@pytest.mark.parametrize(
    "question",
    [
        "I've got 24GB, can I run Qwen2.5-14B?",
        "I’ve got 24GB, can I run Qwen2.5-14B?",
        "I have got 24 GB — can I run Qwen2.5-14B?",
        "我有 24G 显存，能跑 Qwen2.5-14B 吗",
    ],
)
def test_the_memory_a_user_has_is_their_card(question: str) -> None:
    data = answer(question)
    assert data["request"]["gpu_memory_gib"] == 24.0
    assert data["request"]["params_total"] == catalog.model("Qwen2.5-14B").params_total  # never a model size
    assert substitutions(data)["24G"] == ("RTX-4090", "gpu_by_memory")


@pytest.mark.parametrize(
    ("question", "field"),
    [
        ("I've got 24GB of data to fine-tune Qwen2.5-7B on", "data_size: 24 GB"),  # the clause goes on: data
        ("I've got 24GB RAM and a 4090, run Qwen2.5-14B?", "host_memory: 24 GB"),  # the host's
    ],
)
def test_got_memory_must_not_misread(question: str, field: str) -> None:
    data = answer(question)
    assert data["request"]["gpu_memory_gib"] is None
    assert field in [i["text"] for i in data["interpretation"]["ignored"]]


# 4. A stated first-token target changes the headline count when it binds.


@pytest.mark.parametrize(
    "question",
    [
        "serve Llama-3-70B on A100 at 5 requests/s with TTFT under 500 ms: how many GPUs?",
        "部署 Llama-3-70B，A100，每秒 5 个请求，首 token 500ms 内，需要几张卡",
    ],
)
def test_a_binding_first_token_target_sets_the_count(question: str) -> None:
    plain = answer(question.replace(" with TTFT under 500 ms", "").replace("首 token 500ms 内，", ""))
    p = plain["report"]["inference"]
    assert (p["recommended_gpus"], p["tp"]) == (4, 4)  # memory and load alone
    # one 4K prompt's prefill on 4 GPUs ≈ 0.53 s > 0.5 s: TP 2^ceil(log2(4 × 0.53 / 0.5)) = 8 meets it
    assert p["prefill_seconds"] > 0.5 and 2 ** math.ceil(math.log2(4 * p["prefill_seconds"] / 0.5)) == 8
    data = answer(question)
    inf = data["report"]["inference"]
    assert (inf["recommended_gpus"], inf["tp"]) == (8, 8)
    # the matmuls halve on twice the GPUs; the TP all-reduces do not (s39 fixs #1: 0.334 s in all)
    matmuls, matmuls_4 = (x["prefill_seconds"] - x["prefill_allreduce_seconds"] for x in (inf, p))
    assert matmuls == pytest.approx(matmuls_4 / 2) and inf["prefill_seconds"] <= 0.5
    assert "sets the count" in data["reply"] or "决定了卡数" in data["reply"]
    assert "your TP" not in data["reply"] and "runtime: TTFT" not in str(data["interpretation"]["ignored"])


def test_a_target_met_or_out_of_reach_keeps_the_count() -> None:
    met = answer("serve Llama-3-8B on A100, TTFT under 500 ms")["report"]["inference"]
    assert met["recommended_gpus"] == 1 and met["prefill_seconds"] < 0.5
    stated = answer("serve Llama-3-70B on 4 A100, TTFT under 500 ms")  # the user's count: said, not changed
    assert stated["report"]["inference"]["tp"] == 4
    assert "missed on 4 GPUs a copy" in stated["reply"]


# 5. One question in two languages gets one serving setup.


def test_one_question_two_languages_one_setup() -> None:
    zh = answer("Qwen2.5-32B 推理用 4090 还是 L20")
    en = answer("Qwen2.5-32B inference: 4090 or L20?")
    keys = (
        "recommended_gpus",
        "tp",
        "concurrency",
        "weights_bytes",
        "prefill_seconds",
        "decode_tokens_per_s",
    )
    assert {k: zh["report"]["inference"][k] for k in keys} == {k: en["report"]["inference"][k] for k in keys}
    drop = ("currency",)
    assert {k: v for k, v in zh["request"].items() if k not in drop} == {
        k: v for k, v in en["request"].items() if k not in drop
    }


@pytest.mark.parametrize(
    "question",
    [
        "A100 40G×8 + 80G×8 微调 Qwen2.5-14B",
        "40*8+80*8 A100 微调 Qwen2.5-14B",
        "我们有 40G*8 + 80G*8 的 A100，微调 Qwen2.5-14B",
        "full fine-tune Qwen2.5-14B on A100 40GB x8 + 80GB x8",
    ],
)
def test_one_card_in_two_memories_is_a_mixed_fleet(question: str) -> None:
    data = answer(question)
    # 8 + 8 cards sized as 16 of the least memory (an even ZeRO/TP split), the 80 GB cards named
    assert (data["request"]["gpu"], data["request"]["gpu_count"]) == ("A100-SXM4-40GB", 16)
    assert "A100 SXM4 80GB" in [i["text"] for i in data["interpretation"]["ignored"]]


def test_a_sum_of_small_counts_is_no_fleet() -> None:
    data = answer("serve Qwen2.5-7B with 2+2 A100")  # 2 and 2 are no card memories
    assert data["request"]["gpu"] == "A100-SXM4-80GB" and data["request"]["gpu_memory_gib"] is None
