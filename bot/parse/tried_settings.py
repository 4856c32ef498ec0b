"""A setting tried, then changed: the last one is the one run (issue 24 item 2, session 22).

'tried zero2, OOM, switched to zero3', '先用 bs 8 爆了，改成 2', 'seq 8192 oom 了，后来改成 4096',
'started with rank 64, went OOM, dropped to rank 16': the user ran the first value, it failed (or they say
they tried it first), and they changed to the second. The second is sized; the first is named as the
earlier value (``replaced_by_later_value``). Before, the first was sized (the readers take a setting's
first mention) and the second named as another setup, or left unread.

A setting's kinds (ZeRO stage, micro-batch, sequence length, LoRA rank) are read by their own rules
(bot.parse.settings, bot.parse.prose_vocab, the number roles); this step only edits the text they read, with
every offset kept: the first mention is masked when the later one carries its key ('zero3'); when the later
value stands bare after the change verb ('改成 2'), it is written in place of the first value (same key) and
masked where it stood. The failure words between them are masked too: they said the first value failed,
not the GPU count (bot.parse.count_failed would read them as the count's). A message with no failure or
'tried' word and no change verb is left as it is.
"""

from __future__ import annotations

import re
from typing import Any

from bot.parse.negated_tools import negated_tools
from bot.parse.normalize import mask
from bot.parse.regex import rc

_SEP = r"\s*(?:=|:|of|to|为|是|用|设为|设成)?\s*"
KINDS: dict[str, str] = {
    "zero_stage": r"(?<![a-z0-9])(?:deepspeed[\s\-_]*)?zero[\s\-_]*(?:stage[\s\-_]*)?(?P<v>[0-3])(?![0-9.])",
    "batch_size": r"(?<![a-z])(?:micro[\s\-_]*batch(?:[\s\-_]*size)?|batch[\s\-_]*size|bs|批大小|批次大小"
    r"|batch)" + _SEP + r"(?P<v>\d{1,4})(?![\d.]|\s*(?:k\b|张|卡|块|台|gpus?\b|cards?\b|nodes?\b))",
    "seq_len": r"(?<![a-z])(?:seq(?:uence)?(?:[\s\-_]*len(?:gth)?)?|max[\s\-_]*len(?:gth)?|cutoff[\s\-_]*len"
    r"|context(?:\s+length)?|序列长度|序列|上下文(?:长度)?)" + _SEP + r"(?P<v>\d{3,6}|\d{1,3}k)(?![\d.a-z])",
    "lora_rank": r"(?<![a-z])(?:lora[\s\-_]*)?(?:rank|秩)" + _SEP + r"(?P<v>\d{1,4})(?![\d.])",
    # s30: RL samples per prompt ('num_gen=32 … had to tune it down to 8', '… 爆了，只能降到 8')
    "num_generations": r"(?<![a-z])(?:num[\s\-_]*gen(?:eration)?s?|generations?\s+per\s+prompt"
    r"|group[\s\-_]*size)" + _SEP + r"(?P<v>\d{1,3})(?![\d.])",
}
"""Each setting's key and value (group ``v``) as the user writes it."""
_KIND_RE = {name: rc(pattern) for name, pattern in KINDS.items()}
_BARE_RE = {
    "zero_stage": rc(r"\s*(?P<v>[0-3])(?![0-9.a-z])"),
    "batch_size": rc(r"\s*(?P<v>\d{1,4})(?![\d.]|\s*(?:k\b|张|卡|块|台|gpus?\b|cards?\b|nodes?\b))"),
    "seq_len": rc(r"\s*(?P<v>\d{3,6}|\d{1,3}k)(?![\d.a-z])"),
    "lora_rank": rc(r"\s*(?P<v>\d{1,4})(?![\d.])"),
    "num_generations": rc(r"\s*(?P<v>\d{1,3})(?![\d.a-z])"),
}
"""The later value written bare right after the change verb ('改成 2', 'dropped to 4096')."""
FAILED_RE = rc(
    r"(?<![a-z])(?:oom(?:s|ed|'d)?|out\s+of\s+memory|failed|fails|crash(?:ed|es)?|didn'?t\s+fit|did\s+not\s+fit"
    r"|too\s+(?:slow|big|much)|not\s+enough|had\s+to|have\s+to|needed\s+to)(?![a-z])"
    r"|爆|溢出|不够|跑不动|跑不起来|挂了|报错|放不下|只能|不得不|只好"
)
"""Words that say the first value failed ('OOM', '爆了', 'didn't fit') or that the change was forced
('had to', '只能', s30)."""
TRIED_BEFORE_RE = rc(
    r"(?:(?<![a-z])(?:tried|first|started\s+with|initially|at\s+first|originally)(?![a-z])|先|一开始|开始|起初|最初|原来|本来)"
    r"[^,;，；。]{0,16}$"
)
"""Words before the first value that say it was tried first ('tried zero2', '先用 bs 8')."""
SWITCH_RE = rc(
    r"(?<![a-z])(?:switch(?:ed)?\s+to|chang(?:ed|e)\s+(?:it\s+)?to|mov(?:ed|e)\s+to|went\s+(?:down\s+)?to"
    r"|dropp(?:ed)?\s+(?:it\s+)?to|lower(?:ed)?\s+(?:it\s+)?to|reduc(?:ed|e)\s+(?:it\s+)?to|cut\s+(?:it\s+)?to"
    r"|(?:tun|turn|bring|brought|dial|scal|tone|knock)(?:ed|e|ing)?\s+(?:it\s+|that\s+)?down\s+to"
    r"|(?:lower|reduc|decreas|limit|cap)(?:ed|e|ing)?\s+(?:it\s+|that\s+)?to"
    r"|then\s+(?:tried|used)|now(?:\s+(?:using|use|with|at|on))?|so\s+(?:i|we)\s+(?:used|set|tried))(?![a-z])"
    r"|改成|换成|改为|换为|改用|换到|降到|降低到|降低为|调到|调低到|调小到|调小为|改到|减到|减少到|减小到|调成|后来(?:用|改成|换成|改为)?|然后(?:用|改成|换成|改为)|再用|现在用"
)
"""The change verb before the later value."""
NEAR = 90
"""Longest stretch from the first value to the change verb (characters)."""
_GATE = re.compile(
    r"oom|memory|fail|crash|fit|too|enough|tried|first|start|initial|originally|had to|have to|needed to"
    r"|爆|溢出|不够|跑不|挂|报错|放不下|先|开始|起初|最初|原来|本来|只能|不得不|只好"
)


def _later(s: str, name: str, after: int) -> tuple[re.Match[str], bool] | None:
    """The later value of the setting ``name`` after the change verb found from ``after``: (its match,
    whether its key is written), or None."""
    cue = SWITCH_RE.search(s, after, after + NEAR)
    if cue is None:
        return None
    keyed = _KIND_RE[name].search(s, cue.end(), cue.end() + 24)
    if keyed is not None and not s[cue.end() : keyed.start()].strip(" 的"):
        return keyed, True
    bare = _BARE_RE[name].match(s, cue.end())
    return (bare, False) if bare is not None else None


def tried_then_changed(s: str) -> tuple[str, list[tuple[str, str]]]:
    """``s`` (normalized) with each setting tried then changed left at its later value, and the earlier
    values named ('batch_size: 8', 'replaced_by_later_value')."""
    if not _GATE.search(s) or not SWITCH_RE.search(s):
        return s, []
    named: list[tuple[str, str]] = []
    for name, pattern in _KIND_RE.items():
        first = pattern.search(s)
        if first is None:
            continue
        later = _later(s, name, first.end())
        if later is None:
            continue
        m, keyed = later
        between = s[first.end() : m.start()]
        tried = TRIED_BEFORE_RE.search(s[max(0, first.start() - 24) : first.start()])
        if not (FAILED_RE.search(between) or tried):
            continue
        old, new = first.group("v"), m.group("v")
        if old == new:
            continue
        if keyed:
            s = mask(s, first.start(), first.end(), " ")
        elif len(new) <= len(old):  # '改成 2': the later value written where the first stood
            s = s[: first.start("v")] + new.ljust(len(old)) + s[first.end("v") :]
            s = mask(s, m.start("v"), m.end("v"), " ")
        else:
            continue
        for fail in list(FAILED_RE.finditer(s, first.end(), m.start())):  # the failure was the first value's,
            s = mask(s, fail.start(), fail.end(), " ")  # not the count's (bot.parse.count_failed)
        named.append((f"{name}: {old}", "replaced_by_later_value"))
    return s, named


def settings_text(s: str, training: bool) -> tuple[str, dict[str, Any], list[tuple[str, str]]]:
    """The text the setting readers read (bot.parse.settings): each setting tried then changed left at its
    later value (:func:`tried_then_changed`), each negated tool masked with the fields its absence sets
    (:func:`bot.parse.negated_tools.negated_tools`); and the items named."""
    s, earlier = tried_then_changed(s)
    s, fields, named = negated_tools(s, training)
    if ("quant" in s or "量化" in s) and ("without" in s or "no" in s or "不" in s or "没" in s):
        s, named = _negated_width(s, named, fields)
    return s, fields, earlier + named


NEGATED_WIDTH_RE = rc(
    r"(?:without|\bno|not\s+(?:using|with)|(?<!要)(?:不用|不要|不做|不开|不)|没有?用?|无需)\s*(?:any\s+|the\s+)?"
    r"(?P<b>[2-8])[\s\-]?(?:bits?|比特|位)\s*(?:的\s*)?(?:量化|quantiz\w*)"
)
"""s37 round 33: a bit width said not to be used ('without 8-bit quantization', 'no 4-bit quantization',
'不用 8bit 量化'): never the precision sized; named as typed (``negated``), the model sized at its own
precision. Before, '8-bit' was read as int8 through the negation. s37-rev: never inside a question
'要不要 4bit 量化？' / '要不 4bit 量化试试' (shall we?): no 不 right after 要."""


def _negated_width(
    s: str, named: list[tuple[str, str]], fields: dict[str, Any]
) -> tuple[str, list[tuple[str, str]]]:
    for m in list(NEGATED_WIDTH_RE.finditer(s)):
        s = mask(s, m.start(), m.end(), " ")
        named = [*named, (f"precision: {m.group('b')}-bit", "negated")]
        fields["excluded_bits"] = int(m.group("b"))  # s37-rev: the local fallback skips it (serving.py)
    return s, named


BARE_STAGE_RE = rc(
    r"(?<![a-z0-9_.\-(（])stage[\s\-_]?(?P<n>[1-3])"
    r"(?![0-9._a-z]|\s*(?:张|个|台|卡|块|机|节点|训练|微调|预训练|[)）]|(?:fine|pre|post)?[\s\-]?(?:tun|train)|sft|of\b))"
    r"|(?<![a-z0-9])stage[\-_]?(?P<f>[1-3])\.(?:json|ya?ml|config|conf)\b"
)
"""Round 23 zh: a bare 'stage3' / 'stage 3' in a message about DeepSpeed or offload ('目前用的是 stage3，
已经把优化器和 param offload 到内存了 … deepspeed.initialize'): the ZeRO stage (DeepSpeed's config key
``zero_optimization.stage``); s38-r34en: a config file named for it ('ds_configs/stage2.config',
'stage3.json'); a training phase ('stage 2 训练', 'LLaVA stage 2 fine-tune',
'第二阶段（stage 2）') or a count ('stage 2 张卡') is none."""


def bare_stage(s: str) -> re.Match[str] | None:
    """The bare stage of a DeepSpeed or offload message (:data:`BARE_STAGE_RE`), looked for only when the
    message has 'stage' and one of those words (C-level checks: no cost on the others)."""
    if "stage" not in s or ("deepspeed" not in s and "offload" not in s and "卸载" not in s):
        return None
    return BARE_STAGE_RE.search(s)
