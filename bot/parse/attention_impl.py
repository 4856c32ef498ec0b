"""The attention implementation of a training run, as keys or words (s42 eager): the request's
``attention_implementation`` (:mod:`estimator.request_loss`; the sizing: :mod:`estimator.attention_scores`).

Keys, each from its tool's source:

- transformers ``attn_implementation="eager" | "sdpa" | "flash_attention_2"`` (``from_pretrained`` kwarg,
  TRL ``ModelConfig.attn_implementation``, ``config._attn_implementation``);
- LLaMA-Factory ``flash_attn`` / ``--flash_attn``: ``disabled`` (``off`` before v0.9) → eager, ``sdpa``,
  ``fa2`` → flash_attention_2 (llamafactory/model/model_utils/attention.py ``configure_attn_implementation``;
  ``auto``, the default, returns without setting one: named as the tool's);
- axolotl ``eager_attention: true`` / ``sdp_attention: true`` / ``flash_attention: true`` (its model loader
  sets ``attn_implementation`` eager / sdpa / flash_attention_2; false sets nothing and is left alone).

Words: 'eager attention', 'attention: eager', 'flash attention off / disabled', 'flash attention 关了 / 没开'
(a negation before it — 'without flash attention', '没开 flash attention' — is read by
:mod:`bot.parse.negated_tools`). Not read: llama.cpp's ``-fa off`` (the
serving ``flash_attention``), 'flash attention 2 installed' (no setting), vLLM's ``--enforce-eager``
(CUDA graphs, serving) and PyTorch's 'eager mode' (no attention named). Training questions only, behind
the cues of :data:`CUES`.
"""

from __future__ import annotations

from typing import Any

from bot.parse.normalize import mask
from bot.parse.regex import rc

CUES = ("attn_impl", "flash", "eager", "sdp_attention")
"""Cheap substrings of the normalized text without which :func:`attention_setting` reads nothing."""

VALUES = {
    "eager": "eager", "disabled": "eager", "off": "eager", "sdpa": "sdpa", "fa2": "flash_attention_2",
    "flash_attention_2": "flash_attention_2", "sdp": "sdpa",
}  # fmt: skip
"""A key's value → the request's ``attention_implementation``."""

ATTENTION_RE = rc(
    r"(?<![a-z0-9])_?(?:attn_implementation|attn_impl)\s*(?:=|:)?\s*['\"]?(?P<hf>eager|sdpa|flash_attention_2)"
    r"(?![a-z0-9_])"
    r"|(?<![a-z0-9_])(?:--)?flash_attn\s*(?:=|:|\s)\s*['\"]?(?P<lf>disabled|off|sdpa|fa2|auto)(?![a-z0-9_])"
    r"|(?<![a-z0-9_])(?P<ax>eager|sdp)_attention\s*(?:=|:)\s*['\"]?(?:true|1|yes)(?![a-z0-9_])"
    r"|(?<![a-z0-9_\-])(?P<w>eager)[\s\-]*(?:attention|attn)(?![a-z0-9_])(?!\s*(?:=|:)\s*['\"]?(?:false|0|no))"
    r"|(?<![a-z0-9_])(?:attention|attn)\s*(?:implementation\s*)?(?:=|:|is|set\s+to)\s*['\"]?(?P<w2>eager)"
    r"(?![a-z0-9_])"
    r"|(?<![a-z0-9_\-])(?P<off>flash)[\s\-_]*(?:attn|attention)(?:[\s\-_]*[23])?\s*(?:(?:is|was)\s+)?(?:turned\s+|"
    r"switched\s+)?(?:off|disabled)(?![a-z0-9_])"
    r"|(?<![a-z0-9_\-])(?P<zh>flash)[\s\-_]*(?:attn|attention)(?:[\s\-_]*[23])?\s*(?:也|都)?(?:关闭了?|关掉了?|关了|没开|没有开|"
    r"未开启?|不开|禁用了?)"
)
"""Each key or phrase above, with its value in one named group."""


def attention_setting(s: str) -> tuple[str, dict[str, Any], list[tuple[str, str]]]:
    """(``s`` with each attention key or phrase masked, ``{'attention_implementation': …}`` — the last one
    said — and the items named: LLaMA-Factory's ``flash_attn: auto`` as 'auto_value') for the normalized
    training text ``s``. The caller gates on :data:`CUES`."""
    fields: dict[str, Any] = {}
    named: list[tuple[str, str]] = []
    for m in list(ATTENTION_RE.finditer(s)):
        value = m.group("hf") or m.group("lf") or m.group("ax") or m.group("w") or m.group("w2")
        value = value or "off"  # 'flash attention off', 'flash attention 没开' (the off / zh groups)
        if value == "auto":
            named.append(("flash_attn: auto", "auto_value"))
        else:
            fields["attention_implementation"] = VALUES[value]
        s = mask(s, m.start(), m.end(), " ")
    return s, fields, named
