"""A CPU named where a GPU would be (s32 trial): 'Can I run Llama 3 8B on a Xeon E5-2690?', 'i9-13900K 上跑
Qwen2.5 7B', 'an EPYC 9654 server'. Before, the question was sized on the reference A100 with nothing
said; now the CPU is named as typed (``cpu_not_gpu``): the sizing sizes GPUs, CPU inference is not modelled
(only llama.cpp's layers kept in CPU memory are: bot.parse.gpu_layers), and the reply's assumptions say
which GPU was used. Only when no GPU is named: beside a card, the CPU is the host's.
"""

from __future__ import annotations

import re
from typing import Any

CPU_RE = re.compile(
    r"(?<![a-z0-9])(?:"
    r"(?:intel\s+)?xeon(?:\s+(?:gold|silver|platinum|bronze|max|w|phi))?(?:[\s\-]*(?:e[357][\s\-]*)?[a-z]?\d{3,5}[a-z]{0,2}"
    r"(?:[\s\-]*v\d)?)?"
    r"|(?:intel\s+)?(?:core\s+)?(?:ultra\s+)?i[3579][\s\-]\d{4,5}[a-z]{0,3}"
    r"|(?:intel\s+)?core\s+ultra\s+[3579]\s*\d{3}[a-z]?"
    r"|(?<!m[1-5]\s)(?<!m[1-5])(?:intel\s+)?ultra\s?[579](?:\s*\d{3}[a-z]{0,2})?"  # round 28: 'an Ultra5'
    r"|(?:amd\s+)?epyc(?:\s*\d{4}[a-z0-9]{0,2})?"
    r"|(?:amd\s+)?ryzen(?!\s*ai)(?:\s+threadripper)?(?:\s+pro)?(?:\s+[3579])?\s+\d{4}[a-z0-9]{0,3}"
    r"|(?:amd\s+)?threadripper(?:\s+pro)?(?:\s+\d{4}[a-z0-9]{0,3})?"
    r"|(?:huawei\s+)?(?:kunpeng|鲲鹏)\s*\d{3}"
    r"|(?:英特尔|intel)?\s*至强(?:\s*(?:金牌|银牌|铂金|gold|silver|platinum))?"
    r"(?:\s*[a-z]?\d{3,5}[a-z]{0,2})?"
    r"|(?:amd\s*)?霄龙(?:\s*\d{4}[a-z0-9]{0,2})?"
    r")(?![a-z0-9])",
    re.IGNORECASE,
)
"""Intel Xeon / Core i3–i9 / Core Ultra, AMD EPYC / Ryzen / Threadripper, Huawei Kunpeng by name (and
model number when written), Xeon and EPYC in Chinese (至强, 霄龙; s45 review B6: '至强' was not read); never
'Ryzen AI' (an APU whose GPU shares the memory: a device of its own)."""
GATE = re.compile(
    r"xeon|epyc|至强|霄龙|ryzen|threadripper|kunpeng|鲲鹏|i[3579][\s\-]\d|ultra\s?[3579]", re.IGNORECASE
)


RAM_AFTER_RE = re.compile(
    r"\s*(?:,|，|\+|/|with|and|has|带|配|加|和)?\s*(?P<v>\d{1,4})\s*(?:gb|gib|g)(?![a-z0-9])"
    r"(?!\s*(?:of\s+)?(?:vram|gpu|显存|显卡|card|video))"
)
"""A memory right after a CPU's name ('i7-12700 with 16GB', 'i9-13900K 32G'): with no GPU named, its RAM."""
_CPU_WORD_RE = re.compile(CPU_RE.pattern + r"|\bcpu\b|处理器", re.IGNORECASE)
"""A CPU in the normalized text: its name, or 'core cpu' / 'ryzen cpu' it is written as by then."""


def cpu_named(raw: str, asm: Any = None) -> list[tuple[str, str]]:
    """('Xeon E5-2690', 'cpu_not_gpu') for each CPU named in the message ``raw``, as typed (module doc).
    With the assembler ``asm`` (no GPU named), a memory written right after the CPU's name is the
    machine's RAM (``host_memory_gib``, masked in ``asm.s``) when no other words said the RAM (s34 review:
    'Llama-3-8B on an i7-12700 with 16GB' left the 16 unread)."""
    if asm is not None and CPU_RE.search(raw):
        asm.notes.append("cpu_only")  # the reply's head says the CPU is not sized (bot.render.cpu_head)
    c = _CPU_WORD_RE.search(asm.s) if asm is not None and not asm.f.get("host_memory_gib") else None
    if c is not None and (m := RAM_AFTER_RE.match(asm.s, c.end())):
        asm.f["host_memory_gib"] = float(m["v"])
        asm.s = asm.s[: m.start("v")] + " " * (m.end() - m.start("v")) + asm.s[m.end() :]
    out: list[tuple[str, str]] = []
    for m in CPU_RE.finditer(raw):
        name = m.group(0).strip()
        if (name, "cpu_not_gpu") not in out:
            out.append((name, "cpu_not_gpu"))
    return out
