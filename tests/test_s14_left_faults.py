"""Faults other session-14 parts found and left (issue 24, /work/notes/s14/p_left.md), each asserted on
``sizing-bot ask --format json`` — the request, the model sized, what is named as not used and the
substitutions — in both languages, with sentences of our own beyond the ones seen."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from bot.cli import ask


def answer(question: str) -> dict[str, Any]:
    """The JSON answer of ``sizing-bot ask``."""
    return json.loads(ask(question, None, "json")[0])


def ignored(data: dict[str, Any]) -> dict[str, str]:
    """What the answer names as not used: {text: reason}."""
    return {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}


def substitutions(data: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """The answer's substitutions: {typed: (used, reason)}."""
    return {s["typed"]: (s["used"], s["reason"]) for s in data["interpretation"]["substitutions"]}


def param_count(data: dict[str, Any]) -> float:
    return next(a["value"] for a in data["assumptions"] if a["field"] == "params_total")


# 1. A VL release is its language model (catalog) plus a vision encoder: the LLM is sized and the reply
# says so; an '-A22B' suffix is the active size of the MoE (Qwen3-235B-A22B: 128 experts, top-8).
@pytest.mark.parametrize(
    ("text", "typed", "model"),
    [
        (
            "How many H100s to fine-tune Qwen3-VL-235B-A22B with LoRA?",
            "Qwen3-VL-235B-A22B",
            "Qwen3-235B-A22B",
        ),
        ("Qwen3-VL-30B-A3B 用 4 张 A100 推理，32 并发够吗", "Qwen3-VL-30B-A3B", "Qwen3-30B-A3B"),
        # s38: Qwen2.5-VL-72B and Qwen2-VL-7B are catalog entries now (tests/test_s38_left.py): releases
        # the catalog still lacks keep this reading
        ("Serve Qwen2.5-VL-32B-Instruct on A100s for 20 users", "Qwen2.5-VL-32B-Instruct", "Qwen2.5-32B"),
        ("Qwen3-VL-8B 全参微调要几张 4090", "Qwen3-VL-8B", "Qwen3-8B"),
        ("Serve the Qwen-2.5-72B vision-language model on A100s", "Qwen-2.5-72B", "Qwen2.5-72B"),
        ("部署 Qwen2.5-72B 多模态版，要几张 A100", "Qwen2.5-72B", "Qwen2.5-72B"),
    ],
)
def test_vision_language_model_sizes_its_llm_and_says_so(text: str, typed: str, model: str) -> None:
    data = answer(text)
    assert data["request"]["model"] == model
    assert substitutions(data)[typed] == (model, "vision_language_llm")
    assert "vision" in data["reply"] or "视觉" in data["reply"]
    assert data["interpretation"]["unknown_model"] is None


def test_vl_moe_is_sized_with_its_active_size() -> None:
    data = answer("How many H100s to fine-tune Qwen3-VL-235B-A22B with LoRA?")
    assert data["request"]["model"] == "Qwen3-235B-A22B"  # Qwen3 model card: 235B total, 22B activated
    assert (data["request"]["params_total"], data["request"]["params_active"]) == (235e9, 22e9)
    assert "generic" not in data["reply"]


def test_unknown_vl_llm_stays_named_as_typed() -> None:
    """A VL release whose language model the catalog lacks is never swapped for another model."""
    data = answer("Serve FooLM-VL-13B on one A100")
    assert data["request"]["model"] is None
    assert data["request"]["params_total"] == 13e9


# 2. Words before a size ('this time', 'now', '这次', '然后') are not a model's name.
@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("we did 7B last month, this time 13B, how many A100 to train on 1B tokens", 13e9),
        ("ok, next round 70B: how many A100 to serve it for 10 users?", 70e9),
        ("Again 34B, LoRA on A100s, how many?", 34e9),
        ("这次 13B，训练 1B tokens 要几张 A100", 13e9),
        ("然后 7B 呢，用 A100 推理要几张", 7e9),
    ],
)
def test_time_words_are_not_a_model_name(text: str, size: float) -> None:
    data = answer(text)
    assert data["request"]["params_total"] == size
    assert data["interpretation"]["unknown_model"] is None


# 3. People on a team are no serving load on a training question: named, never concurrency.
@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Pre-train a 7B on 100B tokens on 8 A100, 4 people on the team", "4 people on the team"),
        ("we're a team of 3, how many A100 to fine-tune 7B with LoRA", "a team of 3"),
        ("Our team is 5 engineers; full fine-tune Llama-3-8B on H100s, how long for 1B tokens?", None),
        ("团队 4 个人，预训练 7B 100B tokens 用 8 张 A100 要多久", "团队 4 个人"),
        ("我们组 3 个人，LoRA 微调 Qwen2.5-7B 要几张 4090", "我们组 3 个人"),
    ],
)
def test_team_size_is_no_concurrency(text: str, named: str | None) -> None:
    data = answer(text)
    assert data["request"]["concurrency"] is None
    assert "team_size" in ignored(data).values()
    if named:
        assert ignored(data)[named] == "team_size"


# 4. Hours a day are a schedule, not the run's duration.
@pytest.mark.parametrize(
    ("text", "named", "reason"),
    [
        ("Fine-tune a 7B with LoRA on 8 A100, we work 8 hours a day", "8 hours a day", "daily_schedule"),
        # s21 (issue 24 item 4): a timed run on stated GPUs turns its days into calendar days
        (
            "Pre-train 1B on 20B tokens with 8 H100, running 10 hrs per day, how many days?",
            "10 hrs per day",
            "daily_schedule_calendar",
        ),
        ("每天 8 小时，用 8 张 A100 LoRA 微调 7B 要多少钱", "每天 8 小时", "daily_schedule"),
        ("一天只跑 6 个小时，4 张 4090 微调 Qwen2.5-7B 要多久", "一天只跑 6 个小时", "daily_schedule"),
    ],
)
def test_daily_hours_are_no_duration(text: str, named: str, reason: str) -> None:
    data = answer(text)
    assert data["request"]["hours"] is None
    assert ignored(data)[named] == reason


def test_a_run_of_hours_is_still_its_duration() -> None:
    data = answer("8 张 A100 跑了 36 小时，花了多少钱")
    assert data["request"]["hours"] == 36


# 6. 'LLaMA 30B' is Meta's LLaMA-33B (32.5B parameters, Touvron et al. 2023 Table 2): said in the reply.
@pytest.mark.parametrize(
    "text", ["train llama 30b on 8 A100 for 10B tokens", "LLaMA-30B 全参微调要几张 A100"]
)
def test_llama_30b_alias_is_named(text: str) -> None:
    data = answer(text)
    assert data["request"]["model"] == "LLaMA-33B"
    assert param_count(data) == 32.5e9
    used, why = next(iter(substitutions(data).values()))
    assert (used, why) == ("LLaMA-33B", "model_alias")
    assert "32.5B" in data["reply"]


def test_llama_33b_needs_no_alias() -> None:
    data = answer("train llama 33b on 8 A100 for 10B tokens")
    assert not any(r == "model_alias" for _u, r in substitutions(data).values())


LMDEPLOY = "lmdeploy serve api_server Qwen/Qwen2.5-72B-Instruct --tp 4"


# 5. A card named with its memory beside a launcher's TP is not one card: the world size is the count.
@pytest.mark.parametrize(
    ("text", "count"),
    [
        (
            f"{LMDEPLOY} --session-len 8192，在 A100 80G 上能跑多少并发？",
            4,
        ),
        (
            f"{LMDEPLOY} on an A100 80G, how many concurrent users?",
            4,
        ),
        (
            "vllm serve meta-llama/Llama-3.1-70B --tensor-parallel-size 2 on an H100, 32 concurrent: speed?",
            2,
        ),
        ("Qwen2.5-72B --tp 4 在 A100 80G 上能跑多少并发", 4),
    ],
)
def test_world_size_is_the_count_beside_a_named_card(text: str, count: int) -> None:
    data = answer(text)
    assert data["request"]["gpu_count"] == count
    assert data["request"]["tp"] == count
    assert not ignored(data)  # neither the TP nor an invented 'gpu_count: 1' named as not used


def test_one_card_said_in_words_stays_one() -> None:
    data = answer(
        "lmdeploy serve api_server Qwen/Qwen2.5-72B-Instruct --tp 4 on one A100 80G, how many users?"
    )
    assert data["request"]["gpu_count"] == 1
    assert ignored(data)["tp: 4"] == "more_than_gpus"


# 7. A monitor's per-card "total" (nvidia-smi: '0MiB / 24564MiB' per row) is each card's memory.
@pytest.mark.parametrize(
    ("text", "count", "memory"),
    [
        ("Both cards show 23.6 GiB total in nvidia-smi; can I LoRA fine-tune Qwen2.5-14B on them?", 2, 23.6),
        (
            "nvidia-smi shows 79.2 GiB total on each of my 4 cards: how many concurrent for Llama-3-70B?",
            4,
            79.2,
        ),
        ("两张卡都显示 23.6 GiB total，能 LoRA 微调 Qwen2.5-14B 吗", 2, 23.6),
    ],
)
def test_shown_total_is_each_cards_memory(text: str, count: int, memory: float) -> None:
    data = answer(text)
    assert (data["request"]["gpu_count"], data["request"]["gpu_memory_gib"]) == (count, memory)
    assert data["request"]["total_memory_gib"] is None


def test_a_total_said_of_the_cards_is_still_their_sum() -> None:
    data = answer("I have 4 GPUs with 96 GB total, serve Qwen2.5-32B")
    assert (data["request"]["gpu_count"], data["request"]["gpu_memory_gib"]) == (4, 24)


# 8. A second model named by its family and tags, no size, is named as another model not sized.
@pytest.mark.parametrize(
    ("text", "model", "other"),
    [
        (
            "LoRA fine-tune MiniCPM-2B and then MiniCPM-dpo-Int4, on one 4090",
            "MiniCPM-2B",
            "MiniCPM-dpo-Int4",
        ),
        ("MiniCPM-dpo-Int4 and MiniCPM-2B: LoRA on one 4090?", "MiniCPM-2B", "MiniCPM-dpo-Int4"),
        ("部署 Qwen2.5-7B 和 MiniCPM-dpo-Int4 要几张 4090", "Qwen2.5-7B", "MiniCPM-dpo-Int4"),
    ],
)
def test_second_tagged_family_is_named(text: str, model: str, other: str) -> None:
    data = answer(text)
    assert data["request"]["model"] == model
    assert ignored(data)[f"model: {other}"] == "other_setup"


def test_tool_named_after_a_family_is_no_model() -> None:
    data = answer("fine-tune Qwen2.5-7B with LLaMA-Factory on one 4090")
    assert data["request"]["model"] == "Qwen2.5-7B"
    assert not any(t.startswith("model:") for t in ignored(data))


# 9. A 'how many GPUs' headline's GPU-hours and days agree: the fewest GPUs that fit by recomputing the
# activations spend (k + 2) / k the compute (LoRA: k = 4, ×1.5; Korthikanti et al. 2022 §5).
# s20-fxa: the question was Qwen2.5-72B LoRA on A100 80G, whose 2 GPUs hold 99 % recomputing; since s20 #6
# (estimator.comfortable_count) that borderline count gives way to the 4 recommended (648 GPU-hours,
# 6.7 days, cheaper than 2 GPUs' 971), see the test below. Qwen2.5-32B on A100 40G keeps the recomputing
# count: 2 GPUs at 87 % (under the 90 % HEADROOM), 290 × 1.5 = 435 GPU-hours, 435 / 48 = 9 days.
@pytest.mark.parametrize(
    "text",
    [
        "How many A100 40GB to LoRA fine-tune Qwen2.5-32B on 1B tokens in 3 weeks?",
        "LoRA 微调 Qwen2.5-32B，10 亿 token，三周内，需要几张 A100 40G？",
    ],
)
def test_headline_hours_and_days_agree_when_recomputing(text: str) -> None:
    data = answer(text)
    report = data["report"]
    assert report["gpus_for_deadline"] == 2
    row = next(r for r in report["days_table"] if r["gpus"] == 2)
    shown = math.ceil(report["gpu_hours"]["likely"])  # 290
    assert shown == 290
    assert row["likely"] == pytest.approx(report["gpu_hours"]["likely"] * 1.5 / 48)  # 9 days
    head = data["reply"].splitlines()[0]
    # 435 GPU-hours on the 2 GPUs (289.x × 1.5, billed whole): 435 / 48 = 9 days. s15 (review MEDIUM 5):
    # the estimator gives them, and the cost line bills them too
    paid = f"{math.ceil(report['gpu_hours']['likely'] * 1.5):,}"
    assert paid == "435"
    # s40-fixh #3: one figure — the headline names the factor as included, not the count-free 290
    assert paid in head and " 9 " in head and "1.5" in head and f"{shown:,}" not in head
    assert f"GPU-hours: {paid} " in data["reply"] or f"GPU 时长：{paid} " in data["reply"]
    assert row["cost"]["billed_gpu_hours"] == math.ceil(report["gpu_hours"]["likely"] * 1.5)


def test_a_borderline_recomputing_count_gives_way_in_the_headline() -> None:
    """s20 #6: Qwen2.5-72B LoRA, 1B tokens, 3 weeks, A100 80G. 2 GPUs fit only at 99 % recomputing
    (971 GPU-hours, 20 days); the 4 recommended keep the activations: 648 GPU-hours in 6.7 days."""
    data = answer("How many A100 to LoRA fine-tune Qwen2.5-72B on 1B tokens in 3 weeks?")
    report = data["report"]
    assert report["gpus_for_deadline"] == 4
    two = next(r for r in report["days_table"] if r["gpus"] == 2)
    assert two["cost"]["billed_gpu_hours"] == 971  # the 2-GPU row still pays its recompute
    head = data["reply"].splitlines()[0]
    assert "648 A100-hours: about 4 GPUs for 6.7 days" in head and "recompute" not in head


def test_headline_without_recompute_is_unchanged() -> None:
    data = answer("How many A100 to fully fine-tune Qwen2.5-7B on 2B tokens in 3 weeks?")
    head = data["reply"].splitlines()[0]
    gh = math.ceil(data["report"]["gpu_hours"]["likely"])
    assert f"{gh:,} A100-hours: about 2 GPUs for {gh / 48:.2g} days" in head
    assert "recompute" not in head


def test_vl_release_in_a_command_is_said() -> None:
    data = answer(
        "一张 H100 上 lmdeploy serve api_server Qwen2.5-VL-7B-Instruct --tp 1 --session-len 32768 多少并发"
    )
    assert data["request"]["model"] == "Qwen2.5-VL-7B"  # s31: the release itself, its vision tower counted
    assert "Qwen2.5-VL-7B-Instruct" not in substitutions(data)


def test_vl_release_keeps_its_quantization() -> None:
    """'-AWQ' after a VL name is the weights' format (4-bit), read as for the plain LLM's name."""
    data = answer("Qwen2.5-VL-72B-AWQ on 2 A100 40G, 10 concurrent?")  # s38: the VL release is in the catalog
    assert (data["request"]["model"], data["request"]["precision"]) == ("Qwen2.5-VL-72B", "int4")
    data = answer("Qwen2.5-VL-32B-AWQ on 2 A100 40G, 10 concurrent?")  # not in the catalog: its LLM
    assert (data["request"]["model"], data["request"]["precision"]) == ("Qwen2.5-32B", "int4")
