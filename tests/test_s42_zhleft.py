"""Session 42 zhleft (issue 24, docs/design.md §8): stated things round 38's parts still dropped, each tested
in both languages on sentences of our own, the must-read and the must-not-misread.

1. The reply that sized nothing (an unknown model's size, the help) names every not-used item of its
   interpretation as the sized replies do (bot.render.understood.help_not_used), in every format: the JSON
   named 'A100 (40 GB)' (``card_unsized``) while the text said nothing of it.
2. A training rate of the whole cluster ('8 张 A100，每秒 3000 token', 'our 8 A100s do 3000 tokens/s'): the
   measured rate per GPU = the rate ÷ the job's GPU count (bot.parse.cluster_rate), named
   ``cluster_rate_used``; with no count it is named ``cluster_rate``, never dropped ('3000' was
   ``repeated`` or ``unread``).
4. A second card asked about beside a known model ('用 910B 训练 Qwen2.5-7B 要多久？能用 A100 40G 训练吗？'):
   a comparison row (already so on this tree: pinned here).
5. A package's version ('peft 0.12.0.', 'transformer-engine 1.13', 'foolib==1.13') is one version, never a
   figure read apart (bot.parse.written_units.SOFTWARE_VERSION_RE, VERSION_RE).
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.parse import parse
from tests.real_questions import answer_json


def _req(text: str) -> Any:
    return parse(text).request


def _ignored(text: str) -> list[tuple[str, str]]:
    items = (answer_json(text).get("interpretation") or {}).get("ignored") or []
    return [(i["text"], i["reason"]) for i in items]


def _reply(question: str, fmt: str) -> str:
    from bot.core.pipeline import answer
    from bot.render.renderer import render

    return render(answer(question), fmt)


# 1. nothing sized: the not-used items in the text, every format
@pytest.mark.parametrize("fmt", ["telegram_html", "markdown", "plain"])
@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("如果我用 910B 训练 VideoMind，训练时间大概多久？能用 NVIDIA A100 40G 训练吗？",
         "未使用：“A100 (40 GB)”"),
        ("I train FooNet on an Ascend 910B, how long will it take? Could I train it on an A100 40G instead?",
         "Not used: “A100 (40 GB)”"),
    ],
)  # fmt: skip
def test_the_help_names_the_cards_not_sized(text: str, said: str, fmt: str) -> None:
    assert said in _reply(text, fmt).replace("&quot;", "“")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("几十万条数据微调要几张卡", "未使用：“几十万”"),  # the rough amount: as before
        ("用 A100 40G 训练 FooBarNet-13X 要多久", None),  # one card, the one asked about: nothing unused
        ("How long to train FooBarNet-13X on an A100 40G?", None),
    ],
)
def test_the_help_names_only_what_was_not_used(text: str, said: str | None) -> None:
    reply = _reply(text, "plain")
    if said is None:
        assert "Not used" not in reply and "未使用" not in reply
    else:
        assert said in reply


# 5. a package's version is one version: never a figure read apart ('0.12' of 'peft 0.12.0.')
@pytest.mark.parametrize(
    "text",
    [
        "pip list: torch 2.4.0, transformers 4.45.2, peft 0.12.0. LoRA Qwen2.5-7B on one 4090: memory?",
        "Installed foolib==1.13 and vllm==0.6.3; serving Qwen2.5-7B on 2 A100s at 100 concurrent: enough?",
        "装了 foolib==1.13 和 vllm==0.6.3，用 2 张 A100 部署 Qwen2.5-7B，100 并发够吗？",
        "环境 transformer-engine 1.13，torch 2.5.1。FP8 训练 Qwen2.5-7B，8 张 H100，1B token 要多久？",
    ],
)
def test_a_package_version_is_no_figure(text: str) -> None:
    assert not [t for t, why in _ignored(text) if why == "unread"]


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("Training Qwen2.5-7B with transformers 4.45.2. 8 A100s, 1B tokens: how long?",
         "transformers_version", "4.45.2"),
        ("训练 Qwen2.5-7B，transformers==4.45.2，8 张 A100，1B token 要多久？",
         "transformers_version", "4.45.2"),
        ("装了 foolib==1.13 和 vllm==0.6.3，用 2 张 A100 部署 Qwen2.5-7B，100 并发够吗？",
         "vllm_version", "0.6.3"),
    ],
)  # fmt: skip
def test_a_version_the_estimate_uses_is_read_whole(text: str, field: str, value: str) -> None:
    assert getattr(_req(text), field) == value


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("训练 Qwen2.5-7B，transformers==4.45.2，mfu 0.4，8 张 A100，1B token 要多久？", "mfu", 0.4),
        ("Training Qwen2.5-7B at MFU 0.4 with torch 2.4.0. 8 A100s, 1B tokens: how long?", "mfu", 0.4),
        ("训练 Qwen2.5-7B，torch==2.4，8 张 A100，1B token 要多久？", "gpu_count", 8),
    ],
)  # fmt: skip
def test_a_setting_beside_a_version_stays_a_setting(text: str, field: str, value: float) -> None:
    assert getattr(_req(text), field) == pytest.approx(value, rel=0.01)


# 2. a training rate of the whole cluster: per GPU by the job's count
@pytest.mark.parametrize(
    ("text", "per_gpu"),
    [
        ("训练 Qwen2.5-7B，8 张 A100，每秒 3000 token，1B token 要多久？", 375.0),
        ("8 张 A100 每秒能跑 3000 个 token，训练 Qwen2.5-7B 的 1B token 要多久？", 375.0),
        ("Training Qwen2.5-7B on 1B tokens: our 8 A100s do 3000 tokens/s. How long?", 375.0),
        ("Pre-training a 7B model on 10B tokens with 16 H100s at a measured 32,000 tokens/s: how many days?",
         2000.0),
    ],
)  # fmt: skip
def test_a_cluster_rate_is_divided_by_its_cards(text: str, per_gpu: float) -> None:
    assert _req(text).tokens_per_second_per_gpu == per_gpu
    assert any(why == "cluster_rate_used" for _, why in _ignored(text))


@pytest.mark.parametrize(
    ("text", "per_gpu"),
    [
        ("训练 Qwen2.5-7B，每张卡每秒 3000 token，1B token 要多久？8 张 A100。", 3000.0),  # per card
        ("Training Qwen2.5-7B at 3000 tokens per second per GPU on 8 A100s: how long for 1B tokens?", 3000.0),
        ("训练 Qwen2.5-7B，每秒 3000 token，1B token 要多久？", None),  # no count: named, not divided
        ("How long to train Qwen2.5-7B on 1B tokens at 3000 tokens/s?", None),
    ],
)
def test_a_rate_per_card_or_with_no_count_is_not_divided(text: str, per_gpu: float | None) -> None:
    assert _req(text).tokens_per_second_per_gpu == per_gpu
    if per_gpu is None:
        assert [why for t, why in _ignored(text) if "3000" in t] == ["cluster_rate"]


@pytest.mark.parametrize(
    "text",
    [
        "用 vLLM 部署 Qwen2.5-7B，8 张 A100，每秒 3000 token，100 并发够吗？",  # serving: no training rate
        "Serving Qwen2.5-7B on 8 A100s at 3000 tokens/s with 100 concurrent users: enough?",
    ],
)
def test_a_serving_rate_is_no_cluster_training_rate(text: str) -> None:
    assert _req(text).tokens_per_second_per_gpu is None
    assert not [why for _, why in _ignored(text) if why.startswith("cluster_rate")]


# 4. a second card beside a known model: a comparison row
@pytest.mark.parametrize(
    ("text", "row"),
    [
        ("用 910B 训练 Qwen2.5-7B 要多久？能用 A100 40G 训练吗？", "A100 40G"),
        ("I train Qwen2.5-7B on a 910B, how long will it take? Could I train it on an A100 40G instead?",
         "A100 40G"),
    ],
)  # fmt: skip
def test_a_second_card_beside_a_known_model_is_a_row(text: str, row: str) -> None:
    reply = _reply(text, "plain")
    assert f"• {row}" in reply and "• Ascend 910B" in reply


# 3. a plain 内存 beside a catalog card: the host's RAM, or the card's own size (RTX 4090: 24 GB)
@pytest.mark.parametrize(
    ("text", "host", "card"),
    [
        ("单张 4090，内存 128G，跑 Qwen2.5-32B 要多少显存？", 128.0, None),
        ("一张 4090，内存 64GB，QLoRA 微调 Qwen2.5-32B 开 offload 够吗？", 64.0, None),  # used by the offload
        ("One RTX 4090, memory 128GB: can it serve Qwen2.5-32B?", 128.0, None),
        ("单张 4090，内存 24G，跑 Qwen2.5-7B 要多少显存？", None, 24.0),  # the card's own size
        ("4090 24G 内存，跑 Qwen2.5-7B 要多少显存？", None, 24.0),  # 内存 loosely the card's memory
        ("单张 4090，显存 24G，跑 Qwen2.5-7B 要多少显存？", None, 24.0),
        ("One RTX 4090, memory 24GB: can it serve Qwen2.5-7B?", None, 24.0),
    ],
)
def test_a_plain_memory_word_by_the_card_size(text: str, host: float | None, card: float | None) -> None:
    r = _req(text)
    assert (r.host_memory_gib, r.gpu_memory_gib) == (host, card)
    assert not [t for t, why in _ignored(text) if why == "unread"]


@pytest.mark.parametrize(
    "text",
    [
        "单张 4090，内存 128G，LoRA 微调 Qwen2.5-7B 要多少显存？",  # training, no offload: named
        "One RTX 4090, memory 128GB: LoRA fine-tune Qwen2.5-7B, how much memory?",
    ],
)
def test_host_ram_in_training_without_offload_is_named(text: str) -> None:
    assert ("host_memory: 128 GB", "no_field") in _ignored(text)


@pytest.mark.parametrize(
    "text", ["4090 内存不够，跑 Qwen2.5-32B 要几张？", "My 4090 runs out of memory on Qwen2.5-32B: how many?"]
)
def test_no_memory_size_is_nothing_read(text: str) -> None:
    r = _req(text)
    assert (r.host_memory_gib, r.gpu_memory_gib) == (None, None)


@pytest.mark.parametrize("text", ["Which GPU is best for 4K gaming?", "910B和A100哪个概念股更值得买？"])
def test_an_out_of_scope_help_names_no_cards(text: str) -> None:
    reply = _reply(text, "plain")
    assert "Not used" not in reply and "未使用" not in reply
