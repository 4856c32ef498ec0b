"""Training batch written number first (issue 24, s17 load axis): the forms the batch keys of
:mod:`bot.parse.prose_vocab` do not read, written as those keys before the numbers get their roles.

- **A micro-batch in a product** ('effective batch 128 = 4 per device x 4 accumulation x 8 GPUs', '2/GPU ×
  16 accumulation'): 'per_device_train_batch_size 4' (HF TrainingArguments' name for it).
- **Accumulation steps after their number** ('4 accumulation', '32 accumulation steps', '16 grad accum
  steps'): 'gradient_accumulation_steps N'.
- **Samples each card runs** ('每张卡跑 8 条样本', '每卡放 4 条'): the micro-batch, as '每卡 batch 8' is.
- **A dataset sampled by count** (ms-swift's ``--dataset name#50000``: that many samples of it): 'N samples'.
- **A serving load under a ceiling word** ('并发量不到 50', '并发数低于 20'; s27): 'N 并发'-free key form.
- **A serving load with its classifier** ('并发 8 条', '并发数为 16 个请求', '并发 4 路'; round 16 zh):
  'N 并发'.

Before, the per-device count was left unread and the accumulation lost, so the global batch was re-derived
from the default micro-batch of 1, or '8 条样本' was read as the dataset.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

PER_DEVICE_RE = rc(
    r"(?<![\w.])(?<!size\s)(?<!batch\s)(?<!bs\s)(?<!size=)(?<!size:)(\d{1,4})\s*(?:sequences?\s+|samples?\s+|seqs?\s+)?(?:per|/|each\s+per)[\s\-]*(?:device|gpu|card)s?\b"
    r"(?=\s*(?:[x×*]|,|\+|and\b|with\b|plus\b))"
)
"""'4 per device x …', '2/gpu × …': a micro-batch in a product of the global batch (never after a batch word:
'batch size 4 per device' is read by its key)."""
ACCUM_AFTER_RE = rc(
    r"(?<![\w.=:])(?<![=:]\s)(?<!batch\s)(?<!size\s)(?<!bs\s)(?<!warmup\s)(?<!seq\s)(?<!len\s)(?<!lr\s)"
    r"(?<!epochs\s)(?<!epoch\s)(?<!length\s)(?<!rate\s)(?<!steps\s)(?<!context\s)"
    r"(\d{1,4})\s*(?:x\s*)?(?:gradient\s+|grad\s+)?(?:accumulation|accum)(?:\s+steps?)?(?![\w\-])"
    r"(?!\s*(?:steps?)?\s*[:=]?\s*\d)"
)
"""'4 accumulation', '32 accumulation steps', '16 grad accum steps': the accumulation steps (never a key's
value: 'batch_size=1 gradient_accumulation_steps=16'; never when the word has its own number after it,
'batch size 16 gradient accumulation 4', nor when the number before belongs to another key: 'warmup 100
accumulation 16', 'micro batch 2 grad accum 8')."""
ACCUM_VERB_RE = rc(
    r"\b(?:accumulat(?:e|es|ed|ing)\s+(?:the\s+)?(?:gradients?|grads?)|accumulat(?:e|ing))\s+"
    r"(?:over\s+|for\s+|across\s+)?(\d{1,4})\s*(?:micro[\s\-]*batch(?:es)?|batches|steps?|times)\b"
)
"""s38-gen: the verb before its count ('accumulate 8 steps', 'accumulating gradients over 4 micro-batches');
before, 'accumulate 8 steps' was read as 8 training steps. Another thing accumulated is not the gradient
('the loss accumulated 500 steps of noise': the verb's past or third person needs the gradient named)."""
PER_BATCH_RE = rc(
    r"(?<![\w.])(\d{1,4})\s*(?:samples?|sequences?|seqs?|examples?|prompts?)?\s*"
    r"(?:per|each|every|in\s+each|in\s+every)\s+(?:micro[\s\-]*)?batch(?![\s_\-]*(?:size|of)\b)(?![\w\-])"
)
"""s38-gen: the micro-batch after its number ('4 samples per batch', '8 sequences in each batch'); before,
'4 samples per batch' was read as a dataset of 4 samples. Never a token budget ('4096 tokens per batch')."""
ZH_PER_CARD_RE = rc(
    r"每(?:张|块)?卡(?:上)?\s*(?:跑|放|训练?|喂|塞)\s*(\d{1,4})\s*(?:条|个)(?:样本|数据|序列)?"
)
"""'每张卡跑 8 条样本', '每卡放 4 条': the micro-batch."""

CONC_COUNTED_RE = rc(r"并发(?:数|量|度)?\s*(?:为|是|设为|开到)?\s*(\d{1,5})\s*(?:条|个|路)(?:请求|会话)?")
"""'并发 8 条', '并发数为 16 个请求': the load (before, '8 条' was read as 8 data samples, training only)."""

CONC_CEILING_RE = rc(
    r"(并发(?:数|量|度|用户数)?)\s*(?:也|只有|只能|才|都|还)?\s*(?:不到|不足|低于|少于)\s*(\d{1,5})(?![\d.])"
    r"(?!\s*(?:%|ms|毫秒|秒|s\b|tokens?|字))"
    r"|(并发(?:数|量|度))\s*(?:只有|才|仅|最多|最高|能到|能达到)\s*(?:大概|大约|约)?\s*(\d{1,5})(?![\d.])"
    r"(?!\s*(?:%|ms|毫秒|秒|s\b|tokens?|字))"
    r"|(concurrency)(?:\s+(?:of|is|was|stays|tops\s+out|peaks))?\s+(?:under|below|less\s+than)\s+(\d{1,5})"
    r"(?![\d.])(?!\s*(?:%|ms\b|s\b|seconds?|tokens?))"
)
"""'单卡能撑的并发量不到 50', '并发数低于 20', 'a concurrency of under 50': the load the user reaches, at most
that value, written '并发量 50' / 'concurrency 50' as the key reads it (s27: before, '不到' or 'under' made
the value a bound and the 50 was left unread; 'under 50 users' was read already); round 21 zh's
'并发数只有 20', '并发数最多 12' too (s28 tidy: the one reader of these forms; bot.parse.role_left.L_CONC
read them before)."""
DATASET_COUNT_RE = rc(r"(--dataset\s+[^\s#]*[a-z0-9])#(\d{1,9})(?![\d.])")
"""ms-swift's '--dataset AI-MO/NuminaMath-TIR#3000': 3000 samples of that dataset (before, the markup step
dropped the '#' and the count was left unread)."""


def _load_key(m: re.Match[str]) -> str:
    """'并发量 50' / 'concurrency 50' of a :data:`CONC_CEILING_RE` match (its alternative's word, number)."""
    word, number = (g for g in m.groups() if g is not None)
    return f"{word} {number}"


def load_forms(s: str) -> str:
    """The normalized text ``s`` with the batch forms of this module's docstring written as keys."""
    if "accum" in s and "accumulation_steps" not in s:  # a key stated is read as typed
        s = ACCUM_AFTER_RE.sub(r"gradient_accumulation_steps \1", s)
        s = ACCUM_VERB_RE.sub(r"gradient_accumulation_steps \1", s) if "accumulat" in s else s
    if "per batch" in s or "each batch" in s or "every batch" in s:
        s = PER_BATCH_RE.sub(r"micro batch size \1 ", s)
    if "#" in s:
        s = DATASET_COUNT_RE.sub(r"\1 \2 samples", s)
    if "并发" in s:
        s = CONC_COUNTED_RE.sub(r"\1 并发", s)
    if "并发" in s or "concurrency" in s:
        s = CONC_CEILING_RE.sub(_load_key, s)
    if "卡" in s:
        s = ZH_PER_CARD_RE.sub(r"per_device_train_batch_size \1 ", s)
    return PER_DEVICE_RE.sub(r"per_device_train_batch_size \1", s)
