"""Stage hints the stage words miss (issue 24, round 5 zh): a method only fine-tuning has, and a
pre-training with adapters.

- **A method that is only ever a fine-tuning** ('ptv2 显存不够', 'P-Tuning v2 OOM', 'freeze 微调'
  without a stage word): the job trains, so its settings are read as a training run's before the
  stage is settled (a 'maxseqlen=512' of such a job is the sequence, not an engine's context limit).
  So is a training of LoRA or QLoRA adapters with no stage word (round 7: 'train_lora … 才能训练', 'train
  LoRA on one V100'): the weak hint '训练' / 'train' said pre-training, but adapters tune a model.
- **A pre-training with LoRA** ('lora 预训练 13B', 'LoRA pretraining a 13B model'): adapters train on a
  model that already exists (Hu et al. 2021, LoRA freezes pre-trained weights), so it is a continued
  pre-training, as '增量预训练' / '--stage pt --finetuning_type lora' already are.
"""

from __future__ import annotations

import re
from functools import cache

from bot.parse import lexicon as lx
from bot.parse.fine_tunes import FAMILIES as FINE_TUNE_CUES
from bot.parse.fine_tunes import RELEASE_RE as FINE_TUNE_RELEASE_RE
from bot.parse.regex import compile_pattern, rc
from bot.parse.settings import METHOD_WORDS
from bot.parse.words import explicit_stage

PRETRAINING_RE = rc(
    r"(?:增量|继续|持续|二次)?预训练(?!\s*(?:好|过|完)?\s*的?\s*(?:模型|权重|版本|底座|基座|checkpoint|model))"
    r"|pre[\s\-]?training(?!\s+(?:model|weights|checkpoint))"
)
"""Pre-training as a job ('lora 预训练 13B', 'LoRA pretraining'), not a pre-trained model ('在预训练模型上做
lora', 'a pretraining checkpoint')."""
TUNING_ONLY = ("ptuning", "freeze")
"""Methods of :data:`bot.parse.settings.METHOD_WORDS` that exist only as fine-tuning methods."""


TUNED_RELEASE_RE = rc(
    r"[\-_](?:instruct|chat|it)(?![a-z0-9])|\b(?:instruct|chat)\s+(?:model|version|release)\b|[\-_]alpaca[\-_]"
)
"""An instruction-tuned release ('Qwen2.5-7B-Instruct', 'gemma-2-9b-it', 'the chat model', round 25's
'Chinese-Alpaca-2-13B': Alpaca names instruction-following tunes): a model that exists, trained further
(fine-tuned), never pre-trained from scratch."""
_BASE = r"(?!ascend|atlas|rtx|gtx|tesla)[a-z][\w.\-]*?\d+(?:\.\d+)?b(?![a-z0-9])[\w.\-]*"
ON_BASE_RE = rc(
    rf"在\s*{_BASE}\s*(?:模型)?\s*的?\s*(?:基础|基座|权重)?\s*上\s*(?:做|进行|来|再|继续)?\s*(?:增量|继续|二次)?\s*预训练"
    rf"|基于\s*{_BASE}\s*(?:模型)?\s*(?:做|进行|来|再)?\s*预训练"
    rf"|pre-?train(?:ing)?\s+(?:on\s+top\s+of|starting\s+from|initiali[sz]ed\s+from)\s+{_BASE}"
)
"""Pre-training on a named model ('在 chinese-llama-2-7b 上做预训练', '基于 Qwen2.5-7B 预训练',
'pretraining on top of Llama-2-7B', round 25): the weights exist, so the pre-training continues them;
never a card ('在 Ascend-910B 上预训练') nor a model without its size."""
CONTINUING_TOOL_RE = rc(r"medicalgpt|run_clm_pt|--stage\s+pt\b|stage:\s*pt\b|\bswift\s+pt\b")
"""s35 round 31: the pre-training stage of a fine-tuning toolkit, which starts from a model's weights:
MedicalGPT's PT stage ('Continue PreTraining' in its README, pretraining.py), Chinese-LLaMA-Alpaca's
run_clm_pt_with_peft.py, LLaMA-Factory's ``--stage pt`` (loads model_name_or_path; from scratch only with
train_from_scratch) and ``swift pt`` ('用 MedicalGPT 的 pretraining.py 全量预训练 baichuan-7b', zh31-020)."""
_SCRATCH_RE = rc(r"从零|从头|from\s+scratch")
QUANTIZED_BASE_RE = rc(
    r"量化(?:后|之后|过的?|版(?:本)?的?)\s*(?:的\s*)?(?:模型\s*)?(?:再|来|做|进行|继续)?\s*(?:增量|继续|二次)?\s*预训练"
    r"|pre-?train(?:ing)?\s+(?:an?\s+|the\s+)?(?:\d-?bit\s+)?quantized|quantized\s+(?:model\s+)?pre-?train"
)
"""Round 34: pre-training a quantized model ('量化后预训练', 'pretraining the quantized 33B'): only weights
that exist can be quantized, so the pre-training continues them (never FP8 training, a precision, not a
quantized base)."""
"""A pre-training from nothing said ('从零预训练', 'from scratch', LLaMA-Factory's train_from_scratch)."""
PRETRAINED_INIT_RE = rc(r"(?:pretrained_model|model_name_or)_path\s*[=:]?\s*[\w./\-]")
"""A checkpoint to start from, written as a pre-training script's key ('--pretrained_model_path
models/llama-7b.bin', round 19; '--model_name_or_path'): the weights exist, so the pre-training continues
them."""
OWN_DATA_RE = rc(
    r"\b(?:my|our|own|custom|company|internal)\s+(?:own\s+)?(?:chat\s+|support\s+|domain\s+)?"
    r"(?:data(?:set)?s?|documents?|docs|corpus|conversations?|dialogues?|samples|examples|chats?)\b"
    r"|(?:我的|我们的|自己的|公司的?|内部的?)\s*(?:客服|领域|业务)?\s*(?:数据集?|语料|对话|文档|样本)"
)
"""The asker's own data ('on my documents', 'our chat data', '我的客服对话'): a released model adapted
to it."""
TUNED_OR_OWN_RE = compile_pattern(f"{TUNED_RELEASE_RE.pattern}|{OWN_DATA_RE.pattern}", re.ASCII)
"""Either, in one search of the compiled pattern itself (parse cost: no Python frame)."""
RELEASE_NAME_RE = rc(
    r"(?<![a-z0-9])[a-z]{3,}[\-_]?v?\d+(?:\.\d+)?[\-_]\d+(?:\.\d+)?b(?![a-z0-9])"
    r"|(?<![a-z0-9])[a-z]{3,}[\-_]?\d+(?:\.\d+)?b[\-_]v\d"
)
SPACED_RELEASE_RE = rc(r"(?<![a-z0-9])[a-z]{3,}\s\d{1,2}\.\d{1,2}\s\d+(?:\.\d+)?b(?![a-z0-9])")
"""s37 (issue 24): a release named with its release number spaced ('llava 1.5 13b', 'internvl 2.5 8b'),
searched only for a model no catalog has (bot.parse.stage_steps.named_model_trained): a model that exists,
as :data:`RELEASE_NAME_RE`'s one-word names are (a search of its own: a '.' in its gate would search
:data:`RELEASE_NAME_RE` in most messages)."""
"""A released model by its name, version and size, written as one word ('Qwen2.5-32B', 'llama-3.1-8b',
'mistral-7b-v0.3'; s19-audit, first-contact kind C: '用 FSDP 训 Qwen2.5-32B'): a model that exists, so
'train' it (the weak hint) is a fine-tuning — a pre-training from scratch names a size ('a 7B model'), its
scale (:data:`PRETRAINING_SCALE_RE`) or a pre-training codebase (:data:`PRETRAINING_CODEBASE_RE`). Written
in words ('the Llama 8B model', 'the 32B Qwen model'): :func:`family_release`."""
OWNED_RELEASE_RE = rc(
    r"(?<![a-z0-9.\-_/])[a-z][a-z0-9.\-_]*[a-z0-9]\s*的\s*\d+(?:\.\d+)?\s*b(?![a-z0-9])\s*(?:的\s*)?(?:模型|版本)"
)
"""Round 26 zh: a release by its maker's or series' name and its size, called a model ('FooBot 的 7B 模型'): a
model that exists, so 'train' it (the weak hint) is a fine-tuning, as :data:`RELEASE_NAME_RE`'s one-word names
are; never a release's own training told of ('LLaMA1 的 7B 在 2000 多张卡上训练': no model word)."""
OWNED_RELEASE_EN_RE = rc(
    r"(?<![a-z0-9.\-_/])[a-z][a-z0-9.\-_]*[a-z0-9]['’]s\s+\d+(?:\.\d+)?\s*b(?![a-z0-9])"
    r"(?:[\s\-](?:chat|instruct|base))?\s+(?:model|checkpoint|version|release)s?(?![a-z])"
)
"""s42 (issue 24, working misses): the English of :data:`OWNED_RELEASE_RE` — a release by its maker's or
project's name in the possessive and its size, called a model ("training BPO's 7b model", "FooBot’s 13B
chat model"): a model that exists, so 'train' it (the weak hint) is a fine-tuning; never without the model
word ("Meta's 7B was trained on 1T tokens": a release's own training, and its scale keeps it so)."""
NOT_FAMILY_WORDS = frozenset(("gpt", "command", "opt"))
"""Catalog name stems that are words or a generic architecture ('a GPT 7B from scratch', 'opt for')."""


@cache
def _family_release_re() -> re.Pattern[str]:
    from estimator import catalog  # here: the catalog loads only for a 'train' said of a model

    stems = {m.group(0).lower() for k in catalog.models() if (m := re.match(r"[A-Za-z]{3,}", k))}
    fam = "|".join(sorted(stems - NOT_FAMILY_WORDS, key=len, reverse=True))
    return compile_pattern(
        rf"(?<![a-z0-9])(?:{fam})[\s\-_]*v?\d*(?:\.\d+)?[\s\-_]*\d+(?:\.\d+)?b(?![a-z0-9])"
        rf"|(?<![a-z0-9])\d+(?:\.\d+)?b\s+(?:{fam})(?![a-z])",
        re.ASCII,
    )


def family_release(s: str) -> bool:
    """Whether ``s`` names a model of a catalog family with its size, in words ('the Llama 8B model', 'the
    32B Qwen model', 'llama 2 70b'): the family stems are the catalog's model ids' (estimator/data/models)."""
    return _family_release_re().search(s) is not None


TIER_RELEASE_RE = rc(
    r"(?<![a-z0-9])(?!(?:a|an|the|very|too|so|more|most|extra|model|language|our|my|your|their|this|that"
    r"|its|own|new|one|with|on|in|of|for|to|and|or|is|as|at|by|from|use|using|bigger|smaller)\b)"
    r"[a-z][a-z0-9.]{1,15}(?:[\-_](?:large|base|small|medium|tiny|xl|xxl)(?![a-z])"
    r"|\s+(?:large|base|small|medium|tiny|xl|xxl)(?:[\s\-_]*v\d)?\s*(?:model|checkpoint|模型|版本|版))"
)
"""A released model by its family and size tier ('the whisper large model', 'T5-large', 'bert-base-chinese',
'flan-t5-xl', 'whisper large 模型'; s32-gen, a stage implied): encoder, speech and seq2seq families are
released in tiers, not by a parameter count (Whisper: tiny/base/small/medium/large, Radford et al. 2022
Table 1; T5: small/base/large/3B/11B, Raffel et al. 2020 §3.7), so 'train' of one (the weak hint) is a
fine-tuning like 'train Qwen2.5-32B' (:data:`RELEASE_NAME_RE`); 'a very large model', 'the base model'
name no release."""
PRETRAINING_CODEBASE_RE = rc(
    r"(?<![a-z0-9])(?:torchtitan|maxtext|levanter|nanogpt|nanotron|picotron|megatron|gpt[\s\-_]*neox"
    r"|olmo[\s\-_]*core)(?![a-z0-9])"
)
"""Codebases built for pre-training (each README: torchtitan, MaxText, Levanter, nanoGPT, nanotron, picotron,
Megatron-LM, GPT-NeoX, OLMo-core): 'train Llama-3.1-70B with torchtitan' (en11-030) stays a pre-training."""
TUNING_VERB_RE = rc(
    r"\b(?:teach\w*(?!\s+(?:me|us|you)\b)|adapt\w*\s+\S+(?:\s+\S+)?\s+to|train\w*\s+\S+(?:\s+\S+)?\s+(?:further|more|a\s+bit\s+more))\b"
    r"|(?:再训|接着训|继续训(?!练\s*(?:一个|从头))|学会)"
)
"""A fine-tuning said by what it does to a model ('teach Llama-3-8B our tone', 'adapt it to legal text',
'train it further', '再训一下', '接着训', '让它学会'), with no stage word (a serving story is left alone)."""
REPRODUCED_RE = rc(
    r"\brepro\w*|\breplicat\w*|复现|重现|复刻"
    r"|(?<![\d.])\d{3,}\s*(?:多|\+)?\s*(?:张|块)?\s*(?:卡|gpus?\b)|千卡|万卡|\bthousands?\s+of\s+gpus"
)
"""A release's own training reproduced ('reproduce the BLT training', '复现 X 的训练'), or its run on a
pre-training cluster (hundreds of GPUs and more: 'X 的 13B 在 1000 多张卡上训练', '千卡'; fine-tuning a
release takes one to a few nodes): its pre-training, not a fine-tuning of it
(bot.parse.stage_steps.named_model_trained)."""
PRETRAINING_SCALE_RE = rc(
    r"from\s+scratch|从头|从零|trillion|\d\s*t\s*tokens?\b|\d\s*t\s*token|万亿"
    r"|how\s+many\s+(?:training\s+)?tokens\b(?=[^.?!]{0,60}\b(?:did|was|were|trained)\b)"
    r"(?![^.?!]{0,60}\b(?:my|our|i|we)\b)"
)
"""A pre-training said by its scale or start ('from scratch', '1T tokens', '万亿'), or its scale asked of a
release in the past tense ('how many tokens and days did the OLMo 2 7B training take', round 23: the
release's own training; never the asker's run, 'how many tokens did my run see', nor a rate, 'how many
tokens per second'): stays pre-training."""


VL_ASSEMBLY_RE = rc(
    r"(?<![a-z0-9])(?:(?:video[\s\-_]*)?llava|internvl|minicpm[\s\-_]*v(?![a-z0-9])|cogvlm|instructblip"
    r"|blip[\s\-_]*2|idefics|mplug[\s\-_]*owl|pali[\s\-_]*gemma|pixtral|molmo|qwen[\d.]*[\s\-_]*vl)(?![a-z])"
)
"""A vision-language model by its family name, sized or not ('LLaVA', 'Video-LLaVA', 'InternVL2', 'Qwen-VL',
'MiniCPM-V'): each is a released language model joined to a vision encoder (LLaVA: Vicuna or Llama with a
CLIP encoder, Liu et al. 2023 §4; its own 'pre-training' stage trains the projector only), so 'train' one
(the weak hint) is a fine-tuning of that language model, never its pre-training from scratch (s37-gen,
issue 24: 'run LLaVA training with a single 3090', 'train and run inference of LLaVA' were sized as a
pre-training)."""


def vl_assembly(s: str) -> bool:
    """:data:`VL_ASSEMBLY_RE` found in ``s`` (normalized), searched only behind C-level cues."""
    cue = "vl" in s or "llava" in s or "blip" in s or "minicpm" in s or "idefics" in s or "owl" in s
    cue = cue or "gemma" in s or "pixtral" in s or "molmo" in s
    return cue and VL_ASSEMBLY_RE.search(s) is not None


def tuning_only_stage(stage: str | None, s: str) -> str | None:
    """'finetune' when no stage word is said (a weak hint such as '显存不够' may have given one) and
    ``s`` (normalized) names a method only fine-tuning has, else ``stage``."""
    if stage == "finetune" or explicit_stage(s) is not None:
        return stage
    found = False
    for pattern, method in METHOD_WORDS:  # a loop: a generator resumes a frame per word
        if method in TUNING_ONLY and pattern.search(s):
            found = True
            break
    if not found and stage == "pretrain" and not lx.NEGATED_LORA_RE.search(s):
        # round 7: a training ('训练', the weak hint) of adapters ('train_lora … 才能训练'): adapters train
        # on a model that exists, a fine-tuning unless pre-training is named (then lora_pretraining)
        found = bool(lx.LORA_RE.search(s) or lx.QLORA_RE.search(s))
    if not found and stage == "pretrain" and TUNED_OR_OWN_RE.search(s):
        # round 12: a training ('train', the weak hint) of a released chat model or on the asker's own data
        found = not PRETRAINING_SCALE_RE.search(s)
    if not found and stage in (None, "pretrain") and TUNING_VERB_RE.search(s):
        found = not PRETRAINING_SCALE_RE.search(s)  # s19-audit: 'teach X our tone', '再训一下'
    named = RELEASE_NAME_RE.search(s) or ("的" in s and OWNED_RELEASE_RE.search(s))  # s19-audit, r26
    named = named or (("'s " in s or "’s " in s) and OWNED_RELEASE_EN_RE.search(s))  # s42: "BPO's 7b model"
    vl = "vl" in s or "llava" in s or "blip" in s or "minicpm" in s or "idefics" in s or "owl" in s
    vl = vl or "gemma" in s or "pixtral" in s or "molmo" in s  # C tests: the VL search behind them (s37)
    if not named and stage == "pretrain" and any(map(s.__contains__, FINE_TUNE_CUES)):  # s48: C tests first
        named = FINE_TUNE_RELEASE_RE.search(s)  # 'training vicuna-13b': a named fine-tune is a release
    if (
        not found
        and stage == "pretrain"
        and (named or family_release(s) or _tier(s) or (vl and VL_ASSEMBLY_RE.search(s)))
    ):
        found = not PRETRAINING_SCALE_RE.search(s) and not PRETRAINING_CODEBASE_RE.search(s)
    return "finetune" if found else stage


def _tier(s: str) -> bool:
    """:data:`TIER_RELEASE_RE` found in ``s``, searched only when a tier word is in it (C-level cues)."""
    cue = "large" in s or "base" in s or "small" in s or "medium" in s or "tiny" in s or "xl" in s
    return cue and TIER_RELEASE_RE.search(s) is not None


def lora_pretraining(stage: str | None, s: str) -> str | None:
    """'continued_pretrain' when ``s`` names pre-training (a stage word, not a hint) with LoRA or QLoRA
    not negated, or of an instruction-tuned release (round 18: '全量预训练 Yi-34B-Chat': a model that exists,
    so the pre-training continues it, :data:`TUNED_RELEASE_RE`) or from a checkpoint a key names
    (:data:`PRETRAINED_INIT_RE`), else ``stage``."""
    if explicit_stage(s) != "pretrain" or not PRETRAINING_RE.search(s) or lx.NEGATED_LORA_RE.search(s):
        return stage
    adapters = lx.LORA_RE.search(s) or lx.QLORA_RE.search(s)
    adapters = adapters or (("量化" in s or "quantiz" in s) and QUANTIZED_BASE_RE.search(s))  # round 34
    started = TUNED_RELEASE_RE.search(s) or PRETRAINED_INIT_RE.search(s) or ON_BASE_RE.search(s)  # r19, r25
    started = started or (CONTINUING_TOOL_RE.search(s) and not _SCRATCH_RE.search(s))  # s35 r31
    return "continued_pretrain" if adapters or started else stage


def spaced_release(s: str) -> bool:
    """:data:`SPACED_RELEASE_RE` in ``s`` and no pre-training scale or codebase said."""
    return (
        SPACED_RELEASE_RE.search(s) is not None
        and not PRETRAINING_SCALE_RE.search(s)
        and not PRETRAINING_CODEBASE_RE.search(s)
    )


BATCH_INFERENCE_CUES = (
    "offline batch",
    "batch inference",
    "offline inference",
    "batch generation",
    "output tokens",
    "离线批量",
    "批量生成",
    "离线生成",
)
"""Words of a model run over a batch of prompts, never trained (s44 trial #1: 'offline batch job: 2M
prompts of 1k tokens, 300 output tokens each. How long will it take?' was sized as a pre-training on 2.6B
tokens): output tokens are decoded, an offline batch is served without users."""
_TRAINING_CUES = (
    "train",
    "训练",
    "微调",
    "fine-tun",
    "finetun",
    "预训",
    "epoch",
    "rollout",
    "grpo",
    "ppo",
    "蒸馏",
)
"""Training words that keep the stage a training one beside them (an RL run decodes output tokens too)."""


def batch_inference(s: str) -> bool:
    """Whether the normalized ``s`` names a batch of prompts run through a model
    (:data:`BATCH_INFERENCE_CUES`) and no training word (:data:`_TRAINING_CUES`); C substring tests, no
    search."""
    return any(map(s.__contains__, BATCH_INFERENCE_CUES)) and not any(map(s.__contains__, _TRAINING_CUES))
