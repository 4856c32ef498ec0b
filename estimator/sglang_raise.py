"""SGLang with a raised ``--mem-fraction-static`` on the user's own count (s40 trial #8).

SGLang gives ``mem_fraction_static`` of the memory free at start-up to weights and the KV pool; its default
keeps a reserve by card (:func:`estimator.runtimes.sglang.sglang_mem_fraction`: 0.79 on an H20 in a TP 8
group). A model whose weights miss the user's count only by that reserve is run by raising the flag:
SGLang's own DeepSeek guide launches DeepSeek-V3-0324 on one 8 × H20 node with ``--tp 8
--mem-fraction-static 0.9`` (sgl-project/sglang docs/basic_usage/deepseek.md, "Function calling for
DeepSeek Models … running on 1 * H20 node"). When the answer assumed the default and the count the user
gave holds the weights at :data:`RAISED_FRACTION`, a note says so for their count: the sequences the pool
then holds (an MLA model's latent cache on every TP rank, or one rank each with --enable-dp-attention), what
is left per GPU for activations and CUDA graphs, and that it is tight.

DeepSeek-V3 fp8 on 8 × H20 (worked): free 100.97 GB per GPU, weights 672.85 GB / 8 = 84.11 GB; 0.9 ×
100.97 − 84.11 = 6.77 GB of pool ÷ 70,272 B per token = 96,352 tokens → 19 sequences of 5,000 on plain
TP, 154 with DP attention; 10.1 GB left per GPU (21.2 GB at the default)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from estimator.catalog import ModelSpec
    from estimator.ledger import Ledger
    from estimator.models import Inference
    from estimator.request import SizingRequest

RAISED_FRACTION = 0.9
"""``--mem-fraction-static`` of SGLang's DeepSeek guide on one 8 × H20 node (module docstring)."""
NODE_GPUS = 8
"""One node: the raised fraction is offered for a TP group inside it (SGLang's single-node example)."""


def note_raised_fraction(req: SizingRequest, spec: ModelSpec, inf: Inference, ledger: Ledger) -> None:
    """The note ``sglang_raised_fraction`` when the user's count misses on SGLang's assumed default and
    holds the weights with :data:`RAISED_FRACTION` (module docstring); nothing otherwise."""
    count = req.gpu_count
    if not count or count > NODE_GPUS or inf.min_gpus <= count or not inf.kv_bytes_per_token:
        return
    free = inf.usable_bytes_per_gpu
    pool = RAISED_FRACTION * free - inf.weights_bytes / count
    context = max(1, inf.context_tokens)
    tokens = pool / inf.kv_bytes_per_token
    split = 1 if spec.kv_lora_rank else min(count, spec.kv_heads)  # MLA: the latent on every rank
    plain = int(tokens * split) // context
    if plain < 1:
        return
    dp = int(tokens * count) // context if spec.kv_lora_rank and count > 1 else None
    ledger.note(
        "sglang_raised_fraction" if dp is None else "sglang_raised_fraction_dp",
        fraction=RAISED_FRACTION,
        gpus=count,
        concurrency=plain,
        context=context,
        **({"dp_concurrency": dp} if dp is not None else {}),
        left_bytes=(1 - RAISED_FRACTION) * free,
        default_left_bytes=inf.workspace_bytes_per_gpu,
    )
