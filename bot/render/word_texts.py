"""The ledger's word-valued entries (:class:`estimator.reasons.Word`) and the generic-shape sentence for
multi-head sizes: text beside :mod:`bot.render.ledger_texts`' reason sentences, split from it at 500 lines
(``tests/test_i18n.py`` checks each has a Chinese translation)."""

from bot.render.i18n import N_

WORD_TEXTS: dict[str, str] = {
    "adamw": N_("AdamW (mixed precision, 16 B/param)"),
    "adamw_adapters": N_("AdamW on adapters"),
    "paged_adamw8bit_adapters": N_("paged 8-bit AdamW on adapters"),
    "adamw_pure_bf16": N_("AdamW in pure bf16 (no fp32 master copy, 8 B/param)"),
    "adamw_fp32_trainable": N_("AdamW on the trained parameters in fp32 (16 B/param)"),
    "bitsandbytes": N_("bitsandbytes"),
    "hqq": N_("HQQ"),
    "dp_attention": N_("DP attention"),
    "tp_copies": N_("a copy on every TP rank"),
    "context_and_fragmentation": N_("1 GiB + 8 %%"),
}
"""Word-valued ledger entries → their text."""


GENERIC_SHAPE_MHA = N_(
    "a generic shape for this size — multi-head attention, a KV head for each of the %(heads)s query heads "
    "(GPT-2, OPT, Pythia) — depth and width interpolated from the catalog's dense Llama/Qwen releases"
)
"""WHY_TEXTS['generic_shape'] for a size whose generic shape has as many KV heads as query heads
(estimator.architecture.shape_for_size below ~1B): not 'grouped-query attention with 12 KV heads for 12
query heads' (s24 review #8)."""
GENERIC_SHAPE_MOE = N_(
    "no model named: a generic MoE shape — the weights of all its parameters are held, compute and KV cache "
    "are those of a generic shape of its active size (grouped-query attention with %(kv_heads)s KV heads for "
    "%(heads)s query heads, depth and width interpolated from the catalog's dense Llama/Qwen releases)"
)
"""WHY_TEXTS['generic_shape'] for an unknown '<total>B-A<active>B' name (session 30)."""
GENERIC_MOE = N_("generic MoE, %(total)s total, %(active)s active")
"""'moe-300B-A47B': the ledger value of an unknown MoE name's generic shape (session 30)."""
