"""Steps 2 and 3 of the parse (split off :class:`bot.parse.assemble._Parse`, session 39): the names
(models, FLOP budgets, GPUs), each masked so its digits are not read as numbers, then the numbers and the
roles they get; a mixin of the parse, whose state these steps read and write."""

from __future__ import annotations

import math
from itertools import repeat
from operator import attrgetter
from typing import Any

from bot.later_names import asked_format, blank_group_sizes, earlier_single, listed_count
from bot.parse import cpu_named as cpu
from bot.parse import lexicon as lx
from bot.parse import (
    module_gates,  # noqa: F401 - the module-level patterns' gates, second message on
    no_gpu,
)
from bot.parse import precision_words as pw
from bot.parse.asked_method import NEED_GATE, need_asked_spans
from bot.parse.bare_nodes import nodes_of_said_size
from bot.parse.budget_period import read_budget_period
from bot.parse.chassis_slots import mixed_memories
from bot.parse.claimed_counts import claimed_counts
from bot.parse.cue_words import GROUP_SIZE_CUES, TURN_WORDS
from bot.parse.daily_users import read_daily_users
from bot.parse.earlier_counts import earlier_counts
from bot.parse.flops_budget import read_flops_budget
from bot.parse.gpus import GpuMention, extract_gpus, extract_unknown_gpu, plural_card
from bot.parse.models import ModelMention, extract_models
from bot.parse.more_roles import asked_magnitude, length_not_data, more_role, retarget, vague_amount
from bot.parse.name_format import named_format
from bot.parse.node_words import per_node_extra
from bot.parse.normalize import mask
from bot.parse.numbers import scan_numbers
from bot.parse.past_run import past_run_days
from bot.parse.request_fields import (
    ABSURD_NUMBER,
    FORMULA_AFTER_RE,
    NON_FINITE_RE,
    ROLE_BOUNDS,
    is_article,
)
from bot.parse.rl_batch import global_meant
from bot.parse.role_dispatch import Role, classify, seq_value  # roles.classify's rules, chosen by key
from bot.parse.sample_at import fewer_tokens_than_samples
from bot.parse.steps import read_steps
from bot.parse.unknown_card import own_card_first, same_card
from bot.parse.vague_amounts import read_rough
from bot.parse.words import (
    PARALLEL_RE,
    UNIT_AFTER_RE,
)
from bot.settings.chat import within

_GPU_ID = attrgetter("gpu_id")
"""A card mention's catalog id (s50: the listed-cards gate counts different cards with no Python frame)."""


class MentionSteps:
    """Steps 2 and 3: names and numbers. The state lives in the parse (:class:`bot.parse.assemble._Parse`)."""

    raw: str
    s: str
    s0: str
    f: dict[str, Any]
    notes: list[str]
    roles: list[Role]
    used: set[int]
    named_unused: list[tuple[str, str]]

    # -- step 2: names, masked so their digits are not read as numbers

    def _names(self) -> tuple[list[ModelMention], str | None]:
        self.s, self.f["compute_budget_flops"], self._flops_raw = read_flops_budget(self.s)  # '1e23 FLOPs': C
        self.s, models = extract_models(self.s, self.raw)
        if models and any(map(self.s.__contains__, GROUP_SIZE_CUES)):  # '…-4bit-128g': a name's (s47)
            self.s = blank_group_sizes(self.s)
        precision: str | None = None
        flag_off = False  # round 24: 'fp16=False' (a mixed-precision flag off): fp32 unless a format is on
        found = list(pw.PRECISION_RE.finditer(self.s))  # s34: of two or more, the one asked about first
        run = found and self.f.get("method")  # a run stated (FSDP + LoRA): a format asked is an option
        asked = need_asked_spans(self.s) if run and any(c in self.s for c in NEED_GATE) else ()
        for m in asked_format(self.s, found) if found[1:] else found:
            p = m.group("p").replace(" ", "").replace("-", "")
            if asked and any(a <= m.start() < b for a, b in asked):  # 'do I need int8?': asked, not the run's
                self.named_unused.append((f"precision: {m['p']}", "asked_alternative"))
                self.s = mask(self.s, m.start(), m.end(), " ")
                continue
            if p.endswith("false"):
                flag_off, self.s = True, mask(self.s, m.start(), m.end(), " ")
                continue
            this = pw.PRECISION_MAP.get(p, pw.BIT_WIDTHS.get(p))
            named = (f"precision: {m['p']}{pw.AS_INT.get(p, '')}", "no_field" if this is None else "repeated")
            if (this is None or (precision and this != precision)) and named not in self.named_unused:
                self.named_unused.append(named)  # "8-bit or 6-bit": one sized, the other named
            precision = precision or this
            if p in pw.NEAREST_FORMAT and precision == pw.PRECISION_MAP[p]:  # "q5_k_s": sized as Q5_K_M
                self.named_unused.append((f"precision: {p}", "nearest_format"))
            self.s = mask(self.s, m.start(), m.end(), " ")
        for m in PARALLEL_RE.finditer(self.s):
            self.s = mask(self.s, m.start(), m.end(), " ")
        for m in filter(global_meant, lx.GLOBAL_BATCH_RE.finditer(self.s)):  # before numbers: no micro-batch
            gb = int(m.group("n").replace(",", "")) * (1000 if m.group("k") else 1)
            if self.f.setdefault("global_batch", gb) != gb:  # r15 zh: a second run's batch: another setup
                self.named_unused.append((m.group(0).strip(), "other_setup"))
            self.s = mask(self.s, m.start(), m.end(), " ")
        precision = precision or named_format(models) or ("fp32" if flag_off else None)  # r15: '…-FP8'
        self.s, self.steps, self.steps_raw = read_steps(self.s)  # "1000 steps": not a bare number
        if self.f.get("precision") and precision and precision != self.f["precision"]:  # round 5: two formats
            self.named_unused.append((f"precision: {precision}", "repeated"))  # 'awq' beside 'torch.bfloat16'
        return models, precision

    def _gpus(self) -> list[GpuMention]:
        self.s = mixed_memories(self.s) if "+" in self.s else self.s  # s38: 'A100 40G×8 + 80G×8'
        before, (self.s, gpus) = self.s, extract_gpus(self.s)
        self._plural_gpu = any(map(plural_card, repeat(before), gpus))
        self.s, self._unknown_gpu, self._gpu_suggestions = extract_unknown_gpu(self.s)
        self.s, self._budget_period = read_budget_period(self.s)  # '预算每月5万': the amount is the budget
        self.s, *self._daily = read_daily_users(
            self.s, self.s0
        )  # '日活1000人': the people, not the load (s22 #4)
        self.named_unused += cpu.cpu_named(self.raw, self) if not gpus and cpu.GATE.search(self.raw) else []
        if not gpus and no_gpu.cue(self.s):  # 'no GPU', '只有 CPU' (s41 fixtrain #1)
            no_gpu.no_gpu(self.raw, self)
        gpus = own_card_first(self, gpus)  # 'We have 8 MLU370 48GB. Our colleague … on 8 A800': the MLU370
        self._cards = gpus  # s47: every card said, by place (bot.parse.keyed_twice.other_card_clause)
        return same_card(gpus, before) if gpus[1:] else gpus  # s34: one card said twice (a C slice, no call)

    # -- step 3: numbers and their roles

    def _numbers(self) -> None:
        """Roles for every number. Absurd magnitudes (1e40 tokens, 10^30 params) are set aside and
        reported, so they neither become a field nor steal a neighbour's role; zero or negative
        quantities ("0 GPUs", "-8张A100") likewise, and so are values outside the shared bounds ("MFU
        1e-20", "in 0.0000001 days") or not finite numbers at all ("NaN B", "∞B", "1e309B")."""
        for m in NON_FINITE_RE.finditer(self.s):
            if m["digits"] and math.isfinite(float(m["digits"])):
                continue  # a large but finite exponent: the absurd-magnitude rule below decides
            self.unusable.append(" ".join(m.group().split()))
            self._drop(m.start(), m.end())
        scanned, before = scan_numbers(self.s), self.s
        for tok in scanned:
            if not (math.isfinite(tok.value) and abs(tok.value) <= ABSURD_NUMBER):
                self.ignored.append(tok.raw.strip())
                self._drop(tok.start, tok.end)
        toks = scanned if self.s is before else scan_numbers(self.s)  # scanned again only after a drop
        consumed: set[int] = set()
        for i, tok in enumerate(toks):
            if tok.start in consumed:
                continue
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            role = read_rough(classify(tok, self.s, nxt), tok, self.s, self.vague_read)  # '几十亿 token'
            if vague := vague_amount(tok, self.s, role):
                self.named_unused.append((self.s[tok.start - 1] + tok.raw.strip(), vague))  # 几十, 数十张
                continue
            if role is None and self._bare_context(tok):
                role = Role("seq", seq_value(tok), tok)
            role = (
                retarget(role, self.s, self.f.get("stage"), self.s0)
                if role
                else more_role(tok, self.s, self.f.get("stage"))
            )
            if role is None:
                said = not is_article(tok) and not asked_magnitude(tok, self.s)
                if said and not FORMULA_AFTER_RE.match(self.s, tok.end):
                    self.unread.append(tok.raw.strip())
                    self.unread_toks.append(tok)
                continue
            if role.role == "count_nodes" and role.extra:
                consumed.add(int(role.extra))
                role.role = "count"
                role.extra = per_node_extra(role.value, tok.value)  # '2机4卡': machines of 4
            elif role.extra and role.extra.startswith("range:") and nxt is not None:
                consumed.add(nxt.start)
            self.roles.append(role)
        unusable, outside, kept = [], [], []  # every quantity here is positive; one loop, no frames (s37)
        for r in self.roles:
            off = r.value > 0 and r.role in ROLE_BOUNDS and not within(ROLE_BOUNDS[r.role], r.value)
            (unusable if r.value <= 0 else outside if off else kept).append(r)
        self.nonpositive = [typed_as(self.raw, r.tok.raw.strip()) for r in unusable] if unusable else []
        self.unusable += [typed_as(self.raw, _said_with_unit(self.s, r)) for r in outside] if outside else []
        self.roles = kept
        said = getattr(self, "s0", self.s)  # the text before masks: its earlier-setup words
        self.roles = nodes_of_said_size(self.s, self.roles, self.unread, self.unread_toks)  # '用4台' (s15)
        self.roles, earlier = earlier_counts(
            said, length_not_data(fewer_tokens_than_samples(self.roles)), self.unread_toks
        )  # "之前…两片卡才跑得下"; s47 B2: '2 A100s before, now 8': the 8 read as the count
        if earlier and self.unread_toks:  # the present count read off the unread lists (by identity)
            read = {id(r.tok) for r in self.roles}
            for tok in [t for t in self.unread_toks if id(t) in read]:
                self.unread_toks.remove(tok)
                self.unread.remove(tok.raw.strip())
        self.roles, claimed = claimed_counts(said, self.roles)  # 'why do you need 2 GPUs? my 4090 …' (s22)
        self.roles, past = past_run_days(said, self.roles)  # 'we ran … for 3 days': that run's (s14)
        if "单" in said and any(
            map(said.__contains__, TURN_WORDS)
        ):  # s50: '单张 … 后来 8 张卡' (C-only gate)
            earlier = [*earlier, *earlier_single(said, self.roles)]
        cards = getattr(self, "_cards", None)
        if cards and cards[1:] and len(set(map(_GPU_ID, cards))) > 1:  # s50: 'A、B 和 C 三块卡': one of each
            self.roles, listed = listed_count(self.s, self.roles, cards)
            earlier = [*earlier, *listed]
        self.named_unused += earlier + claimed + past
        self._own_single = bool(claimed)  # s23: their count named; 'a single Spark' sized

    def _drop(self, start: int, end: int) -> None:
        """Mask an ignored number with its unit word, so "1e40 tokens 7B" keeps 7B a model size."""
        unit = UNIT_AFTER_RE.match(self.s, end)
        self.s = mask(self.s, start, unit.end() if unit else end, " ")


def _said_with_unit(s: str, role: Any) -> str:
    """A role's number as said, with its percent sign when an MFU was written as a percentage ('0.96%'):
    the item then names the fraction the user meant (0.0096), not a bare 0.96 (s45-workmiss, en40-016)."""
    said = role.tok.raw.strip()
    if role.role == "mfu" and s[role.tok.end : role.tok.end + 2].lstrip().startswith("%"):
        return said + "%"
    return said


def typed_as(raw: str, said: str) -> str:
    """``said`` (lower case, from the normalized text) as the message ``raw`` typed it ('-100b' → '-100B',
    s42 trial #15: an echo keeps the user's case); ``said`` itself when the message does not hold it so."""
    import re

    m = re.search(re.escape(said), raw, re.IGNORECASE)
    return m.group(0) if m else said
