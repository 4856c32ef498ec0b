"""llama.cpp's slots as it runs them (s39 fixm #3: 'llama-server … -c 32768 --parallel 4' on a 3090 was
answered '只能容纳 2 条并发'). llama-server allocates the KV cache of the whole ``-c`` context when it loads
and splits it into ``--parallel`` slots of ``c / parallel`` tokens each (ggml-org/llama.cpp
tools/server/server.cpp, server_context init: ``n_ctx_slot = n_ctx / params_base.n_parallel``; the
meaning table's source, bot.parse.configs.meaning): it either starts with every slot or fails to load.
So with the slots stated the answer is that yes/no, not a count of sequences the memory would hold.

Called by bot.render.serving_text for llama.cpp only."""

from __future__ import annotations

import math
from typing import Any

from bot.render.fmt import Fmt
from estimator.models import Inference, SizingReport

Q8_0_SHARE = 34 / 64
"""A q8_0 KV cache's bytes over fp16's: blocks of 32 values in 8 bits with one fp16 scale = 34 bytes where
fp16 takes 64 (ggml/src/ggml-common.h ``block_q8_0``); set by ``-ctk q8_0 -ctv q8_0``, and a quantized V
cache needs flash attention (``-fa``: src/llama-context.cpp refuses 'V cache quantization requires
flash_attn' without it)."""


def llama_slots(report: SizingReport, inf: Inference, f: Fmt) -> dict[str, Any] | None:
    """{'n': slots, 'ctx': tokens per slot, 'total': -c, 'kv': the whole KV cache, 'need': weights + KV
    cache, 'starts': whether it loads} when llama.cpp serves a stated number of slots on the user's GPUs;
    None otherwise (another runtime, the slots assumed or one, no GPUs named)."""
    if not report.request.gpu_count or not report.request.concurrency or inf.concurrency < 2:
        return None  # one slot: the fit verdict says it (the KV cache is one sequence's either way)
    slots, ctx = inf.concurrency, inf.context_tokens
    n = report.request.gpu_count
    room = n * (inf.usable_bytes_per_gpu - inf.workspace_bytes_per_gpu) - inf.weights_bytes
    q8_seq = inf.kv_bytes_per_sequence * Q8_0_SHARE
    q8_slots = math.floor(room / q8_seq) if q8_seq > 0 and room > 0 else 0
    fit = min(inf.max_concurrency, slots)
    return {
        "fit_c": str(fit * ctx) if fit >= 1 else "",  # the -c that loads with --parallel fit
        "fit_n": f.int(fit),
        "q8": q8_slots >= slots,  # all the slots with a q8_0 K and V cache
        "n": f.int(slots),
        "ctx": f.int(ctx),
        "total": str(slots * ctx),  # as the flag is written
        "kv": f.gib(inf.kv_bytes_total),
        "need": f.gib(inf.weights_bytes + inf.kv_bytes_total),
        "starts": inf.max_concurrency >= slots,
    }
