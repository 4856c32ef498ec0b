"""A parallel layout in words: ``TP 1 × PP 1 × DP 2, ZeRO-2``, why it was chosen, GPU counts."""

from __future__ import annotations

from collections.abc import Collection

from bot.render.field_labels import MEMORY_PARTS
from bot.render.fmt import LIST_SEPARATORS, Fmt, fmt_for
from bot.render.i18n import N_, translate
from bot.render.plan_wording import (
    ADAPTER_RECOMPUTE_COST,
    CPU_OFFLOAD,
    EP_ACROSS_NODES_REASON,
    EP_REASON,
    FULL_RECOMPUTE_COST,
    FULL_RECOMPUTE_REASON,
    PLAN_REASONS,
    RECOMPUTE,
    STATED_RECOMPUTE_REASON,
)
from estimator.models import Memory, Plan, SizingReport
from estimator.training_tools import tool_limits
from estimator.units import GIB

FULL_RECOMPUTE_HIGH_EDGE = N_(
    "; full recompute, chosen so that the band's high end fits: keeping the activations would need "
    "≈ %(without)s, up to %(without_high)s, of the %(usable)s usable"
)
FULL_RECOMPUTE_HEADROOM = N_(
    "; full recompute, chosen to leave %(headroom)s headroom: keeping the activations would need "
    "≈ %(without)s of the %(usable)s usable"
)
"""Why the plan's full recompute when the same layout keeping its activations fits at the likely
figure (the ``recompute_chosen`` note: estimator.training_plan._note_recompute_chosen): its high end
does not fit, or it leaves under 10 % headroom (estimator.plan.HEADROOM) — never "the activations do
not fit" (:data:`bot.render.plan_wording.FULL_RECOMPUTE_REASON`), which is for a layout they do not fit."""


_ONE_GPU, _GPUS, _PAREN = N_("%(n)s GPU"), N_("%(n)s GPUs"), N_(" (%(text)s)")
"""The messages of :func:`gpus_text` and :func:`paren`, marked once (not an ``N_`` call a phrase)."""
_ONE_CHIP, _CHIPS = N_("%(n)s chip"), N_("%(n)s chips")
"""The messages of :func:`chips_text`."""


def gpus_text(lang: str, n: int) -> str:
    """A GPU count as a phrase: ``1 GPU`` / ``8 GPUs``, ``8 张`` (English needs the singular)."""
    f = fmt_for(lang)  # f.int(n), its Python path in place (round: a float count as f.int words it)
    text = f"{round(n):,}" if f._python_digits else f.int(n)  # noqa: RUF057
    return translate(lang, _ONE_GPU if n == 1 else _GPUS, n=text)


def chips_text(lang: str, n: int) -> str:
    """A TPU chip count as a phrase: ``1 chip`` / ``8 chips``, ``8 颗芯片`` (s31: TPUs count chips)."""
    f = fmt_for(lang)
    text = f"{round(n):,}" if f._python_digits else f.int(n)  # noqa: RUF057
    return translate(lang, _ONE_CHIP if n == 1 else _CHIPS, n=text)


def paren(lang: str, text: str) -> str:
    """`` (text)`` in English, ``（text）`` in Chinese; empty for empty text."""
    return translate(lang, _PAREN, text=text) if text else ""


def nodes_text(lang: str, n: int, per_node: int) -> str:
    """Whole nodes for a GPU count: ``one 8-GPU node`` / ``3 × 8-GPU nodes``; empty below a node."""
    if n < per_node or n % per_node:
        return ""
    if n == per_node:
        return translate(lang, N_("one %(per_node)s-GPU node"), per_node=per_node)
    return translate(lang, N_("%(nodes)s × %(per_node)s-GPU nodes"), nodes=n // per_node, per_node=per_node)


PLAIN_DDP = N_("plain DDP (no ZeRO)")
PLAIN_DDP_IN_PARENS = N_("plain DDP without ZeRO")
"""ZeRO stage 0 in words (s23): PyTorch DDP, every GPU a full replica — 'ZeRO-0' read as a ZeRO stage; the
second form inside a headline's parentheses (no nested ones)."""


def zero_name(stage: int, lang: str, in_parens: bool = False) -> str:
    """``ZeRO-2`` for a ZeRO stage 1–3 (Rajbhandari et al. 2020 §5); stage 0 as :data:`PLAIN_DDP` in ``lang``
    (:data:`PLAIN_DDP_IN_PARENS` when ``in_parens``)."""
    return f"ZeRO-{stage}" if stage else translate(lang, PLAIN_DDP_IN_PARENS if in_parens else PLAIN_DDP)


def plan_layout(plan: Plan, lang: str) -> str:
    """``TP 1 × PP 1 × DP 2, ZeRO-2, selective recompute`` (+ CPU offload) in ``lang``; one GPU: the
    recompute mode alone."""
    parts = [] if plan.tp == plan.pp == plan.dp == 1 else [f"TP {plan.tp} × PP {plan.pp} × DP {plan.dp}"]
    if plan.ep > 1:
        parts.append(f"EP {plan.ep}")
    if plan.zero_stage or plan.dp > 1:
        parts.append(zero_name(plan.zero_stage, lang))
    if plan.recompute in RECOMPUTE:
        parts.append(translate(lang, RECOMPUTE[plan.recompute]))
    if plan.offload:
        parts.append(translate(lang, CPU_OFFLOAD))
    return LIST_SEPARATORS.get(lang, ", ").join(parts)  # f.sep, read in place: no property frame (s36)


def plan_short(plan: Plan, lang: str, said: Collection[str] = (), method: object = None) -> str:
    """The parts of a layout that are not the default, for a headline: ``ZeRO-2`` / ``TP 8, ZeRO-3``;
    full recompute is said as what it costs (no jargon in a headline). Parts in ``said`` (the settings the
    headline's stage name already gives, bot.render.stated) are left out: the stage once (s24 review #4).
    ``method``: the :class:`estimator.models.Method` trained; LoRA / QLoRA recompute half as much again."""
    parts = [f"{k} {v}" for k, v in (("TP", plan.tp), ("PP", plan.pp), ("EP", plan.ep)) if v > 1]
    if plan.zero_stage:
        parts.append(f"ZeRO-{plan.zero_stage}")
    if plan.recompute == "full":
        adapter = getattr(method, "value", method) in ("lora", "qlora")
        parts.append(translate(lang, ADAPTER_RECOMPUTE_COST if adapter else FULL_RECOMPUTE_COST))
    if plan.offload:
        parts.append(translate(lang, CPU_OFFLOAD))
    return fmt_for(lang).sep.join([p for p in parts if p not in said] if said else parts)


def plan_reason_key(plan: Plan, nvlink: bool, per_node: int = 8) -> str:
    """Which of :data:`PLAN_REASONS` explains ``plan`` (docs/design.md §3.5; ZeRO-3 before TP without
    NVLink)."""
    if plan.offload:
        return "offload"
    if plan.pp > 1:
        if not nvlink and plan.tp * plan.pp <= per_node:  # one box of PCIe cards: not for crossing nodes
            return "tp_pp_no_nvlink" if plan.tp > 1 else "pp_no_nvlink"
        if not nvlink and plan.tp > 1:
            return "tp_pp_nodes_no_nvlink"
        if plan.tp * plan.pp * plan.dp <= per_node:  # one node: no stage crosses machines (s35 fixd #2)
            return "tp_pp_one_node" if plan.tp > 1 else "pp_one_node"
        return "tp_pp" if plan.tp > 1 else "pp"
    if plan.tp > 1:
        if not nvlink:
            return "tp_no_nvlink"
        return "tp" if plan.dp == 1 else "tp_dp"
    if plan.dp == 1:
        return "single"
    if plan.zero_stage == 3:
        return "zero3" if nvlink else "zero3_no_nvlink"
    return "zero" if plan.zero_stage else "ddp"


def adapter_method(report: SizingReport) -> bool:
    """Whether the answer trains LoRA / QLoRA adapters on a frozen base (its request's method)."""
    return getattr(report.request.method, "value", report.request.method) in ("lora", "qlora")


TOOL_RECOMPUTE_REASON = N_("; full recompute: %(tool)s turns gradient checkpointing on by default")
"""A named tool's own default (:attr:`estimator.training_tools.ToolLimits.default_recompute`)."""


def recompute_reason(report: SizingReport, plan: Plan, lang: str) -> str | None:
    """Why ``plan`` (the memory answer's plan) turns on full recompute when its layout keeping the
    activations fits at the likely figure: the ``recompute_chosen`` note's ``reason`` (the estimator's,
    :func:`estimator.training_plan._recompute_reason`) worded (:data:`FULL_RECOMPUTE_HIGH_EDGE`,
    :data:`FULL_RECOMPUTE_HEADROOM` with the note's ``headroom`` fraction); None otherwise."""
    m = report.memory
    tool = tool_limits(report.request.training_tool)
    if plan.recompute == "full" and report.request.recompute is None and tool and tool.default_recompute:
        return translate(lang, TOOL_RECOMPUTE_REASON, tool=report.request.training_tool)  # trial s20 q22
    if m is None or (plan is not m.plan and plan != m.plan) or plan.recompute != "full":  # `is`: no frame
        return None
    for note in report.warnings:  # a loop: no generator frame a warning
        if note.code == "recompute_chosen":
            break
    else:
        return None
    reason, without, p = note.params.get("reason"), note.params.get("without_gib"), note.params
    if reason not in ("high_edge", "headroom") or not isinstance(without, int | float):
        return None  # "activations" is the note's own wording; no reason: none is said
    f = fmt_for(lang)
    params = {"without": f.gib(without * GIB), "usable": f.gib(m.usable_bytes)}
    if reason == "high_edge":
        return translate(
            lang, FULL_RECOMPUTE_HIGH_EDGE, without_high=f.gib(p["without_high_gib"] * GIB), **params
        )
    return translate(lang, FULL_RECOMPUTE_HEADROOM, headroom=f.percent(p["headroom"]), **params)


OVERHEAD_PARTS = frozenset({"overhead", "cuda_context", "fragmentation", "zero_buffers"})
"""Breakdown terms no layout splits (the runtime's own memory): never the part TP is needed for."""


SHARDED_PARTS = frozenset({"weights", "optimizer", "gradients", "master_weights"})
"""States ZeRO-3 shards over the same GPUs as far as TP does (s34 fixb: "TP 8 to split the optimizer
states" on 8 PCIe cards, where ZeRO-3 over the 8 splits them as much): never why TP is needed, unless
the user's own ZeRO stage (below 3) rules ZeRO-3 out; a breakdown of one whole model per GPU (no TP) keeps
them: a part alone over one GPU is why it is split."""


def tp_part_key(report: SizingReport | None, f: Fmt) -> tuple[str, dict[str, str]]:
    """Why TP without NVLink, from the memory breakdown (``report.memory.breakdown``, bytes per GPU at
    ``memory.plan``): its largest term other than the runtime's own (:data:`OVERHEAD_PARTS`) is what TP
    splits; that term alone over the usable memory of one GPU at a plan with no TP/PP is said with its
    size (s25 trial #12: "TP 2 … to split the activations" of 0.2 GiB while the 13.5 GiB bf16 base did not
    fit 12 GiB). Returns the :data:`PLAN_REASONS` key and its extra parameters; the activations (or no
    breakdown): 'tp_no_nvlink'. Sizes in ``f``'s units."""
    m = report.memory if report is not None else None
    whole = m is not None and m.plan is not None and m.plan.tp * m.plan.pp == 1
    zero3_open = report is not None and report.request.zero_stage in (None, 3)
    skip = OVERHEAD_PARTS | SHARDED_PARTS if zero3_open and not whole else OVERHEAD_PARTS
    terms = {k: v for k, v in (m.breakdown if m else {}).items() if k not in skip}
    part = max(terms, key=terms.__getitem__) if terms else "activations"
    if m is None or part == "activations" or part not in MEMORY_PARTS:
        return "tp_no_nvlink", {}
    params = {"part": MEMORY_PARTS[part], "size": f.gib(terms[part]), "usable": f.gib(m.usable_bytes)}
    if whole and terms[part] > m.usable_bytes:
        return "tp_no_nvlink_over", params
    rest = {k: v for k, v in m.breakdown.items() if k not in OVERHEAD_PARTS}
    largest = terms[part] >= max(rest.values())  # not 'the largest part' beside 16.9 GiB of weights (s35)
    return ("tp_no_nvlink_part" if largest else "tp_no_nvlink_unsharded"), params


def plan_reason(
    plan: Plan,
    nvlink: bool,
    lang: str,
    per_node: int = 8,
    stated_recompute: bool = False,
    recompute_text: str | None = None,
    report: SizingReport | None = None,
) -> str:
    """One line on why this layout, in ``lang``; with expert parallelism, what it shards and the
    all-to-all it costs (across nodes when EP × TP exceeds a node). ``recompute_text``: why full
    recompute when the activations would fit (:func:`recompute_reason`). ``report``: the answer, for
    the stated recompute, its reason and the part TP splits without NVLink (:func:`tp_part_key`)."""
    if report is not None:
        stated_recompute = report.request.recompute is not None
        recompute_text = recompute_reason(report, plan, lang)
    key, extra = plan_reason_key(plan, nvlink, per_node), {}
    if key == "offload" and report is not None and report.memory and report.memory.offloaded_bytes:
        key = "offload_params"  # an adapter run's FSDP parameter offload (estimator.adapter_offload, s34)
    if key == "tp_no_nvlink":
        key, extra = tp_part_key(report, fmt_for(lang))
    if key == "ddp" and not nvlink and report is not None and adapter_method(report):
        key = "ddp_adapter_pcie"  # only the adapters' gradients travel (estimator.adapter_ddp, s41 #2)
    if "part" in extra:
        extra = {**extra, "part": translate(lang, extra["part"])}
    layout = {"tp": plan.tp, "pp": plan.pp, "dp": plan.dp, "zero": plan.zero_stage}
    text = translate(lang, PLAN_REASONS[key], **layout, **extra)
    if report is not None and report.gpu_spec is not None and report.gpu_spec.vendor in NODE_LINKS:
        text = text.replace("NVLink/HCCS", NODE_LINKS[report.gpu_spec.vendor])  # the card's own link (s34)
    if plan.ep > 1:
        text += translate(lang, EP_REASON, ep=plan.ep)
        if plan.ep * plan.tp > per_node:
            text += translate(lang, EP_ACROSS_NODES_REASON)
    if plan.recompute == "full" and stated_recompute:
        text += translate(lang, STATED_RECOMPUTE_REASON)
    elif plan.recompute == "full":
        text += recompute_text or translate(lang, FULL_RECOMPUTE_REASON)
    return text


NODE_LINKS = {"NVIDIA": "NVLink", "AMD": "Infinity Fabric", "Huawei": "HCCS"}
"""The fast link inside a node by the card's vendor, named in a plan's reason in place of the generic
'NVLink/HCCS' (a link name, not translated): NVIDIA NVLink; AMD Instinct's Infinity Fabric (MI250/MI300X
xGMI links, AMD CDNA 2/3 white papers); Huawei Ascend's HCCS (Huawei Cache Coherence System, Atlas 800
training servers). Other vendors keep the generic words."""


PCIE_ZERO = N_(
    "; without TP over PCIe, ZeRO-%(zero)s with micro-batch %(micro)s fits at ≈ %(per_gpu)s per GPU, "
    "the same global batch by more accumulation (Megatron-LM keeps TP inside an NVLink server: "
    "Narayanan et al. 2021 §3)"
)
PCIE_ZERO_FULL = N_(
    "; without TP over PCIe, ZeRO-%(zero)s with micro-batch %(micro)s and full recompute (one more "
    "forward pass) fits at ≈ %(per_gpu)s per GPU, the same global batch by more accumulation "
    "(Megatron-LM keeps TP inside an NVLink server: Narayanan et al. 2021 §3)"
)


def pcie_zero_text(m: Memory, main: Plan, f: Fmt) -> str:
    """The layout without TP at a smaller micro-batch, after the reason for TP over PCIe when the user's
    micro-batch needs it (trial s12 C4: ``Memory.pcie_zero_plan``, :mod:`estimator.pcie_layout`); '' when
    there is none or ``main`` is not the layout at the user's count."""
    zero = m.pcie_zero_plan
    if zero is None or m.pcie_zero_per_gpu_bytes is None or main != m.plan:
        return ""
    msgid = PCIE_ZERO_FULL if zero.recompute == "full" and main.recompute != "full" else PCIE_ZERO
    per_gpu = f.gib(m.pcie_zero_per_gpu_bytes)
    return translate(f.lang, msgid, zero=zero.zero_stage, micro=f.int(zero.micro_batch), per_gpu=per_gpu)
