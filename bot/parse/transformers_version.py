"""The transformers release and experts backend a training run states (s41 fixtrain #5): 'transformers 5.0',
'transformers==4.57.1', 'transformers>=5', 'transformers v5', 'transformers 版本 4.51.3',
'experts_implementation="grouped_mm"'. From v5 an MoE's experts run grouped GEMMs by default, so the eager
slowdown is not applied (estimator.training_tools.grouped_experts).

A bare 'transformers 4' is no version (it may be a count: 'transformers 4 张 A100'): a version is dotted,
or follows an operator, 'v' or a version word. Not 'sentence-transformers 2.2' nor another package whose
name ends in it. Gated at the call site by 'transformers' or 'experts_impl' in the text.
"""

from __future__ import annotations

from typing import Any

from bot.parse.normalize import mask
from bot.parse.regex import rc

VERSION_RE = rc(
    r"(?<![a-z0-9_\-])transformers\s*"
    r"(?:(?:==|>=|~=|=|:)\s*v?|(?:version|版本(?:是|为|号)?)\s*[:：]?\s*v?|v)"
    r"(?P<v>\d{1,2}(?:[._](?:\d{1,3}|x)){0,2})(?![\d])"
    r"|(?<![a-z0-9_\-])transformers\s+v?(?P<d>\d{1,2}[._](?:\d{1,3}|x)(?:[._]\d{1,3})?)(?![\d])"
)
"""transformers and its release (module doc); the normalized text writes a dotted version 'v4_57_1'."""
EXPERTS_RE = rc(r"experts?_implementation\s*[=:：]\s*[\"']?(?P<e>eager|grouped_mm|batched_mm)(?![a-z_])")
"""transformers v5's ``experts_implementation`` (from_pretrained argument or config key)."""


def read_transformers(out: Any) -> None:
    """``transformers_version`` and ``experts_implementation`` into ``out.fields`` (a
    :class:`bot.parse.prose_vocab.Vocab`), each masked in ``out.s`` so its figures get no other role."""
    if "transformers" in out.s and (m := VERSION_RE.search(out.s)):
        raw = m["v"] or m["d"]
        parts = [p for p in raw.replace("_", ".").split(".") if p != "x"]  # 'v4_57_1': the text's form
        out.fields["transformers_version"] = ".".join(parts)
        out.s = mask(out.s, m.start(), m.end(), " ")
    if "_impl" in out.s and (m := EXPERTS_RE.search(out.s)):
        out.fields["experts_implementation"] = m["e"]
        out.s = mask(out.s, m.start(), m.end(), " ")
