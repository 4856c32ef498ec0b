"""Liger Kernel named in words ('with the Liger kernel', '开了 liger-kernel', 'without Liger', 'Liger
disabled'): its fused linear cross-entropy is on (or off), the request's ``chunked_loss``
(:mod:`estimator.request_loss`: linkedin/Liger-Kernel src/liger_kernel/ops/fused_linear_cross_entropy.py
computes the logits chunk by chunk, so the whole vocabulary's fp32 logits are never held). Its config keys
in prose ('use_liger_kernel: true', 'enable_liger_kernel=True') are read by :mod:`bot.parse.inline_keys`
through the meaning table (bot.parse.configs.meaning ``chunked_bool``), so a key is left to that reader.

Each mention is read in its clause (review s25 item 2): a negation before or after the name ('not using
the Liger kernel', "I don't use Liger", 'Liger kernel disabled', '不使用 liger', '没有开 liger') sets it
off; a question ('would Liger help?', '要不要开 liger', 'liger 有用吗') or a bare mention with no cue
sets nothing and is named (``liger_asked``); only a positive cue ('with', 'using', 'enabled', '开了',
'开启') sets it on. s48 trialfix #1: a cue governs a list joined by 'and' / '和' / '、' ('with 8-bit Adam
and Liger kernel', '用 8-bit Adam 和 Liger 内核'), so a name after a conjunction takes the cue of the item
before it."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot.parse.normalize import mask
from bot.parse.regex import rc

if TYPE_CHECKING:
    from bot.parse.settings import Settings

LIGER_RE = rc(r"(?<![a-z0-9_\-])liger(?:[\s\-]*(?:kernels?|内核|算子))?(?![a-z0-9_])")
"""'Liger kernel', 'liger-kernel', 'Liger' as a word (not a key such as 'use_liger_kernel')."""

_FILL = (
    r"(?:\s*(?:use|using|used|enable|enabled|turn(?:ed)?\s+on|the|a|any|开启?|启用|使用|用|开|加|上|了|要))"
)
"""Words between a cue and the name: a verb of use, an article, '了', '要' ('不要开', '没有用上')."""
_NEG_BEFORE_RE = re.compile(
    r"(?:(?<![a-z])(?:without|w/o|no|not|never|disabled?|disabling|turn(?:ed|ing)?\s+off"
    r"|switch(?:ed|ing)?\s+off)|n['’]t|不|没有?|未|关闭|关掉|关了|禁用|停用)" + _FILL + r"{0,3}\s*$"
)
_NEG_AFTER_RE = re.compile(
    r"\s*(?:(?:is|was|are)\s+)?(?:disabled|off|turned\s+off|switched\s+off|not\s+(?:used|enabled|on)"
    r"|关闭|关掉|关了|没开|不开|没有开|未开启?|没用|不用)"
)
_ASK_BEFORE_RE = re.compile(
    r"(?:(?<![a-z])(?P<en>would|should|could|can|does|do|will|is|whether)(?:\s+(?:i|we|you|it))?"
    r"|要不要|是否|需不需要|该不该|值不值得|能不能|可不可以|有没有必要)" + _FILL + r"{0,3}\s*$"
)
_ASK_AFTER_RE = re.compile(r"\s*(?:helps?|worth|有用|有帮助|有没有用|能省|可以省|会不会|行不行|管用|怎么样)")
_ON_BEFORE_RE = re.compile(
    r"(?:(?<![a-z])(?:with|using|uses?|used|enabled?|enabling|turn(?:ed|ing)?\s+on|switch(?:ed|ing)?\s+on"
    r"|plus|add(?:ed|ing)?)|\+|开了|开启了?|打开了?|用了|使用了?|启用了?|加上了?|加了|带上?|用上了?|用|开)"
    r"(?:\s*(?:the|a)\b)?\s*$"
)
_ON_AFTER_RE = re.compile(
    r"\s*(?:(?:is\s+|was\s+)?(?:enabled|on|turned\s+on)(?![a-z])|开启了?|打开了?|开着|已开启?)"
)
_CLAUSE_END_RE = re.compile(r"[,.;!?:，。；！？：—\n]")
_CONJ_END_RE = re.compile(
    r"(?:(?<![a-z])(?:and|plus|as\s+well\s+as)|&|和|与|及|以及|跟|还有|、)(?:\s*(?:the|a)\b)?\s*$"
)
"""A conjunction just before the name: the name is the last item of a list the cue before it governs."""


def _cue(before: str, after_q: bool) -> bool | str | None:
    """The cue that ends ``before``: 'ask' (a question: an English one only with ``after_q``, a '?' after
    the name), False (negated), True (a positive cue), or None (no cue)."""
    ask = _ASK_BEFORE_RE.search(before)
    if ask and (not ask.group("en") or after_q):
        return "ask"
    if _NEG_BEFORE_RE.search(before):
        return False
    return True if _ON_BEFORE_RE.search(before) else None


def _listed_cue(before: str, after_q: bool) -> bool | str | None:
    """The cue of a list whose last item is the name ('with 8-bit Adam and Liger'): the cue right before the
    item ahead of the conjunction, the nearest word start first ('用梯度检查点和': each Chinese character);
    None without a list."""
    conj = _CONJ_END_RE.search(before)
    rest = before[: conj.start()] if conj else ""
    if conj is None or not rest.strip():
        return None
    if (masked := re.search(r"\S\s{2,}$", rest)) is not None:
        starts = [masked.start() + 1]
    else:  # one item: up to 3 Latin words, or up to 6 Chinese characters, never across the two scripts
        end = len(rest.rstrip())
        latin = rest[end - 1].isascii()
        item = re.search(r"(?:[^\s\u4e00-\u9fff]+\s*){1,3}$" if latin else r"[\u4e00-\u9fff]{1,6}\s*$", rest)
        low = item.start() if item else end
        starts = [i for i in range(end - 1, low - 1, -1) if not latin or i == 0 or rest[i - 1].isspace()]
    return next((c for i in starts if (c := _cue(rest[:i], after_q)) is not None), None)


def liger_said(s: str, m: re.Match[str]) -> bool | None:
    """What the clause of the mention ``m`` of ``s`` says: False (negated), True (a positive cue, or one
    governing a list the name ends: :func:`_listed_cue`), None (a question, or no cue)."""
    before = _CLAUSE_END_RE.split(s[max(0, m.start() - 40) : m.start()])[-1]
    if _NEG_AFTER_RE.match(s, m.end()):
        return False
    after_q = "?" in s[m.end() : m.end() + 80]
    cue = _cue(before, after_q)
    if cue == "ask" or _ASK_AFTER_RE.match(s, m.end()):
        return None
    if cue is None and _ON_AFTER_RE.match(s, m.end()):
        return True
    cue = _listed_cue(before, after_q) if cue is None else cue
    return None if cue == "ask" else cue


def read_liger(out: Settings, training: bool) -> None:
    """Set ``chunked_loss`` from the first Liger named in words (:func:`liger_said`), masked; a key form
    is left alone. A question or a bare mention sets nothing: named (``liger_asked``). In a serving
    question it is a training kernel: named as not used (training_only) unless negated."""
    m = LIGER_RE.search(out.s)
    if m is None or "chunked_loss" in out.fields:
        return
    said = liger_said(out.s, m)
    if not training:
        out.unused += [] if said is False else [("Liger kernel", "training_only")]
    elif said is None:
        out.unused.append(("Liger kernel", "liger_asked"))
    else:
        out.fields["chunked_loss"] = said
    out.s = mask(out.s, m.start(), m.end(), " ")
