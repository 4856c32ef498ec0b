"""Several values of one setting asked in one message, a row each (issue 24, s36-lists).

'finetune on 1, 2 or 4 A100?', '并发 10、20、50 分别要几张卡', 'at 8k, 32k and 128k context', 'batch
size 1, 2 or 4', 'A2000 6GB 能跑吗？12GB 可以吗？': the parse sizes the first value and names the others
as another setup (bot.parse.generic_values._listed_field, bot.parse.count_choice); this sizes each
value with the rest of the sized request unchanged and keeps one row per value: the setting, the value,
the verdict, the GPUs, the memory per GPU, the training days or the serving speed of one sequence
(:class:`PerValue`; JSON ``report.per_value``).

Which values make a list (bot.parse.value_list.listed), read from what the parse kept, not the text alone:
- a field named with its list ('concurrency: 20' named as another setup, reason ``other_setup``): its key;
- GPU counts: a count range read from a written list ('1, 2 or 4 A100', '2、4 或 8 张卡') — the items of the
  list, each a count; a range written with a dash or 'to' ('2–8 cards', '2 到 8 卡') is not a list;
- context lengths in k ('8k, 32k and 128k'): the first the request's length, the others named as not used;
- card memories ('6GB … 12GB 可以吗'): the request's memory and the other sizes in GB named as not used.
The module is imported only when the parse named a number as not used or read a count range (bot.core.answer).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.parse.value_list import _NAMED, KEY_OF, MAX_ROWS, listed, value_of

if TYPE_CHECKING:
    from bot.core.interpretation import Interpretation
    from bot.parse import ParseResult
    from estimator.models import SizingReport, SizingRequest


@dataclass(frozen=True, slots=True)
class PerValue:
    """One value of a listed setting, sized with the rest of the request unchanged."""

    setting: str
    value: float | str
    """the value listed: a number, or a weight format's name ('int8') for ``precision`` (s39)"""
    fits: str | None
    """'yes', 'borderline' or 'no' (report.feasible), None when the estimate gives no verdict"""
    gpus: int | None
    """the GPU count sized (training: the count, or the fewest that fit; serving: the GPUs that serve it)"""
    memory_gib: float | None
    """memory per GPU, GiB (training: the plan's; serving: weights + KV cache per GPU)"""
    days: float | None
    """training: the likely days on ``gpus``"""
    tokens_per_s: float | None
    """serving: output tokens/s of one sequence"""
    sequences_fit: int | None = None
    """serving: the sequences of this length the GPUs hold (Inference.max_concurrency), None for training"""
    load: int | None = None
    """serving: the sequences at once sized (stated or assumed: Inference.concurrency), None for training"""
    gpus_needed: int | None = None
    """serving: the GPUs the value needs when ``gpus`` do not hold it (bot.core.compared_models.gpus_needed:
    the load's, or the weights' and one sequence's with no load), else None (s39 fixl2 #2)"""

    def as_json(self) -> dict[str, object]:
        v = self.value
        value = int(v) if not isinstance(v, str) and v == int(v) else v
        return {
            "setting": self.setting,
            "value": value,
            "fits": self.fits,
            "gpus": self.gpus,
            "memory_gib": self.memory_gib,
            "days": self.days,
            "tokens_per_s": self.tokens_per_s,
            "sequences_fit": self.sequences_fit,
            "load": self.load,
            "gpus_needed": self.gpus_needed,
        }


def _needed(report: SizingReport) -> int | None:
    """The GPUs a serving value that does not fit needs (imported when used: start-up)."""
    from bot.core.compared_models import gpus_needed

    return gpus_needed(report)


def _row(setting: str, value: float | str, report: SizingReport | None) -> PerValue:
    if report is None:
        return PerValue(setting, value, None, None, None, None, None)
    inf, mem = report.inference, report.memory
    if inf is not None:
        speed = inf.decode_tokens_per_s.per_sequence if inf.decode_tokens_per_s else None
        per_gpu = inf.bytes_per_gpu
        return PerValue(
            setting,
            value,
            report.feasible,
            inf.serving_gpus,
            round(per_gpu / 2**30, 1) if per_gpu else None,
            None,
            round(speed, 1) if speed else None,
            inf.max_concurrency,
            inf.concurrency,
            _needed(report) if report.feasible == "no" else None,
        )
    days = report.days.days.likely if report.days is not None else None
    gpus = report.request.gpu_count or (mem.min_gpus if mem is not None else None)
    per_gpu = mem.per_gpu_bytes if mem is not None else None
    return PerValue(
        setting,
        value,
        report.feasible,
        gpus,
        round(per_gpu / 2**30, 1) if per_gpu else None,
        float(f"{days:.3g}") if days else None,
        None,
    )


def per_value(parsed: ParseResult, said: SizingRequest, estimate) -> tuple[PerValue, ...]:
    """One row per value of the listed setting (value_list.listed), each sized by ``estimate`` on the request
    the user said (``said``: its defaults left to the estimate, as for the value sized — a concurrency
    assumed stays assumed) with that value; () when the message lists no values of value_list.SETTINGS."""
    found = listed(parsed, parsed.request)
    if found is None:
        return ()
    setting, values = found
    rows, pins = [], {}
    for v in values[:MAX_ROWS]:
        update = _update(setting, v)
        report = estimate(said.model_copy(update=update))
        if not rows:
            if setting == "precision" and (report is None or report.inference is None):
                return ()  # s39: weight formats are rows of a model served; a training computes in bf16
            first, pins = report, _first_settings(setting, said, report)
        elif pins and _differs(report, first):  # sized otherwise than the first row: at its settings
            report = estimate(said.model_copy(update={**pins, **update}))
        rows.append(_row(setting, v, report))
    return tuple(rows)


def _update(setting: str, v: float | str) -> dict[str, object]:
    """The request fields that size value ``v`` of ``setting``: a model's size sizes a generic model of that
    size (s39: '7B/13B/70B 分别'), a format name its :class:`~estimator.request.Precision`."""
    if setting == "precision":
        from bot.parse.name_list import sized_format
        from estimator.request import Precision

        return {"precision": Precision(sized_format(str(v)))}  # s46: 'q3_k_m' as int4, named in its row
    if setting == "params_total":
        return {"params_total": v, "params_active": None}
    update: dict[str, object] = {setting: int(v) if setting != "gpu_memory_gib" else v}
    if setting == "gpu_count":
        update["gpu_count_max"] = None
    return update


_PINNED = ("precision", "concurrency", "seq_len")
"""Serving settings every row takes from the first row's (trial s37 #2: '32B 用 24G 还是 48G 的卡' sized the
24G row Q4 at load 1 on llama.cpp and the 48G row bf16 at load 16 on vLLM, so the larger card read worse)."""


def _differs(report: SizingReport | None, first: SizingReport | None) -> bool:
    """True when a serving row was sized at another precision, load or runtime than the first row."""
    a = report.inference if report is not None else None
    b = first.inference if first is not None else None
    if a is None or b is None:
        return False
    return (a.weight_format, a.concurrency, a.runtime) != (b.weight_format, b.concurrency, b.runtime)


def _first_settings(setting: str, said: SizingRequest, report: SizingReport | None) -> dict[str, object]:
    """The precision, load, context and runtime the first row was sized at, for the settings the user left
    to the estimate and that are not the listed one: the rows of one list differ only in their value."""
    inf = report.inference if report is not None else None
    if inf is None:
        return {}
    sized = report.request
    left = [f for f in _PINNED if f != setting and getattr(said, f) is None]
    pins: dict[str, object] = {f: getattr(sized, f) for f in left if getattr(sized, f)}
    if said.runtime is None:
        from estimator.request import Runtime

        pins["runtime"] = sized.runtime or next((r for r in Runtime if r.value == inf.runtime), None)
    return {k: v for k, v in pins.items() if v is not None}


_ROWED = (*_NAMED, "replaced_by_later_value", "observed")
"""The reasons a value with a row of its own is no longer named for: one end of a range read as the
earlier value replaced ('concurrency from 4 up to 64': 4) or a memory read as a figure observed ('cards
with 16-22GB of VRAM'), s41."""


def rows_used(interpretation: Interpretation, rows: tuple[PerValue, ...]) -> Interpretation:
    """``interpretation`` without the numbers it named as not used that have a row of their own: each
    value listed is answered in its row, never 'ask separately' (design §8: used, or named as not used)."""
    values, setting = {r.value for r in rows}, rows[0].setting
    kept = []
    for i in interpretation.ignored:  # 'concurrency: 20' of its key, '20', '32k' or '12 GB' bare
        key, _, v = i.text.rpartition(":")
        key = key.strip()
        if (
            i.reason not in _ROWED
            or (key and KEY_OF.get(key, key) != setting)
            or value_of(v, setting) not in values
        ):
            kept.append(i)
    if len(kept) == len(interpretation.ignored):
        return interpretation
    return interpretation.model_copy(update={"ignored": kept})
