"""Liger Kernel named in words ('with the Liger kernel', 'Liger fused cross-entropy', '开了 liger-kernel',
'without Liger'): its fused linear cross-entropy is on (or off), the request's ``chunked_loss``
(:mod:`estimator.request_loss`: linkedin/Liger-Kernel src/liger_kernel/ops/fused_linear_cross_entropy.py
computes the logits chunk by chunk, so the whole vocabulary's fp32 logits are never held). Its config keys
in prose ('use_liger_kernel: true', 'enable_liger_kernel=True') are read by :mod:`bot.parse.inline_keys`
through the meaning table (bot.parse.configs.meaning ``chunked_bool``), so a key is left to that reader."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.parse.normalize import mask
from bot.parse.regex import rc

if TYPE_CHECKING:
    from bot.parse.settings import Settings

LIGER_RE = rc(
    r"(?P<neg>(?:without|no|not|disable[ds]?|turn(?:ed)?\s+off|不用|不开|没开|没用|关闭|关掉|关了|未开启?)"
    r"\s*(?:the\s+|using\s+)?)?(?<![a-z0-9_\-])liger(?:[\s\-]*(?:kernels?|内核|算子))?(?![a-z0-9_])"
)
"""'Liger kernel', 'liger-kernel', 'Liger' as a word (not a key such as 'use_liger_kernel'), with a
negation before it ('without Liger', '不开 liger') turning it off."""


def read_liger(out: Settings, training: bool) -> None:
    """Set ``chunked_loss`` from the first Liger named in words, masked; a key form is left alone. In a
    serving question it is a training kernel: named as not used (training_only)."""
    m = LIGER_RE.search(out.s)
    if m is None or "chunked_loss" in out.fields:
        return
    if training:
        out.fields["chunked_loss"] = m.group("neg") is None
    else:
        out.unused.append(("Liger kernel", "training_only"))
    out.s = mask(out.s, m.start(), m.end(), " ")
