"""The host memory asked, then a size offered (s44 round 40 zh, issue 24): '只有一张 10G 显存的卡，用
ZeRO-Offload 卸载到 CPU，要多大的内存才能训大模型？80GB 够吗？', 'how much system RAM do I need for the
offload? Is 128GB enough?'. The size offered is the host's memory (the RAM the question is about),
written where the host-memory reader of :func:`bot.parse.prose_forms.host_memory` reads it ('主机内存
80gb'); before, the size was named ``unread``.

Only where the host is plainly meant: 内存 (not 显存, nor 统一内存) or RAM / system / host / CPU memory
asked with '多大 / 多少 / how much', the size right after that question (within its sentence or the next
one) with '够吗 / 够不够 / 行吗 / enough', and the message names the card's memory apart (显存, VRAM), a CPU
offload or a runtime on the CPU (llama.cpp, GGUF, Ollama) — so a loose '内存' for a card's memory ('4090
要多大的内存？24G 够吗') is left to the card rules. Called behind a C-level test for '够' / 'enough'
(bot.parse.settings).
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

OFFERED_RE = rc(
    r"(?:(?:多大|多少)\s*(?:的|g|gb)?\s*(?<!显)(?<!统一)内存|(?<!显)(?<!统一)内存[^，。？?！!\n]{0,20}?(?:多大|多少))"
    r"[^。？?！!\n]{0,20}?[？?，,]\s*"
    r"(?P<v>\d{1,4})\s*(?P<u>g|gb|gib|t|tb)(?![a-z0-9])\s*(?:的?\s*内存\s*)?(?:够吗|够不够|够用吗|行吗|行不行|可以吗)"
    r"|how\s+much\s+(?:system\s+|host\s+|cpu\s+)?(?:ram|(?<=system\s)memory|(?<=host\s)memory|(?<=cpu\s)memory)\b"
    r"[^.?!\n]{0,40}?[?,]\s*(?:is|would|will)?\s*(?P<v2>\d{1,4})\s*(?P<u2>g|gb|gib|t|tb)\b"
    r"(?:\s+(?:of\s+)?(?:ram|memory))?\s+(?:be\s+)?enough"
)
"""The host memory asked, then a size offered with 'enough' (the module doc)."""
APART_RE = re.compile(r"显存|vram|gpu\s*memory|offload|卸载|cpu|llama|gguf|ollama")
"""The card's memory said apart, a CPU offload, or a runtime that runs on the CPU: 内存 is the host's."""


def offered_ram(s: str) -> str:
    """``s`` (normalized, lower-cased) with a host-memory size offered after the question written as the
    host's memory ('主机内存 80gb'), when the card's memory is said apart or a CPU offload is named; else
    ``s`` unchanged."""
    m = OFFERED_RE.search(s)
    if m is None or APART_RE.search(s) is None:
        return s
    k = "" if m.group("v") else "2"
    start, end = m.start("v" + k), m.end("u" + k)
    return f"{s[:start]}主机内存 {m.group('v' + k)}{m.group('u' + k)}{s[end:]}"
