"""The memory of the card asked about when a message moves the same card to another memory (s33-gen2, the
"which of two setups is asked" family): '在 A100 40G 上 OOM，换成 80G 的能行吗？', 'On an A100 40GB it
OOMs; would the 80GB one work?', '40G 的 A100 不够，升级到 80G 呢', 'switching to the 80 GB version'.

The card named is the same; the memory after a switch word ('换成', '换到', '改用', '升级到', 'switch to',
'move to', 'upgrade to') or written as 'the 80GB one / version / variant' is the setup asked about, so
the card's variant of that memory is sized (:func:`bot.parse.gpus.variant_of_memory`) and the memory
said first is named as another setup's (design.md §8: nothing stated is dropped). Before, the first
memory was sized and the asked one named as a stated need. Only when the card has a catalog variant of
the asked memory: '换成 48G 的 A6000' names another card, which :mod:`bot.parse.which_cards` reads.
"""

from __future__ import annotations

import re
from typing import Any

from estimator import catalog

SWITCHED_RE = re.compile(
    r"(?:换成|换到|换用|改用|改成|升级到|升到|换|switch(?:ing|ed)?\s+to|mov(?:e|ing)\s+to|go(?:ing)?\s+to"
    r"|upgrad(?:e|ing)\s+to|would)\s*(?:在\s*)?(?:the\s+|an?\s+)?(?P<v>\d+(?:\.\d+)?)\s*(?:gb?|gib)"
    r"(?![a-z0-9])(?!\s*(?:的\s*)?(?:内存|数据|语料|模型|ram\b|memory\b|of\b|system|cpu))"
    r"|(?:the|an?)\s+(?P<w>\d+(?:\.\d+)?)\s*(?:gb?|gib)\s+(?:one|version|variant)\b"
)
"""A memory the message switches the card to ('换成 80G 的', 'would the 80GB one', 'the 80GB version')."""


def switched_memory(steps: Any, gpu_memory: float | None) -> float | None:
    """The memory per card (GiB) of the setup asked about: a switched-to memory of :data:`SWITCHED_RE` when
    the sized card ``steps.f['gpu']`` has a catalog variant of it and ``gpu_memory`` (the memory said
    first, or None) differs; then the first memory is named (``other_setup``) and the switched one's role
    is used. Else ``gpu_memory``."""
    gpu_id = steps.f.get("gpu")
    m = SWITCHED_RE.search(steps.s) if gpu_id in catalog.gpus() else None
    if m is None:
        return gpu_memory
    asked = float(m.group("v") or m.group("w"))
    if gpu_memory is not None and abs(asked - gpu_memory) < 1:
        return gpu_memory
    from bot.parse.gpus import variant_of_memory

    variant = variant_of_memory(gpu_id, asked)
    if abs(catalog.gpu(variant).memory_gib - asked) >= 1:
        return gpu_memory  # no variant of that memory: another card's, or a need
    if gpu_memory is not None:
        steps.named_unused.append((f"{gpu_memory:g} GB", "other_setup"))
    for role in steps.roles:
        if role.role in ("gpu_mem", "bytes") and role.value == asked:  # '80G' read as a need: the card's
            steps.used.add(id(role))
    return asked
