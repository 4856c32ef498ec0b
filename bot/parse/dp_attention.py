"""SGLang's data-parallel attention said in prose ('--enable-dp-attention', 'with DP attention', '开了 dp
attention'): the request's ``dp_attention`` (estimator/request_local.py ``AttentionLayout``), each GPU keeping
its own sequences' MLA latent cache. Before session 19 only a pasted launcher's flag was read
(bot/parse/configs/meaning.py); in a sentence it was dropped in silence (design review of session 19)."""

from __future__ import annotations

from bot.parse.regex import rc

_DP = r"(?:dp|data[\s\-_]?parallel(?:ism)?)[\s\-_]?(?:attention|attn)\b"
DP_ATTENTION_RE = rc(rf"--enable-dp-attention|\b{_DP}|数据并行注意力|数据并行\s*attention")
"""The literal gate and the reader in one compiled search, run on the normalized (lower-cased) text: s46
review N8, 'vLLM data parallel attention' / 'data-parallel attention' in words too (vLLM's DP attention:
``--data-parallel-size`` with ``--enable-expert-parallel``, docs serving/data_parallel_deployment.md)."""
NOT_DP_ATTENTION_RE = rc(
    r"(?:\bno|\bwithout|\bdisabled?|\bnot?\s+(?:use|using|enable|enabling)|\bturn(?:ed)?\s+off|不开|没开|关闭|关掉|"
    rf"不用|没用|禁用)\s*(?:the\s+)?(?:--enable-)?(?:{_DP}|数据并行注意力|数据并行\s*attention)"
)
"""'without DP attention', '不开 dp attention': said off."""


def dp_attention_said(s: str) -> bool | None:
    """True when ``s`` (normalized text) turns data-parallel attention on, False when it says it is off,
    None when it does not name it (call behind :data:`DP_ATTENTION_RE`, the caller's gate)."""
    if DP_ATTENTION_RE.search(s) is None:
        return None
    return NOT_DP_ATTENTION_RE.search(s) is None
