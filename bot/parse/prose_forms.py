"""How people write settings and lengths in prose (round 3 of the real questions, issue 24 items 2 and 4;
tests/data/real_questions/zh_r3.json). Each rule is a way of writing, in both languages, gated by a cheap
substring test (most messages have none of them).

- **More assignment verbs, and serving settings** ('--tp 指定为 4', 'max_model_len 配置为 8192',
  'tensor parallel size specified as 4', 'gpu_memory_utilization configured to 0.8'): the verb is
  replaced by '=' so the setting's own rule reads the value (as :mod:`bot.parse.setting_verbs` does for
  '设为' / 'set to' on training settings).
- **The longest sample is the sequence length** ('平均约 54K tokens、最长约 120K tokens', 'average 2k
  tokens, the longest 16k tokens'): a length said of the longest sample is the training sequence
  (every sample must fit), never the data's token count; 'average' stays the tokens per sample.
- **Rollout-engine settings in a training command** (ms-swift ``--vllm_tensor_parallel_size 4``, TRL
  ``vllm_tensor_parallel_size``, verl ``actor_rollout_ref.rollout.tensor_model_parallel_size=2``,
  OpenRLHF ``--vllm_tensor_parallel_size``): the tensor parallelism of the vLLM/SGLang engine that
  generates the rollouts, not the training layout (which stays data parallel with ZeRO/FSDP in these
  tools); named as a setting the sizing has no field for, never taken as the training TP.
- **A Hugging Face id** ('liuhaotian/llava-v1.6-vicuna-7b', 'openbmb/MiniCPM-V-2_6'): the organization
  before '/' is dropped so the model name is read as typed (an organization has no digit; the name has
  one, so 'A100/H100', 'fp16/bf16' and 'vllm/sglang' are untouched).
- **Two stages asked in one message** ('预训练与 SFT 微调各需要多长时间', 'how long for pre-training and
  for SFT'): one is sized, the other named as another setup (never dropped in silence).
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

_SERVING_SETTING = (
    r"(--?tp\b|tp\b|--?pp\b|tensor[\s_\-]*parallel(?:[\s_\-]*size)?|pipeline[\s_\-]*parallel(?:[\s_\-]*size)?"
    r"|张量并行(?:数|度)?|流水线并行(?:数|度)?|max[\s_\-]*model[\s_\-]*len|max[\s_\-]*num[\s_\-]*seqs"
    r"|session[\s_\-]*len|num[\s_\-]*ctx|gpu[\s_\-]*memory[\s_\-]*utilization|mem[\s_\-]*fraction[\s_\-]*static"
    r"|batch[\s_\-]*size|batchsize|micro[\s_\-]*batch(?:[\s_\-]*size)?|cutoff[\s_\-]*len(?:gth)?"
    r"|max[\s_\-]*(?:seq(?:uence)?[\s_\-]*)?len(?:gth)?|gradient[\s_\-]*accumulation(?:[\s_\-]*steps)?"
    r"|lora[\s_\-]*(?:rank|r)\b|epochs?)"
)
MORE_ASSIGN_RE = rc(
    _SERVING_SETTING + r"\s*(?:(?:只能|只|就|都|也|可以|还是|已经|最多|最大)\s*)?"
    r"(?:指定为|指定成|指定了|指定|配置为|配置成|配成|配为|写成|写的是|填的是|填了|给到|给的是|用的是"
    r"|(?:is\s+|was\s+)?(?:specified|configured|given|passed)\s+(?:as|to|at)\b)\s*(?=\d)"
)
"""'--tp 指定为 4', 'max_model_len 配置为 8192', 'tensor parallel size specified as 4'."""
_ASSIGN_WORDS = ("指定", "配", "写", "填", "给", "用的是", "specified", "configured", "given", "passed")
_ASSIGN_GATE = re.compile("|".join(map(re.escape, _ASSIGN_WORDS)))

LONGEST_RE = rc(
    r"(?:最长(?:的)?(?:样本|数据|一条|的那条|序列)?(?:有|是|为|达到|能到|到)?"
    r"|(?:the\s+)?longest(?:\s+(?:samples?|examples?|ones?|sequences?|conversations?|documents?))?"
    r"(?:\s+(?:is|are|has|have|at|of|reach(?:es)?|runs?\s+to))?)"
    r"\s*(?P<about>约|大约|大概|差不多|about|around|roughly|~|up\s+to|over|超过)?\s*"
    r"(?=\d[\d.,]*\s*[kmw万千]?\s*(?:tokens?|toks?)\b)"
)
"""'最长约 120K tokens', 'the longest around 16k tokens': the longest sample's length (the sequence)."""

HF_ORG_RE = rc(r"(?<![\w./\-])[a-z][a-z\-_]{1,38}/(?=[a-z][a-z0-9_.\-]*\d)")
"""The organization of a Hugging Face id ('liuhaotian/' in 'liuhaotian/llava-v1.6-vicuna-7b')."""

ROLLOUT_TP_RE = rc(
    r"(?<![a-z0-9])(?:vllm|sglang|rollout|infer(?:ence)?)[\s_\-.]*(?:[a-z_]+[\s_\-.]+)?"
    r"(?:tensor[\s_\-]*(?:model[\s_\-]*)?parallel(?:[\s_\-]*size)?|tp(?:[\s_\-]*size)?)"
    r"\s*(?:=|:|为|是|设为|设成)?\s*(?P<n>\d{1,3})(?![\d.])"
)
"""A rollout engine's tensor parallelism in a training command (see the module docstring)."""
_ROLLOUT_WORDS = ("vllm", "sglang", "rollout", "infer")

TWO_STAGES_RE = rc(
    r"(?:预训练|pre[\s\-]?train(?:ing)?|pretrain(?:ing)?)\s*(?:和|与|跟|及|以及|还有|,|/|、|and|&|plus|then)\s*"
    r"(?:(?:sft|lora|全参|全量|指令)\s*)?(?:微调|fine[\s\-]?tun(?:e|ing)|sft)"
    r"|(?:微调|fine[\s\-]?tun(?:e|ing)|sft)\s*(?:和|与|跟|及|以及|还有|,|/|、|and|&|plus)\s*(?:预训练|pre[\s\-]?train(?:ing)?)"
)
"""Pre-training and fine-tuning asked together ('预训练与 SFT 微调', 'pre-training and fine-tuning')."""
_STAGE_WORDS = ("预训练", "train")


def read_prose_forms(s: str) -> str:
    """The normalized text ``s`` with the rewriting rules of this module applied (assignment verbs, a
    Hugging Face organization, the longest sample's length)."""
    if _ASSIGN_GATE.search(s):
        s = MORE_ASSIGN_RE.sub(r"\1 = ", s)
    if "/" in s:
        s = HF_ORG_RE.sub("", s)
    if "最长" in s or "longest" in s:
        s = LONGEST_RE.sub(" max_len ", s)
    return s


def rollout_parallel(s: str, training: bool) -> tuple[str, list[tuple[str, str]]]:
    """In a training question, each rollout engine's TP degree masked (so the training layout does not
    take it) and named as a setting the sizing has no field for."""
    if not training or not any(w in s for w in _ROLLOUT_WORDS):
        return s, []
    named: list[tuple[str, str]] = []
    for m in reversed(list(ROLLOUT_TP_RE.finditer(s))):
        named.insert(0, (f"rollout tensor_parallel_size: {m.group('n')}", "no_field"))
        s = s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :]
    return s, named


def other_stage(s: str, stage: str | None) -> list[tuple[str, str]]:
    """The stage not sized when pre-training and fine-tuning are asked together, named as another setup."""
    if stage not in ("finetune", "pretrain") or not any(w in s for w in _STAGE_WORDS):
        return []
    if not TWO_STAGES_RE.search(s):
        return []
    other = "pretrain" if stage == "finetune" else "finetune"
    return [(f"stage: {other}", "other_setup")]
