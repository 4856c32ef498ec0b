"""Whether the fewest GPUs that fit the user's own settings is an answer to lead with (fresh-user trial s19,
issue 24 item 3), or a limit reached only by sharding the last bytes over hundreds of cards while one
changed setting fits on a few: :func:`sane_count`. Read by bot.core.failed_counts (which count to size
above a failed one) and bot.render.memory_text (the headline names the cheaper change first)."""

from __future__ import annotations

from typing import Any

SANE_FACTOR = 4
"""A policy, not a measurement: 4 is a judgement of when a count stops being an answer worth leading with (a
count four times the fewest a one-setting change needs already costs four times the GPUs; below that the
user's own settings are the answer). The fewest GPUs that fit the user's own settings is no answer to lead
with when one changed setting (ZeRO-3, CPU offload, LoRA …: ``Memory.alternatives``) fits on fewer than a
quarter of them: 8 × A100 40G ZeRO-2 OOM on Qwen2.5-14B at 4,096 tokens, where ZeRO-2 keeps the bf16
weights (27.4 GiB) and the fp32 logits (7.0 GiB) whole on every GPU and only the optimizer states shrink
with DP, 'fits' only at 904 GPUs at 100 % of each, while ZeRO-3 fits on 16."""


JOB_CHANGES = frozenset({"lora", "qlora", "no_full_recompute"})
"""Alternatives that change the job (another method) or add memory (no full recompute): not compared."""


def sane_count(memory: Any) -> bool:
    """Whether ``memory.min_gpus`` (the user's settings) is within :data:`SANE_FACTOR` of the fewest GPUs
    a changed setting of the same job needs (:data:`JOB_CHANGES` aside); True without one that fits."""
    fewest = [a.min_gpus for a in memory.alternatives if a.min_gpus and a.change not in JOB_CHANGES]
    return memory.min_gpus is None or not fewest or memory.min_gpus <= SANE_FACTOR * min(fewest)


def cheapest_change(memory: Any, requested: int | None = None) -> Any | None:
    """The alternative (``Memory.alternatives``) to name first: when :func:`sane_count` is True, only
    :func:`own_cards_fix` (GPT-2 774M at micro-batch 16 on one RTX 4090 fits with micro-batch 1 there,
    not on TP 4, trial s25b #5) or None; when it is False, one that fits on the user's GPUs, a sharding
    change before CPU offload (:func:`fix_rank`: ZeRO-3 on the user's 8 × A100 40G before offload on 4,
    trial s19b #2), one within the headroom before one at the card's limit, else the one that fits on the
    fewest GPUs."""
    if sane_count(memory):
        return own_cards_fix(memory, requested)
    same_job = (a for a in memory.alternatives if a.min_gpus and a.change not in JOB_CHANGES)
    return min(same_job, key=lambda a: _fix_key(memory, a, requested))


def _fix_key(memory: Any, a: Any, requested: int | None) -> tuple[int, ...]:
    """:func:`fix_rank` with a change whose memory per GPU is over the headroom (:func:`tight`) after
    one within it in the same tier, a change inside the user's own tool before another tool
    (:data:`OTHER_TOOL`), then the fewest GPUs."""
    tier, *rest = fix_rank(a.change, a.min_gpus, requested)
    return tier, int(tight(memory, a)), int(a.change in OTHER_TOOL), *rest, a.min_gpus


OTHER_TOOL = frozenset({"other_stack", "sharding_stack"})  # sharding_stack: s34, a tool that never shards
"""Changes that leave the user's training tool (Megatron-LM or NeMo's tensor/pipeline parallelism): named
after a change inside their tool that fits as well (issue 24 item 3, trial s30: micro-batch 1 on the 4 ×
RTX 4090 of a LLaMA-Factory LoRA, not 'another tool', when both fit on 4)."""


def tight(memory: Any, a: Any) -> bool:
    """Whether alternative ``a`` fills more than :data:`estimator.plan.HEADROOM` (90 %) of the usable
    memory per GPU (``memory.usable_bytes``): a fit at the card's limit (gradient checkpointing at
    24.0 GiB on a 24 GiB RTX 4090, trial s25b #5), the same threshold as the 'borderline' verdict."""
    from estimator.plan import HEADROOM

    usable = getattr(memory, "usable_bytes", None)
    return bool(usable and a.per_gpu_bytes and a.per_gpu_bytes > HEADROOM * usable)


OWN_CARD_CHANGES = ("micro_batch_1", "full_recompute", "zero3", "half_frozen")
"""Settings that keep the job, its numerics and its speed class (the global batch kept by accumulation;
recompute: ≈ 1/3 more compute, Korthikanti et al. 2022 §4; ZeRO-3: the same maths sharded): named ahead of
a sane count for the user's settings when one fits on their own cards; so does an fp32 frozen base loaded
in bf16/fp16 (``half_frozen``: the weights every tool loads by default, s34 trial #5). CPU offload
(host RAM, slower steps) and 8-bit AdamW (other optimizer numerics) are not: a sane count of GPUs leads
before them."""


def own_cards_fix(memory: Any, requested: int | None) -> Any | None:
    """A changed setting of :data:`OWN_CARD_CHANGES` that fits on the user's ``requested`` GPUs within the
    headroom (not :func:`tight`) when their own setting does not (``memory.fits_requested`` False), in that
    order; None otherwise or without a count. 'Say so for their setting first, then offer what fits' (the
    guide): the count their setting would need is no headline when one setting fits on the cards they
    have (trial s25b #5: micro-batch 1 on the one RTX 4090, not TP 4 over PCIe)."""
    if not requested or getattr(memory, "fits_requested", None) is not False:
        return None
    fits = {
        a.change: a
        for a in memory.alternatives
        if a.min_gpus and a.min_gpus <= requested and not tight(memory, a)
    }
    return next((fits[c] for c in OWN_CARD_CHANGES if c in fits), None)


OFFLOADS = frozenset({"cpu_offload"})
"""Changes that move memory to the host: slower than a sharding change that fits on as many of the user's
cards, so offered after it (trial s19b #2)."""


def fix_rank(change: str, min_gpus: int | None, requested: int | None) -> tuple[int, int, int]:
    """The order in which to offer a change to a training job that does not fit the user's ``requested``
    GPUs (trial s19b #2): those that fit on the user's own cards first (``min_gpus`` at most
    ``requested``), then those that need more, then those that fit nowhere; within each, a change of the
    same job before another method (:data:`JOB_CHANGES`), and CPU offload after a sharding change.
    Lower sorts first; ties keep their order (a stable sort)."""
    tier = 2 if not min_gpus else 0 if requested and min_gpus <= requested else 1
    return tier, int(change in JOB_CHANGES), int(change in OFFLOADS)
