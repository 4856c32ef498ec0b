"""The public JSON contract of ``sizing-bot ask --format json`` (schema 1).

Stable: fields may be added, never renamed or dropped without bumping ``SCHEMA``.
All quantities in SI units (counts, FLOPs, bytes, hours, days); money in ``currency``.
"""

from __future__ import annotations

from typing import Any

from bot.core.failed_counts import ALL_CODES
from bot.core.kv_shown import kv_per_token_shown
from bot.core.pipeline import Answer
from bot.recipes import build_recipes
from bot.render.notes import why_text
from estimator.catalog import GpuSpec
from estimator.catalog import gpu as catalog_gpu
from estimator.models import Assumption, SizingReport
from estimator.request import JSON_FIELDS
from estimator.shown_cost import quoted_gpu_hours, shown_figures

FAILED_CODES = ALL_CODES
"""Notes of counts tried that failed (:mod:`bot.core.failed_counts`)."""

SCHEMA = 1

REQUEST_FIELDS: tuple[str, ...] = JSON_FIELDS
"""The ``request`` object's fields, in order: derived from each SizingRequest field's declaration
(``json_order``, estimator.request); tests/test_settings_declared.py holds the published order."""


def _filled(said: Any, sized: Any) -> set[str]:
    """The request fields the user left unset that the sized request holds: the defaults the answer
    assumed under a field name of its own (the micro-batch of 1 as ``micro_batch``, an inference context as
    ``context``) or none (the currency of the conversation's language) — a follow-up given this request
    as its prev fills them again, never echoes them as said (fresh-user trial s34 #2)."""
    fields = type(sized).model_fields
    return {k for k in fields if getattr(said, k, None) is None and getattr(sized, k) is not None}


def to_json(answer: Answer, reply: str) -> dict[str, Any]:
    """One JSON object describing the answer; ``reply`` is the plain-text reply."""
    report = answer.report
    request = (report.request if report else answer.parsed.request).model_dump(mode="json")
    if answer.embedding is not None:  # an encoder served: its model, QPS and length (s38 embfix)
        request |= {k: getattr(answer.said, k) for k in ("model", "requests_per_hour", "tokens_per_request")}
    if report is not None and any(w.code in FAILED_CODES for w in report.warnings):
        # counts tried that failed, sized above them (bot.core.failed_counts): the request holds the
        # counts the user said (the memory's plan_gpus the count sized), as for a range of counts; the
        # TP a serving retry spread over the larger count is the plan's (report.inference), not theirs
        said = answer.request or answer.parsed.request
        request |= {"gpu_count": said.gpu_count, "gpu_count_max": said.gpu_count_max, "tp": said.tp}
    if report is not None:  # which values the estimate filled: a follow-up's prev fills them again (s25 #3)
        named = {a.field for a in report.assumptions} | _filled(answer.said, report.request)
        request["assumed_fields"] = [k for k in REQUEST_FIELDS if k in named and request.get(k) is not None]
    if report is not None and (rows := answer.per_value):  # a list of one setting's values (s36-lists)
        request["values_listed"] = [r.as_json()["value"] for r in rows if r.value != request.get(r.setting)]
    out: dict[str, Any] = {
        "schema": SCHEMA,
        "lang": answer.lang,
        "reply_script": answer.script if answer.lang == "zh" else None,  # s38: 'Hant' for Traditional
        "understood": answer.understood,
        "answered": _answered(answer),
        "ceiling": _ceiling(answer),
        "family_fits": _family_fits(answer),
        "embedding": _embedding(answer),
        "request": {k: request.get(k) for k in REQUEST_FIELDS},
        "assumptions": [_assumption(a) for a in report.assumptions] if report else _unsized(answer),
        "report": _report(answer) if report else None,
        "interpretation": answer.interpretation.model_dump(mode="json"),
        "config": answer.config.model_dump(mode="json") if answer.config is not None else None,
        "stack_config": answer.stack.model_dump(mode="json") if answer.stack is not None else None,
        "offer": _offer(answer),
        "reply": reply,
    }
    return out


def _answered(answer: Answer) -> str | None:
    """What the reply answered (added s31): ``sized`` (a report, as ``understood``), ``ceiling`` (no
    model: the user's own per-card ceiling scaled, :mod:`bot.core.ceiling_cards`), ``family_fits`` (a
    family beside a card: which sizes fit, :mod:`bot.core.family_fits`), or None (the help)."""
    if answer.report is not None:
        return "sized"
    if answer.family_fits is not None:
        return "family_fits"
    if answer.accumulation is not None:  # no model: the accumulation's formula (s32 fixb)
        return "accumulation"
    if answer.embedding is not None:  # a corpus to encode: its time, or the size asked for (s32 fixk)
        return "embedding"
    return "ceiling" if answer.ceiling is not None else None


def _embedding(answer: Answer) -> dict[str, Any] | None:
    """An embedding/reranker model served (s38, :mod:`bot.core.embedding_serve`): its figures, else None."""
    e = answer.embedding
    if e is None or not hasattr(e, "qps"):
        return None
    return {
        "model": e.model, "kind": e.kind or None, "params": e.params, "tokens_per_request": e.tokens,
        "tokens_assumed": not e.tokens_stated, "qps": e.qps, "gpu": e.gpu, "gpu_count": e.gpu_count,
        "qps_per_gpu": e.per_card_qps or None, "gpus_needed": e.cards or None, "gpus_per_copy": e.per_copy,
        "ms_per_request": e.ms or None, "flops_per_request": (e.flops + e.attention_flops) or None,
        "attention_flops": e.attention_flops, "mfu": e.mfu or None, "mfu_assumed": not e.mfu_stated,
        "weights_bytes": e.weights, "activation_bytes": e.activations, "context_bytes": e.context,
        "total_bytes": e.total, "source": e.source,
    }  # fmt: skip


def _family_fits(answer: Answer) -> dict[str, Any] | None:
    """A ``family_fits`` answer's sizes (s31, :mod:`bot.core.family_fits`), else None."""
    f = answer.family_fits
    if f is None:
        return None
    head = {"family": f.family, "gpu": f.gpu, "gpu_count": f.count, "context_tokens": f.context_tokens}
    sizes = [
        {
            "model": s.model,
            "size": s.size,
            "fits": s.fits,
            "weight_format": s.weight_format,
            "required_bytes": s.required_bytes,
            "usable_bytes_per_gpu": s.usable_bytes,
            "min_gpus": s.min_gpus,
            "runtime": s.runtime,
            "offload_tokens_per_s": list(s.offload_tokens_per_s) if s.offload_tokens_per_s else None,
            "host_bytes": s.host_bytes,
        }
        for s in f.sizes
    ]
    return head | {"concurrency": f.concurrency, "sizes": sizes}


def _ceiling(answer: Answer) -> dict[str, Any] | None:
    """``{per_card, load, cards, under, gpu}`` of a ceiling answer (s31), else None: ⌈load ÷ per_card⌉
    cards; ``under``: the ceiling was said as a bound ('under 40'), so the count is a floor."""
    c = answer.ceiling
    if c is None:
        return None
    return {"per_card": c.per_card, "load": c.load, "cards": c.cards, "under": c.under, "gpu": c.gpu}


def _offer(answer: Answer) -> dict[str, Any] | None:
    """The provider's terms behind the answer and the quote's figures (pre-sales), or None."""
    if answer.offer is None:
        return None
    from bot.core.offer import pricing  # imported when used: a plain answer has no offer (start-up)

    out = answer.offer.model_dump(mode="json", exclude={"contact", "website", "valid_days", "note"})
    priced = pricing(answer.report, answer.offer)
    out["pricing"] = priced.model_dump(mode="json") if priced is not None else None
    return out


def _unsized(answer: Answer) -> list[dict[str, Any]]:
    """Nothing sized: the assumptions the answer's request still made (one personal card, s31 fixf)."""
    if "gpu_count" not in (answer.parsed.request.assumed_fields or ()):
        return []
    from bot.core.unsized_card import assumptions  # imported when used: start-up

    return [_assumption(a) for a in assumptions(answer.parsed.request)]


def _assumption(a: Assumption) -> dict[str, Any]:
    """``{field, value, source}`` as in schema 1 (``source``: why, in English, with the citation), plus
    the reason's key, its parameters, further reasons and the citation apart."""
    source = why_text("en", a) + (f" (source: {a.citation})" if a.citation else "")
    extra = a.model_dump(mode="json", exclude={"field", "value"})
    value = a.value
    if a.field in PUBLISHED_AS_TEXT and isinstance(value, int | float):
        value = PUBLISHED_AS_TEXT[a.field].format(value)
    return {"field": a.field, "value": value, "source": source, **extra}


PUBLISHED_AS_TEXT: dict[str, str] = {"kv_indexer": "{:,.0f} B / token"}
"""Assumptions whose JSON ``value`` was published as text, kept so (the contract is extended, never
changed): DeepSeek-V3.2's indexer key cache, "8,052 B / token" since s23; the estimator now records the
number (estimator.mla_layout.indexer_assumption) and the reply words it (bot.render.notes)."""


def _days_row(row: dict[str, Any]) -> dict[str, Any]:
    """A days-table row: gpus, low / likely / high days; and, on a count that pays its own (the fewest
    GPUs under full recomputation), its ``gpu_hours`` band and ``cost`` (added s15; absent elsewhere); past
    the scale-out reference also its ``mfu`` band (s25)."""
    out = {"gpus": row["gpus"], **row["days"]}
    if row.get("gpu_hours") is not None:
        out |= {"gpu_hours": row["gpu_hours"], "cost": row.get("cost")}
    if row.get("mfu") is not None:  # s25: a count past the scale-out reference, its own MFU band
        out["mfu"] = row["mfu"]
    return out


def _report(answer: Answer) -> dict[str, Any]:
    r = answer.report
    assert r is not None
    d = r.model_dump(mode="json", exclude={"gpu_spec", "model_spec"})
    mem = d["memory"]
    cost = d["cost"]
    from bot.core.start_only import start_only
    from bot.core.typed_verdict import typed_verdict

    starts = start_only(r)
    verdict = typed_verdict(r, starts)
    inference = (
        {**d["inference"], "start_only": starts, "kv_bytes_per_token_shown": kv_shown(r)}
        if d["inference"]
        else None
    )
    if answer.parsed.unused_numbers:  # a tax rate applied to the cost shown (s46 review B4)
        _with_tax(answer, r, cost, inference)
    return {
        "flops": r.flops,
        "flops_formula": r.flops_formula,
        "flops_with_attention": r.flops_with_attention,
        "attention_share": r.attention_share,
        "pf_days": r.pf_days,
        "gpu_hours": d["gpu_hours"],
        "gpu_hours_interval": d["gpu_hours_interval"],
        "days": ({"gpus": d["days"]["gpus"], **d["days"]["days"]} if d["days"] else None),
        "days_table": [_days_row(row) for row in d["days_table"]],
        "gpus_for_deadline": r.gpus_for_deadline,
        "cost": cost,
        "chinchilla_tokens": r.chinchilla_tokens,
        "memory": mem,
        "method_comparison": d["method_comparison"],
        "checkpoint_bytes": d["checkpoint_bytes"],
        "mfu": d["mfu"],
        "peak_flops": r.peak_flops,
        "mfu_calibrated": r.mfu_calibrated,
        "inference": inference,
        "largest_served": d["largest_served"],
        "largest_trained": d["largest_trained"],  # s21: a fine-tuning question without a model
        "budget_gpu_hours": d["budget_gpu_hours"],
        "tokens_for_budget": d["tokens_for_budget"],
        "max_params_for_budget": r.max_params_for_budget,
        "comparisons": [_comparison(c) for c in answer.comparisons],
        "compared_models": _compared_models(answer),  # s36: 'Qwen3-32B 还是 Llama-3.3-70B，哪个'
        "budget_finetune": _budget_finetune(answer),  # s36: '预算 5 万块，能微调多大的模型'
        "feasible": verdict["feasible"],  # the headline's: 'no' as typed where vLLM refuses it (s30)
        "feasible_reason": verdict["feasible_reason"],
        "warnings": d["warnings"],
        "recipes": [recipe.model_dump() for recipe in build_recipes(r, answer.lang, (answer.chosen_plan,))],
        "hardware": _hardware(r.gpu_spec),
        "model_shape": r.model_spec.model_dump(mode="json", exclude={"aliases"}) if r.model_spec else None,
        "rollout": d["rollout"],
        "host_ram": d["host_ram"],  # s16: CPU offload's host RAM per machine and the stated RAM's verdict
        "cpu": d["cpu"],  # s41 cpufix: no GPU, the model on the CPU from RAM (estimator.cpu_decode)
        "shown": shown(r),  # s25: what the reply's GPU-hours line quotes for the count it shows
        "feasible_with_override": verdict[
            "feasible_with_override"
        ],  # s30: with VLLM_ALLOW_LONG_MAX_MODEL_LEN
        "per_value": [row.as_json() for row in answer.per_value],  # s36-lists: a row per value listed
        "merge": _merge(answer),  # s46 review N5: a LoRA merge's memory (bot.render.merge_head)
        "batch_work": d["batch_work"],  # s44: a period's tokens or a batch's time (estimator.batch_work)
    }


def _merge(answer: Answer) -> dict[str, Any] | None:
    """``report.merge`` when a LoRA merge is asked (:func:`bot.render.merge_head.merge_json`), else None."""
    if answer.report is None or not answer.report.request.merge_asked:
        return None
    from bot.render.merge_head import merge_json

    return merge_json(answer)


def _with_tax(answer: Answer, r: SizingReport, cost: dict | None, inference: dict | None) -> None:
    """Add ``tax`` (:func:`bot.core.tax_applied.tax_json`: rate, text, with-tax low/high, currency) to the
    cost the reply shows: ``report.cost`` when there is one, else ``report.inference.cost_per_month``."""
    from bot.core.tax_applied import tax_json, tax_phrase

    phrase = tax_phrase(answer.parsed)
    taxed = tax_json(r, phrase) if phrase else None
    if taxed is None:
        return
    if cost is not None:
        cost["tax"] = taxed
    elif inference is not None and inference.get("cost_per_month") is not None:
        inference["cost_per_month"]["tax"] = taxed


HARDWARE_FIELDS = (
    "id", "name", "family", "memory_gib", "memory_bandwidth_gbps", "gpus_per_node", "nvlink", "interconnect",
    "gpu_memory_fraction", "peak_tflops_bf16", "peak_tflops_fp16", "peak_tflops_fp8", "personal", "generic",
)  # fmt: skip
"""The sized GPU's facts in ``report.hardware`` (estimator.catalog.GpuSpec fields; TFLOPS dense, GiB)."""


def kv_shown(r: SizingReport) -> float | None:
    """``report.inference.kv_bytes_per_token_shown``: the reply's KV bytes per token (bot.core.kv_shown)."""
    return kv_per_token_shown(r.inference)[0] if r.inference is not None else None


def _hardware(gpu: GpuSpec | None) -> dict[str, Any] | None:
    """The GPU as sized: memory, GPUs per node, NVLink, unified-memory share (``gpu_memory_fraction``,
    None: a discrete card), dense peaks; ``unified_memory`` True for a shared-memory machine;
    ``memory_stated`` True when ``memory_gib`` is the user's, not the catalog card's
    (``catalog_memory_gib``)."""
    if gpu is None:
        return None
    out = {k: getattr(gpu, k) for k in HARDWARE_FIELDS}
    out["unified_memory"] = gpu.gpu_memory_fraction is not None
    # a catalog card with the memory the user stated ('A800 40G'): the card's own id, the memory apart
    # (the id was the two run together: 'A800-80GB-40GB')
    out["id"] = gpu.catalog_id or gpu.id
    out["memory_stated"] = gpu.catalog_id is not None
    out["catalog_memory_gib"] = catalog_gpu_memory(gpu.catalog_id) if gpu.catalog_id else None
    return out


def catalog_gpu_memory(gpu_id: str) -> float:
    """GiB per card of the catalog GPU ``gpu_id``."""
    return catalog_gpu(gpu_id).memory_gib


def _compared_models(answer: Answer) -> list[dict[str, Any]]:
    """``report.compared_models`` (bot.core.compared_models.as_json; imported when used: start-up)."""
    if not answer.compared_models or answer.report is None or answer.report.request.largest_asked:
        return []
    from bot.core.compared_models import as_json

    notes = answer.parsed.notes
    asked = ("compared_faster", "compared_fewer", "compared_count")  # bot.parse.models_compared
    return as_json(answer.report, answer.compared_models, *(n in notes for n in asked))


def _budget_finetune(answer: Answer) -> list[dict[str, Any]]:
    """``report.budget_finetune`` (bot.core.budget_finetune.as_json; imported when used: start-up)."""
    r = answer.report
    if r is None or not r.request.largest_asked:
        return []
    from bot.core.budget_finetune import as_json

    return as_json(r, answer.compared_models)


def _comparison(r: SizingReport) -> dict[str, Any]:
    """The same question on another GPU the user named: the key figures."""
    inf, mem = r.inference, r.memory
    return {
        "gpu": r.request.gpu,
        "gpu_count": r.request.gpu_count,
        "gpu_memory_gib": r.request.gpu_memory_gib,  # round 36 zh: its stated memory ('12 GB 的 3060 Ti')
        "gpu_hours": r.gpu_hours.model_dump() if r.gpu_hours else None,
        "gpus_for_deadline": r.gpus_for_deadline,
        "cost": r.cost.model_dump(mode="json") if r.cost else None,
        "min_gpus": inf.min_gpus if inf else (mem.min_gpus if mem else None),
        "recommended_gpus": inf.recommended_gpus if inf else (mem.recommended_gpus if mem else None),
        "shown": shown(r),  # s25: the figures its row quotes (gpu_hours above is count-free)
    }


def shown(r: SizingReport) -> dict[str, Any] | None:
    """``{gpus, gpu_hours, gpu_days, mfu, cost, gpu_hours_quoted}`` the reply quotes for the count it shows
    (:func:`estimator.shown_cost.shown_figures`): on a count past the scale-out reference its own GPU-hours
    (GPUs × days × 24) where ``gpu_hours`` is the count-free figure (s25); ``gpu_hours_quoted``: the
    likely figure as the text says it (:func:`estimator.shown_cost.quoted_gpu_hours`: whole hours from
    10 up); null without GPU-hours."""
    out = shown_figures(r)
    if out is None:
        return None
    dump = {k: (v.model_dump(mode="json") if hasattr(v, "model_dump") else v) for k, v in out.items()}
    cost = r.headline_cost  # the cost line's: estimator.shown_cost.shown_cost
    quoted = quoted_gpu_hours(out["gpu_hours"].likely)  # the whole figure the text says (s25 review #7)
    return dump | {
        "cost": cost.model_dump(mode="json") if cost is not None else None,
        "gpu_hours_quoted": quoted,
    }
