"""An accelerator family typed without a model ('Intel Gaudi', 'Ascend NPUs', '昇腾卡', 'AMD GPUs', 'TPUs';
s25 closing, "Left"; session 26): :data:`bot.parse.lexicon.UNKNOWN_GPU_RE` names it as typed, and it is
worded as a family with its catalog members offered (bot.render.understood.FAMILY_LINE), never sized
silently as the reference A100 (design.md §8)."""

from __future__ import annotations

import re

FAMILY_WORDS = ("amd", "ascend", "gaudi", "huawei", "intel", "tpu", "华为", "昇腾", "npu")
"""The words of an accelerator family typed without a model (UNKNOWN_GPU_RE, s26): such a name with no digit
is a family ('AMD GPUs', 'Intel Gaudi', '昇腾卡', '华为的卡': Huawei's cards are its Ascend line), worded as
one (bot.render.understood.FAMILY_LINE), and set aside when the message names a catalog card ('four AMD
GPUs (MI210 64GB)': that card). S37-gen: a bare 'NPU' ('NPU 显存需要多少', '8 张 NPU') is a class of
accelerators (Ascend, a phone's or a board's), named as typed, never sized silently as an A100."""


def family_only(name: str) -> bool:
    """Whether an unknown card's name is an accelerator family without a model (:data:`FAMILY_WORDS`, or
    NVIDIA's H line by its letter: 'H 卡', 'H cards', estimator.gpu_families.H_FAMILY_RE)."""
    from estimator.gpu_families import H_FAMILY_RE

    lower = name.lower()
    if any(map(str.isdigit, lower)):
        return False
    return any(w in lower for w in FAMILY_WORDS) or H_FAMILY_RE.match(lower) is not None


def huawei_npu(name: str) -> bool:
    """Whether an NPU typed is Huawei's Ascend line: 'NPU' alone, or after Huawei / 华为 / 昇腾 / Ascend
    (s37-rev); another vendor's ('Intel NPU' of a laptop, 'AMD NPU', 'Qualcomm NPU') is not."""
    import re

    return (
        re.fullmatch(r"(?:(?:huawei|华为|昇腾|ascend)\s*(?:的\s*)?)?npus?", name.lower().strip()) is not None
    )


def member_after(s: str, m: re.Match[str]) -> re.Match[str] | None:
    """A family typed without a model, then a member of it typed with its model, later in the message:
    that member ('smaller Inferentia instances such as inf2.8xlarge' → the Inferentia2 that
    bot.parse.instances wrote; 'TPUs, say a TPU v4-8'), the card named (s46 round 42, en42-005: the bare
    family word was taken and the chip the asker named was lost). ``m`` is the first match of
    :data:`bot.parse.lexicon.UNKNOWN_GPU_RE` in ``s`` (the normalized text); the caller gates on ``m``
    having no digit. None when no later name starts with the family's word and has a digit."""
    from bot.parse import lexicon as lx

    word = m.group(0).strip().lower().removesuffix("s")
    if len(word) < 3:
        return None
    for later in lx.UNKNOWN_GPU_RE.finditer(s, m.end()):
        name = later.group(0).strip().lower()
        if name.startswith(word) and any(map(str.isdigit, name)):
            return later
    return None
