"""A family and release named without a size ('Qwen3', 'Llama 3.2', 'qwen2.5', 'GLM-4.5' beside no size;
s30): the catalog has several models of that release, so the mention names the release as a family —
its sizes suggested, none of them sized in its place (docs/design.md §8: nothing the user named is
replaced silently). The reply then says the release comes in several sizes
(templates/_extras.j2, ``model_family_only``) instead of "could not find the model".
"""

from __future__ import annotations

import re
from typing import Any

from estimator import catalog


def release_sizes(keys: Any, fam: str, ver: str | None, text: str = "") -> list[str]:
    """The catalog ids of family ``fam``'s release ``ver`` (keys of ``bot.parse.models``' index:
    ``fam``, ``ver``, ``model_id``), smallest first, when there are two or more; else []. Shape:
    ``keys`` an iterable of objects with those attributes; ``ver`` as the index keys it (separators
    dropped: '2.5', '3'); None (no release said) gives []. A size said elsewhere in the normalized
    ``text`` ('GRPO on a 7B model … for Qwen2.5') gives []: the size is sized, as before (s29
    bot.parse.family_size), and the release is not named as a family of sizes."""
    if ver is None or _SIZE_SAID.search(text):
        return []
    ids = list(dict.fromkeys(k.model_id for k in keys if k.fam == fam and k.ver == ver))
    plain = [i for i in ids if _plain(i, fam + ver)]  # Qwen2.5-7B before Qwen2.5-Coder-7B
    ids = plain if len(plain) >= 2 else ids
    if len(ids) < 2:
        return []
    models = catalog.models()
    return sorted(ids, key=lambda i: models[i].params_total if i in models else 0.0)


_SIZE_SAID = re.compile(r"(?<![a-z0-9.])\d+(?:\.\d+)?\s?[bm](?![a-z0-9])")
"""A parameter size written anywhere in a normalized message ('7b', '1.5 b', '500m')."""
_SIZE_TAIL = re.compile(r"[-_ ]?\d+(?:\.\d+)?[BM](?:-A\d+(?:\.\d+)?B)?(?:-\d+E)?$")
"""A size at the end of a catalog id: '-7B', '-30B-A3B', '-17B-16E'."""


def sizes_line(typed: str, ids: list[str]) -> tuple[str, str]:
    """The reply's list of a release's sizes and an example taken from it (trial s30 #3: the list was
    cut at four, the example '7B' a size Qwen3 lacks). Ids of one stem ('Qwen3-0.6B' … 'Qwen3-235B-A22B')
    list their sizes alone ('0.6B / 1.7B / … / 235B-A22B') and the example is ``typed`` + the middle
    size ('Qwen3 14B'); ids of several stems ('StarCoder2-7B', 'StarCoder-15.5B') are listed whole (at
    most 8) and the example is the middle id."""
    ids = ids[:8]
    tails = [_SIZE_TAIL.search(i) for i in ids]
    if ids and all(tails) and len({_SIZE_TAIL.sub("", i) for i in ids}) == 1:
        sizes = [t.group(0).lstrip("-_ ") for t in tails if t]
        return " / ".join(sizes), f"{typed} {sizes[len(sizes) // 2]}"
    return " / ".join(ids), ids[len(ids) // 2] if ids else typed


def size_names(ids: list[str]) -> list[str]:
    """Each id's size as :func:`sizes_line` lists it ('14B', '30B-A3B') when the ids share one stem, else
    the ids whole (s31)."""
    tails = [_SIZE_TAIL.search(i) for i in ids]
    if ids and all(tails) and len({_SIZE_TAIL.sub("", i) for i in ids}) == 1:
        return [t.group(0).lstrip("-_ ") for t in tails if t]
    return list(ids)


def release_name(ids: list[str]) -> str | None:
    """The release as the catalog writes it ('Qwen3', 'Llama-3') when the ids share one stem, else None."""
    stems = {_SIZE_TAIL.sub("", i) for i in ids}
    return stems.pop() if len(stems) == 1 and all(_SIZE_TAIL.search(i) for i in ids) else None


def _plain(model_id: str, release: str) -> bool:
    """Whether ``model_id`` is the release's plain model of a size ('Qwen2.5-7B' for 'qwen2.5'), not
    a tier of it ('Qwen2.5-Coder-7B', 'Qwen2.5-Math-7B')."""
    stem = _SIZE_TAIL.sub("", model_id)
    return re.sub(r"[^a-z0-9.]", "", stem.lower()) == re.sub(r"[^a-z0-9.]", "", release.lower())


LADDER_MAX = 10
"""At most this many sizes of a family named alone are sized (s35 fixd #1: one line each in the reply)."""


def family_ladder(keys: Any, fam: str) -> list[str]:
    """The sizes of a family named without a release ('deepseek', 'qwen', 'llama' beside a card, asked
    which fits; s35 fixd #1): the catalog's models of family ``fam`` (index keys, as
    :func:`release_sizes`), newest release first (each release's plain models before its tiers: 'Qwen3-8B'
    before 'Qwen3-Coder-30B-A3B'), one per size: a model is left out when one already kept has the same
    size, or a size within 5% from another release (Llama-3.1-70B beside Llama-3.3-70B's 70.6B); at
    most :data:`LADDER_MAX`, smallest first. Distills and lite releases are the family's too
    ('DeepSeek-R1-Distill-Qwen-7B', what ``ollama run deepseek-r1`` pulls; 'DeepSeek-V2-Lite')."""
    from bot.parse.models import _version_number

    models = catalog.models()
    rows: dict[str, str | None] = {}
    for k in keys:
        if k.fam == fam and k.model_id in models:
            rows.setdefault(k.model_id, k.ver)
    order = sorted(
        rows,
        key=lambda i: (
            -_version_number(rows[i]),
            not _plain(i, fam + (rows[i] or "")),
            -models[i].params_total,
        ),
    )
    kept: list[tuple[str, float, str | None]] = []
    for i in order:
        p, ver = models[i].params_total, rows[i]
        if any(p == q or (v != ver and abs(p - q) <= 0.05 * max(p, q)) for _, q, v in kept):
            continue
        kept.append((i, p, ver))
        if len(kept) == LADDER_MAX:
            break
    return [i for i, _, _ in sorted(kept, key=lambda r: r[1])]


def with_family_ladder(parsed: Any) -> Any:
    """``parsed`` (a ParseResult asked which size fits) with a family named alone ('deepseek', not
    'deepseek v3') suggesting :func:`family_ladder`'s sizes instead of its four newest releases."""
    from bot.parse.model_index import _model_index

    typed = (parsed.unknown_model or "").strip().lower()
    idx = _model_index()
    if typed not in idx.families:
        return parsed
    ladder = family_ladder(idx.keys, typed)
    return parsed.model_copy(update={"model_suggestions": ladder}) if len(ladder) >= 2 else parsed
