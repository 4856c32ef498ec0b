"""Sample packing said in prose or as a bare switch (s31, issue 24 item 2: the config vocabulary in prose):
'--packing_samples' (OpenRLHF's store-true flag, openrlhf/cli/train_sft.py ``--packing_samples``),
'--neat_packing' (LLaMA-Factory, src/llamafactory/hparams/data_args.py ``packing`` / ``neat_packing``),
'packing=True' (TRL ``SFTConfig.packing``), 'sample_packing' (axolotl), 'with packing', '开了 packing',
'序列打包'. Before, a switch written without a value was not read (the inline key reader,
:mod:`bot.parse.inline_keys`, needs ``key value``) and prose never was. A negation ('without packing',
'packing=False', '没开 packing', '关掉 packing') reads False: each batch padded to its longest sample
(estimator/sample_padding.py).

Called only when the message holds 'pack', '打包' or '拼接' (:data:`CUE_RE`, at the call site)."""

from __future__ import annotations

import re

from bot.parse.regex import rc

CUE_RE = re.compile(r"pack|打包|拼接")
"""The cue searched once before the patterns (a plain compiled pattern: its search is C)."""

_WORD = r"(?:(?:sample|sequence|seq|neat|样本|序列|数据)[\s_\-]*)?(?:packing(?:[\s_\-]*samples)?|打包|拼接)"
NEGATED_RE = rc(
    r"(?:without|\bno|\bnot|disable[ds]?|turn(?:ed)?\s+off|没有?(?:开|开启|打开|启用|用|使用)?了?|不(?:开|开启|用|使用|做)"
    r"|关(?:掉|闭|了)?了?|未(?:开启|启用|使用)|禁用了?)\s*(?:the\s+)?"
    + _WORD
    + r"|"
    + _WORD
    + r"\s*(?:[:=]\s*(?:false|0|no|off)\b|(?:is\s+)?(?:off|disabled)\b"
    r"|(?:没|没有|未|不)(?:开|开启|打开|用)|关(?:掉|闭|了))"
    r"|(?:don'?t|do\s+not|doesn'?t|never|not)\s+(?:use\s+)?pack(?:ing)?\b"
)
"""Packing turned off: 'without packing', 'no sample packing', 'packing=False', "don't pack", '没开
packing', 'packing 关了'."""
ON_RE = rc(
    r"--(?:packing_samples|neat_packing|sample_packing|packing)(?![\w\-])(?!\s*[:=]?\s*(?:false|0|no|off)\b)"
    r"|(?:with|use[ds]?|using|enabled?|turn(?:ed)?\s+on|开了?|开启了?|打开了?|启用了?|用了|使用了?|加了?|做了)\s*(?:the\s+)?"
    + _WORD
    + r"|"
    + _WORD
    + r"\s*(?:[:=]\s*(?:true|1|yes|on)\b|(?:is\s+)?(?:on|enabled)\b|(?:开着|打开了?|开了|开启了?|启用了?))"
    + r"|packed\s+(?:sequences?|samples?|batch(?:es)?)|pack(?:ing)?\s+(?:the\s+)?(?:samples|sequences)"
)
"""Packing turned on: a bare switch ('--packing_samples', '--neat_packing'), 'with packing', 'packing=True',
'sample packing enabled', '开了 packing', '用了序列打包', 'packed sequences'."""


def packing_said(s: str) -> bool | None:
    """Whether the normalized message ``s`` turns sample packing on (True) or off (False); None when it
    says neither (a bare mention, 'what is packing?')."""
    if NEGATED_RE.search(s):
        return False
    return True if ON_RE.search(s) else None
