"""Laptop GPUs and Ti variants are their own cards (session 21, fixa items 6 and 7).

A laptop part has fewer SMs, a narrower bus and less memory than the desktop card of the same number
(NVIDIA's GeForce RTX 30 / 40 Series Laptops spec pages); before, 'RTX 4090 laptop' / '笔记本 4090' were
sized as the desktop RTX 4090 (24 GB, 1,008 GB/s) and 'RTX 3060 Ti' as the RTX 3060 12 GB. Catalog values
are checked against the spec pages' figures: bandwidth = bus width × data rate, Ada tensor rate = AI TOPS
/ 8, Ampere = SMs × top boost × 512 FLOP/clk/SM."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator import catalog


def _gpu(gpu_id: str) -> catalog.GpuSpec:
    return catalog.gpus()[gpu_id]


@pytest.mark.parametrize(
    ("gpu_id", "memory_gib", "bus_bits", "gbps", "tflops"),
    [
        ("RTX-4090-Laptop", 16, 256, 18, 686 / 8),  # 686 AI TOPS
        ("RTX-4080-Laptop", 12, 192, 18, 542 / 8),  # 542 AI TOPS
        ("RTX-4070-Laptop", 8, 128, 16, 321 / 8),  # 321 AI TOPS
        ("RTX-3080-Laptop-16GB", 16, 256, 14, 48 * 1.71 * 512 / 1000),  # 6144 CUDA cores = 48 SMs
        ("RTX-3060-Laptop", 6, 192, 14, 30 * 1.703 * 512 / 1000),  # 3840 CUDA cores = 30 SMs
        ("RTX-3060-Ti", 8, 256, 14, 38 * 1.665 * 512 / 1000),  # 4864 CUDA cores = 38 SMs
    ],
)
def test_catalog_values_follow_the_spec_pages(gpu_id, memory_gib, bus_bits, gbps, tflops):
    g = _gpu(gpu_id)
    assert g.memory_gib == memory_gib
    assert g.memory_bandwidth_gbps == bus_bits * gbps / 8
    assert g.peak_tflops_bf16 == pytest.approx(tflops, abs=0.06)
    assert g.personal and not g.nvlink and g.source


def test_laptop_parts_are_smaller_than_the_desktop_cards():
    for laptop, desktop in (("RTX-4090-Laptop", "RTX-4090"), ("RTX-3060-Laptop", "RTX-3060")):
        lap, desk = _gpu(laptop), _gpu(desktop)
        assert lap.memory_gib < desk.memory_gib
        assert lap.memory_bandwidth_gbps < desk.memory_bandwidth_gbps


def _ask(capsys, q: str) -> dict:
    assert main(["ask", "--format", "json", q]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("q", "gpu_id"),
    [
        ("Can my RTX 4090 laptop run Qwen2.5-14B?", "RTX-4090-Laptop"),
        ("笔记本 4090 能跑 Qwen2.5-14B 吗", "RTX-4090-Laptop"),
        ("4090 笔记本 能跑 Qwen2.5-14B 吗", "RTX-4090-Laptop"),
        ("我的笔记本是 RTX 4080，能跑 Qwen2.5-14B 吗", "RTX-4080-Laptop"),
        ("RTX 4070 Laptop GPU: can it run Llama 3 8B?", "RTX-4070-Laptop"),
        ("RTX 3080 laptop 16GB run llama 3 8B?", "RTX-3080-Laptop-16GB"),
        ("我的笔记本 3060 能跑 7B 吗", "RTX-3060-Laptop"),
        ("用RTX 3060 Ti跑Qwen2.5-7B推理 int4 需要几张", "RTX-3060-Ti"),
        ("Can an RTX 3060 Ti run Llama 3 8B in 4-bit?", "RTX-3060-Ti"),
        ("RTX 3060 跑 7B", "RTX-3060"),  # the base card stays the base card
        ("RTX 4090 跑 14B", "RTX-4090"),
    ],
)
def test_laptop_and_ti_cards_resolve_to_their_own_entries(capsys, q, gpu_id):
    assert _ask(capsys, q)["request"]["gpu"] == gpu_id


@pytest.mark.parametrize(
    ("q", "name"),
    [
        ("my laptop has an RTX 2070, can it run llama 3 8B?", "RTX 2070 Laptop"),
        ("笔记本 2060 能跑 7B 吗", "2060 Laptop"),  # s26-trfix4: the 3050 laptop part is now catalogued
    ],
)
def test_a_laptop_card_not_in_the_catalog_is_named_as_typed(capsys, q, name):
    """Never the desktop card of that number (the RTX 2070 desktop card is not catalogued either; the
    2060 laptop part has 6 GB against the desktop's 6–12): the interpretation names it."""
    out = _ask(capsys, q)
    assert out["interpretation"]["unknown_gpu"] == name
    assert name in out["reply"]
