"""The words a number-and-unit reader needs, asked in C before its pattern searches the message.

Most of the normalizing rewrites look for a number followed by a unit or a word ('12G 或者 16G',
'24GB/80GB', '8 卡服务器', '8G 以下', '3 种卡', '4.2×10^22', '2 到 3 周'). Such a pattern starts with
``\\d`` (or a number's alternation), so the regex engine's start scan stops at every digit of the message
and tries the whole pattern there: ~1.5–5.5 µs a search on a median corpus message (measured with a
profile hook over the middle 70 questions of tests/data/questions.json, session 32), ~20 such searches a
parse, and most messages have none of these forms. Every match of each pattern holds one of the words
below (its unit, its connective, its lookahead's word), so ``any(map(s.__contains__, CUES))`` (C: no
Python frame, ~40 ns a word) answering False means the pattern cannot match ``s``, and the call site
skips the search; the pattern still decides whenever a word is present, so no answer changes.
tests/test_unit_cues.py proves each tuple from its pattern's parsed form (every match contains one of
the words) and checks it over the corpus texts. The gates the session-31 readers had (the patterns
below) move here beside their words.
"""

from __future__ import annotations

import re

ALT_MEMORY_GATE = re.compile(r"\d\s*g[^\n]{0,8}?(?:或者?|或是|还是|/|\bor\b)\s*\d")
"""Two card memories as options ('12G 或者 16G 的显卡', 'a 12GB or 16GB card': bot.parse.memory_forms)."""
ALT_MEMORY = ("/", "or", "或", "还是")

USED_OF_GATE = re.compile(r"\d\s*(?:mib|mb|gib|gb|g)?\s*(?:/|out of|of)\s*\d")
"""Memory used of the card's ('20GB/80GB', '30 of 48 GB': bot.parse.memory_forms)."""
USED_OF = ("/", "of")

KIND_EACH_GATE = re.compile(r"\d\s*(?:gb|gib|g)\s+(?:of\s+\S+(?:\s+memory)?|available|free|usable)\s+each")
"""'4 GPUs, 24 GB of VRAM each' (bot.parse.memory_forms)."""
KIND_EACH = ("each",)

CARD_KINDS = ("种", "款", "类", "型号", "kinds", "types", "models", "brands", "families", "options", "these")
"""bot.parse.gpu_kinds.KINDS_RE: '三种卡', 'three GPU types', 'these two cards'."""

LAPTOP_AFTER = ("laptop", "max", "mobile", "notebook", "移动", "笔记本")
"""bot.parse.hardware_specs._LAPTOP_AFTER_GATE: '4090 laptop', '3080 max-q', '4060 笔记本'."""

POWER = ("^", "**")
"""bot.parse.normalize's ``_MANTISSA_POWER_RE`` and ``_POWER_RE``: '4.2×10^22', '10**21'."""

CHASSIS = ("box", "chassis", "machine", "server", "system", "主机", "服务器", "机器", "机箱")
"""bot.parse.chassis_slots.CHASSIS_GATE: 'an 8-GPU chassis', '8 卡服务器'."""

BOUND_MEMORY = ("之内", "以下", "以内")
"""bot.parse.bound_memory.GATE_RE: '8G 以下的显存'."""

TIMES = ("x", "×", "*")
"""A product of two numbers ('49GB*4', '8x80G', '2×8 … 4×8'): bot.parse.written_products._PRODUCT_GATE and
bot.parse.count_forms._PRODUCT_PAIR_GATE."""

RANGE_UNITS = ("week", "day", "month", "个", "周", "星期", "礼拜", "月", "天")
"""bot.parse.time_forms._RANGE_GATE: '2 到 3 周', '3-4 weeks'."""
