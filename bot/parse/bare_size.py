"""A size typed without a family ('pretraining 7B on 500B tokens', 'pretrain 1B model'): a generic dense
model of that size, as '13B model on 3T tokens' is, never 'could not find the model “7B”' (trial s22 #7).
The name reader returns such a size as a mention with no catalog model; this tells it apart from a name
the catalog lacks ('Foo-7B'), which is still named as unknown."""

from __future__ import annotations

import re
from typing import Any

from bot.parse.regex import rc

GLUED_SUFFIX_RE = re.compile(r"(?:-[A-Za-z0-9]+(?:\.\d+)*)+(?![\w.]*\.[A-Za-z])")
"""Parts glued to a typed name by '-' (a version's '.digits' kept): '-A3B-Instruct' after 'Qwen3-Next-80B',
'-Chat-v2.5', '-Instruct-AWQ'; never a file's parts ('_lora.sh', '.yaml': the name inside a file name is
the model, the file is not its name), nor a run that goes on into a file extension."""

BARE_SIZE_RE = rc(r"\s*\d+(?:\.\d+)?\s*[bmtBMT]\s*")
"""A size alone, as the name reader gives it as typed: '7B', '1.5b', '500M'."""


USING = r"(?:用|拿|基于|with|using)"
"""The word before a joined name used to run a size (also :data:`bot.parse.coined_names.SIZED_JOB_RE`)."""
JOB_WORD = r"(?:推理|微调|训练|部署|跑|做推理|(?:to\s+)?(?:serve|run|fine[\s\-]?tune|train))"
"""The job that joined name runs the size in (also :data:`bot.parse.coined_names.SIZED_JOB_RE`)."""
JOINED_CUE = re.compile(
    rf"{USING}\s*[a-z][a-z0-9]*(?:-[a-z0-9]+)+\s*(?:模型\s*)?{JOB_WORD}\s*(?:一个\s*|the\s+|a\s+)?\d"
)
"""The form of :data:`bot.parse.coined_names.SIZED_JOB_RE` ('用 chinese-vicuna 推理 13b'), searched in C
before its module is imported (s33-gen2)."""


def named_unknown(unknown: Any, steps: Any = None) -> Any:
    """``unknown`` (a :class:`bot.parse.models.ModelMention` with no catalog id), or None when its text is
    a size alone: its size is the request's parameters, and there is no name to report. s33-gen2: with
    ``steps`` (the parse), a model named apart from that size by a job word ('用 Chinese-Vicuna 推理 7B
    可以，换成 13B 就 OOM', 'serve Foo-Chat at 13B') is the unknown model, named as typed
    (:func:`bot.parse.verb_names.job_named_model`) and sized by the size; before, no name was reported."""
    if unknown is not None and not BARE_SIZE_RE.fullmatch(unknown.text):
        return unknown
    if steps is None or not steps.f.get("params_total") or JOINED_CUE.search(steps.s) is None:
        return None
    from bot.parse.coined_names import name_beside_size
    from bot.parse.model_names import typed_in
    from bot.parse.models import ModelMention

    found = name_beside_size(steps.s, typed_in(steps.raw))
    return ModelMention(*found, None, steps.f["params_total"], None) if found else None


def whole_name(raw: str, text: str) -> str:
    """An unknown model's mention ``text`` as typed in ``raw`` (bot.parse.request_fields.as_typed) with the
    parts glued after it: 'Qwen3-Next-80B' → 'Qwen3-Next-80B-A3B-Instruct' (s48 trialfix #3: the name
    reader stops at the size, so the reply named a shorter model than the one typed; s48 names: one rule, the
    name as typed whole, its active part, release words and format suffix up to the space or punctuation that
    ends it). The name as typed alone when nothing is glued to it or it stands inside a longer word."""
    from bot.parse.request_fields import as_typed  # loaded already by the parse that calls this

    name = as_typed(raw, text)
    at = raw.find(name)
    if at < 0 or (at and (raw[at - 1].isalnum() or raw[at - 1] in "_-.")):
        return name  # inside a longer word ('finetune_foovlm_lora.sh'): the name read, as typed
    glued = GLUED_SUFFIX_RE.match(raw, at + len(name))
    return name + glued.group(0) if glued else name
