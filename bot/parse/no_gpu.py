"""A machine with no GPU, said in words (s41 fixtrain #1, the s40 trial): 'no GPU, 32 GB RAM laptop, can I
run Llama 3 8B?', '没有GPU，只有64G内存，能跑 Qwen2.5-7B 吗', 'CPU only', '只有 CPU'. Before, such a question
was sized on the reference A100 as if the words were unsaid; now the parse notes ``cpu_only`` and ``no_gpu``
and the reply's head answers for their machine first (bot.render.cpu_head: the RAM against the weights and
KV cache, the decode speed RAM's bandwidth allows), then the GPU figures for reference.

Only when no GPU is named (the call site checks: 'no GPU yet, should I buy a 4090?' is the card's
question). Not a GPU resource that is missing ('no GPU memory left', '没有显存了', 'without GPU offload',
'CPU offload only', 'no more GPUs'): the words after 'GPU' decide (:data:`NOT_AFTER`).

With no GPU, the memory written beside RAM's word ('64G内存', '内存 32G', '16GB of RAM') is the machine's RAM
(``host_memory_gib``): 内存 is read as VRAM in some GPU questions, never here, where no GPU exists.
"""

from __future__ import annotations

import re
from typing import Any

NOT_AFTER = r"(?![\s\-]*(?:memory|mem\b|vram|offload|layers?|hours?|time|util|显存|内存|资源|卸载|利用|小时))"
"""Words after 'GPU' that make it a GPU resource, not the machine's lack of one."""
_CARD = r"(?:dedicated\s+|discrete\s+|nvidia\s+|cuda\s+)?(?:gpus?|graphics\s+cards?|video\s+cards?)\b"
_HAVE_NOT = r"(?:don'?t|do\s+not|doesn'?t|does\s+not|haven'?t|have\s+not)\s+(?:have|got)\s+(?:an?\s+|any\s+)?"
NO_GPU_RE = re.compile(
    "|".join(
        (
            r"(?<![a-z])(?:no|without(?:\s+an?)?|zero)\s+" + _CARD + NOT_AFTER,
            r"(?<![a-z])" + _HAVE_NOT + _CARD + NOT_AFTER,
            r"(?<![a-z])cpu[\s\-_]*only(?![a-z])",
            r"(?<![a-z])only\s+(?:have\s+)?(?:an?\s+|the\s+|my\s+)?cpus?(?![a-z])(?!\s*offload)",
            r"(?:没有|没|无|不带|缺少?)\s*(?:独立|独|n卡|英伟达|nvidia)?\s*(?:显卡|gpu)" + NOT_AFTER,
            r"(?:只有|仅有|只用|仅用|纯|只靠|仅靠|单靠)\s*(?:一[台个颗块])?\s*cpu(?![a-z])(?!\s*(?:offload|卸载))",
        )
    ),
    re.IGNORECASE,
)
"""'no GPU', 'without a GPU', "don't have a GPU", 'CPU only', 'only a CPU'; '没有显卡', '无GPU', '只有CPU',
'纯CPU' — a machine without a GPU (module doc)."""
RAM_RE = re.compile(
    r"(?<![\d.])(?P<v>\d{1,4})\s*(?:gb|gib|g)(?![a-z0-9])\s*(?:的|of)?\s*(?:系统|运行)?(?:内存|ram|memory)"
    r"|(?:内存|ram)\s*(?:有|是|为|only|just|:|：)?\s*(?P<w>\d{1,4})\s*(?:gb|gib|g)(?![a-z0-9])",
    re.IGNORECASE,
)
"""A memory beside RAM's word ('64G内存', '32 GB RAM', '内存 32G'): with no GPU, the machine's RAM."""


def cue(s: str) -> bool:
    """Whether the normalized text ``s`` holds the words of :data:`NO_GPU_RE`: a card's word and a negation or
    'only' (plain substring tests: most messages pay no search)."""
    card = "pu" in s or "显卡" in s or "card" in s
    return card and (
        "no" in s
        or "n't" in s
        or "without" in s
        or "zero" in s
        or "only" in s
        or "没" in s
        or "无" in s
        or "只" in s
        or "仅" in s
        or "纯" in s
        or "缺" in s
        or "不带" in s
        or "单靠" in s
    )


def no_gpu(raw: str, asm: Any) -> None:
    """Notes ``cpu_only`` and ``no_gpu`` on the assembler ``asm`` when the message ``raw`` says its machine
    has no GPU (:data:`NO_GPU_RE`; the caller has found no GPU named), and reads the RAM beside it into
    ``host_memory_gib`` (masked in ``asm.s``) when no other words said it. Nothing otherwise."""
    if not NO_GPU_RE.search(raw):
        return
    asm.notes += [n for n in ("cpu_only", "no_gpu") if n not in asm.notes]
    if asm.f.get("host_memory_gib") or not (m := RAM_RE.search(asm.s)):
        return
    g = "v" if m["v"] else "w"
    asm.f["host_memory_gib"] = float(m[g])
    asm.s = asm.s[: m.start(g)] + " " * (m.end(g) - m.start(g)) + asm.s[m.end(g) :]
