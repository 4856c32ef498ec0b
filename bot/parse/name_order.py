"""Model names written out of the order the name readers know (round 14 en), rewritten as family then size.

- **A size, a noun, "of", the family** ("the 120b model of gpt-oss", "the 70B version of Llama 3.1", "the
  32B variant of Qwen2.5", "the 7B-parameter release of Mistral"): the family's release of that size, as
  "gpt-oss 120b" reads. Before, the size was sized as a generic dense model and the family dropped or named
  as an unknown model without its size.
- **The family, 的, the size, a noun** ("gpt-oss 的 120b 版本", "Qwen2.5 的 32B 模型"): the same in
  Chinese; before, a hyphenated family ('gpt-oss') lost its release.
- **A 'v' before the family's version** ("Llama-v3.1-8B-Chat", "Llama-v2-7B-Chat", "Qwen-v2.5-7B"; Qualcomm
  AI Hub and model zoos write them so): the version without its 'v' ('llama3.1-8b-chat'), as the catalog
  names the release. DeepSeek's 'V3' and Mistral's trailing 'v0.3' are part of their names and untouched.

Read by :func:`bot.parse.written_names.written_names`, each behind a substring gate. The family must be
one of :data:`bot.parse.lexicon.MODEL_FAMILIES` (or 'gpt-oss'), so "the 8B version of it" or "the 2B model
of ours" is left alone."""

from __future__ import annotations

import re

from bot.parse import lexicon as lx
from bot.parse.regex import rc

_FAMILY = "|".join(
    sorted({re.escape(f) for f in lx.MODEL_FAMILIES} | {"gpt-oss", "gpt\\s*oss"}, key=lambda f: (-len(f), f))
)
_NAME = rf"(?:{_FAMILY})(?:[\-_.]?[a-z0-9.]+)*(?:\s+\d+(?:\.\d+)?(?![\d.]*\s*[bm]\b))?"
SIZE_OF_FAMILY_RE = rc(
    rf"(?<![a-z0-9.])(?P<size>\d+(?:\.\d+)?\s?[bm])(?:[\s\-]*param(?:eter)?s?)?\s+"
    rf"(?:model|version|variant|release|flavou?r|size|edition|checkpoint)s?\s+of\s+(?:the\s+)?"
    rf"(?P<name>{_NAME})(?![a-z0-9.\-_])"
)
"""'the 120b model of gpt-oss', 'the 70b version of llama 3.1': a size, a noun, 'of', a family's name."""
FAMILY_DE_SIZE_RE = rc(
    rf"(?<![a-z0-9.\-_])(?P<name>{_NAME})\s*的\s*(?P<size>\d+(?:\.\d+)?\s?[bm])(?![a-z0-9])"
    r"(?=\s*(?:版本|模型|型号|参数|的?规格))"
)
"""'gpt-oss 的 120b 版本': a family's name, 的, a size, then a noun of versions or models."""
VERSION_V_RE = rc(
    r"(?<![a-z0-9])(?P<fam>llama|codellama|qwen|gemma|phi|baichuan|internlm|falcon|yi)[\s\-_]?v"
    r"(?P<ver>[1-9]\d?(?:\.\d{1,2})?)(?=[\s\-_]|$)"
)
"""'llama-v3.1', 'qwen-v2.5', 'llama v2': a family, a 'v', its version (never 0: no family released a v0, and
'zephyr-7b-gemma-v0.1' is a fine-tune's own version, kept as typed: s46 review B2)."""


OF_NOUN_RE = re.compile(
    r"\d\s?[bm](?:[\s\-]*param(?:eter)?s?)?\s+(?:model|version|variant|release|flavou?r|size|edition|checkpoint)s?\s+of\s"
)
"""The gate of :data:`SIZE_OF_FAMILY_RE` (a plain compiled pattern: its search is C, no Python frame)."""
DE_SIZE_RE = re.compile(r"的\s*\d+(?:\.\d+)?\s?[bm](?![a-z0-9])")
"""The gate of :data:`FAMILY_DE_SIZE_RE`."""
V_VERSION_GATE_RE = re.compile(r"(?:llama|qwen|gemma|phi|baichuan|internlm|falcon|yi)[\s\-_]?v\d")
"""The gate of :data:`VERSION_V_RE`."""


def family_size(m: re.Match[str]) -> str:
    """The name then the size of a match of :data:`SIZE_OF_FAMILY_RE` or :data:`FAMILY_DE_SIZE_RE`."""
    return f" {m.group('name')} {m.group('size').replace(' ', '')} "
