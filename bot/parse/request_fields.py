"""The request as the parser hands it on: each field cleaned to what SizingRequest accepts, and the
small helpers the assembly uses (names as typed, articles, recipe tools, GPU alternatives)."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from bot.parse import fixed_patterns as fp
from bot.parse import lexicon as lx
from bot.parse.gpus import GpuMention
from bot.parse.numbers import NumberToken
from bot.parse.regex import ON_SECOND_MESSAGE, compile_pattern, rc
from bot.settings.chat import (
    CONCURRENCY_BOUNDS,
    DEADLINE_DAYS_BOUNDS,
    GPU_COUNT_BOUNDS,
    MFU_BOUNDS,
    PRICE_BOUNDS,
)
from estimator import catalog
from estimator.models import SizingRequest
from estimator.request import bounds

if TYPE_CHECKING:
    from bot.parse.models import ModelMention
    from estimator.catalog import ModelSpec

ABSURD_NUMBER = 1e18
"""No model, dataset, cluster or budget in this domain is larger (the biggest token counts are ~1e14)."""

_CAPPED = (
    "params_total", "params_active", "tokens", "epochs", "num_samples", "tokens_per_sample", "gpu_count",
    "deadline_days", "budget", "price_per_gpu_hour", "seq_len", "batch_size", "concurrency", "mfu",
    "global_batch",
)  # fmt: skip
_CAPS: dict[str, float] = {name: bounds(name)[1] for name in _CAPPED}
"""The highest value a question may state for each numeric field, derived from the field's declaration
(``stated`` in estimator.request: one declaration per setting); a value beyond it is named as a bad
value (:func:`beyond_bounds`), never dropped in silence."""
_INT_FIELDS = {"gpu_count", "seq_len", "batch_size", "concurrency", "global_batch"}

ROLE_BOUNDS = {
    "mfu": MFU_BOUNDS,
    "days": DEADLINE_DAYS_BOUNDS,
    "price": PRICE_BOUNDS,
    "count": GPU_COUNT_BOUNDS,
    "concurrency": CONCURRENCY_BOUNDS,
    "batch": bounds("batch_size"),
}
"""Roles whose values must lie in the bounds every input path shares (bot.settings.chat, and the bounds
declared with the request's fields: estimator.request.bounds)."""

_MAG = r"(?:\s?(?:bn|mn|billion|trillion|million|[kmbt])(?![a-z]))?"
NON_FINITE_RE = rc(
    r"(?<![a-z0-9_.,])(?P<digits>\d+(?:\.\d+)?e\+?\d{3,})"
    + _MAG
    + r"|∞"
    + _MAG
    + r"|(?<![a-z])(?P<word>nan|inf(?:inity)?)(?:\s?[kmbt](?![a-z])|(?=\s*(?:tokens?|params?|parameters?|"
    r"gpus?|cards?|days?|hours?|%|天|张|卡|个|亿|万)))"
)
"""Numbers no float holds: an exponent past 1.8e308 ('1e309B', '10^400' after normalizing), '∞',
and 'NaN' / 'inf' where a number goes ('NaN B', 'inf tokens')."""


def clean_value(name: str, value: Any) -> Any:
    """The value if the SizingRequest field would accept it and it is not absurd, else None."""
    if name not in _CAPS:
        return value
    try:
        v = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    if not math.isfinite(v) or v <= 0 or v > _CAPS[name]:
        return None
    if name in _INT_FIELDS:
        iv = round(v)
        return iv if iv >= 1 else None
    return v


def beyond_bounds(fields: dict[str, Any]) -> list[tuple[str, str]]:
    """(``'seq_len: 200000000'``, ``'bad_value'``) for each finite positive value in ``fields`` above its
    declared bound (:data:`_CAPS`): :func:`clean_value` leaves it out of the request, and the reply names it
    (the mechanism of bot.parse.prose_vocab for settings read from prose)."""
    out = []
    for name in filter(_CAPS.__contains__, fields):  # C: the ~10 uncapped of ~25 fields cost no step (s30)
        value = fields[name]
        if value is None or isinstance(value, bool):  # None: float() would raise, skipped as before
            continue
        try:
            v = float(value)
        except (TypeError, ValueError, OverflowError):
            continue
        if math.isfinite(v) and v > _CAPS[name]:
            out.append((f"{name}: {v:.15g}", "bad_value"))
    return out


_CUES = frozenset(
    {"cost_asked", "global_batch_asked", "epochs_asked", "checkpoint_asked", "merge_asked", "machines_asked"}
)
"""Request fields that are a cue of the question, not a value it states: never among the fields found (a
follow-up asking the cost changes nothing; s35)."""


_BY_FIELD: list[Callable[[dict[str, Any]], SizingRequest]] = []
"""From the parse's second message on: :func:`sizing_request` (s47-speedparse), when the model allows it
(:func:`by_field_usable`); a one-message ``ask`` never reads the model's schema."""


def _by_field() -> None:
    if by_field_usable():
        _BY_FIELD.append(sizing_request)


ON_SECOND_MESSAGE.append(_by_field)

_FIELD_SCHEMAS: dict[str, Any] = {}
"""Field name → its core schema (the model's model-fields entry's ``schema``): filled by
:func:`by_field_usable`."""
_FIELD_VALIDATORS: dict[str, Any] = {}
"""Field name → a ``pydantic_core.SchemaValidator`` of its schema, made on the field's first use (at most
one a field of the model, each small)."""
_DEFAULTS: dict[str, Any] = {}
"""A ``SizingRequest()``'s ``__dict__``: every field's default, in the model's field order."""
_MODEL_CONFIG: dict[str, Any] = {}


def by_field_usable() -> bool:
    """Whether :func:`sizing_request` builds the model as pydantic does: no custom ``__init__``, no root
    model, no model validator or computed field, no private attribute, every default None; its schema
    then read (``SizingRequest.__pydantic_core_schema__``). False leaves ``SizingRequest(**fields)``."""
    default = SizingRequest()  # builds the model's schema if it is deferred
    schema: Any = SizingRequest.__pydantic_core_schema__
    if (
        schema.get("type") != "model"
        or schema.get("custom_init")
        or schema.get("root_model")
        or schema["schema"].get("type") != "model-fields"
        or schema["schema"].get("computed_fields")
        or SizingRequest.__pydantic_decorators__.model_validators
        or SizingRequest.__private_attributes__
        or any(value is not None for value in default.__dict__.values())
    ):
        return False
    _MODEL_CONFIG.update(schema.get("config") or {})
    _FIELD_SCHEMAS.update({name: field["schema"] for name, field in schema["schema"]["fields"].items()})
    _DEFAULTS.update(default.__dict__)
    return list(_FIELD_SCHEMAS) == list(_DEFAULTS)


def _field_validator(name: str) -> Any:
    """The validator of field ``name``, made once (one made by a thread beside is the same)."""
    from pydantic_core import SchemaValidator

    validator = _FIELD_VALIDATORS[name] = SchemaValidator(_FIELD_SCHEMAS[name], _MODEL_CONFIG)  # type: ignore[arg-type]
    return validator


def sizing_request(fields: dict[str, Any]) -> SizingRequest:
    """``SizingRequest(**fields)`` (``fields``: names and values, none None), each stated field validated by
    its own field's validator: the same instance (values and their types, field order, fields set) and the
    same :class:`pydantic.ValidationError` raised or not (tests/test_s47_speedparse.py, over the corpus).

    Why: the model's validator visits its 128 fields for the ~5 a question states; inside a parse that
    cost ~64-93 µs CPU a request on the shared dev box, this ~26-39 µs (bench/parse_insitu.py,
    bench/RESULTS.md session 47). The instance is the defaults updated with the validated values, the
    stated names its fields set: what pydantic's ``BaseModel.__init__`` makes for a model that
    :func:`by_field_usable` accepts. A name the model has not goes the model's way (extra='forbid')."""
    if not fields.keys() <= _FIELD_SCHEMAS.keys():
        return SizingRequest(**fields)
    values = _DEFAULTS.copy()
    known = _FIELD_VALIDATORS.get
    for name, value in fields.items():  # no frame a field once its validator is made
        values[name] = (known(name) or _field_validator(name)).validate_python(value)
    made = SizingRequest.__new__(SizingRequest)
    setter = object.__setattr__
    setter(made, "__dict__", values)
    setter(made, "__pydantic_fields_set__", set(fields))
    setter(made, "__pydantic_extra__", None)
    setter(made, "__pydantic_private__", None)
    return made


def build_request(fields: dict[str, Any]) -> tuple[SizingRequest, list[str]]:
    # only a capped field's value is cleaned (a frame each, s34: ~2 of the ~5 fields a question states)
    clean = {k: clean_value(k, v) if k in _CAPS else v for k, v in fields.items() if v is not None}
    clean = {k: v for k, v in clean.items() if v is not None}
    try:
        made = _BY_FIELD[0](clean) if _BY_FIELD else SizingRequest(**clean)
        return made, sorted(clean.keys() - _CUES)
    except ValidationError:
        ok: dict[str, Any] = {}
        for k, v in clean.items():
            try:
                SizingRequest(**{k: v})
            except ValidationError:
                continue
            ok[k] = v
        return SizingRequest(**ok), sorted(ok.keys() - _CUES)


FORMULA_AFTER_RE = compile_pattern(r"[a-z]")
"""A number glued to letters that are no unit ('6ND', '2N', 'A100' already masked): part of a formula
or a name, not a quantity left unused."""


_ARC_READ_RE = re.compile(r"(?<![a-z0-9])a(\d{3}m?)(?![0-9a-z])")
"""An Intel Arc card as read after :data:`bot.parse.hardware_specs.ARC_NUMBER_RE` gave it its letter."""


def as_typed(raw: str, name: str) -> str:
    """A name found in the normalized text, as the user typed it ('MTT S4000', not 'mtt s4000')."""
    pattern = fp.typed_name(name)  # compiled once per name: a C call
    m = pattern.search(raw) if pattern is not None else None
    reordered = _reordered(raw, list(filter(None, fp.NAME_SEPARATORS.split(name))))
    if reordered is not None and (m is None or reordered.start() < m.start()):
        m = reordered
    if m is None and (arc := _ARC_READ_RE.search(name)):  # r43 en: 'ARC 770M' typed, read 'arc a770m'
        m = re.search(rf"(?:intel\s+)?arc\s+a?{arc.group(1)}(?![0-9a-z])", raw, re.IGNORECASE)
    return m.group(0).strip() if m else _bracketed(raw, name)


def typed_release(raw: str, mention: ModelMention, spec: ModelSpec) -> str | None:
    """The release the model name typed (bot.parse.typed_release, imported here behind the caller's gate:
    a name with no release mark, no '-base' and no hub organisation pays nothing)."""
    from bot.parse.typed_release import typed_release as read

    return read(raw, mention.text, mention.substitution is not None, spec.base_config_window is not None)


def _bracketed(raw: str, name: str) -> str:
    """``name`` as typed with its last word, a card's variant, in brackets ('mlu370-x8' → 'MLU370 (X8)', s32:
    bot.parse.card_variants glued it), else ``name`` itself."""
    *head, last = [w for w in fp.NAME_SEPARATORS.split(name) if w] or [""]
    if not head or not _VARIANT_WORD.fullmatch(last):
        return name
    m = _bracket_pattern(r"[\s\-_]*".join(map(re.escape, head)), re.escape(last)).search(raw)
    return m.group(0).strip() if m else name


_VARIANT_WORD = re.compile(r"[a-z]{1,2}\d{1,3}[a-z]?", re.IGNORECASE)


@lru_cache(maxsize=64)
def _bracket_pattern(head: str, last: str) -> re.Pattern[str]:
    """The name's words, then its variant in brackets; compiled once per name (bot.parse.fixed_patterns)."""
    return re.compile(rf"{head}\s*[(（]\s*{last}\s*[)）]", re.IGNORECASE)


def _reordered(raw: str, parts: list[str]) -> re.Match[str] | None:
    """Round 7: a name a reader rewrote in order ('Qwenvl2.5VL-7B', read as qwen2.5-vl-7b) as written: the
    first word that begins with the name's family, ends with its last part, holds all its characters and
    its digits in their order, and adds only letters of the name (a variant word written twice), never a
    digit ('Qwen1.5-72B-Chat' is not 'qwen1.5-7b-chat') nor another word ('deepseek-coder-v2' is not
    'deepseek-v2', s20)."""
    family = fp.FAMILY_START.match(parts[0]) if len(parts) > 1 else None
    if family is None:
        return None
    name = "".join(parts).lower()
    need, digits = Counter(name), fp.NON_DIGIT.sub("", name)
    for m in fp.reordered_word(family.group(0), parts[-1]).finditer(raw):
        written = fp.NAME_SEPARATOR.sub("", m.group(0).lower())
        extra = set(Counter(written) - need) - set(name)  # s20: 'deepseek-coder-v2' is no 'deepseek-v2'
        if fp.NON_DIGIT.sub("", written) == digits and not need - Counter(written) and not extra:
            return m
    return None


def is_article(tok: NumberToken) -> bool:
    """'一' / '零' / 'one' / 'a single' without a unit: an article or a phrase ('从零', '一跑就', 'one
    instance'), not a quantity the user wants used."""
    lone = tok.kind == "cn" and tok.mag is None and tok.raw.strip() in ("一", "零", "两")
    return tok.kind == "word" or lone


def recipe_tools(s: str) -> list[str] | None:
    """The launch recipes a normalized text asks for: the tools named next to a recipe word, [] for a
    recipe word alone, None when it asks for none (:data:`bot.parse.lexicon.RECIPE_TOOL_RES`)."""
    tools = [tool for tool, pattern in lx.RECIPE_TOOL_RES if pattern.search(s)]
    if tools and any(not _OWN_BEFORE_RE.search(s, max(0, m.start() - 32), m.start()) for m in _words(s)):
        return tools
    return [] if lx.RECIPE_ALONE_RE.search(s) else None


def _words(s: str) -> list[re.Match[str]]:
    """Each recipe word of ``s`` (:data:`bot.parse.lexicon.RECIPE_WORD_RE`)."""
    return list(lx.RECIPE_WORD_RE.finditer(s))


_OWN_BEFORE_RE = re.compile(r"(?:我的|我们的|(?<![a-z])(?:my|our)\s)[^,，。;；?？!！\n]{0,30}$")
"""The user's own before a recipe word in its clause ('这是我的LLaMA-Factory配置', 'here is my deepspeed
config'): their config pasted, no recipe asked (s42 trial #12: a stray English stderr note followed)."""


def alternatives(gpus: list[GpuMention]) -> list[str]:
    """The other GPUs named ("A100 vs H100"), each once."""
    out: list[str] = []
    for g in gpus[1:]:
        if g.gpu_id != gpus[0].gpu_id and g.gpu_id not in out:
            out.append(g.gpu_id)
    return out


def alternative_memory(gpus: list[GpuMention]) -> dict[str, float]:
    """The memory stated beside each other GPU named, by id, when its catalog variant lacks it ('A100 vs
    A800 40G': 40 for the A800); a memory a variant has is that variant already (gpus._select_variant)."""
    out: dict[str, float] = {}
    for g in gpus[1:]:
        if g.memory_gib is not None and abs(catalog.gpu(g.gpu_id).memory_gib - g.memory_gib) >= 1:
            out.setdefault(g.gpu_id, g.memory_gib)
    return out
