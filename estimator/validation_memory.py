"""`sizing-bot validate`'s fine-tuning memory section: the band against measured memory (issue 25).

Data: ``estimator/data/measured/finetune_memory.json`` (public README/doc tables: Qwen, ms-swift,
torchtune, PEFT, GLM-4, ChatGLM3, Unsloth; its README gives every source and caveat). Each usable row
is run through :func:`estimator.memory.breakdown` and :func:`estimator.memory_band.per_gpu_band` with
what the row states (model, method, sequence length, micro-batch, LoRA rank and targets, quantized
base, ZeRO/FSDP stage, CPU offload, gradient checkpointing, chunked loss) and the measured GiB per GPU
is compared with the (low, high) band. One constant is fitted here: the high end's
:data:`estimator.memory_band.LOSS_HIGH_FACTOR` (:func:`fit_loss_factor`, on the fit rows only).

**Held-apart rows, chosen before anything was fitted** (:func:`held_apart`): every row of the PEFT
docs, GLM-4 and ChatGLM3 (three whole sources, as the data README suggests), plus every third of the
other rows by a hash of their source, model, method and sequence length. Nothing is fitted on them;
they are reported on their own.

Rows left out (:func:`setup_of` returns a reason): duplicates, Unsloth's context-length rows (a VRAM
budget, not a reading), encoder–decoder models (T0, mt0), P-tuning v2, activation offloading (not
modelled), rows without a sequence length or a measured value, models not in the catalog. OOM rows are
checked on their own: the band's high edge must exceed the card (we must not say "fits").
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from estimator import catalog
from estimator.inference import BITS_PER_WEIGHT
from estimator.memory import breakdown
from estimator.memory_band import LOSS_HIGH_FACTOR, per_gpu_band
from estimator.models import Method, Plan, Precision
from estimator.setup import TrainingSetup
from estimator.units import GIB

UNIT_BYTES = {"GB": 1e9, "GiB": GIB, "MiB": 2.0**20}
"""Bytes per unit as the sources print it (the data README: Qwen's and GLM's "G" are GB)."""

HELD_SOURCES = ("huggingface/peft", "THUDM/GLM-4", "THUDM/ChatGLM3")
"""Whole sources kept out of every fit (:func:`held_apart`)."""

MODEL_ALIASES = (
    ("qwen-1_8b", "Qwen-1.8B"),
    ("qwen-1.8b", "Qwen-1.8B"),
    ("qwen-7b", "Qwen-7B"),
    ("qwen-14b", "Qwen-14B"),
    ("qwen-72b", "Qwen-72B"),
    ("llama 3.1 8b", "Llama-3.1-8B"),
    ("llama 3.1 70b", "Llama-3.1-70B"),
    ("llama 3.1 405b", "Llama-3.1-405B"),
    ("llama 3.3 70b", "Llama-3.3-70B"),
    ("llama 3.2 3b", "Llama-3.2-3B"),
    ("llama 2 7b", "Llama-2-7B"),
    ("llama-2-70b", "Llama-2-70B"),
    ("glm-4-32b", "GLM-4-32B-0414"),
    ("glm-4", "GLM-4-9B"),
    ("chatglm3", "ChatGLM3-6B"),
    ("yi-6b", "Yi-6B"),
    ("yi-34b", "Yi-34B"),
    ("zephyr-7b", "Mistral-7B"),
    ("baichuan2-7b", "Baichuan2-7B"),
    ("baichuan2-13b", "Baichuan2-13B"),
    ("bloomz-7b1", "BLOOM-7.1B"),
)
"""Row model name (lower-case prefix) → catalog model; the first match wins."""

FACTOR_GRID = tuple(round(1.0 + 0.05 * i, 2) for i in range(61))
"""Candidate loss factors: 1.0 to 4.0 in steps of 0.05."""


@dataclass(frozen=True)
class Case:
    """One measured row as the estimator sees it; ``measured`` in bytes per GPU."""

    index: int
    label: str
    model: str
    setup: TrainingSetup
    plan: Plan
    measured: float
    outcome: str
    capacity: float | None
    held: bool


@dataclass(frozen=True)
class Result:
    """A case with the estimator's (low, likely, high) bytes per GPU; ``highs`` the high end at each
    loss factor of :data:`FACTOR_GRID` (empty unless asked for: :func:`evaluate` ``grid=True``)."""

    case: Case
    low: float
    likely: float
    high: float
    highs: tuple[float, ...] = ()

    def high_at(self, factor: float) -> float:
        """The high end with the loss factor ``factor`` (one of :data:`FACTOR_GRID`) instead of the
        shipped one."""
        if factor == LOSS_HIGH_FACTOR or not self.highs:
            return self.high
        return self.highs[FACTOR_GRID.index(factor)]

    def inside_at(self, factor: float) -> bool:
        """The measured value lies inside the band (for an OOM row: the high edge exceeds the card)."""
        high = self.high_at(factor)
        if self.case.outcome == "OOM":
            return self.case.capacity is not None and high > self.case.capacity
        return self.low <= self.case.measured <= high

    @property
    def inside(self) -> bool:
        """:meth:`inside_at` the shipped :data:`estimator.memory_band.LOSS_HIGH_FACTOR`."""
        return self.inside_at(LOSS_HIGH_FACTOR)


def shipped_rows() -> list[dict[str, Any]]:
    """The measured rows shipped in the package."""
    text = (
        resources.files("estimator").joinpath("data", "measured", "finetune_memory.json").read_text("utf-8")
    )
    return json.loads(text)["rows"]


def _source(row: dict[str, Any]) -> str:
    src = row.get("source") or {}
    return str(src.get("repository") or src.get("url") or "")


def held_apart(row: dict[str, Any]) -> bool:
    """Kept out of every fit: a row of :data:`HELD_SOURCES`, or every third other row by the SHA-1 of
    its source, model, method and sequence length (stable across runs and row order)."""
    source = _source(row)
    if any(s in source for s in HELD_SOURCES):
        return True
    key = f"{source}|{row.get('model')}|{row.get('method')}|{row.get('seq_len')}|{row.get('micro_batch')}"
    return int(hashlib.sha1(key.encode()).hexdigest(), 16) % 3 == 0


def _model(name: str) -> str | None:
    low = name.lower()
    return next((m for prefix, m in MODEL_ALIASES if prefix in low), None)


def _targets(row: dict[str, Any]) -> tuple[str, ...] | None:
    """LoRA targets in the catalog's names; None = all linear layers."""
    text = str(row.get("lora_targets") or "").lower()
    if "c_attn, c_proj, w1, w2" in text:
        return ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
    if "default" in text or "c_attn" in text or "query_key_value" in text or "q_proj, k_proj, v_proj" in text:
        return ("q_proj", "k_proj", "v_proj")
    if "q_proj, v_proj, output_proj" in text:
        return ("q_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
    return None


def _zero_stage(row: dict[str, Any]) -> int:
    text = str(row.get("zero_fsdp") or "").lower()
    if "zero-3" in text or "fsdp" in text:
        return 3
    if "zero-2" in text and "none/" not in text:
        return 2
    return 0


def _skip_reason(row: dict[str, Any]) -> str | None:
    kind = str(row.get("memory_kind") or "").lower()
    if row.get("duplicate"):
        return "duplicate"
    if "vram capacity" in kind or row.get("outcome") not in ("ran", "OOM"):
        return "a VRAM budget, not a reading"
    if row.get("method") not in ("full", "lora", "qlora"):
        return "method not modelled here"
    if "activation offloading" in str(row.get("offload") or ""):
        return "activation offloading is not modelled"
    if not row.get("seq_len"):
        return "no sequence length"
    if row.get("outcome") == "ran" and not row.get("memory_per_gpu"):
        return "no measured value"
    if _model(str(row.get("model"))) is None:
        return "model not in the catalog"
    text = f"{row.get('notes') or ''} {row.get('lora_targets') or ''}"
    if "modules_to_save" in text or "wte/lm_head" in text:
        return "trainable embeddings (modules_to_save) are not modelled"
    if "not stated in the table" in text or "read as filling" in text:
        return "settings or the reading not stated"
    return None


def setup_of(row: dict[str, Any]) -> tuple[TrainingSetup, Plan] | str:
    """The (setup, plan) a row states, or the reason it is left out."""
    reason = _skip_reason(row)
    if reason:
        return reason
    notes = f"{row.get('notes') or ''} {row.get('tool') or ''}".lower()
    quant = str(row.get("quantization") or "").lower()
    method = Method(row["method"])
    if method == Method.lora and ("int4" in quant or "int8" in quant):
        method = Method.qlora
    gpus = int(row.get("gpu_count") or 1) * int(row.get("nodes") or 1)
    layers_split = "device_map" in str(row.get("zero_fsdp") or "")
    stage = _zero_stage(row)
    offload = bool(row.get("offload")) and str(row.get("offload")).lower() != "none"
    optimizer = "adamw8bit" if "8bit" in str(row.get("optimizer") or "").lower() else "adamw"
    tool = str(row.get("tool") or "")
    qwen_ds = tool.startswith("Qwen finetune.py") and method != Method.lora
    torchtune = tool == "torchtune"
    if qwen_ds and method == Method.qlora:
        stage = 2
    setup = TrainingSetup(
        method=method,
        seq_len=int(row["seq_len"]),
        micro_batch=int(row.get("micro_batch") or 1),
        optimizer=optimizer,
        lora_rank=int(row.get("lora_rank") or 8),
        lora_targets=_targets(row),
        offload=offload,
        base_bits=8.0 if "int8" in quant else BITS_PER_WEIGHT[Precision.int4] if "gptq" in quant else None,
        lora_dropout=0.05 if tool.startswith("Qwen finetune.py") else 0.0,
        master_weights=not (torchtune and method == Method.full),
        chunked_loss="chunked" in notes,
        fp32_loss=not qwen_ds,
        paged_optimizer="paged" in str(row.get("optimizer") or "").lower(),
        optimizer_in_backward="optimizer_in_bwd" in str(row.get("optimizer") or "").lower(),
    )
    recompute = "none" if row.get("gradient_checkpointing") is False else "full"
    pp = 2 if layers_split else 1
    dp = max(1, gpus // pp)
    plan = Plan(
        tp=1, pp=pp, dp=dp, zero_stage=stage if dp > 1 or offload or qwen_ds else 0, recompute=recompute
    )
    plan = plan.model_copy(update={"micro_batch": setup.micro_batch, "offload": offload})
    return setup, plan


def cases(rows: list[dict[str, Any]] | None = None) -> tuple[list[Case], dict[str, int]]:
    """Usable rows as :class:`Case` s, and how many were left out per reason."""
    rows = shipped_rows() if rows is None else rows
    out: list[Case] = []
    skipped: dict[str, int] = {}
    for i, row in enumerate(rows):
        got = setup_of(row)
        if isinstance(got, str):
            skipped[got] = skipped.get(got, 0) + 1
            continue
        setup, plan = got
        unit = str(row.get("unit") or "GB").split()[0]
        measured = float(row.get("memory_per_gpu") or 0) * UNIT_BYTES.get(unit, 1e9)
        gpu = _gpu_capacity(str(row.get("gpu") or ""))
        label = f"{row.get('model')} {row.get('method')} s{setup.seq_len} b{setup.micro_batch}"
        label += f" ×{plan.dp * plan.pp}"
        out.append(
            Case(
                i,
                label,
                _model(str(row["model"])) or "",
                setup,
                plan,
                measured,
                row["outcome"],
                gpu,
                held_apart(row),
            )
        )
    return out, skipped


def _gpu_capacity(text: str) -> float | None:
    """The card's memory in bytes from a row's GPU text ('A100-80GB', 'RTX 4090 24GB')."""
    m = re.search(r"(\d+)\s*G", text)
    if m:
        return float(m.group(1)) * 1e9
    return 24e9 if "4090" in text else None


def evaluate(case: Case, grid: bool = False) -> Result:
    """The estimator's band for one case; with ``grid``, also its high end at every candidate factor."""
    spec = catalog.models()[case.model]
    n = spec.params_total
    parts = breakdown(spec, n, case.setup, case.plan)
    low, high = per_gpu_band(spec, case.setup, case.plan, parts, n)
    highs = (
        tuple(per_gpu_band(spec, case.setup, case.plan, parts, n, k)[1] for k in FACTOR_GRID) if grid else ()
    )
    return Result(case, low, sum(parts.values()), high, highs)


FIT_COVERAGE = 0.80
"""The fit's aim: this share of the fit rows inside the band (the training interval's 80 % too)."""


def fit_loss_factor(results: list[Result], skip: int | None = None) -> float:
    """The smallest factor of :data:`FACTOR_GRID` that puts :data:`FIT_COVERAGE` of ``results`` (less
    the one at index ``skip``, for leave-one-out) inside the band; the largest when none does."""
    rows = [r for i, r in enumerate(results) if i != skip]
    for k in FACTOR_GRID:
        if sum(r.inside_at(k) for r in rows) >= FIT_COVERAGE * len(rows):
            return k
    return FACTOR_GRID[-1]


def leave_one_out(results: list[Result]) -> float:
    """Share of ``results`` inside the band at the factor fitted without them, one at a time."""
    if not results:
        return 0.0
    grid = [[r.inside_at(k) for r in results] for k in FACTOR_GRID]
    counts = [sum(row) for row in grid]
    need = FIT_COVERAGE * (len(results) - 1)
    hits = 0
    for i in range(len(results)):
        k = next((j for j, n in enumerate(counts) if n - grid[j][i] >= need), len(FACTOR_GRID) - 1)
        hits += grid[k][i]
    return hits / len(results)


TARGET_INSIDE = 0.70
"""Issue 25's done-when: held-apart rows inside the band, at least this share."""


def _share(results: list[Result]) -> str:
    if not results:
        return "no rows"
    inside = sum(r.inside for r in results)
    ratios = sorted(r.case.measured / r.likely for r in results if r.case.outcome == "ran")
    median = ratios[len(ratios) // 2] if ratios else float("nan")
    share = f"{inside}/{len(results)} inside the band ({inside / len(results):.0%})"
    return f"{share}, median measured/likely ×{median:.2f}"


def report(rows: list[dict[str, Any]] | None = None) -> str:
    """The fine-tuning memory section of ``sizing-bot validate``: one line per usable row (measured GiB,
    our low / likely / high, inside or not, fit or held-apart), then the share inside the band on the
    fit rows and on the held-apart rows, the fitted :data:`LOSS_HIGH_FACTOR` (refitted here), its
    leave-one-out coverage, and the rows left out by reason."""
    found, skipped = cases(rows)
    results = [evaluate(c, grid=True) for c in found]
    lines = [
        "fine-tuning memory (estimator/data/measured/finetune_memory.json; GiB per GPU)",
        f"{'row':<52}{'measured':>9}{'low':>7}{'likely':>8}{'high':>7}  band  set",
    ]
    for r in results:
        c = r.case
        measured = "OOM" if c.outcome == "OOM" else f"{c.measured / GIB:.1f}"
        lines.append(
            f"{c.label[:51]:<52}{measured:>9}{r.low / GIB:>7.1f}{r.likely / GIB:>8.1f}{r.high / GIB:>7.1f}"
            f"  {'in ' if r.inside else 'OUT'}   {'held-apart' if c.held else 'fit'}"
        )
    fit = [r for r in results if not r.case.held]
    held = [r for r in results if r.case.held]
    lines.append(f"fit rows        {_share(fit)}")
    lines.append(f"held-apart rows {_share(held)} (target ≥ {TARGET_INSIDE:.0%})")
    lines.append("held apart: the PEFT docs, GLM-4 and ChatGLM3 rows, and every third other row by hash")
    lines.append(
        f"fitted: memory_band.LOSS_HIGH_FACTOR = {LOSS_HIGH_FACTOR:g} (shipped); refitted on the fit rows"
        f" ×{fit_loss_factor(fit):g}; leave-one-out inside {leave_one_out(fit):.0%};"
        f" held-apart inside at ×1: {sum(r.inside_at(1.0) for r in held)}/{len(held)}"
    )
    if skipped:
        why = "; ".join(f"{n} {reason}" for reason, n in sorted(skipped.items()))
        lines.append(f"left out: {why}")
    return "\n".join(lines)


def held_apart_share(rows: list[dict[str, Any]] | None = None) -> float:
    """Share of held-apart rows inside the band (the done-when figure)."""
    found, _ = cases(rows)
    held = [evaluate(c) for c in found if c.held]
    return sum(r.inside for r in held) / len(held) if held else 0.0
