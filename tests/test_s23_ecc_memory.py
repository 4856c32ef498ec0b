"""GDDR datacenter cards run with ECC on by default and expose less than their marketing GB to CUDA: the
memory.total nvidia-smi reports (s22 trial #3). Sources: modal-labs/modal-client PR #2797 (A10 23028 MiB,
L40S 46068, L4 23034), akash-network/provider-configs PR #99 (L40S 46068 MiB), NVIDIA/DCGM #232 (A10G
23028 MiB), chatdoc-com/OCRFlux #64 (A40 46068 MiB). HBM cards (A100: 81920 MiB) are unchanged."""

from __future__ import annotations

import pytest

from estimator.catalog import gpus
from estimator.runtimes.base import visible_bytes
from tests.cli_run import ask_quietly


@pytest.mark.parametrize(
    ("gpu", "mib"), [("L40S", 46068), ("A40", 46068), ("L4", 23034), ("A10", 23028), ("A10G", 23028)]
)
def test_ecc_cards_expose_their_nvidia_smi_total(gpu: str, mib: int) -> None:
    spec = gpus()[gpu]
    assert spec.ecc_visible_mib == mib
    assert spec.ecc_visible_mib * 2**20 < spec.memory_gib * 2**30  # ECC keeps ~6 % of a GDDR card
    assert visible_bytes(spec) == mib * 2**20  # what vLLM's gpu_memory_utilization is a share of
    assert spec.addressable_bytes == mib * 2**20  # and the training plans' budget (s24)
    assert spec.memory_gib in (24, 48)  # the datasheet's GB is kept as the card's name says it


def test_hbm_cards_are_unchanged() -> None:
    a100 = gpus()["A100-SXM4-80GB"]
    assert a100.ecc_visible_mib is None and a100.addressable_bytes == 80 * 2**30


def test_two_l40s_hold_17_of_20_sequences_not_22() -> None:
    """Qwen2.5-32B bf16 (65 GB) on 2 × L40S at vLLM's 0.9 of 44.99 GiB: 17 concurrent 4K sequences of 256
    KiB/token (before, 0.99 × 48 GiB gave 22 and a 'fits, but tight' verdict). s26 trfix #3: 18 — V1's
    profile (1.26 GB per GPU: the sampler over 256 rows + 0.16 GiB) replaces V0's whole 4K pass (1.47 GB):
    2 × 43.48 − 65.0 − 2 × 1.26 = 19.4 GB = 74,096 tokens = 18 × 4,096 (the test's name keeps its history)."""
    text = ask_quietly("部署Qwen2.5-32B，vLLM，2张L40S，并发20")
    assert text.splitlines()[0].startswith("Qwen2.5 32B")
    # s25 trfix #2: a "no" resting on a context the user did not give says so in the same bracket
    assert (
        "2 张 L40S：不够 —— 上下文 4K 时只能容纳 18 条并发（要求 20 条；上下文是假设的"
        in text.splitlines()[0]
    )
