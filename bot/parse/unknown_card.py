"""An unknown card typed (with its memory or without) is the user's card when the catalog cards beside it
belong to another setup (s13 trial N4; s42: without its memory too).

'We have 8 Cambricon MLU370-X8 48GB cards. Our colleague trained a 7B LoRA on 8 A800 in 6 hours …': the
A800 is the colleague's (a clause of another run, :mod:`bot.parse.structure`), so the MLU370 is not
replaced by it: the job is sized on a 48 GiB card under the name typed, and the A800 is named as another
setup's (``other_setup``), as '我们有 8 张寒武纪 MLU370 48G' alone already is. Said with no memory ('fine-tune
on a TPU v3-8; another run reports 40% MFU on TPU v4', '在 Atlas 300I 上部署，同事之前用 A100 跑过'), the
card is named as typed and its memory asked for, never replaced by the other setup's catalog card (s42).
A catalog card said only as a ratio's measure ('吞吐能到英伟达 T4 的 1.8 倍', 'reaches 82% of an A100') is no
card of the user's either (s48 round 44, :data:`RATIO_BASE_RE`).
"""

from __future__ import annotations

import re
from typing import Any

from bot.parse.normalize import UNKNOWN_GPU_MARK
from bot.parse.regex import rc
from bot.parse.request_fields import as_typed
from bot.parse.structure import OBSERVED, TRIED, role_at
from estimator import catalog

ONE_DEVICE_RE = re.compile(r"dgx[\s\-]*(?:spark|station)|jetson|gb10|strix|ai[\s\-]*max|framework", re.I)
"""Unknown systems of one GPU each (DGX Spark and Station, Jetson, a GB10; round 13: AMD Strix Halo, Ryzen AI
Max, a Framework Desktop): '一台 DGX Spark' is one device, never a machine of eight cards (s17)."""


RATIO_BASE_RE = rc(
    r"\ue000\s*(?:的\s*)?\d+(?:\.\d+)?\s*(?:倍|%|成)"  # 'T4 的 1.8 倍', 'A100 的 82%'
    r"|(?:\d+\.\d+\s*(?:x|×|times)|\d+(?:\.\d+)?\s*%)\s*(?:the\s+[a-z]+\s+)?(?:(?:that\s+)?of\s+)?(?:an?\s+|the\s+)?"
    r"(?:nvidia\s+)?\ue000"  # '1.8x a T4', '82% of an A100': a decimal ratio or a share
    r"|\d+\s*(?:x|×|times)\s*(?:the\s+[a-z]+\s+(?:that\s+)?of\s+|(?:that\s+)?of\s+|an?\s+|the\s+)"
    r"(?:an?\s+|the\s+)?(?:nvidia\s+)?\ue000"  # '2x the speed of an A100': with measure words
)
"""A catalog card (its mark, ``\ue000``) as the measure of a ratio, in either language ('吞吐能到 T4 的 1.8
倍', '相当于 A100 的 82%', '1.8x a T4', '1.8x the throughput of a T4', '82% of an A100'): a card compared
to, not the one the user runs. A whole number before 'x' needs its measure words ('2x the speed of an A100',
'3x an A100'): '2x RTX 4090' is two cards (s48 review B2)."""


def _ratio_base(s: str, start: int) -> bool:
    """Whether the card marked at ``start`` is a ratio's measure (:data:`RATIO_BASE_RE`, searched only when
    a ratio word is in the text)."""
    if not ("倍" in s or "%" in s or "成" in s or "x" in s or "×" in s or "times" in s):
        return False
    return any(
        m.start() <= start < m.end() for m in RATIO_BASE_RE.finditer(s, max(0, start - 40), start + 20)
    )


def own_card_first(steps: Any, gpus: list[Any]) -> list[Any]:
    """``gpus`` without the catalog cards said only in another run's clauses (tried or observed, see
    :mod:`bot.parse.structure`) or only as a ratio's measure (:func:`_ratio_base`) when an unknown card is
    said outside them, with its memory or without (each named ``other_setup``); else ``gpus`` unchanged."""
    s = steps.s
    at = s.find(UNKNOWN_GPU_MARK)
    if not gpus or at < 0:
        return gpus
    if not all(_ratio_base(s, g.start) for g in gpus):  # a card compared to, in any clause, is none of theirs
        segs = steps._segments()
        others = (TRIED, OBSERVED)
        if role_at(segs, at) in others or any(role_at(segs, g.start) not in others for g in gpus):
            return gpus
    for family in dict.fromkeys(catalog.gpu(g.gpu_id).family for g in gpus):
        steps.named_unused.append((as_typed(steps.raw, family.lower()), "other_setup"))
    return []


def same_card(gpus: list[Any], text: str = "") -> list[Any]:
    """s34 (issue 24, clause order): one card said twice, once plainly ('Shouldn't 2 A100s be enough? … on
        2 A100 PCIe', 'on the 4 H100s? … a 4xH100 (80G) server') is one card: the plain mention takes the
        variant and memory the other says, whichever comes first. Two variants said apart ('A100 40G or A100
        80G') are two cards, left as they are; so is a mention that names its board form in its own
    words ('H100 PCIe vs H100 SXM': the SXM is the family's default card, yet said). The caller passes one
    card through (no Python call)."""
    specs = catalog.gpus()
    families: list[str] = []
    for g in gpus:
        families.append(specs[g.gpu_id].family)
    if len(set(families)) == len(families):  # each card once: most messages naming two
        return gpus
    from dataclasses import replace

    out = list(gpus)
    for family in set(families):
        same = [g for g, f in zip(gpus, families, strict=True) if f == family]
        default = catalog.default_gpu_for_family(family)
        told = [
            g
            for g in same
            if g.memory_gib or default is None or g.gpu_id != default.id or _form_said(text, g.start)
        ]
        if len(same) < 2 or not told or len(told) == len(same):
            continue
        if len({g.gpu_id for g in told}) > 1 or len({g.memory_gib for g in told if g.memory_gib}) > 1:
            continue  # two variants: a comparison
        one = next((g for g in told if g.memory_gib), told[0])
        for i, g in enumerate(out):
            if g in same and g not in told:
                out[i] = replace(
                    g,
                    gpu_id=one.gpu_id,
                    memory_gib=one.memory_gib,
                    memory_per_card_stated=one.memory_per_card_stated,
                )
    return out


_FORMS = ("sxm", "pcie", "nvl")


def _form_said(text: str, start: int) -> bool:
    """Whether the card named at ``start`` of ``text`` says its board form in its first two words
    ('H100 SXM', 'H100-SXM5', 'A100 PCIe'), as the catalog's variants are told apart."""
    words = text[start : start + 40].lower().split()[:2]
    return any(form in word for word in words for form in _FORMS)
