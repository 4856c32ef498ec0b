"""A machine with no GPU, said in words (s41 fixtrain #1, the s40 trial): 'no GPU, 32 GB RAM laptop, can I
run Llama 3 8B?', '没有GPU，只有64G内存，能跑 Qwen2.5-7B 吗', 'CPU only', '只有 CPU'. Before, such a question
was sized on the reference A100 as if the words were unsaid; now the parse notes ``cpu_only`` and ``no_gpu``
and the reply's head answers for their machine first (bot.render.cpu_head: the RAM against the weights and
KV cache, the decode speed RAM's bandwidth allows), then the GPU figures for reference.

Only when no GPU is named (the call site checks: 'no GPU yet, should I buy a 4090?' is the card's
question). Not a GPU resource that is missing ('no GPU memory left', '没有显存了', 'without GPU offload',
'CPU offload only', 'no more GPUs'): the words after 'GPU' decide (:data:`NOT_AFTER`). Not a GPU question
either (s41 cpufix #1, the design review): the head is for a user who will run on their CPU machine, so no
note when the GPU count is asked ('We have no GPUs yet. How many GPUs do we need to pretrain a 7B?', '我们
还没有显卡，需要几张卡？': :data:`bot.parse.words.ASKS_COUNT_RE`), when the lack is for now ('no GPUs yet',
'还没有显卡': :data:`YET_AFTER`, :data:`YET_BEFORE`), or when 'GPU' is a modifier of another noun ('no GPU
experience', 'without a GPU budget', 'no GPU cluster', 'zero GPU downtime', '没有GPU预算': :data:`NOT_AFTER`).

With no GPU, the memory written beside RAM's word ('64G内存', '内存 32G', '16GB of RAM') is the machine's RAM
(``host_memory_gib``): 内存 is read as VRAM in some GPU questions, never here, where no GPU exists.
"""

from __future__ import annotations

from typing import Any

from bot.parse.regex import rc
from bot.parse.words import ASKS_COUNT_RE

NOT_AFTER = (
    r"(?![\s\-]*(?:memory|mem\b|vram|offload|layers?|hours?|time|util|显存|内存|资源|卸载|利用|小时"
    r"|budget|cluster|experience|expertise|knowledge|skills?|downtime|quota|capacity|spend|costs?|rental"
    r"|预算|集群|经验|停机|配额|成本|费用))"
)
"""Words after 'GPU' that make it a GPU resource ('no GPU memory left') or make 'GPU' a modifier of another
noun ('no GPU experience', 'zero GPU downtime', '没有GPU预算'), not the machine's lack of one."""
_CARD = r"(?:dedicated\s+|discrete\s+|nvidia\s+|cuda\s+)?(?:gpus?|graphics\s+cards?|video\s+cards?)\b"
_HAVE_NOT = r"(?:don'?t|do\s+not|doesn'?t|does\s+not|haven'?t|have\s+not)\s+(?:have|got)\s+(?:an?\s+|any\s+)?"
NO_GPU_RE = rc(
    "(?i)"
    + "|".join(
        (
            r"(?<![a-z])(?:no|without(?:\s+an?)?|zero)\s+" + _CARD + NOT_AFTER,
            r"(?<![a-z])" + _HAVE_NOT + _CARD + NOT_AFTER,
            r"(?<![a-z])cpu[\s\-_]*only(?![a-z])",
            r"(?<![a-z])only\s+(?:have\s+)?(?:an?\s+|the\s+|my\s+)?cpus?(?![a-z])(?!\s*offload)",
            r"(?:没有|没|无|不带|缺少?)\s*(?:(?:独立|独|n卡|英伟达|nvidia)?\s*(?:显卡|gpu)|独显)" + NOT_AFTER,
            r"(?:只有|仅有|只用|仅用|纯|只靠|仅靠|单靠)\s*(?:一[台个颗块])?\s*cpu(?![a-z])(?!\s*(?:offload|卸载))",
        )
    )
)
"""'no GPU', 'without a GPU', "don't have a GPU", 'CPU only', 'only a CPU'; '没有显卡', '无GPU', '只有CPU',
'纯CPU', '没有独显' (no discrete card: s49 trial) — a machine without a GPU (module doc)."""
RAM_RE = rc(
    r"(?i)(?<![\d.])(?P<v>\d{1,4})\s*(?:gb|gib|g)(?![a-z0-9])\s*(?:的|of)?\s*(?:系统|运行)?(?:内存|ram|memory)"
    r"|(?:内存|ram)\s*(?:有|是|为|only|just|:|：)?\s*(?P<w>\d{1,4})\s*(?:gb|gib|g)(?![a-z0-9])"
)
"""A memory beside RAM's word ('64G内存', '32 GB RAM', '内存 32G'): with no GPU, the machine's RAM."""


YET_AFTER = rc(r"(?i)^[^.?!;\n。？！；]{0,24}\byet\b")
"""'yet' in the clause after 'no GPU' ('no GPUs yet', "don't have any GPUs yet"): a lack for now, before
buying cards, so the question is a GPU question (module doc)."""
YET_BEFORE = ("还", "尚", "暂")
"""'还没有显卡', '尚无GPU', '暂时没有GPU': the Chinese 'yet', just before the negation (module doc)."""


def cue(s: str) -> bool:
    """Whether the normalized (lowercased) text ``s`` may hold :data:`NO_GPU_RE`: 'cpu' ('CPU only', '只有
    CPU'), or a card's word ('gpu', '显卡', 'card', '独显') with a negation beside ('no ', "n't", 'without',
    'zero', 没, 无, 缺, 不带). Plain substring tests: a message without them pays no search."""
    if "cpu" in s:
        return True
    card = "gpu" in s or "显卡" in s or "card" in s or "独显" in s  # '没有独显' (s49 trial)
    return card and (  # chained tests, not any(...): a generator's frames cost a parse ~10 calls
        "no " in s
        or "n't" in s
        or "not " in s
        or "without" in s
        or "zero" in s
        or "没" in s
        or "无" in s
        or "缺" in s
        or "不带" in s
    )


def no_gpu(raw: str, asm: Any) -> None:
    """Notes ``cpu_only`` and ``no_gpu`` on the assembler ``asm`` when the message ``raw`` says its machine
    has no GPU (:data:`NO_GPU_RE`; the caller has found no GPU named) and asks no GPU question (no count
    asked, :data:`bot.parse.words.ASKS_COUNT_RE` on ``asm.s``; no 'yet'), and reads the RAM beside it into
    ``host_memory_gib`` (masked in ``asm.s``) when no other words said it. Nothing otherwise."""
    m = NO_GPU_RE.search(raw)
    if m is None or ASKS_COUNT_RE.search(asm.s) or YET_AFTER.search(raw[m.end() :]):
        return
    if any(c in raw[max(0, m.start() - 2) : m.start()] for c in YET_BEFORE):
        return
    asm.notes += [n for n in ("cpu_only", "no_gpu") if n not in asm.notes]
    if asm.f.get("host_memory_gib") or not (m := RAM_RE.search(asm.s)):
        return
    g = "v" if m["v"] else "w"
    asm.f["host_memory_gib"] = float(m[g])
    asm.s = asm.s[: m.start(g)] + " " * (m.end(g) - m.start(g)) + asm.s[m.end(g) :]
