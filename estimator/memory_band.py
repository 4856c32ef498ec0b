"""A low / high band around the per-GPU training memory of :func:`estimator.memory.breakdown`.

The likely figure (``Memory.per_gpu_bytes``) counts each part once with one formula. The band
spans what that figure does not model exactly; each end is derived from stated uncertainties, and
one factor at the high end is fitted to measured memory (:data:`LOSS_HIGH_FACTOR`):

- **Model states** (weights, gradients, optimizer, adapters, frozen copies, DeepSpeed's buckets):
  exact byte counts, the same at both ends.
- **The step's transients** (:mod:`estimator.transients`): activations (Korthikanti et al. 2022's
  34·s·b·h per layer likely, the model's own fused and eager counts at the ends; the layer inputs
  exactly under full recompute), the loss (10 / 12 / 16 bytes per logit in fp32), one layer's recompute
  working set, ZeRO-3's gathered weights and the optimizer step's temporaries; the loss's high end ×
  :data:`LOSS_HIGH_FACTOR` (blocks the allocator keeps reserved). Low takes the larger of
  the forward/backward peak and the step's at their smallest; high adds both at their largest — the
  caching allocator keeps what the backward freed when the step needs blocks of other sizes.
- **Runtime.** Low: nothing — what ``torch.cuda.max_memory_allocated`` reports (torchtune logs it
  as "peak memory alloc", in GiB, next to reserved and active). Likely: CUDA context 1 GiB + 8 %
  fragmentation (:mod:`estimator.defaults`). High: the context + :data:`FRAGMENTATION_HIGH`.

So low ≤ likely ≤ high always holds; low is the allocator's view, high what ``nvidia-smi`` may show.
Not modelled at either end: activation offloading, allocator spikes from temporaries larger than the
parts above, paged states that stay resident while the GPU has room (unified memory shows them in
``nvidia-smi``, never in PyTorch's counters). All values in bytes.
"""

from __future__ import annotations

from estimator.catalog import ModelSpec
from estimator.defaults import CUDA_CONTEXT_BYTES
from estimator.model_states import trained_params
from estimator.models import Method, Plan
from estimator.setup import Layout, TrainingSetup
from estimator.transients import KORTHIKANTI_COEFFICIENT as KORTHIKANTI_COEFFICIENT
from estimator.transients import LOSS_CHUNKS as LOSS_CHUNKS
from estimator.transients import RUNTIME_PARTS, ActivationFacts, Peaks, _span, peaks
from estimator.transients import layer_activation_coefficients as layer_activation_coefficients

FRAGMENTATION_HIGH = 0.15
"""High end of allocator fragmentation, as a fraction of the allocated bytes: a stated assumption,
about twice the likely 8 % (:data:`estimator.defaults.FRAGMENTATION`). Not a bound: allocators that
ignore tensor lifespans can waste up to 43 % under virtual pipelines with recomputation
(arXiv 2507.16274, abstract)."""


LOSS_HIGH_FACTOR = 2.1
"""High end of what the caching allocator reserves for the loss's tensors (logits, their fp32 upcast,
log-softmax and gradients: :func:`estimator.transients.loss_bytes`), as a multiple of their largest
plausible bytes (16 per logit in fp32 → 33.6 at the high end). **Fitted** (issue 25, item 4) on the fit
rows of ``estimator/data/measured/finetune_memory.json`` (101 rows from the Qwen README, ms-swift
Benchmark.md and torchtune; the PEFT, GLM-4 and ChatGLM3 rows and every third other row are held apart:
:func:`estimator.validation_memory.held_apart`): the smallest factor, in steps of 0.05, that puts 80 % of
the fit rows inside the band (:func:`estimator.validation_memory.fit_loss_factor`). Fit rows inside:
55/101 at 1.0, 81/101 at 2.1. Held-apart rows inside: 38/68 (56 %) at 1.0, 48/68 (71 %) at 2.1.
Leave-one-out (each fit row judged by the factor fitted without it): 79 % inside. ``sizing-bot validate``
prints these figures, refitted. Why above 1: the long-context rows measure reserved memory
(``torch.cuda.max_memory_reserved`` in ms-swift, ``nvidia-smi``), and the loss's blocks — the largest
tensors of a long-sequence step, of other sizes each step as lengths vary — stay reserved next to the
blocks the following steps allocate; without the factor the long-context rows sit 1.3–2× above the
high end."""


def per_gpu_band(
    spec: ModelSpec,
    setup: TrainingSetup,
    plan: Plan | Layout,
    parts: dict[str, float],
    params: float | None = None,
    loss_factor: float = LOSS_HIGH_FACTOR,
    facts: ActivationFacts | None = None,
    p: Peaks | None = None,
) -> tuple[float, float]:
    """(low, high) bytes per GPU around ``sum(parts.values())`` (the likely figure), for the
    ``parts`` that :func:`estimator.memory.breakdown` returned for ``setup`` and ``plan``.

    ``params``: the model's parameter count (default: the catalog's); ``loss_factor``: the reserved over
    allocated factor on the loss's tensors at the high end (:data:`LOSS_HIGH_FACTOR`; the fit passes its
    candidates); ``facts``: :func:`estimator.transients.activation_facts` of ``spec`` and ``setup`` when
    the caller has them; ``p``: the step's :func:`estimator.transients.peaks` for ``plan`` when the search
    made them (:attr:`estimator.memory.SearchMemo.peaks`). Derivation in the module docstring. Units: bytes.
    """
    n = params if params is not None else spec.params_total
    states = sum([v for k, v in parts.items() if k not in RUNTIME_PARTS and k != "zero_buffers"])
    if p is None:
        trained = trained_params(spec, n, setup)
        if setup.method != Method.ptuning:
            trained /= plan.tp * plan.pp
        p = peaks(spec, n, setup, plan, trained, facts)
    if p.late:  # the states in full: the band's ends apply the late gradients' credit themselves
        states += p.late - parts.get("gradients", p.late)
    low = states + p.low()
    if loss_factor != 1.0 and not setup.chunked_loss:
        loss = p.loss  # p._replace(loss=loss._replace(high=…)) without namedtuple's Python frames
        p = tuple.__new__(Peaks, (*p[:2], _span((loss.low, loss.likely, loss.high * loss_factor)), *p[3:]))
    high = (states + p.high()) * (1 + FRAGMENTATION_HIGH) + CUDA_CONTEXT_BYTES.value
    return low, high
