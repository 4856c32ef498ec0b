"""More ways people write the host's memory (issue 24, round 33 zh), read by
:func:`bot.parse.prose_forms.host_memory` as the forms it already knows are:

- **A cloud or server spec, cores then memory** ('32C64G 的服务器', '8c32g', '16核64G', '4 vCPU/16G'): the
  memory is the machine's RAM, never a card's (cloud consoles write instance sizes so; before, unread).
- **A config's memory key** ('memory=40GB' of a ``.wslconfig``, Docker's '--memory=32g'): the RAM the machine
  or container gets; never a card's key ('gpu_memory=', 'max_memory', '--gpu-memory-utilization'), which a
  letter, '_' or '-' before the word tells.
- **Modules times their size** ('内存 16G*2 DDR4', '64GB x 2 of RAM', '2x16GB DDR4 内存'): the product is the
  RAM (before, the first size only, and the count named as unread).
- **A card said with its own memory, then 内存** ('V100 32G、内存 63G', '4090 24G，内存 64G'): the 内存 is the
  host's (the card's memory is said apart), as with '显卡 4060ti 16g' before 内存.

The caller's gate is its own (:data:`bot.parse.prose_forms._HOST_GATE_RE`, which :data:`HOST_GATE` extends
with the spec's digits-letter-digits); nothing here searches a message that has none of these words.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

HOST_KEYS = (
    r"|(?<![a-z0-9.])\d{1,3}\s*(?:c|核|vcpus?|cores?)\s*/?(?=\s*\d{1,4}\s*(?:g|gb|gib|t|tb)(?![a-z0-9]))"
    r"|(?<![a-z0-9_\-.])(?:--)?memory(?=\s*=\s*\d)"
)
"""Branches of the host key (:data:`bot.parse.prose_forms.HOST_MEMORY_RE` group ``q``): the spec's cores and
a config's ``memory=`` (see the module docstring)."""
HOST_GATE = r"|\d\s?(?:c|核)\s?\d"
"""The spec's digits, a core letter and digits ('32c64g', '16核64g'), added to the host gate."""
CARD_THEN_HOST = (
    r"|(?<![a-z0-9])(?:[a-z]{2,6}\s)?[a-z]{0,4}\d{2,4}[a-z]?\s*(?:ti|super|pro)?\s*\d{1,3}\s*g(?:b|ib)?"
    r"\s*[，,；;、（(]\s*内存"
)
"""A card's name and its memory, then 内存 after a list mark ('v100 32g、内存 63g'), added to the hardware
line of :data:`bot.parse.prose_forms._HARDWARE_LINE_RE`. s42 round 38 zh: a vendor word before the card and a
letter after its number, and a bracket as the mark ('RTX 4090D 24GB（内存 128GB）')."""
CARD_MEMORY_APART = (
    r"|(?<![a-z0-9])(?:[a-z]{2,6}\s)?[a-z]{0,4}\d{2,4}[a-z]?\s*(?:ti|super|pro)?\s*[（(]\s*\d{1,3}\s*g(?:b|ib)?"
    r"\s*(?:显存)?\s*[)）]|\d\s*g(?:b|ib)?\s*的?\s*显存"
)
"""s45 round 41 zh: the card's memory in brackets after it ('一张 A10（24GB）') or a size before 显存
('A10 24GB 显存'), anywhere in the message: the card's memory is said apart, so a bare 内存 ('内存 64GB
够吗？') is the host's, as after a hardware line (before, named ``unread``). Added to
:data:`bot.parse.prose_forms._HARDWARE_LINE_RE`."""
_RAM_AFTER = r"(?=\s*(?:的\s*)?(?:(?:lp)?ddr[45]|内存|ram\b|of\s+(?:system\s+)?ram))"
RAM_PRODUCT_RE = rc(
    r"(?P<pre>(?<!显)内存\s*(?:是|有|为|:)?\s*)(?P<m>\d{1,3})\s*(?P<u>gb|gib|g)\s*[x*×]\s*(?P<n>[1-9])(?![\d.])"
    rf"|(?<![\d.a-z])(?P<n2>[1-9])\s*[x*×]\s*(?P<m2>\d{{1,3}})\s*(?P<u2>gb|gib|g){_RAM_AFTER}"
    rf"|(?<![\d.a-z])(?P<m3>\d{{1,3}})\s*(?P<u3>gb|gib|g)(?:\s*host\s+memory)?\s*[x*×]\s*(?P<n3>[1-9])(?![\d.]){_RAM_AFTER}"
)
"""Memory modules times their size beside a RAM word ('内存 16g*2', '2x16gb ddr4', '64gb x 2 of ram')."""


def _ram_product(m: re.Match[str]) -> str:
    k = "" if m.group("m") else "2" if m.group("m2") else "3"
    size, unit = int(m.group("m" + k)), m.group("u" + k)
    return f"{m.group('pre') or ''}{size * int(m.group('n' + k))}{unit}"


def ram_products(s: str) -> str:
    """``s`` with each RAM product of :data:`RAM_PRODUCT_RE` written as its total ('内存 32g'), before the
    card products read '16g*2' as two cards of 16 GB (bot.parse.written_products); the caller's gate: a
    RAM word in ``s``."""
    return RAM_PRODUCT_RE.sub(_ram_product, s)


CARD_MEMORY_KEY_RE = rc(
    r"(?:\bgpus?\b|\bcards?\b|显卡|显存|\bvram\b|\bgraphics\b)[^.,;，。；\n]{0,24}?"
    r"(?<![a-z0-9_\-.])(?P<k>memory\s*=\s*)(?=\d)"
)
"""s37-rev: a ``memory=`` after a card word ('a GPU with memory = 24GB', '显卡 memory=24GB') is the card's;
never Docker's '--gpus all --memory=32g' (a flag: the container's RAM) nor a key on a line of its own."""


def card_memory_keys(s: str) -> str:
    """``s`` with each card's ``memory =`` key of :data:`CARD_MEMORY_KEY_RE` written 'vram =' (the card rules
    read it so); called by :func:`bot.parse.normalize.normalize` on a text with 'memory' and '='."""
    return CARD_MEMORY_KEY_RE.sub(lambda m: m.group(0)[: m.start("k") - m.start()] + "vram = ", s)
