"""Session 30 fix a: defects a fresh-user trial found (own sentences, both languages)."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.parse import parse
from bot.render.renderer import render


@pytest.mark.parametrize(
    "text, ceiling, load",
    [
        ("Qwen2.5-14B 每卡约 30 个并发，要撑 120 并发需要几张 L40S", "30", 120),
        ("Llama-3.1-8B 每卡 25 并发，300 并发要几张 A10", "25", 300),
        ("Qwen2.5-14B 单卡 30 路并发，要撑 120 路并发需要几张 L40S", "30", 120),
        ("Qwen2.5-14B: 40 concurrent per L40S, how many L40S for 200 concurrent?", "40", 200),
        ("Llama-3.1-8B at 25 concurrent users per card, how many A10 for 300 concurrent users?", "25", 300),
    ],
)
def test_short_per_card_ceiling_is_set_aside(text: str, ceiling: str, load: int) -> None:
    p = parse(text)
    assert p.request.concurrency == load
    assert (ceiling, "per_card_load") in p.unused_numbers
    assert p.request.gpu_count is None


def test_one_card_said_with_short_ceiling_is_not_the_count() -> None:
    p = parse("Qwen2.5-14B 单卡 40 并发，200 并发要几张 L40S")
    assert p.request.gpu_count is None and p.request.concurrency == 200
    assert ("40", "per_card_load") in p.unused_numbers


@pytest.mark.parametrize(
    "text",
    [
        "混元 Foo-A13B 部署 50 并发要几张 H100",
        "serve Barlm-A22B on H100, how many GPUs?",
        "Bazlm_A7B 推理要几张 4090",
    ],
)
def test_active_tag_alone_is_not_a_total(text: str) -> None:
    # 'A13B' is an active count: never the 3B of its tail, never a dense 13B
    p = parse(text)
    assert p.unknown_model is not None and p.unknown_model.lower().endswith(("a13b", "a22b", "a7b"))
    assert p.request.params_total is None


@pytest.mark.parametrize(
    "text, total, active",
    [
        ("Foo-A13B，总参数 80B，部署 50 并发要几张 H100", 80e9, 13e9),
        ("serve Barlm-A22B (235B total) on H100, how many GPUs?", 235e9, 22e9),
        ("FooLM-120B-A12B 推理要几张 H100", 120e9, 12e9),
        ("Qwen3-30B-A3B 推理要几张 H100", 30e9, 3e9),
    ],
)
def test_active_tag_with_total(text: str, total: float, active: float) -> None:
    p = parse(text)
    assert (p.request.params_total, p.request.params_active) == (total, active)


@pytest.mark.parametrize(
    "text, shape, said",
    [
        ("FooLM-120B-A12B 推理要几张 H100", "moe-120B-A12B", "通用 MoE 结构，总参数 120B，激活 12B"),
        ("Barlm-200B-A20B inference, how many H100?", "moe-200B-A20B", "generic MoE, 200B total, 20B active"),
    ],
)
def test_unknown_moe_name_is_a_generic_moe(text: str, shape: str, said: str) -> None:
    # weights by the total, the generic shape of the active size for the rest; said as an MoE, not dense
    a = answer(text)
    assert a.report is not None and a.report.request.params_total == float(shape.split("-")[1][:-1]) * 1e9
    arch = next(x for x in a.report.assumptions if x.field == "architecture")
    assert arch.value == shape
    out = render(a)
    assert said in out and "稠密结构 " not in out and "generic dense" not in out


@pytest.mark.parametrize(
    "text, tokens",
    [
        ("Qwen2.5-32B 推理 2张H100 & 16k", 16384),
        ("Qwen2.5-32B 部署 2张H100，64k", 65536),
        ("serve Qwen2.5-32B on 2 H100 + 16k", 16384),
        ("serve Qwen2.5-32B on 2 H100 / 64k", 65536),
    ],
)
def test_bare_k_length_beside_serving_is_the_context(text: str, tokens: int) -> None:
    p = parse(text)
    assert p.request.seq_len == tokens
    assert not [u for u in p.unused_numbers if u[1] == "unread"]
