"""Several models in one message: size the one asked about, name the others (issue 24, item 4).

"I fine-tune MPT-7B on V100s. How many would I need for MPT-30B?",
"13B 跑起来没问题，但 70B 微调要多大显存？",
"Llama-3.1-8B 和 Llama-3.2-3B 各占多少显存？":
the models are candidates (catalog names, unknown names and sizes said alone); the one in the
sentence that asks (a question mark, or a sentence ending in 吗/呢), after a contrast word
('但', 'but') or in a short last clause ('…，7B 呢？') when it has one, is sized; without such a
sentence the order of :meth:`bot.parse.field_steps.FieldSteps._model_and_params` stands (a catalog
name first). Every other distinct model is named in ``interpretation.ignored`` as
``model: <as typed>`` with the reason ``other_setup`` — never dropped silently (docs/design.md §8).

Also here: a name and its size typed apart are one model (:func:`attach_sizes`), an MoE's active
size glued to its total (:func:`active_after`), and of several cards the one the question asks
about (:func:`asked_card`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import attrgetter

from bot.later_names import other_model_reason
from bot.parse.asked_stem import stem, stem_named
from bot.parse.cue_words import SWITCH
from bot.parse.gpus import GpuMention
from bot.parse.model_paths import policy_candidate
from bot.parse.models import ModelMention
from bot.parse.regex import rc
from bot.parse.roles import Role
from bot.parse.structure import CURRENT, OBSERVED, TRIED, role_at, segments
from estimator import catalog

SENTENCE_RE = rc(r"[^。;；!！?？\n]*?(?:[。;；!！?？\n]|(?<!e\.g)(?<!i\.e)(?<!\betc)(?<!\bvs)\.(?=\s|$)|$)")
"""A sentence (a '.' ends one only before a space or the end: '3.1' does not, nor the dot of 'e.g.', 'i.e.',
'etc.' or 'vs.' inside one: s34)."""
ASKING_RE = rc(r"[?？]|[吗呢]\s*[。.!！]?\s*$")
"""A sentence that asks: a question mark, or a Chinese sentence ending in 吗/呢."""
CONTRAST_RE = rc(r"但是|但|不过|可是|\bbut\b|\bhowever\b")
"""A contrast inside the asking sentence: the part after it is asked about ('13B 没问题，但 70B 呢？')."""
SAME_SIZE = 0.1
"""Two sizes within 10 % are one model ('Qwen2.5-7B … the 7B': 7.61B and 7B)."""
SIZE_ROLES = ("bare", "params")
"""Number roles that say a model's size on their own ('70B', '70B 模型')."""
_COMPACT = re.compile(r"[\s\-_.]+")
"""What a name typed two ways differs by (spaces, hyphens, underscores, dots), never a letter."""


@dataclass(slots=True)
class Candidate:
    """A model the message names: a mention (catalog or unknown) or a size said alone (a role)."""

    start: int
    mention: ModelMention | None = None
    role: Role | None = None
    value: float | None = None
    """a size only (the parameters sized when no candidate was)"""
    starts: list[int] = field(default_factory=list)
    """where the message names it (a name, and a size said again: 'Qwen2.5-72B … the 72B')"""

    @property
    def size(self) -> float | None:
        if self.value is not None:
            return self.value
        if self.role is not None:
            return self.role.value
        mm = self.mention
        if mm is None:
            return None
        if mm.size is None and mm.model_id:
            return catalog.model(mm.model_id).params_total
        return mm.size

    def same(self, other: Candidate) -> bool:
        """Whether two candidates name one model (one catalog id, one typed name, or one size)."""
        a, b = self.mention, other.mention
        if a is not None and b is not None:
            if a.model_id and b.model_id:
                return a.model_id == b.model_id
            if a.model_id or b.model_id:  # s17: '--model_type qwen2_5 … --model Qwen2_5-14B': one model
                named, bare = (a, b) if a.model_id else (b, a)
                # round 15: the family as typed, spaces and hyphens alike ('Gemma 3 27B … Gemma 3's cache')
                head, mid = re.sub(r"[\s_]+", "-", bare.text.lower().strip()), str(named.model_id).lower()
                return bare.size is None and mid.startswith(head) and mid[len(head) : len(head) + 1] == "-"
            # s34-gen2: one name typed twice, spaced and as its path ('OpenLLaMA 3B (open_llama_3b_v2)')
            return a.text.lower() == b.text.lower() or _COMPACT.sub("", a.text.lower()) == _COMPACT.sub(
                "", b.text.lower()
            )
        x, y = self.size, other.size
        if x is None or y is None:
            return False
        if self.role is not None and other.role is not None and a is None and b is None:
            return x == y  # two sizes said alone, typed apart ('14b 或者 72b … 13b'): two models
        if abs(x - y) <= SAME_SIZE * max(x, y):
            return True
        # a size said alone that is a named MoE's active size ('Mixtral 8x7B … 按 13B 算'): that model
        return any(
            abs(r.role.value - c.active) <= SAME_SIZE * c.active
            for c, r in ((self, other), (other, self))
            if r.role is not None and c.role is None and c.active is not None
        )

    def reason(self, s: str) -> str:
        """Why this model, not sized, is named: a size a tool or source is said to reach ('claimed_size':
        :data:`CLAIMED_BOUND_RE`, s37-models), else :func:`bot.parse.withheld.other_model_reason`."""
        if CLAIMED_BOUND_RE.search(s, max(0, self.start - 48), self.start):
            return "claimed_size"
        if "蒸馏" in s or "distil" in s or "teacher" in s:
            from bot.parse.teacher_model import is_teacher

            if is_teacher(s, self):
                return "distill_teacher"  # the teacher generates the data: an inference job (s43 q09_zh)
        return other_model_reason(s, self)

    @property
    def active(self) -> float | None:
        """A named MoE's active size (as typed, else the catalog's)."""
        mm = self.mention
        if mm is None:
            return None
        if mm.active is None and mm.model_id:
            return catalog.model(mm.model_id).params_active
        return mm.active


ATTACHED_GAP_RE = rc(
    r"(?:(?:[\-_][a-z]{1,10})+|\s+(?!and\b|or\b|vs\b|with\b|to\b|on\b|for\b|the\b)[a-z]{1,8}"
    r"|(?P<stage>\s*(?:的\s*)?(?:继续|增量)?(?:预训练|微调|训练|推理|sft)\s*阶段(?:\s*的)?))?"
    r"[\s\-_]*[(（]?\s*(?=\d)"
)
"""Between a name without size and its size: tags typed into the name ('Qwen2.5-VL 3B',
'Qwen3-Coder-Next-Base (80B-A3B)') or one word ('Nemotron 3 Super 120B'), never a joining word
('Qwen2.5 and 7B'). S34-gen2: the stage of the job between ('Foo-LLaMA 预训练阶段 7B、13B': the 7B of that
model; the name is typed without the stage words)."""
ACTIVE_AFTER_RE = rc(r"[\-_\s]*a(\d+(?:\.\d+)?)b(?![a-z0-9])")
"""An active size right after a total ('120B-A12B')."""


def attach_sizes(
    s: str, s0: str, models: list[ModelMention], roles: list[Role], typed: Callable[[str], str]
) -> None:
    """A name typed without a size and followed by a size said alone is one model: 'Qwen2.5-Omni 7B'
    (a tag the family pass does not read), 'Nemotron 3 Super 120B-A12B' (with its active size). The
    mention takes the size and the name as typed (``typed`` of ``s0``'s text, before names were
    masked) with its size; a catalog
    release of another size is not that model (an unknown one, the release suggested)."""
    sizes = {r.tok.start: r for r in roles if r.role in SIZE_ROLES and r.extra != "T"}
    for mm in models:
        if mm.size is not None:
            continue
        gap = ATTACHED_GAP_RE.match(s, mm.end)
        role = sizes.get(gap.end()) if gap else None
        if role is None:
            continue
        if mm.model_id is not None:
            have = catalog.model(mm.model_id).params_total
            if abs(have - role.value) <= SAME_SIZE * max(have, role.value):
                continue  # 'DeepSeek-V3 671B': the release, its size said again
            mm.suggestions, mm.model_id = [mm.model_id], None
        mm.size = role.value
        name = " ".join(s0[mm.start : mm.end if gap.group("stage") else role.tok.start].split()).rstrip(
            " (（"
        )
        mm.text = f"{typed(name)} {role.tok.raw.strip().upper()}"
        mm.end = role.tok.end
        active = ACTIVE_AFTER_RE.match(s, role.tok.end)
        if active:
            mm.active = float(active.group(1)) * 1e9
        elif gap.group("stage"):
            models += _listed_sizes(s, mm, name, sizes, typed)


def _listed_sizes(
    s: str, mm: ModelMention, name: str, sizes: dict[int, Role], typed: Callable[[str], str]
) -> list[ModelMention]:
    """The other sizes listed after the size of a name a stage phrase parts from it ('Foo-LLaMA 预训练阶段
    7B、13B'): each the release of that name and size, named as typed ('Foo-LLaMA 13B'; s34-gen2)."""
    out, end = [], mm.end
    while (joint := LIST_JOINT_RE.match(s, end)) and (role := sizes.get(joint.end())) is not None:
        size = role.tok.raw.strip().upper()
        out.append(
            ModelMention(role.tok.start, role.tok.end, f"{typed(name)} {size}", None, role.value, None)
        )
        end = role.tok.end
    return out


LIST_JOINT_RE = rc(r"\s*(?:、|,|，|/|和|与|及|或|and\b|or\b)\s*(?=\d)")
"""What joins two sizes in a list ('7B、13B', '7B 和 13B', '7B/13B', '7B and 13B')."""


def active_after(s: str, roles: list[Role], params: float) -> float | None:
    """The active size written right after the size sized ('a 100B-A10B MoE' → 1e10), or None."""
    for r in roles:
        if r.role in SIZE_ROLES and r.value == params:
            m = ACTIVE_AFTER_RE.match(s, r.tok.end)
            if m:
                return float(m.group(1)) * 1e9
    return None


def candidates(models: list[ModelMention], roles: list[Role]) -> list[Candidate]:
    """Every distinct model the message names, in order; names come before sizes, so a size equal to
    a named model's is that model."""
    sizes = [r for r in roles if r.role in SIZE_ROLES and r.extra != "T" and 1e8 <= r.value < 1e12]
    every = [Candidate(mm.start, mention=mm) for mm in models]
    every += [Candidate(r.tok.start, role=r) for r in sizes]
    distinct: list[Candidate] = []
    for c in every:
        for same in distinct:  # a loop, not next(genexpr): no generator frame a candidate
            if c.same(same):
                same.starts.append(c.start)
                break
        else:
            c.starts.append(c.start)
            distinct.append(c)
    return sorted(distinct, key=_START)


_START = attrgetter("start")
"""A candidate's start (the sort key in C: no lambda frame a candidate)."""

SWITCH_RE = rc(rf"(?i){SWITCH}")
"""A switch from the setup the user has to the one asked about (:data:`bot.parse.cue_words.SWITCH`)."""
CLAUSE_RE = rc(r"[,，、:：]")
"""Clause breaks inside a sentence ('7B 没问题，14B 能放下吗？': the last clause asks)."""
_ITEM = r"(?:\d+(?:\.\d+)?\s?[bBmM](?![a-zA-Z0-9])|\ue001)"
_SEP = r"\s*(?:[,，/]\s*(?:(?:and|or)\s+)?|\s(?:and|or)\s+|[、和或及与]\s*)"
_LIST_SEP = r"\s*(?:、|,?\s(?:and|or)\s+|[和或及与])\s*"
_MORE = rf"(?:{_SEP}{_ITEM})"
LIST_RE = rc(rf"(?i){_ITEM}(?:{_MORE}{{2,}}|{_MORE}*{_LIST_SEP}{_ITEM}{_MORE}*)")
"""A list of models or sizes ('7B, 13B and 70B', '2b、4b、8b', 'Llama-3-8B 和 Qwen2.5-7B'): three or more
items, or items joined by 、 or a conjunction; the commas inside it break no clause (issue 24, s36). Two
sizes with a bare comma between them are two clauses ('7B，14B 能放下吗？': the last asks)."""
SHORT_CLAUSE = 30
"""Longest last clause read as the question on its own ('what about a 7B?', '7B 呢？'); a longer one
(', while the benchmark puts Llama 3.1 70B at 700 tokens/s on 8xA100?') is part of the sentence."""


ASK_LEAD_RE = rc(r"\s*(?:how\s+(?:much|many|long)\b|what\b|which\b|多少|多大|多久|几)")
"""s37-models: a last clause that opens with a question word asks, however long ('I fine-tune Vicuna-7B and
LLaVA-13B, how much memory for LLaVA-13B?': the LLaVA-13B), unlike a long clause of context (', while the
benchmark puts Llama 3.1 70B at 700 tokens/s on 8xA100?')."""


def asked_spans(s: str) -> list[tuple[int, int]]:
    """Spans of the first sentence of ``s`` that asks, narrowest first: from its last contrast word on
    ('…，但 70B 呢？'), its last clause ('7B 没问题，14B 能放下吗？'), the whole sentence."""
    for m in SENTENCE_RE.finditer(s):
        text = m.group(0)
        if not text.strip() or not ASKING_RE.search(text):
            continue
        contrast = [c.end() for c in CONTRAST_RE.finditer(text)]
        clauses = [c.end() for c in CLAUSE_RE.finditer(text.rstrip())]
        joined = "、" in text or " and " in text or " or " in text or "和" in text  # a list's joining words
        listed = clauses[1:] or (clauses and joined)
        for run in LIST_RE.finditer(text) if listed else ():  # '2b、4b、8b': one list, not three clauses
            clauses = [c for c in clauses if not run.start() < c < run.end()]
        spans = [(m.start() + contrast[-1], m.end())] if contrast else []
        if clauses and (len(text) - clauses[-1] <= SHORT_CLAUSE or ASK_LEAD_RE.match(text, clauses[-1])):
            spans.append((m.start() + clauses[-1], m.end()))
        return [*spans, (m.start(), m.end())]
    return []


def asked_candidate(s: str, found: list[Candidate]) -> Candidate | None:
    """The candidate of the asking part of ``s``, when several distinct models are named and the
    asking part names some but not all of them (a catalog name before an unknown one, then a size);
    else None (the usual order decides). A size asked alone after a catalog model of a family is that
    family's release of the size when the catalog has it (:func:`bot.parse.family_size.family_size`)."""
    if len(found) < 2:
        return None
    from bot.parse.family_size import family_size  # only where two candidates are named

    return family_size(found, _asked_candidate(s, found))


def _asked_candidate(s: str, found: list[Candidate]) -> Candidate | None:
    """:func:`asked_candidate` before a size becomes a family's release."""
    if len(found) < 2:
        return None
    kept = [c for c in found if not DROPPED_RE.search(s, max(0, c.start - DROPPED_NEAR), c.start)]
    if (
        "advertis" in s
        or "claim" in s
        or "support" in s
        or "promis" in s
        or "称" in s
        or "支持" in s
        or "up to" in s
    ):
        kept = [c for c in kept if not CLAIMED_BOUND_RE.search(s, max(0, c.start - 48), c.start)] or kept
    if len(kept) == 1:  # 'Serve Llama-3-70B instead of Qwen2.5-72B': the one not dropped
        return kept[0]
    chosen = next((c for c in kept if INSTEAD_AFTER_RE.match(s, _end(c))), None)  # 'use Llama-3-8B instead'
    if chosen is None and ("蒸馏" in s or "distil" in s or "teacher" in s):  # the student, not the teacher
        from bot.parse.teacher_model import student_candidate

        chosen = student_candidate(s, kept)
    if chosen is None and ("model" in s or "pretrain" in s):  # the policy's path, not a PRM's (s21)
        chosen = policy_candidate(s, kept)
    if chosen is not None:
        return chosen
    for cue in SWITCH_RE.finditer(s):  # 'trained 8B last week; now we need 70B': the one after the switch
        after = [c for c in kept if any(switched_to(s, cue, at) for at in c.starts)]
        if after and len(after) < len(found):
            return min(after, key=_rank)
    mine = _outside_other_setups(s, kept)
    if mine:  # '同事用 … 跑 7B，我手上有 …，想微调 14B': the 7B is the colleague's run
        return (_asked_in(s, mine) if len(mine) > 1 else None) or min(mine, key=_rank)  # s44: of mine, asked
    return _asked_in(s, found)


def _asked_in(s: str, found: list[Candidate]) -> Candidate | None:
    """The candidate of ``found`` the asking part of ``s`` names when it names some but not all (split from
    :func:`_asked_candidate`; s44-workmiss: also among the models said outside another setup's clauses)."""
    stems = [stem(c.mention) for c in found]
    for start, end in asked_spans(s):
        inside = [c for c in found if any(start <= at < end for at in c.starts)]
        inside = inside or [found[i] for i in stem_named(s, start, end, stems)]  # round 7: 'for EXAONE
        if inside and len(inside) < len(found):
            return (_later_asked(s, end, inside) if len(inside) > 1 else None) or min(inside, key=_rank)
        if inside:  # the asking part names them all: a later question may narrow them, else the order
            return _later_asked(s, end, found)
    return None


def _later_asked(s: str, after: int, found: list[Candidate]) -> Candidate | None:
    """s44-workmiss (en39-018): when the first asking sentence names several models ``found`` ('Which GPU
    suits llama-2-7B-chat and llama-2-70B-chat?'), the first sentence after ``after`` that asks and names
    some but not all of them ('… which GPU server is best for the 70B chat in production?') is the job
    asked; None when none does (the usual order decides, as before)."""
    for m in SENTENCE_RE.finditer(s, after):
        text = m.group(0)
        if not text.strip() or not ASKING_RE.search(text):
            continue
        inside = [c for c in found if any(m.start() <= at < m.end() for at in c.starts)]
        if inside and len(inside) < len(found):
            return min(inside, key=_rank)
    return None


def _outside_other_setups(s: str, kept: list[Candidate]) -> list[Candidate]:
    """The models said outside every other setup's and observed clause (:mod:`bot.parse.structure`: a
    colleague's or an earlier run, what runs today) when another is said only inside them; else []."""
    segs = segments(s)
    other = [
        c
        for c in kept
        if all(role_at(segs, at) in (TRIED, OBSERVED, CURRENT) for at in c.starts or [c.start])
    ]
    mine = [c for c in kept if c not in other]
    return mine if other and mine else []


DROPPED_RE = rc(
    r"(?i)(?:\binstead\s+of|\brather\s+than|\bnot|\bin\s+place\s+of)\s+(?:the\s+|a\s+|an\s+|our\s+)?$"
    r"|(?:而不是|不用|不要|不再用|代替|取代|替换掉?)\s*$"
)
"""Words right before a model that drop it ('Llama-3-70B instead of Qwen2.5-72B', 'now, not Qwen2.5-72B',
'用 Llama-3-70B 而不是 Qwen2.5-72B'): that model is the other setup (session 13 review finding 1)."""
DROPPED_NEAR = 16
"""Characters before a model searched for :data:`DROPPED_RE`."""
CLAIMED_BOUND_RE = rc(
    r"(?:\badvertis\w*|\bclaims?|\bclaimed|\bsupports?|\bpromis\w*|\bsays?|\bcan\s+(?:train|serve|run|handle|fit)"
    r"|号称|宣称|声称|支持)[^.,;?!。，；？！]{0,24}?"
    r"(?:\bup\s+to|\bscal\w*\s+(?:up\s+)?to|扩展到|扩展至|到|最多|最大)\s*(?:models?\s+of\s+)?$"
)
"""s37 round 33: a size a tool is said to reach ('the library advertises scaling up to 100B', 'supports
models up to 100B', '号称可以扩展到 100B'): what it claims, not the model the job runs; the other is sized.
s37-models: a tool said to train a size ('DeepSpeed says it can train models of up to 13B', 'X can serve
models up to 70B') likewise."""
INSTEAD_AFTER_RE = rc(r"(?i)\s*,?\s*instead\b(?!\s+of\b)")
"""'instead' right after a model ('use Llama-3-8B instead'): that model is the job."""
SWITCH_GAP_RE = rc(r"[,，。;；!！?？\n:：、]|\.(?:\s|$)")
"""A clause break between a switch word and a model: the switch is not to that model."""
SWITCH_VERB_RE = rc(r"(?i)换|改|升级|switch|mov|upgrad")
"""Switch words that are verbs of change ('改成', '换成', 'switch to'): their object is what changes."""
METHOD_GAP_RE = rc(r"(?i)lora|qlora|全参|全量|freeze|dpo|grpo|ppo|sft|full\s+fine|方法|方式|精度|量化|卡|gpu")
"""A method, precision or card right after a verb of change ('改成 LoRA 的话 Llama-3-8B 也行吗'): the
change is to that, not to a model said later."""
SWITCH_VERB_GAP = 12
"""Most characters between a verb of change and its model ('switch to the 70B', '改用 Qwen2.5-72B')."""
COUNT_AFTER_RE = rc(r"\s*(?:几|多少|多久|多大)")
"""'现在需要几张': a count question, no switch to a model."""


def switched_to(s: str, cue: re.Match[str], at: int) -> bool:
    """Whether the switch word ``cue`` turns to the model named at ``at``: after it in its clause ('now we
    need 70B', 'Now, we need 70B', '现在想上 14B'), never across a clause break ('现在需要几张 H100？跟
    Llama-3-70B 比呢'), nor after a count question; a verb of change only to a model right after it, not to
    one after a method ('改成 LoRA 的话 Llama-3-8B': the method changes). Session 13 review finding 1."""
    if at < cue.end():
        return False
    gap = s[cue.end() : at]
    lead = gap.lstrip(" ,，:：—-")
    if SWITCH_GAP_RE.search(lead) or COUNT_AFTER_RE.match(gap):
        return False
    if SWITCH_VERB_RE.search(cue.group()):
        return len(lead) <= SWITCH_VERB_GAP and not METHOD_GAP_RE.search(lead)
    return True


def _end(c: Candidate) -> int:
    """Where the first mention of ``c`` ends."""
    if c.mention is not None:
        return c.mention.end
    return c.role.tok.end if c.role is not None else c.start


def _rank(c: Candidate) -> tuple[bool, bool, int]:
    mm = c.mention
    return mm is None, mm is not None and mm.model_id is None, c.start


def named_text(c: Candidate, typed: str) -> str:
    """How the reply names a model it did not size: as typed, with a size said in brackets after it."""
    mm = c.mention
    if mm is not None and mm.size and mm.model_id is None and not any(ch.isdigit() for ch in typed):
        return f"{typed} ({mm.size / 1e9:g}B)"
    return typed


MEMORY_SAID_RE = rc(r"(?<![\d.])(\d{2,3})\s*g(?:b|ib)?(?![a-z])")
"""A card's memory said alone ('4 张 40G 能撑多少并发', '24G 够了吧')."""


REPORTED_RE = rc(
    r"文档|官方|论文|教程|readme|\bdocs?\b|documentation|\bpaper\b|\brecipe\b|\bblog\b|model\s+card"
    r"|\bofficial(?:ly)?\b|\bsays\b"
)
"""A sentence that reports what a source says ('文档写 16 GPUs，不会要 16 张 A100 吧？'; round 17: 'was the
official TP8 performance measured on 8xH200?', as 官方; s37-models: 'DeepSpeed says it can train 13B on one
GPU: was that a V100?'): the cards named there are the source's setup, not the asker's."""
COMPARING_RE = rc(r"不如|差距|相比|比起|对比|\bthan\b|\bcompared\s+(?:to|with)\b|\bversus\b|\bvs\.?(?![a-z])")
"""A sentence that compares cards ('虽然 titan 不如 3090', 'slower than a 3090'): a card named there is a
reference (round 3 of the real questions), not the card asked about."""


def asked_card(s: str, gpus: list[GpuMention]) -> GpuMention | None:
    """The card the question is about when several cards are named: the one named (or referred to by
    its stated memory, '4 张 40G') in the first sentence that asks and refers to exactly one of them
    ('…8*A100 80GB but your paper says 4*A6000 48GB. What … make 4x A6000 work?': the A6000), except
    a sentence reporting a source (:data:`REPORTED_RE`). None when the cards are one family or the
    question does not tell them apart."""
    if len({_family(g) for g in gpus}) < 2:
        return None
    for m in SENTENCE_RE.finditer(s):
        text = m.group(0)
        if not text.strip() or not ASKING_RE.search(text) or REPORTED_RE.search(text):
            continue
        if COMPARING_RE.search(text):  # 'titan 不如 3090 … 差距有点大吗？': a card compared with, not asked
            continue
        named = [g for g in gpus if m.start() <= g.start < m.end()]
        said = {float(x.group(1)) for x in MEMORY_SAID_RE.finditer(text)}
        named += [g for g in gpus if g.memory_gib in said and g not in named]
        if len({_family(g) for g in named}) == 1:
            return named[0]
    return _unreported(s, gpus) if REPORTED_RE.search(s) else None


def _unreported(s: str, gpus: list[GpuMention]) -> GpuMention | None:
    """s34: the card said outside every sentence reporting a source, when the others are said only there
    ('Was the official TP8 performance measured on 8xH200? My device is 8xH20': the H20, in either order)."""
    told = [m for m in SENTENCE_RE.finditer(s) if REPORTED_RE.search(m.group(0))]
    rest = [g for g in gpus if not any(m.start() <= g.start < m.end() for m in told)]
    one = told and rest and len(rest) < len(gpus) and len({_family(g) for g in rest}) == 1
    return rest[0] if one else None


def _family(g: GpuMention) -> str:
    """'A100 PCIe' and a later 'A100s' are one card."""
    return catalog.gpu(g.gpu_id).family
