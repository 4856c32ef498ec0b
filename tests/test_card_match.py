"""The real-question scorer's card check is exact (s24, issue 24): a stated card is understood only when the
card sized is that catalog family (estimator.catalog.family_of), or, for a card not in the catalog, the name
as typed — never by substring ('H20' is no H200: 96 GB against 141 GB, NVIDIA's HGX H20 and H200
datasheets)."""

from __future__ import annotations

import pytest

from tests.real_questions import cards_match, key_understood


@pytest.mark.parametrize(
    ("stated", "sized"),
    [
        ("A100", "A100-SXM4-80GB"),
        ("A100", "A100-PCIe-40GB"),
        ("A100 PCIe", "A100-PCIe-80GB"),
        ("H20", "H20-96GB"),
        ("RTX 4090", "RTX-4090"),
        ("RTX 4090D", "RTX-4090D"),
        ("RTX 8000", "Quadro-RTX-8000"),
        ("M2 Ultra", "Apple-M2-Ultra-64GB"),  # a derived id: that chip with another memory
        ("RTX 3080 Ti", "3080ti"),  # not in the catalog: the name as typed
        ("M5", "Apple M5"),
        ("Tesla P4", "Tesla P4s"),  # typed in the plural (s48: was MI50, now in the catalog)
        ("MI50", "MI50-32GB"),  # s48 cat: the catalog's MI50
    ],
)
def test_same_card(stated: str, sized: str) -> None:
    assert cards_match(stated, sized)


@pytest.mark.parametrize(
    ("stated", "sized"),
    [
        ("H20", "H200-SXM-141GB"),
        ("A10", "A100-SXM4-80GB"),
        ("A100", "A10"),
        ("L4", "L40S"),
        ("L40", "L40S"),
        ("RTX 4090", "RTX-4090D"),
        ("V100", "V100S-PCIe-32GB"),
        ("A100 PCIe", "A100-SXM4-80GB"),
        ("RTX 2060 SUPER", "RTX 2060"),
        ("RTX 5090 D v2", "RTX-5090"),
        ("Titan", "Titan-RTX"),
        ("MI50", "MI500"),
    ],
)
def test_other_card(stated: str, sized: str) -> None:
    assert not cards_match(stated, sized)


def test_ignored_card_named_whole() -> None:
    """An item the answer left out names a card only as a whole name: 'A10' is not named by 'A100'."""
    item = {"text": "gpu: A100", "reason": "other_setup"}
    answer = {"request": {"gpu": "RTX-4090"}, "interpretation": {"ignored": [item]}}
    assert key_understood("gpu", "A100", answer)
    assert not key_understood("gpu", "A10", answer)
