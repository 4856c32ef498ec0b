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

Words: 'eager attention', 'attention: eager'. 'flash attention off / disabled', 'flash attention 关了 / 没开'
(a negation before it — 'without flash attention', '没开 flash attention' — is read by
:mod:`bot.parse.negated_tools`) are :data:`FLASH_OFF`, resolved by :func:`resolve_flash_off` (s42 eagerfix):
eager only where eager is what runs, else SDPA, named. Not read: llama.cpp's ``-fa off`` (the
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
        if value == "auto":
            named.append(("flash_attn: auto", "auto_value"))
        else:  # 'flash attention off', 'flash attention 没开' (the off / zh groups): resolve_flash_off
            fields["attention_implementation"] = VALUES[value] if value else FLASH_OFF
        s = mask(s, m.start(), m.end(), " ")
    return s, fields, named


FLASH_OFF = "flash_off"
"""The parse-time value of 'flash attention off' in words (never in a request: :func:`resolve_flash_off`)."""

EAGER_RUNS_RE = rc(
    r"(?<![a-z0-9_\-])(?<!enforce\s)(?<!experts_implementation\s)(?<!experts_implementation[=:])"
    r"(?<!experts_implementation:\s)eager(?![a-z0-9_])"
    r"|megatron|mindspeed|modellink|(?<!mistral[\s\-_])(?<![a-z0-9])nemo(?![a-z0-9])"
    r"(?![\s\-_]*(?:\d+(?:[._]\d+)?\s*b(?![a-z])|instruct|base|minitron))"
    r"|(?<![a-z])transformers\s*(?:==|=|:|v|version|版本)?\s*(?:是|为)?\s*v?\s*"
    r"(?:[0-3][._]\d+|4[._](?:[0-9]|[12][0-9]|3[0-5])(?![0-9]))"
)
"""What makes 'flash attention off' eager attention: the word 'eager' itself (not vLLM's 'enforce-eager'
nor transformers v5's ``experts_implementation`` eager), a Megatron-family tool (Megatron-LM and its forks,
MindSpeed / ModelLink, NeMo as bot.parse.stack_words reads it, not Mistral-NeMo: without flash its unfused
softmax keeps the scores, Korthikanti et al. 2022 Table 2), or transformers before 4.36 (the first release
that picks SDPA itself)."""


def resolve_flash_off(fields: dict[str, Any], named: list[tuple[str, str]], context: str) -> None:
    """Resolve :data:`FLASH_OFF` in ``fields`` in place for the normalized message ``context``: 'eager'
    where eager is what runs (:data:`EAGER_RUNS_RE`); otherwise the setting is dropped and named
    ('flash_attention: off', 'sdpa_default'): since transformers 4.36 a model loaded with no
    ``attn_implementation`` runs SDPA (transformers ``modeling_utils.py``
    ``PreTrainedModel._autoset_attn_implementation``, later ``_check_and_adjust_attn_implementation``:
    'sdpa' when ``torch.nn.functional.scaled_dot_product_attention`` is available), as in every trainer
    built on it (HF Trainer, TRL, LLaMA-Factory's ``auto``, axolotl, ms-swift, Unsloth); PyTorch's
    flash / memory-efficient kernels keep no s×s scores (the memory-efficient one also runs on V100)."""
    if fields.get("attention_implementation") != FLASH_OFF:
        return
    if EAGER_RUNS_RE.search(context):
        fields["attention_implementation"] = "eager"
    else:
        del fields["attention_implementation"]
        named.append(("flash_attention: off", "sdpa_default"))
