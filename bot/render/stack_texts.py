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
}
