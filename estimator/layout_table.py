"""The layout search on plain numbers (issue 23 item 7): a dense full-training job's per-GPU total of
any candidate layout as arithmetic on a few per-search floats, without the breakdown's dicts and spans.

:func:`estimator.memory.breakdown`'s parts of a full-parameter job without expert parallelism, offload,
a paged optimizer, the optimizer in the backward pass or a frozen copy (SFT / pre-training) are closed
forms of TP, PP, DP, the ZeRO stage, the recompute mode and the micro-batch (bytes per GPU):

- states: 2·Ψ' weights, 2·Ψ' gradients, K·Ψ' optimizer, Ψ' = Ψ / (TP·PP), each over DP from ZeRO-3 / 2 / 1;
- the step's peaks (:class:`estimator.transients.Peaks`, likely values): DeepSpeed's buckets, the kept
  activations, the loss's logits, one layer's recompute, ZeRO-3's gathered weights, the optimizer step;
- the runtime overhead: CUDA context + fragmentation × what the step allocates and frees.

:meth:`DenseTable.total` adds them in the breakdown's order with the same operations, so it is the same
float as ``sum(breakdown(...).values())`` (tests/test_layout_table.py: every layout the corpus's searches
ask, compared exactly). The searches (:func:`estimator.plan.best_plan_for`,
:func:`estimator.search_groups.any_layout_fits`) test each candidate on it and build the breakdown only
for a layout within reach — the one the answer shows. Any other job (LoRA, QLoRA, freeze, P-tuning,
DPO/PPO, MoE with EP, offload, a paged or in-backward optimizer, pipelines that split the layers
unevenly) has no table and keeps the breakdown path. No I/O; bytes.
"""

from __future__ import annotations

import math
from operator import attrgetter

from estimator.adamw_step import zero0_step
from estimator.architecture import embedding_params
from estimator.catalog import ModelSpec
from estimator.defaults import CUDA_CONTEXT_BYTES, FRAGMENTATION
from estimator.eager_activations import eager_layer_bytes, eager_layout
from estimator.later import later
from estimator.memory import SearchMemo
from estimator.memory_band import FRAGMENTATION_HIGH, LOSS_HIGH_FACTOR, per_gpu_band
from estimator.model_states import _FULL, _PREFERENCE
from estimator.models import Plan
from estimator.optimizer_states import OPTIMIZER_BYTES_PER_PARAM, PURE_BF16_OPTIMIZER_BYTES_PER_PARAM
from estimator.setup import Layout, TrainingSetup
from estimator.transients import (
    CHUNKED_LOSS_BYTES_PER_LOGIT,
    FP32_LOSS_BYTES_PER_LOGIT,
    HALF_LOSS_BYTES_PER_LOGIT,
    KORTHIKANTI_COEFFICIENT,
    RUNTIME_PARTS,
    STEP_GRADIENT_COPY_BYTES,
    ZERO3_SUB_GROUP_SIZE,
    ZERO_REDUCE_BUCKET_ELEMENTS,
    layer_activation_coefficients,
)

# imported on first call (s43-speed: a plain question calls none of them)
accumulates, gradient_credit = later("estimator.late_gradients", "accumulates", "gradient_credit")

_PARTS = ("weights", "gradients", "optimizer", "zero_buffers", "activations", "logits", "layer_workspace",
          "gathered_weights", "optimizer_step", "overhead")  # fmt: skip
"""The breakdown's parts of a dense full-training layout, in its order (states, the step's peaks, the
overhead)."""
_LAID = attrgetter(*Layout._fields)
"""A Plan's :class:`estimator.setup.Layout` fields as a tuple, equal to (and hashed as) that Layout."""
_KEPT_WHEN_ZERO = ("weights", "gradients", "optimizer", "activations", "logits", "overhead")


class DenseTable:
    """What every layout of one search (model, parameters, setup) shares, as plain floats, and each
    layout's total once asked (``totals``, bytes per GPU, by :class:`estimator.setup.Layout`)."""

    __slots__ = (
        "act_scale",
        "eager",
        "eager_at",
        "foreach_step",
        "fused",
        "hf",
        "hidden",
        "k",
        "layer_linear",
        "layers",
        "loss",
        "params",
        "per_logit",
        "seq",
        "setup",
        "spec",
        "step",
        "totals",
        "values",
        "vocab",
        "w",
    )  # fmt: skip

    def __init__(self, spec: ModelSpec, params: float, setup: TrainingSetup) -> None:
        self.spec, self.setup, self.params = spec, setup, params  # no memo: no reference cycle to collect
        table = OPTIMIZER_BYTES_PER_PARAM if setup.master_weights else PURE_BF16_OPTIMIZER_BYTES_PER_PARAM
        self.k = (
            table[setup.optimizer] + setup.state_extra[1]
        )  # optimizer bytes a parameter (model_state_bytes)
        self.w = 2.0 + setup.state_extra[0]  # weight bytes a parameter (4: Megatron's fp32 params)
        per_logit = CHUNKED_LOSS_BYTES_PER_LOGIT if setup.chunked_loss else None
        per_logit = per_logit or (FP32_LOSS_BYTES_PER_LOGIT if setup.fp32_loss else HALF_LOSS_BYTES_PER_LOGIT)
        self.loss = per_logit[1]  # likely bytes per logit (transients.loss_bytes)
        self.step = setup.optimizer == "adamw"  # else the step has no temporaries (transients.step_bytes)
        # likely step bytes per parameter at ZeRO-0 (foreach's copy only when stated), once per table
        self.foreach_step = zero0_step(setup, 1.0)[1]
        self.fused, self.eager = layer_activation_coefficients(spec)  # = ActivationFacts' fused, eager
        # HF eager layers (TP = PP = 1, no recompute at all): (likely, high) bytes per token, ZeRO > 0 / = 0
        self.hf = (eager_layer_bytes(spec, setup, 1, False), eager_layer_bytes(spec, setup, 0, False))
        self.eager_at = eager_layout(setup)  # (TP, PP, EP, recompute) keeping self.hf; None: Megatron-LM
        self.per_logit = per_logit
        self.act_scale = setup.activation_bytes / 2  # an fp32 run: × 2 (transients.kept_activations)
        lm = params - spec.vision.params if spec.vision else params  # no VL tower (vision.language_params)
        self.layer_linear = max(0.0, lm - embedding_params(spec)) / spec.layers  # _per_layer_linear_params
        self.seq, self.vocab, self.hidden, self.layers = setup.seq_len, spec.vocab, spec.hidden, spec.layers
        self.totals: dict[Layout, float] = {}
        self.values: dict[Layout, list[float]] = {}  # each total's parts, in the breakdown's order

    def total(self, plan: Layout) -> float | None:
        """``sum(breakdown(spec, params, setup, plan).values())``, or None when ``plan``'s parts are not
        the closed forms above (expert parallelism, offload, a pipeline splitting the layers unevenly)."""
        done = self.totals.get(plan)
        if done is not None:
            return done
        tp, pp, dp, zero, recompute, mb, offload, ep = plan
        if ep != 1 or offload or self.layers % pp:
            return None
        shard = self.params / (tp * pp)
        weights = self.w * shard / (dp if zero >= 3 else 1)
        gradients = self.setup.grad_bytes * shard / (dp if zero >= 2 else 1)
        optimizer = self.k * shard / (dp if zero >= 1 else 1)
        buffers = 0.0 if zero == 0 else (1 if zero >= 3 else 2) * ZERO_REDUCE_BUCKET_ELEMENTS * 2.0
        s, h = self.seq, self.hidden  # kept_activations: every layer of the stages in flight (L = PP·L/PP)
        if (tp, pp, ep, recompute) == self.eager_at:  # eager_layers: HF eager, else Korthikanti's count
            acts = self.hf[zero == 0][0] * s * mb * self.layers
        else:
            acts = (2.0 * s * mb * h / tp if recompute == "full" else s * mb * h * 34.0 / tp) * self.layers
        acts *= self.act_scale
        loss = self.loss * (mb * s * self.vocab / tp)
        work = self.eager * (s * mb * h / tp) if recompute == "full" else 0.0
        gathered = 2.0 * min(self.setup.zero3_max_live_parameters, shard) if zero >= 3 else 0.0
        step = 0.0
        if self.step:  # trained parameters on this GPU: the shard (full training)
            if zero == 0:  # fused AdamW likely unless foreach is stated (estimator.adamw_step, inlined)
                step = self.foreach_step * shard
            else:
                part = min(shard / dp, ZERO3_SUB_GROUP_SIZE) if zero >= 3 else shard / dp
                step = STEP_GRADIENT_COPY_BYTES[1] * part
        if pp == 1:  # Peaks.likely_parts; one process at ZeRO-0: late gradients (estimator.late_gradients)
            logits, extra = loss, max(0.0, work - loss)
            if zero == 0 and tp == 1 and dp == 1 and not self.setup.megatron_layers:
                if accumulates(self.setup, mb):  # held in fp32 (estimator.late_gradients, s34 fixc #1)
                    gradients = gradients + (gradients if self.setup.master_weights else 0.0)
                else:
                    gradients = gradients - gradient_credit(gradients, acts, loss, work, step)
        else:
            logits, extra = max(0.0, acts / pp + max(loss, work) - (acts + work)), work
        beyond = max(0.0, step - (acts + logits + extra + gathered))
        churn = sum([acts, logits, extra, gathered, beyond])
        overhead = CUDA_CONTEXT_BYTES.value + FRAGMENTATION.value * churn
        values = [weights, gradients, optimizer, buffers, acts, logits, extra, gathered, beyond, overhead]
        self.values[plan] = values
        total = self.totals[plan] = sum(values)
        return total

    def parts(self, plan: Layout) -> dict[str, float]:
        """:func:`estimator.memory.breakdown` of a layout whose :meth:`total` is known: the same parts,
        in the same order (the step's parts that are 0 left out, as
        :meth:`estimator.transients.Peaks.likely_parts` leaves them)."""
        values = self.values[plan]
        return {k: v for k, v in zip(_PARTS, values, strict=True) if v > 0 or k in _KEPT_WHEN_ZERO}

    def band(self, plan: Layout, parts: dict[str, float]) -> tuple[float, float]:
        """:func:`estimator.memory_band.per_gpu_band` (low, high bytes) of a covered layout's ``parts``:
        the step's :class:`estimator.transients.Peaks` at their low and high ends, on plain floats."""
        tp, pp, dp, zero, recompute, mb = plan[:6]
        s, h, n = self.seq, self.hidden, self.layers
        states = sum([v for k, v in parts.items() if k not in RUNTIME_PARTS and k != "zero_buffers"])
        per = s * mb * h / tp  # transients: per_coef
        if recompute == "full":  # kept_activations: the layer inputs; layer_workspace: one layer rebuilt
            acts = (2.0 * s * mb * h / tp * n,) * 3
            work = (self.fused * per, self.eager * per, 2 * self.eager * per)
        elif (tp, pp, plan[7], recompute) == self.eager_at:  # eager_activations.eager_layers
            likely, top = self.hf[zero == 0]
            acts = (
                min(KORTHIKANTI_COEFFICIENT, self.fused) * per * n,
                likely * s * mb * n,
                max(max(KORTHIKANTI_COEFFICIENT, self.eager) * per, top * s * mb) * n,
            )
            work = (0.0, 0.0, 0.0)
        else:
            acts = (
                min(KORTHIKANTI_COEFFICIENT, self.fused) * per * n,
                s * mb * h * 34.0 / tp * n,
                max(KORTHIKANTI_COEFFICIENT, self.eager) * per * n,
            )
            work = (0.0, 0.0, 0.0)
        k = self.act_scale  # an fp32 run: × 2 (no generator: the search's call count)
        acts = (acts[0] * k, acts[1] * k, acts[2] * k)
        logits = mb * s * self.vocab / tp
        loss = [self.per_logit[0] * logits, self.per_logit[1] * logits, self.per_logit[2] * logits]
        shard = self.params / (tp * pp)
        gathered = (0.0, 0.0, 0.0)
        if zero >= 3:
            live = 2.0 * min(self.setup.zero3_max_live_parameters, shard)
            gathered = (min(live, 2.0 * self.layer_linear / tp), live, live)
        step = (0.0, 0.0, 0.0)
        if self.step and zero == 0:
            step = zero0_step(self.setup, shard)
        elif self.step:
            part = min(shard / dp, ZERO3_SUB_GROUP_SIZE) if zero >= 3 else shard / dp
            step = (
                STEP_GRADIENT_COPY_BYTES[0] * part,
                STEP_GRADIENT_COPY_BYTES[1] * part,
                STEP_GRADIENT_COPY_BYTES[2] * part,
            )
        buffers = 0.0 if zero == 0 else (1 if zero >= 3 else 2) * ZERO_REDUCE_BUCKET_ELEMENTS * 2.0
        credit = 0.0
        if (
            zero == 0
            and tp == pp == dp == 1
            and not self.setup.megatron_layers
            and not accumulates(self.setup, mb)
        ):  # per_gpu_band: late gradients
            late = 2.0 * shard / 1
            states += late - parts.get("gradients", late)
            credit = gradient_credit(late, acts[0], loss[0], work[0], step[0])
        low = states + (buffers + max(_stages(acts[0], loss[0], work[0], pp) + gathered[0] - credit, step[0]))
        if LOSS_HIGH_FACTOR != 1.0 and not self.setup.chunked_loss:
            loss[2] = loss[2] * LOSS_HIGH_FACTOR
        top = buffers + (_stages(acts[2], loss[2], work[2], pp) + gathered[2]) + step[2]
        return low, (states + top) * (1 + FRAGMENTATION_HIGH) + CUDA_CONTEXT_BYTES.value

    def floor(self, head: Layout) -> float | None:
        """A lower bound on :meth:`total` of every ZeRO stage up to ``head``'s: its states, the kept
        activations and the CUDA context, added in the total's order (every part between is ≥ 0 and the
        overhead ≥ the context, so the float sum never decreases); None when :meth:`total` is."""
        tp, pp, dp, zero, recompute, mb, offload, ep = head
        if ep != 1 or offload or self.layers % pp:
            return None
        shard = self.params / (tp * pp)
        states = self.w * shard / (dp if zero >= 3 else 1) + self.setup.grad_bytes * shard / (
            dp if zero >= 2 else 1
        )
        states += self.k * shard / (dp if zero >= 1 else 1)
        s, h = self.seq, self.hidden
        if (tp, pp, ep, recompute) == self.eager_at:  # eager_activations.eager_layers
            acts = self.hf[zero == 0][0] * s * mb * self.layers
        else:
            acts = (2.0 * s * mb * h / tp if recompute == "full" else s * mb * h * 34.0 / tp) * self.layers
        late = tp == pp == dp == 1 and not self.setup.megatron_layers and not accumulates(self.setup, mb)
        if late:  # SearchMemo.group_floor: late gradients
            acts = max(0.0, acts - 2.0 * shard)
        return states + acts + CUDA_CONTEXT_BYTES.value

    def states(
        self, tp: int, pp: int, dp: int, zero: int, ep: int, offload: bool, routed: float
    ) -> tuple[float, float, float]:
        """:func:`estimator.memory.state_parts` (weights, gradients, optimizer; bytes per GPU) of a layout
        of TP, PP, DP, ZeRO stage, EP and offload on plain numbers, the same operations in the same order,
        so the same floats: :func:`estimator.memory._model_states` per group of
        :func:`estimator.expert_parallel.state_groups` — the TP × PP shard, or pipeline stage 1's share
        ⌈L/PP⌉/L when PP does not divide the layers; with EP > 1 the routed experts (share ``routed``,
        :func:`estimator.expert_parallel.routed_share`) over EP and ZeRO-sharded over DP / EP — each
        :func:`estimator.memory.model_state_bytes` (2 + 2 + K bytes a parameter, ZeRO-1/2/3 shard the
        optimizer / gradients / weights over the group's DP: ZeRO paper, Rajbhandari et al. 2020 Table 1);
        offload moves the optimizer states to the host (0). A DeepSeek-V3 training answer asks ~380 of
        them (bench/RESULTS.md, session 27)."""
        k, params, layers, g = self.k, self.params, self.layers, self.setup.grad_bytes
        if ep == 1 and layers % pp == 0:  # one group: model_state_bytes of the TP × PP shard
            shard = params / (tp * pp)
            weights = self.w * shard / (dp if zero >= 3 else 1)
            gradients = g * shard / (dp if zero >= 2 else 1)
            optimizer = k * shard / (dp if zero >= 1 else 1)
        else:  # state_groups' groups, each model_state_bytes, summed from 0.0 in _model_states' order
            if layers % pp == 0:
                per_stage = params / (tp * pp)
            else:  # expert_parallel.stage_share (⌈L/PP⌉ / L) in place: the same float, without a call
                per_stage = params * (math.ceil(layers / pp) / layers) / tp
            experts = per_stage * routed if ep > 1 else 0.0
            groups = (
                ((per_stage - experts, dp), (experts / ep, max(1, dp // ep)))
                if ep > 1
                else ((per_stage, dp),)
            )
            weights = gradients = optimizer = 0.0
            for n, over in groups:
                weights += self.w * n / (over if zero >= 3 else 1)
                gradients += g * n / (over if zero >= 2 else 1)
                optimizer += k * n / (over if zero >= 1 else 1)
        return weights, gradients, 0.0 if offload else optimizer

    def rest(self, tp: int, pp: int, modes: tuple[str, ...]) -> float | None:
        """:func:`estimator.search_bounds.rest_floor` of (TP, PP) on plain numbers: the least kept
        activations of ``modes`` (the :meth:`total`'s, the same float) + the CUDA context; None when
        :meth:`total` has no closed form for the pipeline (layers not divisible by PP), with offload, or
        when no mode is searched (the caller's path answers)."""
        if self.layers % pp or not modes or self.setup.offload:
            return None
        s, h, mb = self.seq, self.hidden, self.setup.micro_batch
        eager = self.eager_at  # each mode at EP 1 (eager_activations.eager_layers), as rest_floor asks
        kept = [
            (
                2.0 * s * mb * h / tp
                if m == "full"
                else self.hf[0][0] * s * mb
                if (tp, pp, 1, m) == eager
                else s * mb * h * 34.0 / tp
            )
            * self.layers
            for m in modes
        ]
        return min(kept) + CUDA_CONTEXT_BYTES.value


def _stages(acts: float, loss: float, work: float, pp: int) -> float:
    """One end of :meth:`estimator.transients.Peaks.forward_backward` before the gathered weights: the
    fuller of pipeline stage 1 and the last stage (one stage: the kept activations and the larger of the
    loss's tensors and one layer's recompute)."""
    if pp == 1:
        return acts + max(loss, work)
    return max(acts + work, acts / pp + max(loss, work))


def shown_band(
    spec: ModelSpec,
    params: float,
    setup: TrainingSetup,
    plan: Plan,
    parts: dict[str, float],
    memo: SearchMemo,
) -> tuple[float, float]:
    """The (low, high) band of an answer's plan: :meth:`DenseTable.band` when the search's table covers
    it and the search made no peaks for it, else :func:`estimator.memory_band.per_gpu_band` (with the
    step's peaks the search made, if it did)."""
    laid = _LAID(plan)
    made = memo.peaks.get(laid)
    table = memo.dense or None
    if made is None and table is not None and laid[7] == 1 and not laid[6] and table.layers % laid[1] == 0:
        return table.band(laid, parts)  # type: ignore[union-attr, arg-type]
    return per_gpu_band(spec, setup, plan, parts, params, facts=memo.facts, p=made)


def dense_table(spec: ModelSpec, params: float, setup: TrainingSetup, memo: SearchMemo) -> DenseTable | None:
    """The search's :class:`DenseTable`, made on the first call (kept on ``memo``), or None when the
    job's parts are not its closed forms (the method, algorithm or optimizer placement above)."""
    table = memo.dense
    if table is None:
        plain = setup.method == _FULL and setup.algorithm not in _PREFERENCE
        plain = plain and not (setup.paged_optimizer or setup.optimizer_in_backward)
        plain = plain and not setup.offloaded_checkpoints  # Unsloth keeps 2 layers' checkpoints (transients)
        plain = plain and spec.vision is None  # a VL release's frozen tower: state_parts (estimator.vision)
        plain = plain and not setup.eager_attention  # the s×s scores (estimator.attention_scores; s42)
        table = memo.dense = DenseTable(spec, params, setup) if plain else False
    return table or None
