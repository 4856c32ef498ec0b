"""A setting and its value in more word orders and verbs (issue 24, paraphrase robustness), written as the
setting rules read them ('<setting> = <value>'), before the numbers get roles:

- **More assignment verbs, serving settings too** ('max model len bumped to 32768', 'batch size raised to
  4', 'gpu memory utilization lowered to 0.8', 'I raised the batch size to 4'): before, only 'set to' (and a
  change after an earlier value, :mod:`bot.parse.setting_verbs`) was read, and only for training settings;
  the value was named as not used.
- **GPU memory utilization in short** ('gpu util 0.9', 'gpu mem util 0.85', vLLM's
  ``--gpu-memory-utilization``): the setting written out.
- **The value before the setting** ('0.9 gpu memory utilization', '90% gpu util', 'at 0.85 gpu mem util'):
  the setting, then its value.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc
from bot.parse.setting_verbs import _SETTING

_UTIL = r"(?:gpu|vram)[\s_\-]*(?:mem(?:ory)?[\s_\-]*)?util(?:i[sz]ation)?\b"
_SERVING = (
    r"(max[\s_\-]*model[\s_\-]*len(?:gth)?|max[\s_\-]*num[\s_\-]*seqs|max[\s_\-]*num[\s_\-]*batched[\s_\-]*tokens"
    r"|num[\s_\-]*ctx|ctx[\s_\-]*size|context[\s_\-]*(?:length|size|window)|" + _UTIL + ")"
)
_VERB = (
    r"(?:set|bumped|raised|increased|upped|pushed|lowered|reduced|decreased|dropped|cut|changed"
    r"|turned\s+(?:up|down)|cranked(?:\s+up)?)"
)
KEY_VERB_RE = rc(
    r"(?:"
    + _SETTING
    + "|"
    + _SERVING
    + r")\s+(?:(?:is|was|got|gets)\s+)?"
    + _VERB
    + r"\s+(?:it\s+)?(?:to|at)\s+(?=\d)"
)
"""'max model len bumped to 32768', 'batch size raised to 4': the setting, '=', its value."""
VERB_KEY_RE = rc(
    r"\b" + _VERB + r"\s+(?:the\s+|my\s+|our\s+)?(?:" + _SETTING + "|" + _SERVING + r")\s+(?:to|at)\s+(?=\d)"
)
"""'I raised the batch size to 4', 'bumped max model len to 32k': the setting, '=', its value."""
UTIL_SHORT_RE = rc(r"(?<![\w\-])(?:gpu|vram)[\s_\-]*(?:mem[\s_\-]*)?util\b(?!i[sz]ation)")
"""'gpu util', 'gpu mem util': vLLM's gpu_memory_utilization."""
VALUE_FIRST_UTIL_RE = rc(
    r"(?<![\w.])(0?\.\d+|\d{2}(?:\.\d+)?\s*%)\s+(?:of\s+)?(?:the\s+)?(?:gpu|vram)[\s_\-]*mem(?:ory)?[\s_\-]*"
    r"util(?:i[sz]ation)?\b(?!\s*(?:=|:|of|is|at)?\s*\d)"
)
"""'0.9 gpu memory utilization', '90% gpu memory util': the setting, then its value."""
_GATE = re.compile(
    r"util|bump|rais|increas|upped|push|lower|reduc|decreas|dropp|\bcut\b|chang|turned|crank|\bset\b"
)


def _key(m: re.Match[str]) -> str:
    return f"{next(g for g in m.groups() if g)} = "


def assign_forms(s: str) -> str:
    """The normalized text ``s`` with this module's forms written as '<setting> = <value>'."""
    if not _GATE.search(s):
        return s
    if "util" in s:
        s = UTIL_SHORT_RE.sub("gpu memory utilization", s)
        s = VALUE_FIRST_UTIL_RE.sub(r"gpu memory utilization = \1", s)
    s = KEY_VERB_RE.sub(_key, s)
    return VERB_KEY_RE.sub(_key, s)
