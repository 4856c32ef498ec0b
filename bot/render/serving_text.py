"""The serving sections of a reply: inference and the largest model that fits (split from
:mod:`bot.render.sections`)."""

from __future__ import annotations

import math
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from bot.later_names import LATE, context_rows, engine_limit, kv_lines, mem_first, start_only
from bot.render.describe import count_layout, gpu_names, is_unified, node_of
from bot.render.dp_attention_texts import vllm_dp_layout
from bot.render.fmt import Fmt, money_span
from bot.render.i18n import N_, translate
from bot.render.load_cost_text import load_cost_section
from bot.render.notes import context_len
from bot.render.plan_text import (
    nodes_text,
)
from bot.render.stated import SHARE_KEY
from bot.render.wording import (
    PRECISION_LABELS,
    SERVING_VERDICTS,
)
from bot.render.wording_extra import SCHEDULED_MONTH, SERVING_VERDICTS_EXTRA
from estimator.later import later
from estimator.models import DecodeSpeed, Inference, SizingReport
from estimator.runtimes import RUNTIMES, runtime_named

fp8_swap, fp8_unswapped = later(
    "bot.render.fp8_swap", "fp8_swap", "fp8_unswapped"
)  # on first call: a plain `ask` never calls it (s48-startup)
(sized_split,) = later("bot.render.sized_split", "sized_split")  # on first call (s48-startup)

VERDICTS = {
    **SERVING_VERDICTS,
    **SERVING_VERDICTS_EXTRA,
    "eager_unstated": N_("fits on vLLM, but not with eager attention (no FlashAttention-2 on this card)"),
}
"""The serving verdicts by reason, with those kept in bot.render.wording_extra (s34: cuda_graphs_outside)."""
FP8_CAUSE = {"kv": "fp8_only_kv", "workspace": "fp8_only_workspace"}
"""An 'fp8_only' verdict's key by :func:`bot.render.fp8_swap.fp8_swap`'s cause (s43: the 16-bit weights fit,
one sequence's KV cache or the workspace beside them does not)."""

if TYPE_CHECKING:
    from bot.render.contexts import InferenceContext

_FIELD = attrgetter("field")


def _kv_per_token(inf: Inference, f: Fmt, lang: str) -> str:
    """The KV cache per token that multiplies out to the total shown: with sliding-window layers
    (gpt-oss, Gemma 2/3, Mistral's window) the per-sequence figure holds only the window on those
    layers, so the per-token figure is the average over the context, and says so (the JSON's
    ``kv_bytes_per_token_shown``, :func:`bot.core.kv_shown.kv_per_token_shown`, is this figure: change both
    together; inline here for render's call count)."""
    per_token = inf.kv_bytes_per_token
    average = inf.kv_bytes_per_sequence / inf.context_tokens if inf.context_tokens else per_token
    if average >= 0.99 * per_token:
        return f.kib(per_token)
    return f.kib(average) + translate(lang, N_(" (averaged: sliding-window layers hold only their window)"))


def engine_share_bytes(inf: Inference) -> float:
    """'Usable per GPU' in bytes: the memory the engine's fraction hands it, the same meaning for every
    runtime (:meth:`estimator.runtimes.base.ServingRuntime.share_bytes`)."""
    return runtime_named(inf.runtime).share_bytes(inf.usable_bytes_per_gpu, inf.workspace_bytes_per_gpu)


USABLE_NONE = N_(
    "none — %(runtime)s's reserve on this layout, %(reserve)s per GPU, is more than the %(free)s free on each"
)
"""'Usable per GPU' when the engine's share is nil or below (SGLang's default mem_fraction_static at a
TP × PP so large that its reserve, base + per-GPU GiB × TP × PP, passes the card's memory: sglang
server_args.py ``_handle_mem_fraction_static``): what does not fit, never a negative figure."""


def usable_text(inf: Inference, f: Fmt, lang: str) -> str:
    """'Usable per GPU' as a reply and the chart show it: :func:`engine_share_bytes` in GiB, or, when
    the engine's reserve leaves nothing (:data:`USABLE_NONE`), the reserve and the free memory."""
    if not inf.engine_reserve_exceeds_memory:
        return f.gib(engine_share_bytes(inf))
    return translate(
        lang,
        USABLE_NONE,
        runtime=inf.runtime,
        reserve=f.gib(inf.workspace_bytes_per_gpu),
        free=f.gib(inf.usable_bytes_per_gpu),
    )


def scheduled(f: Fmt, money: str, report: SizingReport) -> str:
    """A month's cost ``money`` with the daily schedule it is billed on ('$1,460 – $3,407 (rented 8
    hours a day)') when estimator.serving_schedule lowered it, else ``money`` as it is."""
    inf, hours = report.inference, report.request.hours_per_day
    if inf is not None and inf.cost_per_month is not None and report.request.hours_per_day_compared:
        from bot.render.schedule_both import both_months  # two schedules priced (s43 #5)

        return both_months(f, money, report)
    if inf is None or inf.cost_per_month_always_on is None or hours is None:
        return money
    return translate(f.lang, SCHEDULED_MONTH, money=money, hours=f.hours(hours))


STARTS_PRICED = N_("on %(n)s × %(gpu)s, which start at %(context)s (TP=%(tp)s): %(money)s")
"""The month's cost when vLLM will not start on the user's GPUs at their max_model_len (s26 review #5): the
price is of the setup the answer sized, which starts, named — never a load priced on GPUs the headline just
said cannot start."""


def _per_month(f: Fmt, report: SizingReport) -> str | None:
    """The serving month's cost range, with its daily schedule (:func:`scheduled`); None without one. When
    the user's GPUs refuse their max_model_len (``feasible_reason`` 'max_model_len') and the priced count
    is another, the range names that count (:data:`STARTS_PRICED`)."""
    inf = report.inference
    c = inf.cost_per_month if inf is not None else None
    if c is None:
        return None
    money = scheduled(f, money_span(f, c.low, c.high, c.currency), report)
    if report.feasible_reason == "max_model_len" and inf.serving_gpus != report.request.gpu_count:
        n, gpu, context = f.int(inf.serving_gpus), gpu_names(report)[0], context_len(inf.context_tokens)
        return translate(f.lang, STARTS_PRICED, n=n, gpu=gpu, context=context, tp=inf.tp, money=money)
    return money


PAGED_SERVERS = frozenset(name for name, rt in RUNTIMES.items() if rt.paged)
"""Servers with a paged KV cache and continuous batching (estimator.request.Runtime values; ``paged``)."""


def inference_section(report: SizingReport, f: Fmt, lang: str) -> InferenceContext | None:
    inf = report.inference
    if inf is None:
        return None
    decode, rt = inf.decode_tokens_per_s, runtime_named(inf.runtime)
    cpm, why = inf.cost_per_million_tokens, report.feasible_reason or ""
    dflt = SERVING_VERDICTS[report.feasible or "yes"]
    unified = is_unified(report)
    return {
        "precision": LATE.GGUF_NAMES.get(inf.weight_format, inf.weight_format),  # Q4_K_M, llama.cpp's
        "format": inf.weight_format,
        "kv_precision": inf.kv_precision,
        "weights": f.gb(inf.weights_bytes),
        "bytes_per_param": f.num(inf.bytes_per_param, 2),
        "kv_per_token": _kv_per_token(inf, f, lang),
        "kv_total": f.gb(inf.kv_bytes_total),
        "kv_per_seq": f.gib(inf.kv_bytes_per_sequence),
        "usable": usable_text(inf, f, lang),
        "runtime": inf.runtime,
        **kv_lines(report, inf, f),  # total, kv_capacity, kv_chunked, kv_windowed, the DP engines', limit_kv
        "context": context_len(inf.context_tokens),
        "concurrency": f.int(inf.concurrency),
        "min_gpus": f.int(inf.min_gpus),
        "rec_gpus": f.int(inf.recommended_gpus),
        "serving_gpus": f.int(inf.serving_gpus),
        "serving_one": inf.serving_gpus == 1,
        "unified": unified,
        **_one_mac(report, inf, f, unified),  # one_mac_unfit, mac_total, mac_lighter (s24 #6), slots
        "local": rt.local,
        "same": inf.min_gpus == inf.recommended_gpus,
        "layout": split_text  # the count's own split, the user's TP named as theirs (s43 fixverdict #4)
        if inf.min_split and report.feasible == "no" and (split_text := sized_split(report, inf, lang))
        else LATE.local_layout(report, inf, f, lang)
        if rt.local or (unified and inf.tp * inf.pp == 1)
        else f"FP8, TP={inf.fp8_min_gpus}"
        if report.feasible_reason == "fp8_only" and inf.fp8_min_gpus
        else count_layout(report)
        if report.feasible_reason == "full_memory" and report.request.gpu_count
        else _serving_nodes(report, lang)
        + (vllm_dp_layout(report, inf) or f"TP={inf.tp}")  # vLLM DP × EP as launched (s45 fixserve #1)
        + (f" × PP={inf.pp}" if inf.pp > 1 else "")
        + (" × " + translate(lang, N_("%(n)s replicas"), n=f.int(inf.replicas)) if inf.replicas > 1 else ""),
        "copies_why": _copies_why(report, inf, f, lang, rt.local) if inf.replicas > 1 else None,
        "max_concurrency": f.int(inf.max_concurrency),
        # bf16 short of the user's count, FP8 on it (trial s21 #4); its cause keys the verdict (s43)
        "fp8_swap": (swap := fp8_swap(report, f) if report.feasible_reason == "fp8_only" else None),
        # the user's GPUs hold fewer sequences than the load (the headline must say so, not "fits")
        "short_of_load": inf.max_concurrency < inf.concurrency,
        "table": context_rows(report, f),  # to the server's limit (s41 trial #10)
        "decode_all": f.int(decode.aggregate) if decode else None,
        "decode_batch": f.int(decode.batch) if decode else None,
        "decode_one": bool(decode and decode.batch == 1),
        "ttft": f.num(inf.prefill_seconds, 2 if inf.prefill_seconds < 1 else 1)
        if inf.prefill_seconds is not None
        else None,
        "ttft_target": None,  # a first-token target's line: bot.render.ttft_target (s37 fixb #1)
        "per_money": None,  # output tokens per $1 where asked: bot.render.per_money (s46 #11)
        "cpm": None if cpm is None else f.price_range(cpm.low, cpm.high, cpm.currency),
        # the load the price per million tokens assumes: the stated one, else the most the GPUs hold
        "priced_batch": f.int(inf.priced_concurrency) if inf.priced_concurrency else None,
        "priced_full": inf.priced_concurrency is not None and inf.priced_concurrency > inf.concurrency,
        "priced_tps": f.int(inf.priced_tokens_per_s) if inf.priced_tokens_per_s else None,
        "per_month": _per_month(f, report),
        "user_gpus": f.int(report.request.gpu_count) if report.request.gpu_count else None,
        **_short_of_weights(report, inf, f, lang),  # load_given, short_both, offload_unfit, never_fits, split
        "rec_nodes": "",  # folded into "layout"
        "count_ok": bool(report.request.gpu_count and report.request.gpu_count >= inf.min_gpus),
        "verdict": report.feasible,
        # vLLM cannot hold one sequence of the user's max_model_len (estimator.serving._refused)
        "refuses_limit": report.feasible_reason == "max_model_len" and bool(inf.kv_capacity_tokens),
        # one copy on the user's TP × PP (vLLM's default TP 1 when the command sets none) cannot hold it
        "stated_layout": report.feasible_reason == "stated_layout",
        **_share_room(report, inf, f),  # stated_share, kv_room (s32 trial #1, #2), total_share (s42)
        "stated_tp": f.int(report.request.tp or 1),
        "stated_pp": f.int(report.request.pp or 1),
        "limit": f.int(engine_limit(report) or report.request.max_model_len or inf.context_tokens),
        "verdict_text": (why == "fp8_only" and not swap and fp8_unswapped(report, f, lang))  # s46 #5
        or translate(lang, VERDICTS.get(FP8_CAUSE.get(swap and swap["cause"], why), dflt)),
        "alternatives": _lighter_weights(inf, f),
    } | {"load_cost": load_cost_section(report, f, lambda m: scheduled(f, m, report))}  # trial s17 #1


def _floor(report: SizingReport, decode: DecodeSpeed | None, f: Fmt) -> dict[str, str] | None:
    """Where the step's fixed time set the decode speed (DecodeSpeed.fixed_floor_ms): the floor in ms and
    its two parts' counts — every layer's kernel launches, every MoE layer's routing (serving_speed)."""
    spec = report.model_spec
    if decode is None or decode.fixed_floor_ms is None or spec is None:
        return None
    from estimator.runtimes import RUNTIMES
    from estimator.serving_speed import step_floor_parts

    engine = RUNTIMES.get(str(getattr(report.inference, "runtime", None) or ""))
    gpu = report.gpu_spec
    one = report.inference is not None and report.inference.tp * report.inference.pp == 1
    layer_s, moe_s = step_floor_parts(bool(engine and engine.local), bool(gpu and gpu.unified_memory), one)
    moe = spec.layers - (spec.dense_layers or 0) if spec.experts else 0
    return {
        "ms": f.num(decode.fixed_floor_ms, 1),
        "layers": f.int(spec.layers),
        "layer_us": f.int(layer_s * 1e6),
        "moe": f.int(moe),
        "moe_us": f.int(moe_s * 1e6),
    }


def _short_of_weights(report: SizingReport, inf: Inference, f: Fmt, lang: str) -> dict[str, Any]:
    """``load_given`` — a concurrency or context stated; the headline's cases when the user's GPUs do not
    hold the weights (and one sequence): ``short_both`` — nor the stated load, which takes more GPUs than
    that: the headline names both counts (trial s11 item 9), and ``min_held`` what the fewer hold at
    the load (trial s22 #2); ``offload_unfit`` — weights in CPU memory
    on a server (not modelled), or a llama.cpp split (estimator.layer_offload, worded by
    bot.render.split_text): no GPU-only count, speed or cost is offered as the answer (trial s11 item 5);
    ``never_fits`` — no pipeline of these GPUs holds the model, on any number of them (note
    ``pipeline_never_fits``: estimator.serving_layout.pipeline_stages is None); ``split`` — the words of
    that llama.cpp split (:func:`bot.render.split_text.split_section`), None without one;
    ``beyond_machine`` — consumer cards whose plan spans machines (note ``personal_beyond_one_machine``):
    the headline keeps to the user's count, the warning names the plan (trial s26 #7); ``advice`` — the
    serving advice's variant; ``decode_ms`` / ``decode_wait`` — the time per token, the queued."""
    from bot.render.split_text import split_section  # imported when used: start-up (s26)

    gpus = report.request.gpu_count
    short = bool(gpus and gpus < inf.min_gpus)
    assumed = {a.field for a in report.assumptions}
    codes = {w.code for w in report.warnings}  # one comprehension, no generator resumed per warning
    gpu, fmt = report.gpu_spec, inf.weight_format
    decode = inf.decode_tokens_per_s
    load = not {"concurrency", "context"} <= assumed or bool(report.request.users)  # '200 人用' (s21 #3)
    # the decode speed with its band, "42 (30–58)": DecodeSpeed.per_sequence_low … high, the logged runs'
    # median factor off (serving_speed.DECODE_SPREAD; s36 fixg); formatted in C as Fmt.num's fast path
    # does, at decode_seq's digits (no call per figure: the render-calls pin)
    band, floor = None, bool(decode and decode.fixed_floor_ms)
    if decode and decode.per_sequence_low and decode.per_sequence_high:
        d = 1 if decode.per_sequence < 10 else 0
        low, high = f"{decode.per_sequence_low:,.{d}f}", f"{decode.per_sequence_high:,.{d}f}"
        band = f"{decode.per_sequence:,.{d}f}" + (f"（{low}–{high}）" if lang == "zh" else f" ({low}–{high})")
    elif decode:  # a speed without a band (a llama.cpp split's own): the figure alone
        band = f.num(decode.per_sequence, 1 if decode.per_sequence < 10 else 0)
    return {
        "load_given": load,
        "offload_unfit": (short and bool(report.request.offload)) or inf.layer_split is not None,
        "short_both": short and inf.min_gpus < inf.recommended_gpus and report.feasible == "no" and load,
        "min_held": f.int(inf.min_gpus_concurrency) if inf.min_gpus_concurrency else None,  # trial s22 #2
        # a context stated, no load: 'will it start?' is answered for the user's GPUs (s15 trial #3)
        "no_start": short and report.feasible == "no" and load and "concurrency" in assumed,
        "start_only": start_only(report),  # decided in bot.core.start_only (in the JSON too)
        # vLLM refuses the typed max_model_len past max_position_embeddings unless
        # VLLM_ALLOW_LONG_MAX_MODEL_LEN=1: the start-up yes is a no as typed (trial s29 #1)
        "long_window": _long_window(report, f) if "vllm_long_max_model_len" in codes else None,
        # YaRN on is the fix (s38 fixs #2); the user's own factor too (s47 B4)
        "long_window_rope": "rope_scaling_needed" in codes or "rope_scaling_set" in codes,
        "ttft_prompt": f.int(inf.prompt_tokens),  # the prompt the prefill figure is for (s38 fixs #3)
        "never_fits": "pipeline_never_fits" in codes,
        # consumer cards past one machine: no headline count nobody would rent (trial s26 #7)
        "beyond_machine": "personal_beyond_one_machine" in codes,
        # the advice's variant (templates/_advice.j2): 'paged' — sized as a paged-KV server's (named, or
        # vLLM's profile when none was: the tools line names the servers) or a card not NVIDIA's (Ascend:
        # no TensorRT-LLM), no other server named (trials s26 #20, s26b #15); '8bit' — 16-bit weights
        "advice": (
            "paged "
            if (report.request.runtime or inf.runtime or "") in PAGED_SERVERS
            or (gpu and gpu.vendor != "NVIDIA")
            else ""
        )
        + ("8bit" if fmt in ("bf16", "fp16", "fp32") else "")
        # the step's fixed time set the speed (s36 fixg): 'floor' with MoE routing, 'launch' launches only
        + ((" floor" if report.model_spec and report.model_spec.experts else " launch") if floor else ""),
        "split": split_section(report, f, lang, gpu_names(report)[0]),  # -ngl, --cpu-moe (split_text)
        # the time per output token (vLLM's TPOT, 1000 / tokens/s per sequence) and the sequences queued
        # past the most the GPUs hold: a speed asked past the room leads with them (s31 fixa #2)
        "decode_ms": round(1000 / decode.per_sequence) if decode and decode.per_sequence > 0 else None,
        "decode_wait": max(0, math.ceil(inf.concurrency) - decode.batch) if decode else 0,
        "decode_seq": band,
        # the step's fixed time, where it and not the weight reads set the speed (s36 fixg)
        "decode_floor": _floor(report, decode, f) if floor else None,
    }


def _long_window(report: SizingReport, f: Fmt) -> str | None:
    """The model config's max_position_embeddings that the typed max_model_len passes (the note's)."""
    note = next(w for w in report.warnings if w.code == "vllm_long_max_model_len")
    return f.int(int(note.params["window"] or 0))


_SLOTTED = frozenset(name for name, rt in RUNTIMES.items() if rt.kv_type_flags)
"""Runtimes whose stated ``-c``/``--parallel`` slots the headline checks (llama.cpp: s39 fixm #3)."""


def _one_mac(report: SizingReport, inf: Inference, f: Fmt, unified: bool) -> dict[str, Any]:
    """One Mac that cannot hold the model: ``one_mac_unfit``; its need in GiB beside its usable GiB
    (one unit in one sentence); and the lighter weights that fit on it, if any ('INT4 (GPTQ/AWQ)': the
    alternatives' precision needing one GPU — a Mac is one machine, no GPU counts; s24 review #3).
    Likewise each GPU's need when the question asks it (``per_gpu``: :attr:`Inference.bytes_per_gpu` in
    GiB, on the user's count; trial s25 #2), and ``context_assumed``: no context stated, so a verdict
    resting on the context names it as assumed (trial s25 #2: '不够 —— 上下文 32K 时' with no 32K said)."""
    unfit = unified and report.feasible == "no" and report.request.gpu_count == 1
    one = [a for a in inf.alternatives if unfit and a.min_gpus == 1]
    req = report.request
    asked_on_theirs = req.memory_asked and req.gpu_count  # no count: the memory leads (s35 #3)
    far = unfit and _beyond_the_whole_memory(report, inf)
    return {
        "mac": unified
        and (
            report.gpu_spec is None or report.gpu_spec.vendor == "Apple"
        ),  # Apple's advice (MLX, sysctl), not a DGX Spark's (s31)
        "one_mac_unfit": unfit,
        "mac_total": f.gib(inf.weights_bytes + inf.kv_bytes_total),
        "mac_lighter": PRECISION_LABELS.get(one[0].change, one[0].change.upper()) if one else None,
        "mac_far": far,
        "mac_wired": _mac_lever(report, inf, f) if unfit and not far else None,  # s39 fixm #1
        "slots": _llama_slots(report, inf, f)
        if runtime_named(inf.runtime).kv_type_flags
        else None,  # s39 fixm #3
        "per_gpu": f.gib(inf.bytes_per_gpu) if asked_on_theirs and inf.bytes_per_gpu else None,
        "mem_first": None if req.gpu_count or not req.memory_asked else mem_first(report, inf, f),
        "per_gpu_share": f.gib((inf.bytes_per_gpu or 0.0) - inf.context_bytes_per_gpu),  # what usable holds
        "cuda_context": f.gib(inf.context_bytes_per_gpu),
        "context_assumed": "context" in map(_FIELD, report.assumptions),  # C calls only: no render frames
    }


def _llama_slots(report: SizingReport, inf: Inference, f: Fmt) -> dict[str, Any] | None:
    """llama.cpp's stated slots: starts with all of them or fails to load (bot.render.llama_slots)."""
    from bot.render.llama_slots import llama_slots  # llama.cpp only

    return llama_slots(report, inf, f)


def _mac_memory_gib(report: SizingReport) -> float:
    """The Mac's whole unified memory in GiB: as stated, else the catalog's."""
    from estimator import catalog  # the catalog is loaded by now; a lazy import keeps start-up lean

    spec = catalog.resolve_gpu(report.request.gpu)
    return report.request.gpu_memory_gib or (spec.memory_gib if spec is not None else 0)


def _mac_lever(report: SizingReport, inf: Inference, f: Fmt) -> dict[str, str] | None:
    """The wired-limit lever, or the lighter weights, for one Mac short of the model (mac_lever)."""
    from bot.render.mac_lever import wired_lever  # only when one Mac does not hold the model

    return wired_lever(inf, _mac_memory_gib(report), f, LATE.GGUF_NAMES)


def _beyond_the_whole_memory(report: SizingReport, inf: Inference) -> bool:
    """The weights and KV cache need more than the Mac's whole unified memory (trial2 #12: 405B Q4, 245 GB,
    on a 192 GB M2 Ultra): no GPU share raised with ``iogpu.wired_limit_mb`` can hold them, so the reply
    gives neither a speed nor the 'if it just misses' tip. Bytes; the card's memory from the catalog or
    as stated (GiB)."""
    gib = _mac_memory_gib(report)
    return bool(gib) and inf.weights_bytes + inf.kv_bytes_total > gib * 2**30


def _lighter_weights(inf: Inference, f: Fmt) -> str:
    """'FP8/INT8: 20; INT4 (GPTQ/AWQ): 16' — GPUs for the same load, where fewer than
    recommended (a lighter format is never offered on more GPUs than the released weights; trial s25 #6)."""
    zh = f.lang == "zh"
    return ("；" if zh else "; ").join(
        f"{PRECISION_LABELS.get(a.change, a.change.upper())}{'：' if zh else ': '}{f.int(a.min_gpus)}"
        for a in inf.alternatives
        if a.min_gpus is not None and a.min_gpus < inf.recommended_gpus
    )


COPIES_WHY = N_(
    "Why TP=%(tp)s × %(copies)s replicas: one copy of the model with the load's KV cache fits on "
    "%(tp)s GPUs, so your %(gpus)s run %(copies)s copies, each answering its own requests — more "
    "throughput, and each TP all-reduce stays within %(tp)s GPUs (one copy over all %(gpus)s would hold "
    "more concurrent sequences)"
)
"""The layout on the user's count as copies of a smaller TP group (docs/design.md §3.5, the plan with the
least communication; estimator.serving_layout.layout_on: among the layouts that hold the load, no
pipeline, then the most replicas for throughput; vLLM's docs, "Parallelism and scaling": scale out with
replicas once the model fits)."""


COPIES_WHY_ONE = N_(
    "Why %(copies)s replicas: one copy of the model with the load's KV cache fits on one GPU, so your "
    "%(gpus)s run %(copies)s copies, each answering its own requests — more throughput, and no TP "
    "all-reduce (one copy over all %(gpus)s would hold more concurrent sequences)"
)
"""The same, each copy on one GPU (:data:`COPIES_WHY`)."""


def _copies_why(report: SizingReport, inf: Inference, f: Fmt, lang: str, local: bool) -> str | None:
    """Why the user's GPUs run several copies (:data:`COPIES_WHY`): TP × copies, no pipeline, exactly on
    the count they stated, not a local runtime; else None."""
    if inf.pp != 1 or inf.tp * inf.replicas != report.request.gpu_count or local:
        return None
    gpus = f.int(inf.tp * inf.replicas)
    message = COPIES_WHY if inf.tp > 1 else COPIES_WHY_ONE
    return translate(lang, message, tp=inf.tp, copies=f.int(inf.replicas), gpus=gpus)


def _serving_nodes(report: SizingReport, lang: str) -> str:
    """'3 × 8-GPU nodes, ' ahead of the layout when the recommended GPUs fill whole nodes (and the
    headline is about the recommendation, not the user's count); asked the machines (``machines_asked``),
    the nodes they take, whole or not: 'one 8-GPU node' for 4 GPUs."""

    inf = report.inference
    if inf is None or report.request.gpu_count:
        return ""
    per_node, _ = node_of(report)
    rec = inf.recommended_gpus
    if report.request.machines_asked and per_node:  # '需要几台机器': the machines they fill (s50 trial #2)
        rec = -(-rec // per_node) * per_node
    elif rec <= per_node:
        return ""
    nodes = nodes_text(lang, rec, per_node)
    return f"{nodes}{'，' if lang == 'zh' else ', '}" if nodes else ""


def _stated_share(report: SizingReport, f: Fmt) -> dict[str, str] | None:
    """The headline's figures when the user's memory share cannot hold the weights, workspace and one
    sequence (its 'stated_share_short' note, estimator.serving_verdict.share_needed): the share under
    the runtime's own flag name, the GiB it leaves per GPU, the need, the share that holds it and the KV
    cache that share leaves (s32 trial #1)."""
    note = next((w for w in report.warnings if w.code == "stated_share_short"), None)
    if note is None:
        return None
    p, runtime = note.params, report.request.runtime
    return {
        "flag": SHARE_KEY.get(runtime.value if runtime else "", "gpu_memory_utilization"),
        "share": f"{p['share']:g}",
        "usable": f.gib(p["usable_bytes"]),
        "need": f.gib(p["need_bytes"]),
        "needed": f"{p['needed']:g}",
        "kv": f.gib(max(p["kv_bytes"], 0.0)),
        "sequences": f.int(p["sequences"]),
    }


def _engine_reserve(report: SizingReport) -> dict[str, str]:
    """lmdeploy's share (``share``) and the lowered one the answer is sized at (``fits``: '' when none
    starts), from its 'engine_reserve_short' note (estimator.serving_launch.reserve_share, s34 fixa)."""
    note = next((w for w in report.warnings if w.code == "engine_reserve_short"), None)
    p = note.params if note is not None else {}
    fits = p.get("fits") or 0.0
    return {"share": f"{p.get('share', 0.8):g}", "fits": f"{fits:g}" if fits else ""}


def _share_room(report: SizingReport, inf: Inference, f: Fmt) -> dict[str, Any]:
    """``engine_reserve``: the runtime's reserve too small; ``stated_share``: the headline's figures
    when the user's memory share is too small
    (:func:`_stated_share`); ``kv_room``: the KV cache's room per GPU, the engine's usable memory less
    its share of the weights and workspace (the figure 'how much memory is usable' asks, s32 trial #2);
    ``total_share``: the lmdeploy release stated when it takes its KV share of the total memory (s42)."""
    room = inf.usable_bytes_per_gpu - inf.weights_bytes / (inf.tp * inf.pp) - inf.workspace_bytes_per_gpu
    return {
        "engine_reserve": _engine_reserve(report) if report.feasible_reason == "engine_reserve" else None,
        "stated_share": _stated_share(report, f) if report.feasible_reason == "stated_share" else None,
        "kv_room": f.gib(max(room, 0.0)),
        "total_share": report.feasible_reason == "lmdeploy_total_share" and report.request.lmdeploy_version,
    }
