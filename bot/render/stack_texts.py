"""Ledger sentences of the user's training stack (session 34: a tool that never shards the model), merged
into :data:`bot.render.ledger_texts.WHY_TEXTS` through :data:`bot.render.card_texts.CARD_WHY_TEXTS`
(ledger_texts.py is at the 500-line cap)."""

from bot.render.i18n import N_

STACK_WHY_TEXTS: dict[str, str] = {
    "tool_no_sharding": N_(
        "%(tool)s keeps the whole model on each GPU: it trains on one GPU, or a DDP copy on each, and does "
        "not shard the model with ZeRO-3 or FSDP (its trainer refused more than one GPU: "
        "unsloth/models/_utils.py, world_size > 1); a sharded layout needs another stack"
    ),
    "mfu_scale_out_memory": N_(
        "%(gpus)s GPUs where %(reference)s would finish the compute in about %(days)s days (whole runs are "
        "sized so), though memory needs at least %(least)s: the same job spread over more GPUs runs less "
        "efficiently, MFU × (GPUs / %(reference)s)^−%(alpha)s (fitted on the MLPerf Training GPT-3 175B "
        "series, 512–11,616 H100: sizing-bot validate)"
    ),
    "zero3_comm": N_(
        "ZeRO-3 over %(nodes)s nodes (%(gpus)s GPUs) gathers the weights twice and reduce-scatters the "
        "gradients once every micro-step: %(gb)s GB per GPU at about %(bus)s GB/s across the nodes' "
        "InfiniBand takes %(comm)s s against %(compute)s s of compute, so each step waits for it "
        "(×%(factor)s; ZeRO, Rajbhandari et al. 2020 §7; overlap assumed)"
    ),
}
