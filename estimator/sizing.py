"""SizingRequest → SizingReport: resolve the request, then size training or serving.

Pure and deterministic: the same request always gives the same report. Every value the user
did not give is recorded as an Assumption with the key of its reason (:mod:`estimator.reasons`).
"""

from __future__ import annotations

from typing import Any

from estimator import catalog, defaults
from estimator.batch_work import batch_work
from estimator.catalog import GpuSpec
from estimator.compute_budget import with_compute_budget
from estimator.host_ram import HostRam, host_ram
from estimator.later import later
from estimator.layer_offload import with_layer_split
from estimator.ledger import Ledger
from estimator.models import SizingReport, SizingRequest, Stage
from estimator.reasons import Why
from estimator.report_request import with_filled
from estimator.resolve import Resolved, personal_count, resolve
from estimator.serving import size_serving
from estimator.training import rented_hours, size_training

# imported on first call (s43-speed: a plain question calls none of them)
(with_load_cost,) = later("estimator.load_cost", "with_load_cost")
(with_request_images,) = later("estimator.image_tokens", "with_request_images")  # s44: images per request


def estimate(req: SizingRequest) -> SizingReport:
    """Size the job described by ``req``.

    Raises nothing for any valid SizingRequest; quantities that cannot be computed are None.
    """
    ledger = Ledger()
    req = with_compute_budget(req, ledger)  # '1e23 FLOPs': the compute-optimal N and D, said as assumed
    r = resolve(req, ledger)
    req = personal_count(req, r, ledger)
    if r.gpu.peak_tflops_bf16 is None and r.stage != Stage.inference:  # a training concern (loss scaling)
        ledger.note("gpu_no_bf16", gpu=r.gpu.family)
    filled: dict[str, Any] = {
        "stage": r.stage,
        "gpu": _request_gpu(req, r.gpu),
        "params_total": r.params,
        "params_active": r.active,
    }
    fields: dict[str, Any] = {
        "gpu_spec": r.gpu,
        "model_spec": r.spec,
        "gpu_name": r.gpu.name,
        "model_name": r.spec.name if (req.model or req.architecture) and r.spec else None,
    }
    if r.stage == Stage.inference:
        no_model = r.spec is None and r.params is None and not req.hours  # a duration alone is a rental
        if no_model and req.stage == Stage.inference and (req.gpu or req.gpu_memory_gib):  # "4090能跑多大"
            from estimator.largest import largest_served  # imported when used: start-up (s26)

            fields["largest_served"], used = largest_served(req, r.gpu, ledger)
            filled |= used
        if r.spec is not None and r.params is not None:
            req = _at_longest_context(req, r, ledger)  # "max context?" (trial s26 #10)
            if req.requests_per_day or req.requests_per_hour or req.tokens_per_day or req.tokens_per_hour:
                from estimator.request_volume import volume_load  # '每天1万次对话': Little's law (s35)

                req = volume_load(req, ledger)
            if req.images_per_request:  # s44: a served request's images in its prompt
                req = with_request_images(req, r.spec, ledger)
            served = _served(req, r, ledger)
            filled |= served.filled()
            fields |= served.report_fields()
            if req.tokens_period_asked_s or req.batch_tokens:  # 'tokens a day?' (s44 #3/#4)
                fields["batch_work"] = batch_work(req, fields.get("inference"), served)
        if req.hours:  # "served for 36 hours on 16 H800": the cost of those GPU-hours
            serving = fields.get("inference")
            rented = rented_hours(req, r, ledger, serving.serving_gpus if serving is not None else None)
            filled |= rented.filled()
            fields |= {k: v for k, v in rented.report_fields().items() if k in ("gpu_hours", "days", "cost")}
            if serving is not None and rented.cost is not None:  # what carries the load, for those hours
                fields["inference"] = with_load_cost(serving, rented.cost, req.gpu_count)
                ledger.assumptions = _once(ledger.assumptions)  # the price, from serving and the rental
    elif _asks_largest_trained(req, r):  # "8张4090最大能全参微调多大的模型"
        from estimator.largest_trained import largest_trained  # rare: not held by an idle bot

        fields["largest_trained"], used = largest_trained(req, r.gpu, ledger, estimate)
        filled |= used
    else:
        req = _with_images(req, r, ledger) if req.image_pixels or req.images_per_sample else req  # s40, s43
        trained = size_training(req, r, ledger)
        if req.num_generations and req.algorithm == "grpo":  # TRL raises on a step not a multiple (s34)
            from estimator.grpo_batch import check_generation_batch

            check_generation_batch(req, ledger)
        filled |= trained.filled()
        fields |= trained.report_fields()
        fields["model_spec"] = trained.spec  # the shape trained: a bare or assumed size's generic one
        fields["host_ram"] = ram = _host_ram(req, r, fields.get("memory"), ledger)
        if ram is not None and ram.holds is False:  # a verdict: said under the headline, not only in a reason
            _host_ram_short(req, r, ram, ledger)
    _beyond_one_machine(req, r, fields, ledger)
    filled = {k: v for k, v in filled.items() if v is not None}
    if ledger.notes and "duration_impossible" in [n.code for n in ledger.notes]:  # one frame, not one a note
        filled["hours"] = None  # a run time the cards cannot meet: refused, not used
    return SizingReport(
        request=with_filled(req, filled),  # SizingRequest.model_validate(req.model_dump() | filled)
        assumptions=ledger.assumptions,
        warnings=ledger.notes,
        **fields,
    )


def _at_longest_context(req: SizingRequest, r: Resolved, ledger: Ledger) -> SizingRequest:
    """``req`` at the longest context the user's GPUs hold when they ask it
    (:func:`estimator.longest_context.longest_context`), the context assumed for that reason."""
    if not req.context_asked:
        return req
    from estimator.longest_context import longest_contexts  # rare: not held by an idle bot

    def size(q: SizingRequest, throwaway: Ledger) -> Any:
        return size_serving(q, r.spec, r.params, r.active, r.gpu, throwaway)

    found = longest_contexts(req, r, size)
    if found is None:
        return req
    tokens, lighter = found
    native = r.spec.native_context if r.spec is not None else None
    scaled = bool(native and tokens == native and (r.spec.max_context or 0) > native)  # YaRN off (s26b #9)
    reach = {"lighter": lighter[0], "lighter_tokens": lighter[1]} if lighter else {}  # s27b #3
    ledger.assume("context", tokens, Why.context_asked, native_window=scaled, **reach)
    if not req.concurrency:  # one sequence of that length: the load the longest context is for
        ledger.assume("concurrency", 1, Why.context_asked)
    return req.model_copy(update={"seq_len": tokens, "concurrency": req.concurrency or 1})


def _served(req: SizingRequest, r: Resolved, ledger: Ledger) -> Any:
    """The serving answer (layers offloaded where the user's setup says so); on the user's stated cards at
    the longest context they start with when the assumed one does not fit them (s38-fixs2 #1)."""
    mark = (len(ledger.assumptions), len(ledger.notes))  # before sizing: what an answer on own cards replaces
    sized = size_serving(req, r.spec, r.params, r.active, r.gpu, ledger)
    served = with_layer_split(req, r.spec, r.gpu, sized)
    if r.spec.chunked_layers:  # s45: Llama 4's chunk note says nothing at a context within one chunk
        from estimator.chunked_kv import quiet_within_chunk

        quiet_within_chunk(ledger, r.spec, served.inference.context_tokens)
    if req.gpu_count and not req.seq_len and served.inference.min_gpus > req.gpu_count:
        return _on_own_cards(req, r, served, ledger, mark)
    return served


def _on_own_cards(req: SizingRequest, r: Resolved, served: Any, ledger: Ledger, mark: tuple[int, int]) -> Any:
    """The answer on the user's stated cards at the longest context they start with, when the assumed
    context does not fit them (:mod:`estimator.own_cards`); ``served`` as it was otherwise."""
    if req.max_model_len or any(a.field == "gpu_count" for a in ledger.assumptions[: mark[0]]):  # assumed
        return served
    inf, count, floor = served.inference, req.gpu_count or 1, defaults.SERVE_CONTEXT.value
    need = inf.weights_bytes / count + inf.workspace_bytes_per_gpu + floor * inf.kv_bytes_per_token / count
    if need > inf.usable_bytes_per_gpu:  # not even the chat default's 4K on those cards: nothing to probe
        return served
    from estimator.own_cards import own_cards_request  # rare: not held by an idle bot
    from estimator.runtimes import runtime_named

    if runtime_named(served.inference.runtime).local:  # llama.cpp/Ollama: layers offloaded instead
        return served
    on_own = own_cards_request(req, r, served, ledger, mark)
    if on_own is None:
        return served
    return with_layer_split(
        on_own, r.spec, r.gpu, size_serving(on_own, r.spec, r.params, r.active, r.gpu, ledger)
    )


def _asks_largest_trained(req: SizingRequest, r: Resolved) -> bool:
    """A fine-tuning question on named GPUs without a model, data or budget: which model fits (trial
    s21 #9); the pipeline asks only when the question asks so (``ParseResult.asks_largest``)."""
    no_model = r.spec is None and r.params is None and req.architecture is None
    no_data = req.tokens is None and req.num_samples is None and req.budget is None and not req.hours
    return no_model and no_data and req.stage == Stage.finetune and bool(req.gpu or req.gpu_memory_gib)


def _once(assumptions: list[Any]) -> list[Any]:
    """``assumptions`` without a repeat of an earlier one (same field, value and reason): trial s17-2
    #1, the price per GPU-hour said twice, once for the month and once for the rented hours."""
    seen: list[tuple[str, Any, str]] = []
    out = []
    for a in assumptions:
        key = (a.field, a.value, a.why)
        if key not in seen:
            seen.append(key)
            out.append(a)
    return out


def _beyond_one_machine(req: SizingRequest, r: Resolved, fields: dict[str, Any], ledger: Ledger) -> None:
    """A personal card whose answer needs more cards than one machine holds: say that a home setup
    cannot run it (the layout shown spans machines; consumer cards have no NVLink or InfiniBand between
    them), rather than present a multi-node plan as if it were a home option. Serving counts its
    recommended GPUs (the stated load's), not only the fewest that hold the weights; nothing is said
    when no pipeline of these cards holds the model (note ``pipeline_never_fits``: no count exists).
    s48 trialfix #4: when the user's own stated count is those cards or more ('两台机器各 8 张 4090',
    '16 RTX 4090'), they have the machines: the note ``personal_machines_stated`` says their traffic crosses
    the network between them (the time assumes it keeps up; nothing where a serving TP group's all-reduces
    are already timed over Ethernet, note ``tp_allreduce_ethernet``), never 'not a home setup'."""
    if not r.gpu.personal or any(n.code == "pipeline_never_fits" for n in ledger.notes):
        return  # no count of these cards holds the model: no count to warn about
    inference, memory = fields.get("inference"), fields.get("memory")
    needed = (
        max(inference.min_gpus, inference.recommended_gpus)
        if inference is not None
        else memory.min_gpus
        if memory is not None
        else None
    )
    if needed is None or needed <= r.gpu.gpus_per_node:
        return
    if req.gpu_count and req.gpu_count >= needed:  # their own machines, as stated
        if any(n.code == "tp_allreduce_ethernet" for n in ledger.notes):
            return  # the serving times already count the Ethernet between them, and say so
        machines = -(-req.gpu_count // r.gpu.gpus_per_node)
        ledger.note("personal_machines_stated", gpus=req.gpu_count, machines=machines, gpu=r.gpu.name)
        return
    ledger.note("personal_beyond_one_machine", gpus=needed, gpus_per_node=r.gpu.gpus_per_node, gpu=r.gpu.name)


def _with_images(req: SizingRequest, r: Resolved, ledger: Ledger) -> SizingRequest:
    """``req`` with a VL fine-tune's visual tokens per sample
    (:func:`estimator.image_tokens.with_image_tokens`, s40 fixt #2); imported only for a message that
    states an image resolution."""
    from estimator.image_tokens import with_image_tokens

    return with_image_tokens(req, r.spec, ledger)


def _host_ram_short(req: SizingRequest, r: Resolved, ram: HostRam, ledger: Ledger) -> None:
    """The note ``host_ram_short``: the stated host RAM does not hold the plan's CPU offload, by how much,
    and what fits instead (:func:`estimator.host_ram_fix.host_ram_fixes`, s40 fixt #4)."""
    from estimator.host_ram_fix import host_ram_fixes  # rare: a stated RAM short of the offload

    short = ram.needed_bytes - (ram.stated_bytes or 0.0)
    fixes = host_ram_fixes(req, ram, r.gpu.gpus_per_node, estimate)
    ledger.note(
        "host_ram_short",
        needed_bytes=ram.needed_bytes,
        stated_gib=req.host_memory_gib,
        short_bytes=short,
        **fixes,
    )


def _host_ram(req: SizingRequest, r: Resolved, memory: Any, ledger: Ledger) -> HostRam | None:
    """The host RAM the plan's CPU offload needs per machine and the stated RAM's verdict
    (:func:`estimator.host_ram.host_ram`); None without an offloading plan or a model size. DeepSpeed's
    ×1.5 buffer is a ledger row with its source (s40 fixs #4: the figure said 16 B/param as 24)."""
    if memory is None or memory.plan is None:
        return None
    offloaded = getattr(memory, "offloaded_bytes", None)  # an adapter run's FSDP parameter offload (s34)
    ram = host_ram(
        r.params, memory.plan, memory.plan_gpus, r.gpu.gpus_per_node, req.host_memory_gib, offloaded
    )
    if ram is not None and ram.buffer_factor != 1.0:
        ledger.assume(
            "host_ram_bytes",
            ram.needed_bytes,
            Why.host_ram_buffer,
            citation=ram.source,
            **ram.ledger_params(),
        )
    return ram


def _request_gpu(req: SizingRequest, gpu: GpuSpec) -> str:
    """The GPU echoed in the request: the catalog card asked for when it is sized at a stated memory
    (``gpu_memory_gib`` carries the memory: 'H800 40G' is H800-SXM5-80GB at 40 GiB, never a made-up
    id); else the card sized."""
    stated = req.gpu in catalog.gpus() and gpu.id not in catalog.gpus() and gpu.gpu_memory_fraction is None
    return req.gpu if stated and req.gpu else gpu.id
