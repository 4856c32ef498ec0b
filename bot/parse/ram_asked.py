"""A question for the host memory (s39 fixm #2: 'deepseek r1 671b q4 gguf on llama.cpp, how much RAM'
headlined '5 × A100 80G'): RAM, system or host memory, or 内存 with no 显存 / 显卡 beside it, asked as how
much or whether it is enough. The parse notes it (``host_ram_asked``); the reply (bot.render.ram_head) puts
the host memory a CPU/offload runtime needs in the headline, before the GPU figures.

Called only when the message names a llama.cpp-family runtime or GGUF weights and holds ' ram', ' memory'
or '内存' (bot.parse.stage_steps): most do not."""

from __future__ import annotations

import re

HOST_WORDS_RE = re.compile(
    r"(?<![a-z])ram\b|\b(?:system|host|cpu|main)\s+memory\b|(?<!显卡)(?<!gpu)(?<!gpu\s)(?<!显)内存"
    r"|(?:系统|主机|电脑|机器)内存"
)
"""RAM as a word (never 'program', 'parameters'), system/host/CPU/main memory, 内存 not after 显卡 or GPU."""
GPU_MEMORY_RE = re.compile(r"显存|vram|gpu\s*memory|显卡\s*内存|gpu\s*内存|memory\s+per\s+gpu|每(?:张|块)卡")
"""Words that ask the GPU's memory: the question is not (only) the host's."""
ASKS_RE = re.compile(
    r"how\s+much|how\s+many\s+gb|enough|need|require|多少|多大|够不够|够吗|需要|要多|几\s*(?:g|gb)"
)


def asks_host_ram(s: str) -> bool:
    """Whether the lower-cased message ``s`` asks the host memory (module doc): 'how much RAM', 'is 64GB of
    system memory enough', '需要多少内存'; never '显存多少', 'how much VRAM', 'RAM and VRAM per GPU'."""
    return (
        HOST_WORDS_RE.search(s) is not None
        and GPU_MEMORY_RE.search(s) is None
        and ASKS_RE.search(s) is not None
    )
