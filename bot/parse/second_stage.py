"""Two stages asked at once (s20 #7): 'fine-tune Qwen2.5-7B with LoRA and then serve it to 50 users — how
many A100s for each?', '先LoRA微调再部署给100人用，各要几张卡'. The answer sizes the training it reads; the
serving after it is a second question, named with the exact follow-up (bot.render.second_stage), never
dropped in silence. The parse marks it with the note :data:`THEN_SERVE`.
"""

from __future__ import annotations

import re

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


def with_second_stage(parsed: ParseResult) -> ParseResult:
    """``parsed`` with the note :data:`THEN_SERVE` when it sizes a training stage (the message matched
    :data:`GATE_RE`: serving after it); unchanged otherwise (a serving question that mentions training
    before it sizes the serving)."""
    if parsed.request.stage in (Stage.finetune, Stage.pretrain) and THEN_SERVE not in parsed.notes:
        parsed.notes.append(THEN_SERVE)
    return parsed
