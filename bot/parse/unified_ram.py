"""A unified-memory device's RAM is its memory for the model (round 14 en): "a MacBook Pro M1 Max with 64 GB
of RAM", "a Strix Halo with 128GB of RAM", "a Framework Desktop with 128GB of unified memory", "a Pixel 9
Pro with 16GB of RAM", "骁龙 8 Gen 3 的手机，16G 内存". Apple silicon, AMD's Strix Halo APU, NVIDIA's DGX
Spark / GB10 and Jetson boards, and phones share one memory between the CPU and the GPU, so the RAM said
right after the device is the memory the weights and the cache live in — never host memory beside a card
(before: read as host memory and the device sized as the default 80 GB card, or, for a catalog Mac chip,
its largest variant). Written '<device> with N gb', as a card's memory after its name is read."""

from __future__ import annotations

import re

from bot.parse.phone_ram import phone_memory
from bot.parse.regex import rc

_DEVICE = (
    r"(?:mac[\s\-]*(?:studio|mini|pro)|macbook(?:[\s\-]*(?:pro|air))?)(?:e?s(?![a-z]))?"  # s43: plural
    r"(?:[\s\-]*m[1-5](?:[\s\-]*(?:pro|max|ultra))?)?"
    r"|(?<![a-z0-9])(?:apple[\s\-]*)?m[1-5][\s\-]*(?:pro|max|ultra)"
    r"|strix[\s\-]*halo|(?:ryzen[\s\-]*)?ai[\s\-]*max\s*\+?[\s\-]*(?:pro[\s\-]*)?3\d{2}|framework[\s\-]*desktop"
    r"|dgx[\s\-]*spark|gb10(?![0-9])|jetson[\s\-]*(?:agx[\s\-]*)?(?:orin|thor|xavier)(?:[\s\-]*nano)?"
    r"|iphone[\s\-]*\d{1,2}(?:[\s\-]*(?:pro[\s\-]*max|pro|plus|mini))?|pixel[\s\-]*\d{1,2}(?:[\s\-]*pro)?"
    r"|galaxy[\s\-]*s\d{2}(?:[\s\-]*ultra)?"
    r"|(?:snapdragon|骁龙)[\s\-]*(?:8[\s\-]*(?:\+[\s\-]*)?(?:gen[\s\-]*\d|elite)|x[\s\-]*(?:elite|plus)|\d{3})"
    r"|(?:dimensity|天玑)[\s\-]*\d{3,4}"
    # round 22 zh: Rockchip's SoCs and Xiaomi phones ('RK3588，16G 内存', '小米 14 Pro 16G 内存')
    r"|rk\d{4}[a-z]?|(?:小米|红米|xiaomi|redmi)[\s\-]*\d{1,2}(?:[\s\-]*(?:pro|ultra))?"
)
UNIFIED_RAM_RE = rc(
    rf"(?P<dev>{_DEVICE})(?:\s*(?:的)?\s*(?:phone|laptop|手机|笔记本|电脑))?"
    rf"(?:\s*[(（]\s*(?P<alias>{_DEVICE})\s*(?:[,，;；/]|[)）](?=\s*(?:with|has|,)\b)))?"
    r"\s*(?:[,，(（]\s*)?(?P<specs>(?:\d{1,3}\s*(?:核|[\s\-]*cores?)\s*(?:cpu|gpu|npu)?\s*(?:[,，、+;；/]\s*)+)*)"
    r"(?:(?:that|which|it)\s+)?(?:with|has|have|comes?\s+with|配|带|有)?\s*"
    r"(?P<v>\d{1,3})\s*(?:gb|gib|g)\b\s*"
    r"(?:(?:of\s+)?(?:(?:unified|lpddr5x?|ddr5|system)\s+)?(?:ram|memory|统一内存|内存)|[)）])"
)
"""A unified-memory device, then its RAM ('with 64 GB of RAM', '，16G 内存'); the system's chip may come first
in its brackets ('a DGX Spark (GB10, 128 GB unified memory)': round 22, before the memory went unread and
the default card was sized), the device named is the system; the memory word may be left out inside the
brackets ('a DGX Spark (GB10, 128 GB)', s28 trial); another name of it in brackets before the memory ('a Ryzen
AI MAX+ 395 (Strix Halo) with 128 GB of unified memory', round 26 en26-011: before, read as host memory);
core counts before the memory in the brackets ('Mac mini M4（10 核 CPU + 10 核 GPU、16GB 统一内存）', 'a
MacBook Pro M4 Pro (14-core CPU, 20-core GPU, 48GB unified memory)': s44 round 40, ``specs``; before, the
memory was read as host memory and the chip sized at another memory: an M4 with 32GB for the 16GB typed)."""
GATE_RE = re.compile(
    r"mac|m[1-5]\s*(?:pro|max|ultra)|strix|ai\s*max|framework|spark|gb10|jetson|iphone|pixel|galaxy|snapdragon|骁龙|dimensity|天玑"
    r"|rk\d{4}|小米|红米|xiaomi|redmi|phone|手机"
)
"""The device words, searched before the pattern (most messages name none; a plain compiled pattern: its
search is C, no Python frame)."""


def as_device_memory(m: re.Match[str]) -> str:
    """A match of :data:`UNIFIED_RAM_RE` written '<device> with N gb' (read in
    :func:`bot.parse.memory_forms.memory_forms` when the text says 'ram', 'memory' or '内存' and names a
    device of :data:`GATE_RE`). An Apple chip in brackets after a Mac ('a Mac Studio (M2 Ultra) has 192GB') is
    the Mac's chip: kept as typed, for the card readers. s43 round 39 zh: so is one whose memory follows it in
    the brackets ('Mac Studio（M2 Ultra，192GB 统一内存）', 'a Mac Studio (M2 Ultra, 192GB unified memory)'):
    written '<chip> with N gb', that chip with that memory (before, the Mac was sized with the chip assumed
    for its memory, :mod:`estimator.mac_devices`: an M3 Ultra in place of the M2 Ultra typed)."""
    alias, specs = m.group("alias"), m.group("specs")
    kept = f", {specs}" if specs else ""  # s44 round 40: the cores said before the memory, for their readers
    if alias and _CHIP_RE.match(alias):
        if m.group(0)[m.end("alias") - m.start() :].lstrip().startswith((")", "）")):
            return m.group(0)
        if m.group("dev").startswith("mac"):
            return f"{alias} with {m.group('v')}gb {kept}"
    dev = _MAC_PLURAL_RE.sub(r"\1", m.group("dev"))
    return f"{dev} with {m.group('v')}gb {kept}"


_MAC_PLURAL_RE = re.compile(r"(studio|mini|pro|air|book)e?s$")
"""A Mac line in the plural ('MacBook Pros'): written in the singular, as the Mac readers name it."""


_CHIP_RE = re.compile(r"(?:apple[\s\-]*)?m[1-5]")
"""An Apple chip's name (:func:`as_device_memory`)."""


UNIFIED_FAR_RE = rc(
    rf"(?P<dev>{_DEVICE})(?P<mid>[^\d]{{1,40}}?)(?P<v>\d{{1,3}})\s*(?:gb|gib|g)\b\s*"
    r"(?:of\s+)?(?:unified\s+(?:memory|ram)|统一内存)"
)
"""A unified-memory device, words without a figure, then a memory said to be unified ('a Strix Halo mini PC
with 128GB unified memory', 'Strix Halo 小主机上跑吗，128G 统一内存'; s47 trialfix #2: read as host RAM beside
an unknown card, the device sized as the default 80 GB card and the reply asking for the memory given).
Unified memory is one device's, shared by its CPU and GPU, so it is that device's memory whatever stands
between them; only a figure between them (another memory, a count) keeps them apart. Tried after
:data:`UNIFIED_RAM_RE`, which writes the adjacent forms without the word 'unified'."""


def _far_memory(m: re.Match[str]) -> str:
    """'<device> with N gb ' then the words that stood between (:data:`UNIFIED_FAR_RE`)."""
    return f"{m.group('dev')} with {m.group('v')}gb {m.group('mid')}"


def device_memory(s: str) -> str:
    """``s`` with each device of :data:`UNIFIED_RAM_RE` and its RAM written '<device> with N gb ', then a
    device with its unified memory said further on (:data:`UNIFIED_FAR_RE`), then each phone with no model
    named (:mod:`bot.parse.phone_ram`, s30); called behind :data:`GATE_RE`."""
    s = UNIFIED_RAM_RE.sub(as_device_memory, s)
    if "unified" in s or "统一内存" in s:
        s = UNIFIED_FAR_RE.sub(_far_memory, s, count=1)
    return phone_memory(s) if ("phone" in s or "手机" in s) else s
