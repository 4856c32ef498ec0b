"""The assumption ledger (every value the user did not give, with the key of its reason) and the
price lookup."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from estimator.built import assumption
from estimator.built import note as built_note
from estimator.catalog import GpuSpec, ModelSpec
from estimator.models import Assumption, Currency, Note, SizingRequest
from estimator.reasons import Why
from estimator.request import Runtime
from estimator.variant_prices import VariantPrice, variant_price


class Ledger:
    """Collects assumptions and notes while the report is built."""

    def __init__(self) -> None:
        self.assumptions: list[Assumption] = []
        self.notes: list[Note] = []

    def assume(
        self,
        field: str,
        value: Any,
        why: Why,
        *,
        citation: str | None = None,
        also: Iterable[Why] = (),
        **params: Any,
    ) -> Any:
        """Record that ``field`` takes ``value`` because of ``why`` (with ``params`` for its wording,
        further reasons ``also``, and a ``citation`` kept as written); returns ``value``."""
        # why._value_: .value without the enum property's two calls
        reasons = [w._value_ for w in also] if also else []  # most have none: no comprehension frame
        self.assumptions.append(assumption(field, value, why._value_, params, reasons, citation))
        return value

    def replace(self, field: str, value: Any, why: Why, **params: Any) -> Any:
        """Re-state an assumption made earlier (e.g. a precision that turned out not to fit)."""
        self.assumptions = [a for a in self.assumptions if a.field != field]
        return self.assume(field, value, why, **params)

    def note(self, code: str, **params: Any) -> None:
        """Add the note ``code`` with ``params``, once: the same note twice says nothing more (trial s16
        #9: 'no L20 price in CNY' printed twice, from the cost and from the schedule)."""
        for n in self.notes:  # a loop: no generator frame a note (s37)
            if n.code == code and n.params == params:
                return
        self.notes.append(built_note(code, params))


PriceRange = tuple[float, float, Currency, str]
"""(low, high, currency, source) per GPU-hour."""


def price_range(req: SizingRequest, gpu: GpuSpec, ledger: Ledger) -> PriceRange | None:
    """(low, high, currency, source) per GPU-hour: the user's price, else the catalog's range for the
    GPU family in the request's currency (CNY by default); None (with a note) when there is none."""
    currency = req.currency or Currency.CNY
    if req.price_per_gpu_hour:
        return req.price_per_gpu_hour, req.price_per_gpu_hour, currency, "given"
    found = variant_price(gpu, currency)
    if found is None and req.budget is None:  # a budget is compared in its own currency: no other
        other = _other_currency(gpu, currency, ledger)
        if other is not None:
            found, currency = other
    if found is None:
        if gpu.vendor != "Apple":  # a Mac is bought, not rented: no price is no news
            ledger.note("no_price", gpu=gpu.family, currency=currency.value)
        return None
    low, high, entry, borrowed = found
    if borrowed:  # another variant's range (an A100 40GB at the 80GB's): say whose
        ledger.note("price_other_variant", gpu=gpu.name.removeprefix("NVIDIA "), priced=" / ".join(borrowed))
    source = f"{entry.source} (as of {entry.as_of})"
    ledger.assume(
        "price_per_gpu_hour",
        f"{low:g}–{high:g} {currency!s}",  # a StrEnum: its value, in C (no enum frames)
        Why.price_catalog,
        citation=entry.source,
        as_of=entry.as_of,
    )
    return low, high, currency, source


def _other_currency(gpu: GpuSpec, asked: Currency, ledger: Ledger) -> tuple[VariantPrice, Currency] | None:
    """Trial s17-2 #2: no range for ``gpu`` in ``asked`` (an L4 in CNY) but one in the other currency
    (the L4's USD list): that range, noted (``price_other_currency``: the card, both currencies, the
    source) — a cost question never gets nothing while a price is on file. Returns (low, high, entry,
    borrowed) with its currency, or None."""
    other = Currency.USD if asked == Currency.CNY else Currency.CNY
    found = variant_price(gpu, other)
    if found is None:
        return None
    ledger.note("price_other_currency", gpu=gpu.family, currency=asked.value, priced=other.value,
                source=found[2].source)  # fmt: skip
    return found, other


def beyond_window(
    spec: ModelSpec,
    tokens: int,
    ledger: Ledger,
    stated: bool,
    runtime: Runtime | None = None,
    release: str | None = None,
) -> None:
    """A stated sequence longer than the model's native window: note it — the memory and time still
    follow the length asked, and the note says how to turn on the RoPE scaling the model documents in
    ``runtime``, or that the model was not released for that length (estimator.context_window). On vLLM
    a length past the typed ``release``'s config.json ``max_position_embeddings`` (:func:`_config_window`)
    with no scaling is refused at start-up unless ``VLLM_ALLOW_LONG_MAX_MODEL_LEN=1`` is set
    ('vllm_long_max_model_len'; vllm/config/model.py ``_get_and_verify_max_len``, vLLM v0.18: "User-specified
    max_model_len … is greater than the derived max_model_len … To allow overriding this maximum, set the
    env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1"; vllm/config.py in releases before the config package)."""
    if not stated:
        note = None
    else:  # a stated length only: the module imported when used (s42-speed)
        from estimator.context_window import context_note, later_version

        note = context_note(spec, tokens, runtime)
    if note is not None:
        ledger.note(note[0], **note[1])
    later = later_version(spec, tokens) if note and note[0] == "beyond_context_window" else None
    if later is not None:  # the same size and shape released for this length (s36 left #2)
        ledger.note("later_version_window", model=spec.name, later=later[0], window=later[1], length=tokens)
    if not (note and runtime == Runtime.vllm and spec.max_context):
        return
    instruct, base = _config_window(spec), spec.base_config_window
    if release == "instruct" or (release == "base" and base):  # s38 fixs #2 / release: the typed release's
        window = instruct if release == "instruct" else base or 0  # own config.json window
    else:  # s29 trial #4: past every release's window (the base's where it is cited and longer)
        window = max(instruct, base or 0) if note[0] == "beyond_context_window" else tokens
    if tokens > window:
        ledger.note("vllm_long_max_model_len", window=instruct if release is None else window, length=tokens)
    elif release is None and base and instruct < tokens <= base:
        # which release was typed is not known: the Instruct's config refuses, the base's starts (s38 release)
        ledger.note("release_config_windows", window=instruct, max_model_len=base, length=tokens)


def derived_window(spec: ModelSpec, release: str | None) -> int:
    """The max_model_len vLLM derives when none is set, in tokens: the typed base release's config.json
    window where the catalog cites one (``base_config_window``), else the Instruct release's
    (:func:`_config_window`; Qwen/Qwen2.5-14B-Instruct config.json: 32,768, not the YaRN 131,072)."""
    if release == "base" and spec.base_config_window:
        return spec.base_config_window
    return _config_window(spec)


def _config_window(spec: ModelSpec) -> int:
    """vLLM's derived max_model_len for the Instruct release: config.json's ``max_position_embeddings``. An
    entry whose ``max_context`` is the YaRN-scaled window (native × factor: Qwen2.5 7B/72B record 131,072)
    keeps the Instruct release's config value in ``native_context`` (Qwen/Qwen2.5-7B-Instruct config.json:
    max_position_embeddings 32768, no rope_scaling; its card adds YaRN by hand): that is what vLLM checks
    (trial s29 #1). The base release's, where it differs, is the catalog's ``base_config_window``
    (Qwen/Qwen2.5-7B config.json: 131072; :func:`beyond_window` reads it for a name typed as the base)."""
    top, native = spec.max_context or 0, spec.native_context
    if native and spec.rope_scaling_factor and top == int(native * spec.rope_scaling_factor):
        return native
    return top
