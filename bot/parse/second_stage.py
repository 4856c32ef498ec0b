"""Two stages asked at once (s20 #7): 'fine-tune Qwen2.5-7B with LoRA and then serve it to 50 users — how
many A100s for each?', '先LoRA微调再部署给100人用，各要几张卡'. The answer sizes the training it reads; the
serving after it is a second question, named with the exact follow-up (bot.render.second_stage), never
dropped in silence. The parse marks it with the note :data:`THEN_SERVE`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.parse import lexicon as lx
from bot.parse.result import ParseResult
from estimator.models import Stage

THEN_SERVE = "then_serve"
"""The ParseResult note: a training question that also asks to serve the model afterwards."""
GATE_RE = re.compile(
    r"(?:then|and|after(?:wards)?|later)\W+(?:\w+\W+){0,2}?(?:serve|deploy|host|put\s+it\s+in(?:to)?\s+production)"
    r"|(?:serve|deploy|host)\s+it\b"
    r"|(?:再|然后|之后|后|完|好)\s*(?:拿来|用来|用于|上线|去)?\s*(?:部署|上线|做推理|推理服务|提供服务)",
    re.IGNORECASE,
)
"""A serving step after the training one (C-level search at the call site, bot.parse.parse)."""


TRAIN_FIRST = "fine-tune: "
"""Said in front of a message whose first job is an adapter fine-tuning named by its method alone."""


def with_second_stage(parsed: ParseResult, raw: str = "", parse_one: Callable | None = None) -> ParseResult:
    """``parsed`` with the note :data:`THEN_SERVE` when it sizes a training stage (the message matched
    :data:`GATE_RE`: serving after it); unchanged otherwise (a serving question that mentions training
    before it sizes the serving). A message read as serving whose words before the serving step name
    LoRA or QLoRA ('how many A100 to LoRA Llama-3-8B and serve it?', trial s28 H4: the LoRA was dropped
    with no word) is read again with the fine-tuning said in front (``parse_one``): the training is
    sized, the serving named as the second question."""
    if parse_one is not None and parsed.request.stage is Stage.inference and _adapter_first(raw):
        parsed = parse_one(TRAIN_FIRST + raw)
    if parsed.request.stage in (Stage.finetune, Stage.pretrain) and THEN_SERVE not in parsed.notes:
        parsed.notes.append(THEN_SERVE)
    return parsed


ADAPTER_JOB_RE = re.compile(
    r"(?:^\W*|\bto|\bthen|\bfirst|\bwe|\bi|先|要)\s*q?lora\s+(?!adapters?\b|weights\b|models?\b|checkpoints?\b|merg|合并|融合|权重)\w"
    r"|q?lora[\s\-]*(?:微调|训练|fine[\s\-]*tun\w*|train\w*|sft)"
    r"|(?:\bwith|\busing|\bvia|用|使用|采用)\s*q?lora\b(?![\s\-]*(?:adapters?|weights|适配器|权重))",
    re.I,
)
"""LoRA or QLoRA as the job ('to LoRA Llama-3-8B', 'LoRA fine-tune', 'with QLoRA', '用LoRA微调'), not a
trained adapter that is served ('serve my LoRA adapter', 'with LoRA adapters on vLLM') nor one merged
into its base before it is served ('LoRA 合并后部署', s48: the merged model is the job)."""


def _adapter_first(raw: str) -> bool:
    """Whether LoRA or QLoRA is the job before the serving step of :data:`GATE_RE` (not negated)."""
    m = GATE_RE.search(raw)
    before = raw[: m.start()] if m is not None else ""
    return bool(ADAPTER_JOB_RE.search(before)) and not lx.NEGATED_LORA_RE.search(before.lower())
