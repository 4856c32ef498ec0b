"""The reply's sections as preformatted strings: training, memory, serving, budget."""

from __future__ import annotations

import math
from typing import Any

from bot.core.chosen import chosen_plan
from bot.render.describe import count_layout, is_unified
from bot.render.duration import UNIT_HEADERS, in_unit, table_unit, wall_time
from bot.render.fmt import Fmt, bar, display_width, ljust, money_in_style, money_span, needs_cents, rjust
from bot.render.i18n import N_, translate
from bot.render.notes import context_len
from bot.render.plan_text import (
    gpus_text,
    nodes_text,
    paren,
    plan_layout,
    plan_reason,
    plan_reason_key,
    plan_short,
)
from bot.render.wording import (
    ALTERNATIVES,
    BORDERLINE_REASONS,
    INTERVAL_GROUPS,
    MAX_ALTERNATIVES,
    MEMORY_PARTS,
    METHOD_NAMES,
    MIN_CHART_BYTES,
    PRECISION_LABELS,
    SERVING_VERDICTS,
    STATED_ALTERNATIVES,
)
from estimator import catalog, compute
from estimator.memory import FULL_STATE_BYTES_PER_PARAM
from estimator.models import Band, Cost, Inference, Memory, Method, SizingReport
from estimator.plan import HEADROOM


def training_section(report: SizingReport, f: Fmt, per_node: int) -> dict[str, Any] | None:
    if report.flops is None:
        return None
    t: dict[str, Any] = {
        "flops": f.sci(report.flops),
        "formula": report.flops_formula or "6ND",
        "pf_days": (
            f.sci(report.pf_days)
            if report.pf_days < 0.01
            else f.num(report.pf_days, 2 if report.pf_days < 10 else 1 if report.pf_days < 100 else 0)
        )
        if report.pf_days
        else None,
        "tokens": f.tokens(report.request.tokens) if report.request.tokens else None,
    }
    t |= _attention_line(report, f)
    gh = report.gpu_hours
    if gh is not None:
        if report.mfu is not None:
            band = report.mfu
        else:  # hand-built reports without the band: GPU-hours ∝ 1/MFU
            mfu = report.request.mfu or 0.4
            band = Band(
                low=mfu * gh.likely / gh.high if gh.high else mfu,
                likely=mfu,
                high=mfu * gh.likely / gh.low if gh.low else mfu,
            )
        t |= {
            "gh": f.hours(gh.likely),
            "gh_compact": f.compact(gh.likely) if gh.likely >= 10 else f.hours(gh.likely),
            "gh_low": f.hours(gh.low),
            "gh_high": f.hours(gh.high),
            "mfu": f.percent(band.likely),
            "band": gh.low != gh.high,
            "mfu_high": f.percent(band.high),
            "mfu_low": f.percent(band.low),
            "fp8": _fp8_peak(report),
        }
        t |= _interval_line(report, gh, f)
    if report.gpus_for_deadline:
        n = report.gpus_for_deadline
        t |= {
            "need": f.int(n),
            "nodes": f.int(n // per_node) if n > per_node and n % per_node == 0 else None,
            "per_node": per_node,
            # the deadline, unless memory or whole nodes pushed the count well past it (then the real days)
            "deadline": headline_days(report, n, f),
            "within": _within_deadline(report, n, f),
            "hours": headline_hours(report, n, f),
            # under an hour: 'about 4 minutes', 'under a minute' (not '0.01 hours')
            "time": wall_time(gh.likely / n, f.lang) if gh is not None else None,
            "one": n == 1,
        }
    if report.days is not None:
        d = report.days.days.likely
        t |= {
            "user_gpus": f.int(report.days.gpus),
            "user_days": f.days(d),
            # the user's count does not hold the job: the headline says that first (docs/design.md §8)
            "unfit_min": f.int(report.memory.min_gpus)
            if report.memory is not None and report.memory.fits_requested is False and report.memory.min_gpus
            else None,
            "user_hours": f.hours(d * 24) if d < 1 else None,  # "≈ 7.2 hours", not "0.3 days"
        }
    t["rows"] = _days_rows(report, f)
    c = report.cost
    if c is not None:
        cents = needs_cents(c.low, c.high, c.low_with_mfu, c.high_with_mfu)  # one money style per reply
        t["cost"] = {
            "low": money_in_style(f, c.low, c.currency, cents),
            "high": money_in_style(f, c.high, c.currency, cents),
            "same": c.low == c.high,
            "price_low": f.price(c.price_low, c.currency, cents),
            "price_range": f.price_range(c.price_low, c.price_high, c.currency, cents),
            "billed": f.hours(c.billed_gpu_hours),
            "source": c.price_source,
            "wide": None
            if c.low_with_mfu is None
            or c.high_with_mfu is None
            or (c.low_with_mfu, c.high_with_mfu) == (c.low, c.high)
            else money_span(f, c.low_with_mfu, c.high_with_mfu, c.currency, cents),
        }
    if report.chinchilla_tokens and report.request.tokens:
        t["chinchilla"] = {
            "tokens": f.tokens(report.chinchilla_tokens),
            "ratio": _ratio(report.request.tokens / report.chinchilla_tokens, f),
        }
    return t


ATTENTION_SHARE_SHOWN = 0.10
"""The reply states the attention share of the compute above this (issue #15: "above ~10 %")."""


def _attention_line(report: SizingReport, f: Fmt) -> dict[str, Any]:
    """'with attention at 32K: 6.9×10²¹ FLOPs (39 %)' when the attention share is above 10 %; whether
    the time uses it (beyond the calibration runs' 8K context) or the calibrated MFU already holds it."""
    share, total = report.attention_share, report.flops_with_attention
    if share is None or total is None or share <= ATTENTION_SHARE_SHOWN:
        return {}
    seq = report.request.seq_len
    return {
        "attention": {
            "flops": f.sci(total),
            "share": f.percent(share),
            "seq": context_len(seq) if seq else "",
            "in_time": bool(seq and seq > compute.CALIBRATION_SEQ_LEN),
        }
    }


def _fp8_peak(report: SizingReport) -> bool:
    """Whether the MFU refers to the FP8 peak (training in FP8)."""
    gpu = catalog.gpus().get(report.request.gpu or "")
    peak = report.peak_flops
    return bool(gpu and peak and gpu.peak_tflops_fp8 and peak == gpu.peak_tflops_fp8 * 1e12)


def _interval_line(report: SizingReport, gh: Band, f: Fmt) -> dict[str, Any]:
    """What the GPU-hours range is (80 % of comparable published runs fell in it), or the calibrated
    MFU for comparison when the user's measured rate or MFU set the time."""
    out: dict[str, Any] = {}
    iv = report.gpu_hours_interval
    if iv is not None and gh.low != gh.high:
        out["interval"] = {
            "level": f.percent(iv.level),
            "runs": f.int(iv.runs),
            "wider": ", ".join(translate(f.lang, INTERVAL_GROUPS.get(g, g)) for g in iv.widened_for),
            # no published run on this card: the spread is borrowed from other cards' runs
            "uncalibrated": any(a.field == "mfu" and a.why == "mfu_uncalibrated" for a in report.assumptions),
        }
    mfu = report.mfu
    if report.mfu_calibrated and mfu is not None and mfu.likely > 0:
        out["calibrated"] = {
            "mfu": f.percent(report.mfu_calibrated),
            "gh": f.hours(gh.likely * mfu.likely / report.mfu_calibrated),
        }
    return out


def _ratio(x: float, f: Fmt) -> str:
    """A ratio with enough digits to not read as 0: 1.5, 0.25, 0.0007."""
    return f.num(x, 1) if x >= 0.1 else f.num(x, max(2, 1 - math.floor(math.log10(x)))) if x > 0 else "0"


def _memory_bars(m: Memory, f: Fmt) -> str:
    """One text bar per memory part (parts below 0.05 GiB left out), aligned for a <pre> block."""
    parts = [(k, v) for k, v in m.breakdown.items() if v >= MIN_CHART_BYTES]
    total = sum(v for _, v in parts) or m.per_gpu_bytes or 1.0
    labels = [translate(f.lang, MEMORY_PARTS[k]) if k in MEMORY_PARTS else k for k, _ in parts]
    w_label = max((display_width(lab) for lab in labels), default=0)
    values = [f.gib(v) for _, v in parts]
    w_val = max((len(v) for v in values), default=0)
    return "\n".join(
        f"{ljust(lab, w_label)} {ljust(bar(v / total, 10), 10)} {rjust(val, w_val)}"
        for lab, (_, v), val in zip(labels, parts, values, strict=True)
    )


def _alternatives(m: Memory, f: Fmt) -> list[str]:
    """'With CPU offload: 2 GPUs' — the fewest GPUs under each option that changes the answer; an
    alternative to the user's own setting ('With ZeRO-3: 2 GPUs, ≈ 29.8 GiB per GPU') comes first."""
    lang = f.lang
    lines = []
    for a in sorted(m.alternatives, key=lambda a: a.change not in STATED_ALTERNATIVES):
        if a.min_gpus == m.min_gpus:  # changes nothing (also: neither fits)
            continue
        label = translate(lang, ALTERNATIVES[a.change]) if a.change in ALTERNATIVES else a.change
        if not a.min_gpus:
            gpus = translate(lang, N_("does not fit"))
        elif a.change in STATED_ALTERNATIVES and a.per_gpu_bytes:
            gpus = translate(
                lang,
                N_("%(gpus)s, ≈ %(per_gpu)s per GPU"),
                gpus=gpus_text(lang, a.min_gpus),
                per_gpu=f.gib(a.per_gpu_bytes),
            )
        else:
            gpus = gpus_text(lang, a.min_gpus)
        lines.append(translate(lang, N_("%(change)s: %(gpus)s"), change=label, gpus=gpus))
    return lines[:MAX_ALTERNATIVES]


def _checkpoint(report: SizingReport, f: Fmt) -> dict[str, Any] | None:
    ckpt = report.checkpoint_bytes
    if ckpt is None:
        return None
    return {
        "weights": f.storage(ckpt.weights),
        "full": f.storage(ckpt.full_state),
        "adapters": report.request.method in (Method.lora, Method.qlora),
        # bytes per trained parameter of the full state: 16 with mixed-precision AdamW, the optimizer's own
        "bpp": f.num(ckpt.full_state / (ckpt.weights / 2) if ckpt.weights else FULL_STATE_BYTES_PER_PARAM, 1),
    }


def memory_section(
    report: SizingReport, f: Fmt, per_node: int = 8, nvlink: bool = True, timed: bool = False
) -> dict[str, Any] | None:
    """The memory answer. ``timed``: a training reply whose time and cost refer to ``plan_gpus``, so
    the plan explained is the one at that count (else the recommended one, or the user's if it fits)."""
    m = report.memory
    if m is None:
        return None
    lang = f.lang
    plan, at = m.plan, m.plan_gpus or m.min_gpus
    requested = report.request.gpu_count
    rec = m.recommended_gpus if m.min_gpus else None
    at_min = plan is not None and at == m.min_gpus
    # the layout a user would run: theirs if it fits, else the recommended one, else the minimum
    main = chosen_plan(report)

    rows: list[dict[str, str | None]] = []
    if requested and m.fits_requested and requested not in (m.min_gpus, rec) and plan is not None:
        rows.append(
            {
                "label": translate(lang, N_("On %(gpus)s"), gpus=gpus_text(lang, requested)),
                "layout": plan_layout(plan, lang),
            }
        )
    if requested and m.fits_requested is False and plan is not None and at == requested:
        rows.append(  # the user's layout, which does not fit: what it would take per GPU is above
            {
                "label": translate(lang, N_("On %(gpus)s"), gpus=gpus_text(lang, requested)),
                "layout": plan_layout(plan, lang),
            }
        )
    if m.min_gpus and (at_min or not requested):  # a bare count only when the headline does not say it
        rows.append(
            {
                "label": translate(lang, N_("Minimum %(gpus)s"), gpus=gpus_text(lang, m.min_gpus)),
                "layout": plan_layout(plan, lang) if at_min and plan else None,
            }
        )
    if rec and rec != m.min_gpus:
        rows.append(
            {
                "label": translate(lang, N_("Recommended %(gpus)s"), gpus=gpus_text(lang, rec)),
                "layout": plan_layout(m.recommended_plan, lang) if m.recommended_plan else None,
            }
        )
    elif requested and m.fits_requested is False and main is not None and main is not plan and m.min_gpus:
        rows.append(  # the layout the "Why" and "Batch" lines explain, when the user's count does not fit
            {
                "label": translate(lang, N_("Minimum %(gpus)s"), gpus=gpus_text(lang, m.min_gpus)),
                "layout": plan_layout(main, lang),
            }
        )

    checkpoint = _checkpoint(report, f)
    states_total = f.storage(m.total_bytes)
    unfit = bool(requested) and m.fits_requested is False and main is plan
    return {
        "per_gpu": f.gib(m.per_gpu_bytes),
        "usable": f.gib(m.usable_bytes),
        "capacity": f.gib(m.gpu_memory_bytes),
        "usable_differs": f.gib(m.usable_bytes) != f.gib(m.gpu_memory_bytes),
        "share": f.percent(m.per_gpu_bytes / m.gpu_memory_bytes) if m.gpu_memory_bytes else "",
        "min_gpus": f.int(m.min_gpus) if m.min_gpus else None,
        "min_text": gpus_text(lang, m.min_gpus) if m.min_gpus else None,
        "one_gpu": m.min_gpus == 1 and at_min,
        "min_layout": paren(lang, plan_short(plan, lang)) if at_min and plan else "",
        "rec_gpus": f.int(rec) if rec and rec != m.min_gpus else None,
        "rec_text": gpus_text(lang, rec) if rec and rec != m.min_gpus else None,
        "rec_nodes": paren(lang, nodes_text(lang, rec, per_node)) if rec else "",
        "at": gpus_text(lang, at) if at else None,
        "at_layout": plan_layout(plan, lang) if plan else None,
        "requested": f.int(requested) if requested else None,
        "requested_layout": paren(lang, plan_short(plan, lang)) if m.fits_requested and plan else "",
        "total": states_total,
        "show_total": checkpoint is None or states_total != checkpoint["full"],
        "chart": _memory_bars(m, f),
        "fits_requested": m.fits_requested if requested else None,
        "borderline": _borderline_text(report, f),
        "rows": rows,
        # why a layout was chosen: not for the user's layout that does not fit
        "reason": plan_reason(main, nvlink, lang, per_node, report.request.recompute is not None)
        if main is not None and not unfit
        else None,
        "batch": batch_line(main, report.request.seq_len, f) if main is not None else None,
        "reason_key": plan_reason_key(main, nvlink) if main is not None else None,
        "least": _least_line(m, f) if requested else None,
        "alternatives": _alternatives(m, f),
        "checkpoint": checkpoint,
        "headroom": f.percent(HEADROOM),
    }


def _least_line(m: Memory, f: Fmt) -> str | None:
    """'Least memory on 8 GPUs: ≈ 5.1 GiB per GPU (TP 8, full recompute); …' — why an adapter method shows
    more per GPU than the same GPUs need at the least (estimator.methods.with_least)."""
    if m.least_plan is None or m.least_per_gpu_bytes is None or m.plan is None or not m.plan_gpus:
        return None
    whole_base = m.plan.zero_stage < 3 and m.plan.tp * m.plan.pp == 1
    msgid = (
        N_(
            "Least memory on %(gpus)s: ≈ %(per_gpu)s per GPU (%(layout)s); the plan above keeps the whole "
            "base model on every GPU to communicate least"
        )
        if whole_base
        else N_(
            "Least memory on %(gpus)s: ≈ %(per_gpu)s per GPU (%(layout)s); the plan above uses more memory "
            "to communicate less"
        )
    )
    layout = plan_short(m.least_plan, f.lang)
    gpus = gpus_text(f.lang, m.plan_gpus)
    return translate(f.lang, msgid, gpus=gpus, per_gpu=f.gib(m.least_per_gpu_bytes), layout=layout)


def batch_line(plan: Any, seq_len: int | None, f: Fmt) -> dict[str, str] | None:
    """The plan's global batch and the gradient accumulation it implies (estimator.plan.with_batch)."""
    if plan.global_batch_sequences is None or plan.gradient_accumulation is None:
        return None
    return {
        "global": f.int(plan.global_batch_sequences),
        "tokens": f.tokens(plan.global_batch_sequences * seq_len) if seq_len else "—",
        "micro": f.int(plan.micro_batch),
        "accumulation": f.int(plan.gradient_accumulation),
        "dp": f.int(plan.dp),
    }


LARGEST_FORMATS = {
    "bf16": N_("16-bit"),
    "int8": N_("8-bit (W8A16 / FP8)"),
    "int4": N_("4-bit (GPTQ/AWQ)"),
    "q8_0": N_("8-bit (GGUF Q8_0)"),
    "q4_k_m": N_("4-bit (GGUF Q4_K_M)"),
}
"""How the weight formats of :mod:`estimator.largest` are named in a reply."""


def largest_section(report: SizingReport, f: Fmt) -> dict[str, Any] | None:
    """'一张4090能跑多大的模型': per weight format, the largest size that fits and catalog examples."""
    if not report.largest_served:
        return None
    req = report.request
    rows = []
    for row in report.largest_served:
        label = translate(f.lang, LARGEST_FORMATS.get(row.precision.value, row.precision.value))
        names = [catalog.model(m).name for m in row.examples]
        size = float(f"{row.params_max:.2g}") if row.params_max else None  # a 2 % search: two digits
        rows.append({"format": label, "params": f.params(size) if size else None,
                     "examples": ("、" if f.lang == "zh" else ", ").join(names)})  # fmt: skip
    best = next((r for r in reversed(rows) if r["params"]), None)
    return {
        "gpus": f.int(req.gpu_count or 1),
        "context": context_len(req.seq_len or 0),
        "concurrency": f.int(req.concurrency or 1),
        "rows": rows,
        "best": best,
    }


def inference_section(report: SizingReport, f: Fmt, lang: str) -> dict[str, Any] | None:
    inf = report.inference
    if inf is None:
        return None
    decode = inf.decode_tokens_per_s
    cpm, cpmonth = inf.cost_per_million_tokens, inf.cost_per_month
    return {
        "precision": inf.weight_format,
        "format": inf.weight_format,
        "kv_precision": inf.kv_precision,
        "weights": f.gb(inf.weights_bytes),
        "bytes_per_param": f.num(inf.bytes_per_param, 2),
        "kv_per_token": f.kib(inf.kv_bytes_per_token),
        "kv_total": f.gb(inf.kv_bytes_total),
        "total": f.gb(inf.weights_bytes + inf.kv_bytes_total),
        "kv_per_seq": f.gb(inf.kv_bytes_per_sequence),
        "usable": f.gib(inf.usable_bytes_per_gpu),
        "runtime": inf.runtime,
        "kv_capacity": f.int(inf.kv_capacity_tokens)
        if inf.kv_capacity_tokens and inf.runtime in ("vLLM", "SGLang")
        else None,
        "context": context_len(inf.context_tokens),
        "concurrency": f.int(inf.concurrency),
        "min_gpus": f.int(inf.min_gpus),
        "rec_gpus": f.int(inf.recommended_gpus),
        "serving_gpus": f.int(inf.serving_gpus),
        "serving_one": inf.serving_gpus == 1,
        "unified": is_unified(report),
        "local": inf.runtime == "llama.cpp",
        "same": inf.min_gpus == inf.recommended_gpus,
        "layout": "llama.cpp / MLX"
        if is_unified(report) and inf.tp * inf.pp == 1
        else "llama.cpp"
        if inf.runtime == "llama.cpp"
        else f"FP8, TP={inf.fp8_min_gpus}"
        if report.feasible_reason == "fp8_only" and inf.fp8_min_gpus
        else count_layout(report)
        if report.feasible_reason == "full_memory" and report.request.gpu_count
        else _serving_nodes(report, lang)
        + f"TP={inf.tp}"
        + (f" × PP={inf.pp}" if inf.pp > 1 else "")
        + (" × " + translate(lang, N_("%(n)s replicas"), n=f.int(inf.replicas)) if inf.replicas > 1 else ""),
        "max_concurrency": f.int(inf.max_concurrency),
        # the user's GPUs hold fewer sequences than the load (the headline must say so, not "fits")
        "short_of_load": inf.max_concurrency < inf.concurrency,
        "table": [{"context": rjust(context_len(ctx), 4), "n": f.int(n)} for ctx, n in inf.concurrency_table],
        "decode_seq": f.num(decode.per_sequence, 1 if decode.per_sequence < 10 else 0) if decode else None,
        "decode_all": f.int(decode.aggregate) if decode else None,
        "decode_batch": f.int(decode.batch) if decode else None,
        "decode_one": bool(decode and decode.batch == 1),
        "ttft": f.num(inf.prefill_seconds, 2 if inf.prefill_seconds < 1 else 1)
        if inf.prefill_seconds is not None
        else None,
        "cpm": None if cpm is None else f.price_range(cpm.low, cpm.high, cpm.currency),
        # the load the price per million tokens assumes: the stated one, else the most the GPUs hold
        "priced_batch": f.int(inf.priced_concurrency) if inf.priced_concurrency else None,
        "priced_full": inf.priced_concurrency is not None and inf.priced_concurrency > inf.concurrency,
        "per_month": None if cpmonth is None else money_span(f, cpmonth.low, cpmonth.high, cpmonth.currency),
        "user_gpus": f.int(report.request.gpu_count) if report.request.gpu_count else None,
        "load_given": not {"concurrency", "context"} <= {a.field for a in report.assumptions},
        "rec_nodes": "",  # folded into "layout"
        "count_ok": bool(report.request.gpu_count and report.request.gpu_count >= inf.min_gpus),
        "verdict": report.feasible,
        "verdict_text": translate(
            lang,
            SERVING_VERDICTS.get(report.feasible_reason or "", SERVING_VERDICTS[report.feasible or "yes"]),
        ),
        "alternatives": _lighter_weights(inf, f),
    }


def _borderline_text(report: SizingReport, f: Fmt) -> str | None:
    """One line saying why a 'fits' is only borderline (report.feasible_reason)."""
    reason = report.feasible_reason
    m = report.memory
    if report.feasible != "borderline" or reason not in BORDERLINE_REASONS or m is None:
        return None
    params = report.request.params_total or 0.0
    share = f.percent(m.per_gpu_bytes / m.gpu_memory_bytes) if m.gpu_memory_bytes else ""
    return translate(f.lang, BORDERLINE_REASONS[reason], share=share, host=f.gb(12.0 * params))


def _days_rows(report: SizingReport, f: Fmt) -> list[dict[str, Any]]:
    """The GPUs ↔ days table, aligned for a <pre> block."""
    rows = report.days_table
    if not rows:
        return []
    unit = table_unit(max(r.days.likely for r in rows))  # a job of minutes: not a column of "0 days"
    w_gpus = max(len(f.int(r.gpus)) for r in rows)
    w_days = max(len(in_unit(r.days.likely, unit, f)) for r in rows)
    return [
        {
            "gpus": rjust(f.int(r.gpus), w_gpus),
            "days": rjust(in_unit(r.days.likely, unit, f), w_days),
            "lo": in_unit(r.days.low, unit, f),
            "hi": in_unit(r.days.high, unit, f),
            "band": r.days.low != r.days.high,
            "one": r.gpus == 1,
            "unit": unit,
            "header": translate(f.lang, UNIT_HEADERS[unit]),
        }
        for r in rows
    ]


def headline_hours(report: SizingReport, gpus: int, f: Fmt) -> str | None:
    """Wall-clock hours for a job under a day on ``gpus`` ('one GPU for 7.2 hours'), else None."""
    gh = report.gpu_hours
    if gh is None or gpus <= 0 or gh.likely / gpus >= 24:
        return None
    return f.hours(gh.likely / gpus)


def _within_deadline(report: SizingReport, gpus: int, f: Fmt) -> str:
    """' (within your 5 days)' after a headline whose GPUs (memory's minimum, whole nodes) finish well
    before the deadline the user gave; '' when the deadline was assumed or the days are the deadline."""
    req, gh = report.request, report.gpu_hours
    stated = req.deadline_days and not any(a.field == "deadline_days" for a in report.assumptions)
    if not stated or gh is None or gh.likely / gpus / 24 >= 0.8 * req.deadline_days:
        return ""
    if req.deadline_days < 1:
        return translate(f.lang, N_(" (within your %(hours)s hours)"), hours=f.hours(req.deadline_days * 24))
    return translate(f.lang, N_(" (within your %(days)s days)"), days=f.days(req.deadline_days))


def headline_days(report: SizingReport, gpus: int, f: Fmt) -> str:
    deadline = report.request.deadline_days or 30
    gh = report.gpu_hours
    days = gh.likely / gpus / 24 if gh else deadline
    return f.days(deadline if days >= 0.8 * deadline else days)


def _lighter_weights(inf: Inference, f: Fmt) -> str:
    """'FP8/INT8: 20; INT4 (GPTQ/AWQ): 16' — GPUs for the same load, where they differ."""
    zh = f.lang == "zh"
    return ("；" if zh else "; ").join(
        f"{PRECISION_LABELS.get(a.change, a.change.upper())}{'：' if zh else ': '}{f.int(a.min_gpus)}"
        for a in inf.alternatives
        if a.min_gpus is not None and a.min_gpus != inf.recommended_gpus
    )


def _serving_nodes(report: SizingReport, lang: str) -> str:
    """'3 × 8-GPU nodes, ' ahead of the layout when the recommended GPUs fill whole nodes (and the
    headline is about the recommendation, not the user's count)."""

    inf = report.inference
    if inf is None or report.request.gpu_count:
        return ""
    spec = catalog.gpus().get(report.request.gpu or "")
    per_node = spec.gpus_per_node if spec else 8
    if inf.recommended_gpus <= per_node:
        return ""
    nodes = nodes_text(lang, inf.recommended_gpus, per_node)
    return f"{nodes}{'，' if lang == 'zh' else ', '}" if nodes else ""


def _gpus_for_budget_deadline(report: SizingReport, f: Fmt) -> dict[str, str] | None:
    """A budget and a stated deadline ('预算80w，一个月内'): the GPUs that spend the GPU-hours the budget
    buys within that time (GPU-hours ÷ deadline hours, rounded up), or None."""
    req, hours = report.request, report.budget_gpu_hours
    assumed = {a.field for a in report.assumptions}
    stated = req.deadline_days and "deadline_days" not in assumed
    if not (req.budget and stated and hours) or (req.gpu_count and "gpu_count" not in assumed):
        return None  # with the user's own count, the days table answers it
    # enough GPUs to spend them within the deadline (rounded up: fewer would take longer than the
    # stated days), in whole 8-GPU nodes beyond one node (design §3.2); GPU-hours stay what the
    # budget buys, more GPUs only finish sooner
    gpus = max(1, math.ceil(hours.likely / (req.deadline_days * 24) - 1e-9))
    gpus = math.ceil(gpus / 8) * 8 if gpus > 8 else gpus
    return {"days": f.days(req.deadline_days), "gpus": f.int(gpus)}


def budget_section(report: SizingReport, f: Fmt, gpu: str) -> dict[str, Any] | None:
    hours = report.budget_gpu_hours
    if hours is None or report.flops is not None:
        return None
    req = report.request
    capped = req.gpu_count and req.deadline_days and hours.likely == req.gpu_count * req.deadline_days * 24
    if req.budget and not capped:
        what = f.money(req.budget, req.currency or "CNY")
    else:  # GPUs × days, also when they use less than the budget buys
        days = translate(f.lang, N_("%(n)s days"), n=f.days(req.deadline_days or 0))
        what = f"{f.int(req.gpu_count or 0)} × {gpu}, {days}"
    tokens = report.tokens_for_budget
    return {
        "what": what,
        "gh": f.int(hours.likely),
        "gh_compact": f.compact(hours.likely),
        "gh_low": f.int(hours.low),
        "gh_high": f.int(hours.high),
        "band": hours.low != hours.high,
        "params": f.params(report.max_params_for_budget) if report.max_params_for_budget else None,
        "chinchilla": f.tokens(report.chinchilla_tokens) if report.chinchilla_tokens else None,
        "tokens": f.tokens(tokens.likely) if tokens else None,
        "tokens_low": f.tokens(tokens.low) if tokens else None,
        "tokens_high": f.tokens(tokens.high) if tokens else None,
        "rows": _days_rows(report, f),
        "deadline_gpus": _gpus_for_budget_deadline(report, f),
        # the budget buys more than the user's GPUs use in their days: say which one binds
        "budget_unused": f.money(req.budget, req.currency or "CNY") if req.budget and capped else None,
    }


def rental_section(report: SizingReport, f: Fmt) -> dict[str, Any] | None:
    """A known duration ('6 hours on one H100'): GPUs × hours = GPU-hours, and what they cost."""
    req, gh, days = report.request, report.gpu_hours, report.days
    if not req.hours or gh is None or days is None:
        return None
    c = report.cost
    return {
        "gpus": f.int(days.gpus),
        "hours": f.hours(req.hours),
        "gh": f.hours(gh.likely),
        "cost": None if c is None else _billed(f, c, gh.likely),
        "price": None if c is None else f.price_range(c.price_low, c.price_high, c.currency),
        "source": c.price_source if c else None,
    }


def _billed(f: Fmt, c: Cost, used: float) -> str:
    """The cost of a rental, and the whole GPU-hours billed when more than used: '$8.40 – $17.50
    (7 GPU-hours billed)' for 6.43 used — billing never rounds down, and the line says what it bills."""
    money = money_span(f, c.low, c.high, c.currency)
    if c.billed_gpu_hours <= used + 1e-9:
        return money
    return translate(
        f.lang, N_("%(money)s (%(hours)s GPU-hours billed)"), money=money, hours=f.int(c.billed_gpu_hours)
    )


def method_rows(report: SizingReport, f: Fmt) -> list[str]:
    """'Full fine-tuning: ≈ 67.2 GiB per GPU on 2 GPUs (at least 2)' — one line per method asked."""
    lang = f.lang
    lines = []
    for row in report.method_comparison:
        name = translate(lang, METHOD_NAMES[row.method.value])
        if row.min_gpus is None:
            text = translate(lang, N_("%(method)s: does not fit"), method=name)
        elif row.feasible != "no":
            text = translate(
                lang,
                N_("%(method)s: ≈ %(per_gpu)s per GPU on %(gpus)s"),
                method=name,
                per_gpu=f.gib(row.per_gpu_bytes),
                gpus=gpus_text(lang, row.plan_gpus),
            )
            text += paren(lang, plan_short(row.plan, lang)) if row.plan is not None else ""
        elif report.request.gpu_count:
            text = translate(
                lang,
                N_("%(method)s: does not fit on %(n)s (≈ %(per_gpu)s per GPU); at least %(min)s"),
                method=name,
                n=gpus_text(lang, report.request.gpu_count),
                per_gpu=f.gib(row.per_gpu_bytes),
                min=gpus_text(lang, row.min_gpus),
            )
        else:
            text = translate(
                lang,
                N_("%(method)s: does not fit on %(n)s; ≈ %(per_gpu)s per GPU on %(gpus)s"),
                method=name,
                n=gpus_text(lang, 1),
                per_gpu=f.gib(row.per_gpu_bytes),
                gpus=gpus_text(lang, row.plan_gpus),
            )
            text += paren(lang, plan_short(row.plan, lang)) if row.plan is not None else ""
        lines.append(text)
    return lines
