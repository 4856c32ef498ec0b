"""A plain 内存 (or 'memory') with a size beside a catalog card (s42 zhleft #3, issue 24): '单张 4090，内存
128G' — people write 内存 both for the host's RAM and, loosely, for the card's memory. With no card memory
said apart, the card's own size tells which: a size within :data:`SAME_CARD` of the card's catalog memory
('单张 4090，内存 24G', '4090 24G 内存': the 4090 has 24 GiB, NVIDIA's datasheet) is the card's
(``gpu_memory_gib``); any other size ('内存 128G') is the host's RAM (``host_memory_gib``: used where it
matters, the offload, llama.cpp's CPU layers, a no-GPU run; a training run with no offload names it as
bot.parse.settings does, 'host_memory: 128 GB' ``no_field``). Before, the size was named ``unread`` ('内存
128G'), or read as the host's when it was the card's own ('4090 24G 内存').

Only a size left unread, or read as the host's right after the card's own size, is taken: a number another
reader used is never moved. '内存不够' with no number is nothing to read. Gated at the call site
(bot.parse.parse) by a card, an item or host memory, and '内存' or 'memory' in the text.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc
from bot.parse.result import ParseResult
from estimator import catalog
from estimator.models import Stage

SAME_CARD = 0.1
"""Relative gap under which a size is the card's own memory (24 vs 24 GiB; 80 vs 79.6 as some write it)."""
BARE_RAM_RE = rc(
    r"(?<![显a-z])内存\s*(?:是|有|为|:|共|只有|才)?\s*(?P<v>\d{1,4})\s*(?P<u>g|gb|gib|t|tb)(?![a-z0-9])"
    r"|(?<![a-z_\-])memory\s*(?:is|of|:|=)?\s*(?P<v2>\d{1,4})\s*(?P<u2>g|gb|gib|t|tb)(?![a-z0-9])"
    r"|(?<![\d.])(?P<v3>\d{1,4})\s*(?P<u3>g|gb|gib|t|tb)\s+(?:of\s+)?memory\b"
)
"""'内存 128G', 'memory 128GB', '128GB of memory': a bare memory word and a size (no host or card word)."""
CARD_SIZE_RAM_RE = rc(r"\d\s*(?:ti|super|d|s)?\s+(?P<v>\d{1,3})\s*g(?:b|ib)?\s*(?:的\s*)?内存(?!\s*\d)")
"""'4090 24G 内存': a size right after a card's number, then 内存 — the card's size (the module doc)."""
OFFLOAD_RE = re.compile(r"offload|卸载")
_TRAINING = (Stage.pretrain, Stage.finetune, Stage.continued_pretrain)


def _size(m: re.Match[str]) -> tuple[str, float]:
    k = "" if m.group("v") else "2" if m.group("v2") else "3"
    value, unit = m.group("v" + k), m.group("u" + k)
    return value, float(value) * (1024 if unit.startswith("t") else 1)


def with_plain_ram(parsed: ParseResult) -> ParseResult:
    """``parsed`` with a plain 内存 size beside its card read as the card's memory or the host's RAM (GiB;
    the module doc); unchanged (the same object) when the card is not in the catalog, a card memory was
    read, or the size is no unread number."""
    req = parsed.request
    card = catalog.gpus().get(req.gpu or "")
    if card is None or req.gpu_memory_gib is not None:
        return parsed
    s = parsed.normalized
    if req.host_memory_gib is not None:  # '4090 24G 内存': read as the host's, the card's own size
        m = CARD_SIZE_RAM_RE.search(s) if "内存" in s else None
        if (
            m is None
            or abs(float(m.group("v")) - req.host_memory_gib) > 0.5
            or not _same(card, req.host_memory_gib)
        ):
            return parsed
        request = req.model_copy(update={"gpu_memory_gib": req.host_memory_gib, "host_memory_gib": None})
        found = sorted({*parsed.found, "gpu_memory_gib"} - {"host_memory_gib"})
        return parsed.model_copy(update={"request": request, "found": found})
    m = BARE_RAM_RE.search(s)
    if m is None:
        return parsed
    typed, gib = _size(m)
    if (typed, "unread") not in parsed.unused_numbers:
        return parsed
    unused = [u for u in parsed.unused_numbers if u != (typed, "unread")]
    if _same(card, gib):
        request, field = req.model_copy(update={"gpu_memory_gib": gib}), "gpu_memory_gib"
    elif req.stage in _TRAINING and not OFFLOAD_RE.search(s):  # no offload: the host's, named
        unit = "TB" if gib >= 1024 else "GB"
        unused.append((f"host_memory: {gib / 1024 if unit == 'TB' else gib:g} {unit}", "no_field"))
        return parsed.model_copy(update={"unused_numbers": unused})
    else:
        request, field = req.model_copy(update={"host_memory_gib": gib}), "host_memory_gib"
    found = sorted({*parsed.found, field})
    return parsed.model_copy(update={"request": request, "unused_numbers": unused, "found": found})


def _same(card: catalog.GpuSpec, gib: float) -> bool:
    return abs(gib - card.memory_gib) <= SAME_CARD * card.memory_gib
