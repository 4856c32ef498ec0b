"""Session 43 trial serving leftovers (issue 24 items 3, 4; notes s43 fixserve2).

Real values:
- NVIDIA A800 40GB Active datasheet: 40 GB HBM2 at 1,555 GB/s, PCIe Gen4 (the 80 GB SXM card: 2,039 GB/s,
  NVIDIA A800 datasheet); NVIDIA Tesla P100 PCIe datasheet: 16 GB at 732 GB/s or 12 GB at 549 GB/s.
"""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json


def _hardware(text: str) -> tuple[str, float, float]:
    hw = answer_json(text)["report"]["hardware"]
    return hw["id"], hw["memory_gib"], hw["memory_bandwidth_gbps"]


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("serve Llama-3-8B on one A800 40G, 32 concurrent", ("A800-PCIe-40GB", 40.0, 1555.0)),
        ("用一张 A800 40G 部署 Llama-3-8B，32 并发", ("A800-PCIe-40GB", 40.0, 1555.0)),
        ("一张显存 40G 的 A800 部署 Llama-3-8B，32 并发", ("A800-PCIe-40GB", 40.0, 1555.0)),
        ("run Qwen2.5-7B on a P100 12G", ("Tesla-P100-PCIe-12GB", 12.0, 549.0)),
        ("用 P100 12G 跑 Qwen2.5-7B", ("Tesla-P100-PCIe-12GB", 12.0, 549.0)),
    ],
)
def test_a_stated_memory_takes_that_variants_bandwidth(text: str, card: tuple[str, float, float]) -> None:
    assert _hardware(text) == card


@pytest.mark.parametrize(
    ("text", "card"),
    [  # the same family said without the smaller memory keeps the catalog's default card
        ("serve Llama-3-8B on one A800, 32 concurrent", ("A800-80GB", 80.0, 2039.0)),
        ("用一张 A800 80G 部署 Llama-3-8B，32 并发", ("A800-80GB", 80.0, 2039.0)),
        ("run Qwen2.5-7B on a P100", ("Tesla-P100-PCIe-16GB", 16.0, 732.0)),
        ("用 P100 16G 跑 Qwen2.5-7B", ("Tesla-P100-PCIe-16GB", 16.0, 732.0)),
    ],
)
def test_the_default_variant_keeps_its_bandwidth(text: str, card: tuple[str, float, float]) -> None:
    assert _hardware(text) == card


def test_the_40g_a800_decodes_slower_than_the_80g_one() -> None:
    def decode(text: str) -> float:
        return answer_json(text)["report"]["inference"]["decode_tokens_per_s"]["per_sequence"]

    small, large = (
        decode("serve Llama-3-8B on one A800 40G, 32 concurrent"),
        decode("serve Llama-3-8B on one A800 80G, 32 concurrent"),
    )
    assert 0.70 < small / large < 0.82  # 1,555 / 2,039 = 0.76 for a memory-bound decode
