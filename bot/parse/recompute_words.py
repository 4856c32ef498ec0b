"""The recompute modes said in prose and in tools' keys ('gradient checkpointing', 'selective activation
recompute', '--recompute-granularity full', '梯度检查点', '不开重计算'): full, selective or none, read by
:mod:`bot.parse.settings` (first match in the order given there)."""

from __future__ import annotations

from bot.parse.regex import rc

_ZH_VERB = r"(?:用|使用|开|开启|打开|启用|做)"
_ZH_NOT_USED = (
    r"(?:并)?(?:(?:没有|没|未|不)\s*" + _ZH_VERB + r"(?:了|着)?"
    r"|(?:不需要|不需|无需|无须|不必|不要|别|关了|关掉了|去掉|不想|不打算|不准备|不考虑)\s*"
    + _ZH_VERB
    + r"?(?:了|着)?)"
)
"""'没用', '没有使用', '未启用', '并没有开启', '不开'; '不需要', '无需', '不必', '别开', '关了',
'去掉' (session 12 review 2); '不想开', '不打算用' (session 13 review finding 12): a setting not turned on."""
ZH_NEGATION_BEFORE_RE = rc(
    r"(?:不(?:需要?|必|用|要|开|做|想|打算|准备)|没有?|无需?|无须|未|别|关了|关掉|关闭|去掉)[^\s，,。；;、]{0,2}$"
)
"""A negation in the few characters before a bare '重计算' ('不需要重计算', '别开重计算'): the mode is
turned off, whatever pattern matched the word itself."""
NO_FULL_RECOMPUTE_RE = rc(
    r"(?:without|no|not|disable[ds]?|turn(?:ed)?\s+off|关闭|关掉|不要|" + _ZH_NOT_USED + r")\s*(?:the\s+)?"
    r"(?:full[\s\-_]*(?:activations?[\s\-_]*)?recomput\w*|完全重计算|全量重计算)"
)
"""'no full recompute', '不开完全重计算': everything but full recompute — the selective mode the search
starts from (not 'none': the user ruled out one mode, not recompute altogether)."""
NO_RECOMPUTE_RE = rc(
    r"(?:without|no(?:\s+need\s+(?:for|of))?|(?:don'?t|do\s+not)\s+(?:need|use|want)|disable[ds]?"
    r"|(?:(?:don'?t|do\s+not|doesn'?t|does\s+not|won'?t|will\s+not)\s+(?:need|have|want|plan)|no\s+need)\s+to\s+"
    r"(?:enable|use|turn\s+on|switch\s+on|apply)"
    r"|turn(?:ed)?\s+off|关闭|关掉|" + _ZH_NOT_USED + r")\s*(?:the\s+)?"
    r"(?:gradient|activation|梯度|激活)?\s*(?:checkpointing|检查点|重计算|recomput\w*)"
    r"|(?:梯度|激活)?(?:检查点|重计算)\s*(?:就|也|先|都|还是)?\s*"
    r"(?:关了|关掉了?|关闭了?|不开了?|不用了?|不需要了?|没开|没用|不打算开|不想开|免了)"
    r"|(?:gradient|activation)[\s\-_]*checkpointing\s*(?:is\s+|are\s+|was\s+)?(?:not\s+(?:needed|required|necessary)"
    r"|(?:isn'?t|wasn'?t)\s+(?:needed|required|necessary)|unnecessary|not\s+used)\b"
    r"|(?:gradient|activation)[\s\-_]*checkpointing\s*(?:is\s+|was\s+)?(?:disabled|off|turned\s+off)\b"
    r"|(?<!disable_)gradient[_\s]*checkpointing\s*[=:]?\s*(?:false|0|off)(?![a-z0-9])"
    r"|disable[_\s]*gradient[_\s]*checkpointing\s*[=:]?\s*(?:true|1|on)(?![a-z0-9])"  # LLaMA-Factory's key
)
"""No recompute: 'without gradient checkpointing', '--gradient_checkpointing false' (HF TrainingArguments)."""
FULL_RECOMPUTE_RE = rc(
    r"(?:gradient|activations?|梯度|激活)[\s\-_]*(?:checkpoint(?:ing|s)?|检查点|重计算)"
    r"|(?<![a-z])checkpoint(?:ed)?[\s\-_]*activations?(?![a-z])|(?<![a-z_])grad(?:ient)?[\s\-]*_?ckpt(?![a-z])"
    r"|(?<![a-z_])grad_cp\s*[=:]?\s*1(?![0-9])"
    r"|(?:full[\s\-_]*)?(?:activations?[\s\-_]*)?recomputation|(?:full|activations?)[\s\-_]*recompute\b"
    r"|完全重计算|全量重计算|recompute[_\s\-]*granularity\s*[=:]?\s*full|(?:开|打开|开启|启用|用|使用)(?:了|着)?\s*重计算"
    r"|(?<![不没无未])(?<![不没无未][用开要])重计算(?!\s*(?:一下|一遍|一次|下))"
)
"""Full recompute: 'gradient checkpointing', 'activation recompute', '激活重计算', '梯度检查点', '重计算';
round 10 (s15): the tools' own spellings with the words the other way round or plural — Megatron-LM's
legacy and GPT-NeoX's ``--checkpoint-activations`` / ``checkpoint_activations``, DeepSpeed's
``--deepspeed_checkpoint_activations`` (deepspeed/__init__.py add_tuning_arguments), NeMo's
``activations_checkpoint_method`` / ``activations_checkpoint_granularity`` (megatron_gpt_config.yaml), and
``grad_ckpt`` / ``gradient_ckpt`` (llama-recipes ``--no_peft_grad_ckpt`` is the negated form); round 16 zh:
RWKV-LM's ``--grad_cp 1`` (RWKV-v4neo/train.py: '--grad_cp', default 0, 'gradient checkpt: saves VRAM')."""
SELECTIVE_RE = rc(
    r"selective[\s\-_]*(?:activations?[\s\-_]*)?(?:recomput\w*|checkpointing)|选择性(?:的)?(?:激活)?重计算"
    r"|recompute[_\s\-]*granularity\s*[=:]?\s*selective|(?<![a-z])recompute[_\s\-]*activations(?![a-z])"
    r"|activations?[_\s\-]*checkpoint(?:ing)?[_\s\-]*granularity\s*[=:]?\s*selective"
)
"""Selective recompute; also NeMo's ``activations_checkpoint_granularity=selective`` (Megatron-LM
``--recompute-granularity selective``); round 10 (s15): Megatron-LM's ``--recompute-activations``
(megatron/training/arguments.py: ``if args.recompute_activations: args.recompute_granularity =
'selective'``) and accelerate's ``--megatron_lm_recompute_activations`` ("Selective Activation
Recomputation", accelerate/commands/launch.py)."""

_FULL_RECOMPUTE_PHRASE_RE = rc(
    r"(?:(?<=开)|(?<=开启)|(?<=打开)|(?<=启用)|(?<=使用)|(?<=用)|(?<=开了)|(?<=开着))\s*全量(?:的)?\s*"
    r"(?:梯度|激活(?:值)?)?\s*(?:检查点|checkpoint(?:ing|s)?|重计算|重算)"
    r"|全量(?:的)?\s*(?:(?:梯度|激活(?:值)?)\s*(?:检查点|checkpoint(?:ing|s)?|重计算|重算)|重计算|重算"
    r"|checkpointing)"
    r"|\bfull[\s\-_]+(?:(?:activations?|gradient)[\s\-_]+)?(?:recompute|recomputation|re-computation"
    r"|checkpointing)\b"
)
"""'全量重计算', '开全量 checkpoint', '全量激活检查点', 'full recompute', 'full activation recomputation',
'full gradient checkpointing' (trial s14 #3: '开全量重计算' sized a 13B pre-training of 300B tokens on
Megatron as a full fine-tuning): the full recompute mode, never the fine-tuning method '全量' / 'full'."""
_WHOLE_CHECKPOINT_RE = rc(
    r"全量(?:的)?\s*(?=checkpoint|检查点|ckpt|(?:大?模型|版本?|权重|参数模型)"
    r"(?![^，,。；;！!？?\n]{0,8}?(?:微调|训练|训|精调|fine|tun|sft|lora)))"
)
"""'全量 checkpoint' with no verb or activation word: a saved checkpoint of the whole state, not a
method either ('全量 checkpoint 多大'); round 35 zh: '全量' before the model, its release or its
weights with no training word after ('部署 … 的 BF16 全量模型', '全量版需要几张 H20', '全量权重推理'):
the whole, unquantized model, not a full fine-tuning ('全量模型训练', '全量版本微调' stay the method).
'全量' is read as '完整'."""


def recompute_phrases(s: str) -> str:
    """``s`` (normalized) with the full recompute mode written as '完全重计算' / 'full_recompute' (words
    :data:`FULL_RECOMPUTE_RE` reads as full recompute and the stage and method words do not), and '全量'
    before a saved checkpoint or a whole model as '完整'. Two substring tests when neither '全量' nor
    'full' is in it."""
    if "全量" not in s and "full" not in s:
        return s
    s = _FULL_RECOMPUTE_PHRASE_RE.sub(
        lambda m: " full_recompute " if m.group(0).isascii() else "完全重计算", s
    )
    return _WHOLE_CHECKPOINT_RE.sub("完整", s) if "全量" in s else s
