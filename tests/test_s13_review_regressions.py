"""Regressions the session-13 design review found in the s12 fix merge (/work/notes/s13/review_report.md,
findings 1, 2, 3, 4, 8, 9 and 12), each asserted on the request and the numbers named as not used of
``sizing-bot ask --format json``, in both languages, with phrasings beyond the review's own sentences.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import ask


def answer(question: str) -> tuple[dict[str, Any], dict[str, str]]:
    """The ``request`` of ``sizing-bot ask --format json`` and what it names as not used ({text: reason})."""
    data = json.loads(ask(question, None, "json")[0])
    ignored = {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}
    return data["request"], ignored


# Finding 1: a switch word never swaps the model asked about for one the user drops or compares with.
@pytest.mark.parametrize(
    ("text", "model", "other"),
    [
        ("Serve Llama-3-70B instead of Qwen2.5-72B on H100s for 50 users", "Llama-3-70B", "Qwen2.5-72B"),
        (
            "Use Llama-3-8B instead of Qwen2.5-7B: LoRA on one 4090, how long for 100M tokens?",
            "Llama-3-8B",
            "Qwen2.5-7B",
        ),
        (
            "We need Llama-3-70B now, not Qwen2.5-72B. How many H100 for 50 users?",
            "Llama-3-70B",
            "Qwen2.5-72B",
        ),
        (
            "LoRA Qwen2.5-7B on one A100 now, not Llama-3-8B: how long for 200M tokens?",
            "Qwen2.5-7B",
            "Llama-3-8B",
        ),
        ("部署 Qwen2.5-72B，100 并发，现在需要几张 H100？跟 Llama-3-70B 比呢", "Qwen2.5-72B", "Llama-3-70B"),
        ("部署 Qwen2.5-14B，30 并发，现在要几张 L40S？Llama-3-8B 的话呢", "Qwen2.5-14B", "Llama-3-8B"),
        (
            "全参微调 Qwen2.5-7B，8 张 A100，要多久？改成 LoRA 的话 Llama-3-8B 也行吗",
            "Qwen2.5-7B",
            "Llama-3-8B",
        ),
        ("这次不用 Qwen2.5-72B，用 Llama-3-70B，50 并发要几张 H100？", "Llama-3-70B", "Qwen2.5-72B"),
        ("部署 Llama-3-70B 而不是 Qwen2.5-72B，50 并发要几张 H100？", "Llama-3-70B", "Qwen2.5-72B"),
        # what switches still does
        (
            "We trained Llama-3-8B last week; now we need Llama-3-70B. How many H100 to LoRA it?",
            "Llama-3-70B",
            "Llama-3-8B",
        ),
        (
            "Right now we serve Qwen2.5-7B on one L40S; what about Qwen2.5-14B for 30 users?",
            "Qwen2.5-14B",
            "Qwen2.5-7B",
        ),
        (
            "We run Qwen2.5-7B on two 4090s. Use Llama-3-8B instead — how many 4090s for 20 users?",
            "Llama-3-8B",
            "Qwen2.5-7B",
        ),
        ("之前 2 张 4090 跑 Qwen2.5-7B，现在要上 Qwen2.5-14B，要几张？", "Qwen2.5-14B", "Qwen2.5-7B"),
        ("Qwen2.5-7B 跑通了，现在想换成 Qwen2.5-72B，部署要几张 A100？", "Qwen2.5-72B", "Qwen2.5-7B"),
    ],
)
def test_a_switch_word_keeps_the_model_asked_about(text: str, model: str, other: str) -> None:
    request, ignored = answer(text)
    assert request["model"] == model
    assert ignored[f"model: {other}"] == "other_setup"


# Finding 2: a throughput a benchmark or a run reported is what was measured, never the serving target.
@pytest.mark.parametrize(
    ("text", "rate", "load"),
    [
        (
            "Llama-3-8B 单卡 L40S 压测结果 900 tokens/s（16 并发）。预计 100 并发，要几张？",
            "900 tokens/s",
            100,
        ),
        ("Llama-3-8B on one L40S gave us 900 tokens/s. How many L40S for 100 users?", "900 tokens/s", 100),
        (
            "Our vLLM benchmark reported 1500 tokens/s on one H100 for Llama-3-70B FP8. We expect 40 users; "
            "how many H100?",
            "1500 tokens/s",
            40,
        ),
        ("Llama-3-8B 单卡 L40S 测出来 900 tokens/s，100 并发要几张？", "900 tokens/s", 100),
        (
            "Benchmarking Qwen2.5-7B on one A10 showed 600 tokens/s; how many A10 for 50 users?",
            "600 tokens/s",
            50,
        ),
        ("单卡 A10 部署 Qwen2.5-7B 跑出来 600 tokens/s，50 个用户要几张 A10？", "600 tokens/s", 50),
    ],
)
def test_a_benchmarked_rate_is_observed_not_the_target(text: str, rate: str, load: int) -> None:
    request, ignored = answer(text)
    assert request["target_tokens_per_s"] is None
    assert request["concurrency"] == load
    assert ignored[rate] == "observed"


@pytest.mark.parametrize(
    "text",
    [
        "The service must hit 2000 tokens/s with Llama-3-8B on L40S, how many?",
        "We need 2000 tokens/s for Llama-3-8B; how many L40S?",
        "部署 Llama-3-8B，吞吐要达到 2000 tokens/s，要几张 L40S？",
    ],
)
def test_a_wanted_rate_stays_the_target(text: str) -> None:
    request, ignored = answer(text)
    assert request["target_tokens_per_s"] == 2000
    assert "2000" not in ignored


# Finding 3: '需要' / '要求' in a colleague's or an earlier run's clause does not make it the job.
@pytest.mark.parametrize(
    "text",
    [
        "同事之前全参微调 7B 需要 4 张 A100，我想用 H100 全参微调 Qwen2.5-14B，要几张？",
        "同事之前全参微调 7B 要求 4 张 A100，我想用 H100 全参微调 Qwen2.5-14B，要几张？",
        "同事的 7B 全参微调需要 4 张 A100 才跑得动。我打算在 H100 上全参微调 Qwen2.5-14B，需要几张？",
    ],
)
def test_a_colleagues_need_is_not_the_job(text: str) -> None:
    request, ignored = answer(text)
    assert (request["gpu"], request["gpu_count"], request["count_asked"]) == ("H100-SXM5-80GB", None, True)
    assert ignored["4 × NVIDIA A100 SXM4 80GB"] == "other_setup"


@pytest.mark.parametrize(
    "text",
    [
        "部署 Qwen2.5-32B，吞吐要求 5000 tokens/s，用 L20 要几张？",
        "部署 Qwen2.5-32B 需要每秒 5000 token，用 L20 要几张？",
    ],
)
def test_a_required_rate_is_still_the_target(text: str) -> None:
    request, _ = answer(text)
    assert (request["target_tokens_per_s"], request["gpu"]) == (5000, "L20")


# Finding 4: '最后' / 'last' before a model size is no long-context phase of a pre-training run.
@pytest.mark.parametrize(
    "text",
    [
        "最后 70B 用 32k 上下文部署，100 并发要几张 H100？",
        "In the end we serve the last 70B at 32k context for 100 users, how many H100?",
        "最后 70B 用 32k 上下文做 LoRA 微调，8 张 A100 要多久？1 亿 token",
    ],
)
def test_a_model_size_after_last_is_the_model(text: str) -> None:
    request, ignored = answer(text)
    assert (request["params_total"], request["seq_len"]) == (7e10, 32768)
    assert "no_field" not in ignored.values()


# Finding 8: slots for cards are no llama.cpp load; their number is named, never dropped. Session 14
# (trial #5): named as the machine's limit on the count (``card_slots``), the count needed sized.
@pytest.mark.parametrize(
    ("text", "load", "slots"),
    [
        (
            "Serve Qwen2.5-7B with vLLM for 20 users; my workstation has 4 slots for GPUs — how many 4090s?",
            20,
            "4 slots",
        ),
        ("部署 Qwen2.5-14B 推理，30 个用户同时用，主板有 4 个槽位，能插几张 4090？", 30, "4 个槽位"),
        ("Serve Llama-3-8B with SGLang for 12 users; the chassis has 4 slots, how many L40S?", 12, "4 slots"),
        ("用 vLLM 部署 Qwen2.5-7B，15 个并发，机器只有 4 个 PCIe 槽位，要几张 4090？", 15, "4 个 pcie 槽位"),
    ],
)
def test_card_slots_are_named_not_dropped(text: str, load: int, slots: str) -> None:
    request, ignored = answer(text)
    assert (request["concurrency"], request["gpu_count"]) == (load, None)
    assert ignored[slots] == "card_slots"


def test_parallel_slots_are_still_the_load() -> None:
    request, ignored = answer("Serve Qwen2.5-7B on one 4090, 4 parallel slots, 8k context")
    assert (request["concurrency"], request["seq_len"]) == (4, 8192)
    assert ignored == {}


# Finding 9: a setting taken back is anchored on its own number, whatever precedes it.
@pytest.mark.parametrize(
    ("text", "gpu", "count", "taken_back"),
    [
        ("Serve Llama-3-8B on 2 L40S, sorry, 4 L40S, for 50 users", "L40S", 4, "2 l40s"),
        ("Serve Llama-3-8B for 50 users on 2 L40S, I mean, 4 L40S", "L40S", 4, "2 l40s"),
        ("全参微调 Qwen2.5-7B 用 4 张 A100，不对，8 张 H100，要多久", "H100-SXM5-80GB", 8, "4 张 a100"),
        ("部署 Qwen2.5-14B 用 2 张 L40S，说错了，4 张 A100，50 并发够吗？", "A100-SXM4-80GB", 4, "2 张 l40s"),
        (
            "LoRA Qwen2.5-7B on one 4090, sorry, on two 4090s, 100M tokens: how long?",
            "RTX-4090",
            2,
            "one 4090",
        ),
        (
            "Fine-tune Qwen2.5-7B, 1B tokens, on 8 H100 (no wait, 8 A100), how long?",
            "A100-SXM4-80GB",
            8,
            "8 h100",
        ),
    ],
)
def test_a_setting_taken_back_after_any_word(text: str, gpu: str, count: int, taken_back: str) -> None:
    request, ignored = answer(text)
    assert (request["gpu"], request["gpu_count"]) == (gpu, count)
    assert ignored[taken_back] == "replaced_by_later_value"  # the user changed it (was other_setup)


def test_sorry_without_a_setting_takes_nothing_back() -> None:
    request, ignored = answer("Sorry, I'm new here: how many A100 to full fine-tune Qwen2.5-7B on 1B tokens?")
    assert (request["model"], request["tokens"]) == ("Qwen2.5-7B", 1e9)
    assert ignored == {}


# Finding 12 (recompute): a negation after the word, or 'don't need to enable', turns recompute off.
@pytest.mark.parametrize(
    "tail",
    [
        "; we don't need to enable gradient checkpointing",
        ", gradient checkpointing not needed",
        ", gradient checkpointing is unnecessary here",
        "; no need to turn on activation checkpointing",
        "，重计算就不开了",
        "，不想开重计算",
        "，梯度检查点也不用了",
        "，不打算用梯度检查点",
    ],
)
def test_recompute_said_off_is_none(tail: str) -> None:
    head = (
        "全参微调 Qwen2.5-7B，8 张 A100，4096 长度"
        if tail.startswith("，")
        else "Full fine-tune Qwen2.5-7B on 8 A100, seq 4096"
    )
    request, _ = answer(head + tail)
    assert request["recompute"] == "none"


@pytest.mark.parametrize(
    "text",
    [
        "Full fine-tune Qwen2.5-7B on 8 A100, seq 4096, with gradient checkpointing",
        "全参微调 Qwen2.5-7B，8 张 A100，开重计算",
    ],
)
def test_recompute_said_on_is_full(text: str) -> None:
    assert answer(text)[0]["recompute"] == "full"


# Finding 12 (earlier setting): a bracket that dates a value to an earlier setup keeps it out of the job.
@pytest.mark.parametrize(
    ("text", "earlier"),
    [
        (
            "LoRA Qwen2.5-7B on 2 A100, max_seq_length 8192 (was max_seq_length 2048 before)",
            "max_seq_length 2048",
        ),
        (
            "LoRA Qwen2.5-7B on 2 A100, cutoff_len 8192 (previously cutoff_len 4096), how much memory?",
            "cutoff_len 4096",
        ),
        (
            "LoRA 微调 Qwen2.5-7B，2 张 A100，cutoff_len 8192（之前 cutoff_len 2048），显存够吗？",
            "cutoff_len 2048",
        ),
    ],
)
def test_a_bracketed_earlier_length_is_other_setup(text: str, earlier: str) -> None:
    request, ignored = answer(text)
    assert request["seq_len"] == 8192
    assert ignored[earlier] == "other_setup"


# Finding 12 (load change): a load named before its change, its number last, is the load asked about.
@pytest.mark.parametrize(
    ("text", "load"),
    [
        ("Qwen2.5-7B 两张 4090，我们想把并发提升到 80，要几张？", 80),
        ("Qwen2.5-7B 部署，用户想扩到 80 个，要几张 4090？", 80),
        ("部署 Llama-3-8B，并发数要增加到 64，需要几张 L40S？", 64),
        ("Llama-3-8B on one L40S; we want to scale up to 200 concurrent requests. How many L40S?", 200),
    ],
)
def test_a_load_changed_to_a_number_is_the_load(text: str, load: int) -> None:
    request, ignored = answer(text)
    assert request["concurrency"] == load
    assert str(load) not in ignored


@pytest.mark.parametrize(
    "text",
    [
        "Llama-3-8B on one L40S: 900 tokens/s at 16 users. We expect 100 users; how many L40S?",
        "Llama-3-8B 单卡 L40S：900 tokens/s（16 并发）。预计 100 并发，要几张？",
    ],
)
def test_a_rate_at_another_load_is_observed(text: str) -> None:
    """The rate said at a load (16 users) while the question states another (100): what 16 users gave."""
    request, ignored = answer(text)
    assert request["target_tokens_per_s"] is None
    assert ignored["900 tokens/s"] == "observed"


def test_a_rate_at_the_only_load_stays_the_target() -> None:
    request, _ = answer("Serve Llama-3-8B: 2000 tokens/s at 50 users. How many L40S?")
    assert (request["target_tokens_per_s"], request["concurrency"]) == (2000, 50)
