"""A context length the message says is not needed is not sized (s13 trial N2).

'128k context is not needed', '不需要 128k 上下文', 'no need for 32k', '用不到 128k 上下文', "we don't need
32k sequences": the length is named (``negated``) and the job is sized at the other length stated ('8k 就够',
'4k is fine', a prompt + response) or the default. A length the message then says is enough ('8k 就够',
'8k is enough') is the one sized.
"""

from __future__ import annotations

import re
from operator import attrgetter
from typing import Any

from bot.parse.regex import rc
from bot.parse.roles import Role, seq_value
from bot.parse.target_length import FROM_TO_RE, GATE_RE, other_lengths, target_length

_ROLE_OF = attrgetter("role")

NEGATED_BEFORE_RE = rc(
    r"(?:no\s+need\s+(?:for|of|to\s+(?:support|use|run|have))|(?:don'?t|do\s+not|doesn'?t|does\s+not|won'?t|"
    r"will\s+not|never)\s+(?:really\s+)?(?:need|require|use)|not\s+(?:need|require)|without|不需要|不用|用不到|"
    r"用不上|无需|不必|没必要|没有必要|不需)\s*(?:(?:a|the|full|any|支持|到|开|用|上)\s*){0,2}$"
)
"""Words right before a length that say it is not wanted ('no need for 32k', '不需要 128k')."""
NEGATED_AFTER_RE = rc(
    r"^\s*(?:tokens?\s*)?(?:的\s*)?(?:context(?:\s+(?:length|window))?|ctx|sequences?|seq(?:uence)?\s+len(?:gth)?|"
    r"上下文(?:长度)?|序列(?:长度)?|长度|窗口)?\s*(?:(?:is|are)\s+)?(?:not\s+(?:needed|required|necessary)|"
    r"isn'?t\s+(?:needed|required|necessary)|aren'?t\s+(?:needed|required)|unnecessary|overkill|"
    r"不需要|用不到|用不上|没必要|不必|就不用了|不用了?|不需)"
)
"""Words right after a length that say it is not wanted ('128k context is not needed', '128k 用不到')."""
ENOUGH_AFTER_RE = rc(
    r"^\s*(?:tokens?\s*)?(?:context|上下文)?\s*(?:就够|足够|够了|就行|就可以|即可|is\s+(?:enough|fine|plenty|ok)"
    r"|will\s+do|suffices?|should\s+be\s+(?:enough|fine))"
)
"""Words after a length that make it the one wanted ('8k 就够', '4k is fine')."""


def negated(s: str, tok: Any) -> bool:
    """Whether the words around the number ``tok`` of the normalized text ``s`` say it is not wanted."""
    return bool(NEGATED_BEFORE_RE.search(s[max(0, tok.start - 32) : tok.start])) or bool(
        NEGATED_AFTER_RE.match(s[tok.end : tok.end + 48])
    )


def firsts(steps: Any, *names: str) -> list[Role | None]:
    """``steps.first(name)`` of each of ``names`` (a :class:`bot.parse.field_steps.FieldSteps`), in order,
    with no call for a name no role has: its answer then is None and it changes nothing (s33-sppipe: ~22
    of the ~23 calls a parse named a role the message has none of; one Python frame here for them all)."""
    have = set(map(_ROLE_OF, steps.roles))  # C: ``first`` reads the roles and never changes them
    out: list[Role | None] = []
    for name in names:
        out.append(steps.first(name) if name in have else None)
    return out


def seq_role(steps: Any) -> Role | None:
    """The sequence length the job is sized at: a length negated in its words is set aside (named,
    reason ``negated``); a length then called enough ('8k 就够') takes its place; a range is sized at its
    longer end (s17: the far end was dropped); a length asked about after the one that runs takes its
    place (s17); a served context longer than a quoted engine limit is the limit (the quoted one named); a
    served context beside a request's input and output lengths is the engine's limit, the request the
    sequence (round 16 zh)."""
    found = [r for r in steps.roles if r.role == "seq"]
    gone = [r for r in found if negated(steps.s, r.tok)]
    for role in gone:  # taken out of every later reader (the general one places unused roles' numbers)
        role.role = "seq_negated"
        steps.used.add(id(role))
        steps.named_unused.append((role.tok.raw.strip(), "negated"))
    if len(found) in (1, 2) and not gone and (upper := RANGE_END_RE.match(steps.s, found[0].tok.end)):
        if len(found) == 2 and found[1].tok.start == upper.start(1):  # s42: both ends read ('16k to 128k
            steps.roles.remove(found[1])  # context'): one range, no second length repeated
            found.pop()
        if len(found) == 1:
            _longer_end(steps, found[0], upper)  # '上下文 2k~4k', '1000 到 3000 token 之间': the 4k (s17)
    if gone and len(gone) == len(found):
        enough = [t for t in getattr(steps, "unread_toks", []) if _enough_length(steps.s, t)]
        if len(enough) == 1:
            tok = enough[0]
            steps.unread_toks.remove(tok)
            if tok.raw.strip() in steps.unread:
                steps.unread.remove(tok.raw.strip())
            steps.roles.append(Role("seq", seq_value(tok), tok))
    elif not gone and (getattr(steps, "unread_toks", None) or len(found) > 1) and GATE_RE.search(steps.s):
        _asked_after(steps, found)  # 'cutoff_len 2048 能跑，想拉到 3072': the 3072 (s17)
    if not found and not steps.f.get("seq_len") and any(map(steps.s.__contains__, LENGTH_WORDS)):
        from bot.parse.value_range import length_range  # imported when used: start-up

        length_range(steps)  # s42: 'at long context, from 16k up to 1M tokens': the 1M, the 16k named
    seq, limit = firsts(steps, "seq")[0], steps.f.get("max_model_len")
    if seq is not None and limit and seq.value > limit and steps.f.get("stage") == "inference":
        # s17: '最好达到 200K context' beside a quoted '--max-model-len 64000': the engine's limit is the
        # context asked for; the quoted one is named as another setup
        steps.named_unused.append((f"max_model_len: {limit}", "other_setup"))
        steps.f["max_model_len"] = round(seq.value)
    prompt, reply = firsts(steps, "prompt", "reply")
    served = seq is not None and not limit and prompt and reply and steps.f.get("stage") == "inference"
    if served and seq.value >= prompt.value + reply.value:  # round 16 zh: '输入 1024、输出 1024 … 64K 上下文'
        steps.f["max_model_len"] = round(seq.value)  # the context is the engine's limit; the request's
        return None  # shape is the sequence sized (before, the shape was dropped in silence)
    return seq


def _asked_after(steps: Any, found: list[Role]) -> None:
    """The length asked about after the one that runs (:mod:`bot.parse.target_length`) takes its place;
    the earlier one (a role, a config key's value: 'cutoff_len 2048', or the start of 'from 4k to 32k') is
    named (``replaced_by_later_value``)."""
    summed = "prompt_plus_completion" in steps.notes  # 'max_input_len 2048 … max_output_len 2048': no key's
    keyed = (steps.f.get("seq_len") or steps.f.get("max_model_len")) if not found and not summed else None
    at = steps.s.find(str(keyed)) if keyed else -1  # a key's value is masked in the text: from its start
    last = found[0].tok.end if found else max(0, at + len(str(keyed))) if keyed else 0
    cands = sorted([*steps.unread_toks, *(r.tok for r in found[1:])], key=lambda t: t.start)
    asked = target_length(steps.s, last, cands, from_only=not found and not keyed)
    first = found[0].value if found else keyed
    if asked is None or asked.value == first:
        if first:
            _tried(steps, last, first)
        return
    before = [r for r in found if r.tok is not asked.tok]
    for role in before:
        role.role = "seq_earlier"
        steps.used.add(id(role))
    earlier = [r.tok.raw.strip() for r in before] or ([str(keyed)] if keyed else [])
    if keyed:  # its text ('4K') is named by the value, not left behind as an unread '4'
        steps.computed_from = (*steps.computed_from, keyed)
    gone = [
        t
        for t in steps.unread_toks
        if seq_value(t) == asked.value or (not first and t.end <= asked.tok.start)
    ]
    for tok in [t for t in gone if t.kind != "word" and seq_value(t) >= 256]:  # '2048 就 OOM，2048 要多少'
        steps.unread_toks.remove(tok)
        if tok.raw.strip() in steps.unread:
            steps.unread.remove(tok.raw.strip())
        if seq_value(tok) != asked.value:  # the start of 'from 4k to 32k'
            earlier.append(tok.raw.strip())
    why = "original_context" if _extended(steps.s, asked.tok.start) else "replaced_by_later_value"
    steps.named_unused += [(raw, why) for raw in earlier]
    if all(r.tok is not asked.tok for r in found):
        steps.roles.append(asked)


EXTENDED_RE = re.compile(
    r"(?:extend\w*|extension|扩展|拓展|扩充|扩到|yarn|rope|position\s+interpolation)"
    r"[^.。;；?？]{0,60}(?:context|上下文|窗口|window)"
    r"|(?:context|上下文|窗口|window)[^.。;；?？]{0,60}(?:extend\w*|extension|扩展|拓展|扩充|扩到|yarn|rope)",
    re.IGNORECASE,
)
"""A context extension said ('extend the context', 'context from 32k to 128k with YaRN', '上下文从 32k 扩展到
128k'): an extension verb or method and a context word in one sentence."""


def _extended(s: str, at: int) -> bool:
    """Whether the length at offset ``at`` of ``s`` ends 'from X to Y' (target_length.FROM_TO_RE) of a
    context extension (:data:`EXTENDED_RE`): the X is then the model's original window (``original_context``,
    s46 leftovers #7), not a setting the user changed ('cutoff_len 从 2048 扩到 4096' names no context)."""
    return FROM_TO_RE.search(s[max(0, at - 32) : at]) is not None and EXTENDED_RE.search(s) is not None


LENGTH_WORDS = ("context", "上下文", "length", "长度", "ctx", "窗口", "序列")
"""The words near a range of lengths no reader read (bot.parse.value_range.length_range): its gate (s42)."""
RANGE_END_RE = re.compile(r"\s*(?:-|~|～|—|到|至|to)\s*(\d[\d,]*(?:\.\d+)?)\s*(k(?![a-z]))?", re.IGNORECASE)
"""The far end of a range right after a length ('2k~4k', '1000 到 3000', '4k-8k')."""


def _longer_end(steps: Any, role: Role, m: re.Match[str]) -> None:
    """A range of lengths is sized at its longer end (every sequence must fit: the cutoff or context is the
    longest); the shorter end is named as another setup (s17: the far end was dropped without a word)."""
    upper = float(m.group(1).replace(",", "")) * (1000 if m.group(2) else 1)
    if m.group(2) and upper / 1000 in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024):  # '4k' is 4,096
        upper = upper / 1000 * 1024
    if upper <= role.value or upper > 10_000_000:
        return
    steps.named_unused.append((role.tok.raw.strip(), "other_setup"))
    role.value = upper
    for tok in [t for t in getattr(steps, "unread_toks", []) if m.start(1) <= t.start < m.end()]:
        steps.unread_toks.remove(tok)  # the far end: the value sized, not another number left unread
        if tok.raw.strip() in steps.unread:
            steps.unread.remove(tok.raw.strip())


def _tried(steps: Any, last: int, used: float) -> None:
    """Other lengths tried beside the one sized ('--max-model-len 20k, 35k and 45k start, but 29k fails',
    '4096 with lora and 8192 with qlora'): named as another setup, no longer as unread (s17)."""
    for tok in other_lengths(steps.s, last, steps.unread_toks, used):
        steps.unread_toks.remove(tok)
        if tok.raw.strip() in steps.unread:
            steps.unread.remove(tok.raw.strip())
        steps.named_unused.append((tok.raw.strip(), "other_setup"))


def _enough_length(s: str, tok: Any) -> bool:
    """A length in thousands said to be enough ('8k 就够', '4k is fine')."""
    return tok.mag == "k" and bool(ENOUGH_AFTER_RE.match(s[tok.end : tok.end + 24]))
