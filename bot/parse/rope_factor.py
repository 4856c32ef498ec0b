"""A RoPE scaling factor said as the context-extension setting it is (issue 24 item 2, s47 workmiss).

People extend a model's window with YaRN (Peng et al. 2023, arXiv:2309.00071) and write it the way the model
card does: Qwen2.5's README adds ``"rope_scaling": {"factor": 4.0, "original_max_position_embeddings":
32768, "type": "yarn"}`` to config.json; in prose 'with YaRN factor 4', 'YaRN x4', '开了 YaRN，factor 4',
'YaRN 4 倍'. The factor is no count and YaRN no tool: with it the model runs native × factor tokens
(vLLM's ``_get_and_verify_max_len`` multiplies the derived max length by ``rope_scaling["factor"]``, so
that is the engine's default --max-model-len). Serving a catalog model with a documented native window
(``estimator.catalog.ModelSpec.native_context``, or the ``original_max_position_embeddings`` said with it)
and no length stated, the engine's length is that product (``max_model_len``) and the factor is named
``rope_factor_used``; with a length stated, the length is sized and the factor changes nothing
(``not_sized``); in training, or for a model whose window is not known, no setting takes it (``no_field``).
Read on the normalized text after a cheap test of 'yarn' / 'rope' in it (:func:`rope_factor`).
"""

from __future__ import annotations

import re
from typing import Any

_N = r"(\d{1,2}(?:\.\d+)?)"
_ROPE = r"(?:yarn|rope[\s_\-]*scal\w*|rope[\s_\-]*factor(?=\W))"
_SPAN = r"(?:[^.。;；?？\n]|\.(?=\w)){0,48}?"
FACTOR_RE = re.compile(
    rf"(?:yarn|rope[\s_\-]*scal\w*|\brope(?=[\s_\-]*factor)){_SPAN}\bfactor\b(?:[\s\"':=]|为|是|设为|设成|\bis\b|\bof\b|\bto\b)*{_N}"
    r"(?![\d.]*\s*[kK%])"
    rf"|{_ROPE}\s*[x×]\s*{_N}\b"
    rf"|(?<![\w.]){_N}\s*(?:x|×|倍)\s*(?:的\s*)?(?:yarn|rope)"
    rf"|{_ROPE}[^.。;；?？\n\d]{{0,12}}{_N}\s*倍",
    re.IGNORECASE,
)
"""The factor of a RoPE scaling said ('yarn factor 4', '"rope_scaling": {"type": "yarn", "factor": 4',
'yarn x4', '4x yarn', 'yarn 扩展 4 倍', 'rope factor 4'): one to two digits, never a length ('factor
32k'). The span from 'yarn' to 'factor' crosses a '.' inside a word ('YaRN 把 Qwen2.5-14B …，rope factor
4'; review s47 B5), never a sentence's end."""
ORIGINAL_RE = re.compile(r"original_max_position_embeddings[\s\"':=]*(\d{3,7})")
"""The window the factor scales, when the config says it (Qwen2.5: 32768)."""
TARGET_RE = re.compile(
    r"(?:扩到|扩展到|拉到|拉长到|扩至|扩展至|\b(?:extend|extended|extending|stretch|stretched|stretching)\b"
    r"(?:[^.。;；?？\n]|\.(?=\w)){0,32}?\bto)\s*(\d{1,4})\s*([kK])\b(?!\s*(?:tokens?\s+)?(?:of\s+)?(?:data|samples?))",
    re.IGNORECASE,
)
"""The window a RoPE scaling extends the model to ('扩到 128k', 'extend it to 128K', 'stretch the context to
64k'; review s47 B5): the engine's max_model_len, K tokens of 1,024 (vLLM reads '128k' as 131,072)."""
LENGTHS = ("max_model_len", "seq_len", "prompt_tokens", "max_completion_length", "tokens_per_request")


def rope_factor(
    raw: str, fields: dict[str, Any], model_id: str | None
) -> tuple[list[tuple[str, str]], list[str]]:
    """Read the RoPE scaling factor of ``raw`` (the message as typed) into ``fields`` (the parse's request
    fields: ``max_model_len`` set to native × factor tokens when serving a catalog model with no length
    stated) and return what is named — ('YaRN factor F' as typed, reason): ``rope_factor_used``,
    ``not_sized`` or ``no_field`` (module docstring), and the original window beside it — with the numbers
    read (as typed: no longer unread); ([], []) when no factor is said."""
    m = FACTOR_RE.search(raw)
    if m is None:
        return [], _extended(raw, fields, model_id)
    numbers = [next(g for g in m.groups() if g)]
    target = TARGET_RE.search(raw)
    tokens = int(target.group(1)) * 1024 if target else 0
    if target and _serving(fields) and {fields.get(k) for k in LENGTHS} <= {None, tokens}:
        numbers.append(target.group(1) + target.group(2))  # as typed: '128k' (a context reader's too)
        return _target(raw, m, fields, model_id, tokens), numbers
    named = _named(raw, m, fields, model_id)
    original = ORIGINAL_RE.search(raw)
    return named, numbers + ([original.group(1)] if original else [])


def rope_read(steps: Any, model_id: str | None) -> None:
    """:func:`rope_factor` on a parse in progress (``bot.parse.assemble``'s steps: ``raw``, ``f`` its
    fields, ``named_unused``, ``unread`` and ``unread_toks``): the items named, and the numbers read taken
    off the unread lists (one occurrence each), so the general reader places none of them."""
    named, numbers = rope_factor(steps.raw, steps.f, model_id)
    steps.named_unused += named
    for n in numbers:
        if n in steps.unread:
            steps.unread.remove(n)
        toks = [t for t in steps.unread_toks if t.raw.strip() == n][:1]
        steps.unread_toks = [t for t in steps.unread_toks if t not in toks]


def _named(raw: str, m: re.Match[str], fields: dict[str, Any], model_id: str | None) -> list[tuple[str, str]]:
    """The items :func:`rope_factor` names for the factor match ``m`` (and ``fields`` set)."""
    factor = float(next(g for g in m.groups() if g))
    said = _said(m)
    original = ORIGINAL_RE.search(raw)
    native = int(original.group(1)) if original else _native(model_id)
    extra = [(original.group(0).strip(), "rope_factor_used")] if original else []
    if factor <= 1:
        return [(said, "not_sized")]
    if any(fields.get(k) for k in LENGTHS):
        return [(said, "not_sized"), *[(t, "not_sized") for t, _ in extra]]
    if not _serving(fields) or not native:
        return [(said, "no_field"), *[(t, "no_field") for t, _ in extra]]
    fields["max_model_len"] = int(native * factor)
    fields["rope_scaling_factor"] = factor  # the engine's window with it (estimator.resolve, review B4)
    return [(said, "rope_factor_used"), *extra]


TRAINING_FIELDS = ("tokens", "budget", "num_samples", "hours", "method")
"""A request's fields that make a message with no stage word a training job (estimator.resolve.resolve_stage:
tokens, a budget, samples or hours give training; a fine-tuning method, too)."""


def _serving(fields: dict[str, Any]) -> bool:
    """Serving: the stage said, or no stage said and no training field set — the stage the estimate defaults
    to (estimator.resolve.resolve_stage, 'no data size given: sized as serving'; review s47 B3: 'Qwen2.5-7B
    with YaRN factor 4 on one L40S' was read before that default and named 'no setting yet')."""
    stage = fields.get("stage")
    return stage == "inference" or (stage is None and not any(fields.get(k) for k in TRAINING_FIELDS))


def _target(
    raw: str, m: re.Match[str], fields: dict[str, Any], model_id: str | None, tokens: int
) -> list[tuple[str, str]]:
    """The factor's items with the window it extends to said (``tokens``, :data:`TARGET_RE`): that window
    is the engine's max_model_len; the factor is used where it reaches it (native × factor ≥ tokens), else
    named beside the length sized (``not_sized``)."""
    fields["max_model_len"] = tokens
    factor = float(next(g for g in m.groups() if g))
    native = _native(model_id)
    used = factor > 1 and native and native * factor >= tokens
    if used:
        fields["rope_scaling_factor"] = factor
    return [(_said(m), "rope_factor_used" if used else "not_sized")]


CONTEXT_WORD_RE = re.compile(
    r"上下文|窗口|长度|context|window|\bctx\b|max[\s_\-]*model[\s_\-]*len", re.IGNORECASE
)
"""What the window extended to is said of ('stretch the context to 64k', '把上下文拉到 64k')."""


def _extended(raw: str, fields: dict[str, Any], model_id: str | None) -> list[str]:
    """A context extended past the model's window with no factor said ('stretch the context to 64k',
    '把上下文拉到 64k'; s48): serving a catalog model whose window (``native_context``, else ``max_context``)
    is shorter than the length, the length is the engine's max_model_len and the RoPE scaling factor is the
    length ÷ the window (``rope_scaling_factor``, as YaRN's factor is set: vLLM's ``_get_and_verify_max_len``
    allows max_model_len up to the derived length × ``rope_scaling["factor"]``), so the answer says how to
    turn it on (estimator.context_window.context_note). A length within the window, or no context word
    within 24 characters before the length ('扩到 64k 条数据' is no window): unchanged. A training job with no
    length stated trains at the length ('Stretch the context of Llama-3-8B to 64k with continued pretraining':
    ``seq_len`` 65,536; trial s48b #3 named the '64k' unread and sized 4,096), as context-extension runs
    train on sequences of the target window (Peng et al. 2023, YaRN §4: fine-tuned at the extended length).
    Returns the length as typed when read ('64k': off the unread list), else []."""
    target = TARGET_RE.search(raw)
    if target is None or not CONTEXT_WORD_RE.search(raw, max(0, target.start() - 24), target.end()):
        return []
    tokens = int(target.group(1)) * 1024
    if not _serving(fields):  # s48b #3: training extends the window by training at that length
        if any(fields.get(k) for k in LENGTHS):
            return []
        fields["seq_len"] = tokens
        return [target.group(1) + target.group(2)]
    native = _native(model_id)
    if not native:
        return []
    if tokens <= native or not {fields.get(k) for k in LENGTHS} <= {None, tokens}:
        return []
    fields["max_model_len"] = tokens
    fields["rope_scaling_factor"] = tokens / native
    return [target.group(1) + target.group(2)]


LEAD_RE = re.compile(r"yarn|rope", re.IGNORECASE)


def _said(m: re.Match[str]) -> str:
    """The factor as typed, from the last 'yarn' / 'rope' of the match ('YaRN 把 Qwen2.5-14B 扩到 128k，rope
    factor 4' → 'rope factor 4')."""
    text = m.group(0)
    leads = [x.start() for x in LEAD_RE.finditer(text)]
    return text[leads[-1] if leads else 0 :].strip()


def _native(model_id: str | None) -> int | None:
    """The catalog model's window without RoPE scaling (``native_context``, else ``max_context``)."""
    if not model_id:
        return None
    from estimator import catalog

    try:
        spec = catalog.model(model_id)
    except (KeyError, ValueError):
        return None
    return spec.native_context or spec.max_context
