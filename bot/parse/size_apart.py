"""A catalog release named with its size apart from its name (issue 24 item 1, s21): 'the 120b of
gpt-oss', 'the 72B version of Qwen2.5', 'gpt-oss 的 120b', 'gpt-oss's 120b', '120b 的 gpt-oss'. The
name and the size, put together as a release is written ('gpt-oss 120b'), are the model when that is a
catalog name exactly (:func:`bot.parse.models` ``_catalog_name_at`` over the whole of it); otherwise the
words are left to the other passes (no family guess from a split phrase)."""

from __future__ import annotations

from collections.abc import Callable

from bot.parse.regex import rc

_NAME = r"[a-z][a-z0-9.+\-_]*(?:\s+v?\d+(?:\.\d+)?(?![\d.]*\s?[bm](?![a-z])))?"
_SIZE = r"(?P<size>\d+(?:\.\d+)?)\s?(?P<u>[bm])"
_NOUN = r"(?:(?:version|variant|one|model|size|release|flavou?r|edition|checkpoint)\s+)?"
SIZE_OF_RE = rc(rf"(?<![a-z0-9.]){_SIZE}\s+{_NOUN}(?:of|from)\s+(?:the\s+)?(?P<name>{_NAME})(?![a-z0-9.\-_])")
"""'the 120b of gpt-oss', 'the 72B version of Qwen2.5', 'the 8b one from llama 3'."""
NAME_DE_RE = rc(
    rf"(?<![a-z0-9.\-_])(?P<name>{_NAME})\s*(?:'s|’s|(?:里|中|系列)?的)\s*(?:那个\s*|the\s+)?{_SIZE}(?![a-z0-9])"
)
"""'gpt-oss 的 120b', 'gpt-oss 系列的 120b', "gpt-oss's 120b"."""
SIZE_DE_RE = rc(rf"(?<![a-z0-9.]){_SIZE}\s*(?:参数量?\s*)?的\s*(?P<name>{_NAME})(?![a-z0-9.\-_])")
"""'120b 的 gpt-oss'; s42 round 38 zh: a parameter word between ('70B 参数的 DeepSeek-R1'). English 'the
70B-parameter X' is :data:`bot.parse.model_names.SIZE_FIRST_RE`'s (a name the catalog does not list first)."""
SIZES_LATER_RE = rc(
    rf"(?<![a-z0-9.\-_])(?P<name>{_NAME})(?![a-z0-9.\-_])[^。？?！!\n\d]{{0,16}}?[，,:：]\s*(?:the\s+)?{_SIZE}"
    r"(?=\s*(?:和|、|或者?|还是|与|跟|,|and|or)\s*(?:the\s+)?\d+(?:\.\d+)?\s?[bm]\s*"
    r"(?:这|那)?\s*(?:两|几|三|\d)?\s*(?:个)?\s*(?:版本|规格|尺寸|型号|versions?\b|variants?\b|sizes?\b))"
)
"""Round 36 zh: a family named, then in the next clause its sizes listed as its versions ('DeepSeek R1 本地
部署，14B 和 32B 这两个版本', 'Qwen2.5 for serving: the 7B and 14B versions'): the first size with the name is
the release sized (the others are named by the list readers)."""
GATE_RE = rc(r"\d\s?[bm]\s+(?:\w+\s+)?(?:of|from)\s|的|'s\s|’s\s")
"""Cheap test that one of the forms may be present."""

Resolve = Callable[[str], str | None]
"""A written release ('gpt-oss 120b') → its catalog id when that is a catalog name exactly, else None."""


def size_apart(s: str, resolve: Resolve) -> list[tuple[int, int, str, str, float]]:
    """(start, end, release as written, catalog id, size in parameters) of each name and size apart in
    the normalized text ``s`` that together are a catalog release; spans never overlap."""
    gate = GATE_RE.search(s) is not None
    later = ("版本" in s or "规格" in s or "version" in s or "variant" in s) and (  # round 36: cheap tests
        "和" in s
        or "、" in s
        or "或" in s
        or "还是" in s
        or "与" in s
        or "跟" in s
        or " and " in s
        or " or " in s
    )
    if not (gate or later):
        return []
    out: list[tuple[int, int, str, str, float]] = []
    patterns = ((SIZE_OF_RE, NAME_DE_RE, SIZE_DE_RE) if gate else ()) + ((SIZES_LATER_RE,) if later else ())
    for pattern in patterns:
        for m in pattern.finditer(s):
            if any(a < m.end() and m.start() < b for a, b, *_ in out):
                continue
            name = m.group("name").strip()
            written = f"{name} {m.group('size')}{m.group('u')}"
            model_id = resolve(written)
            if model_id is not None:
                size = float(m.group("size")) * (1e9 if m.group("u") == "b" else 1e6)
                out.append((m.start(), m.end(), written, model_id, size))
    return out
