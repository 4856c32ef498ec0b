"""Step 4 of the parse, its GPU part: the card, its count (or a range, or a total memory), counts tried or
failed, machines of n cards, and the memory per card when stated; a mixin of
:class:`bot.parse.field_steps.FieldSteps` (split off it, session 39), whose state it reads and writes."""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from bot.later_names import option_counts
from bot.parse import counts_outcome as co
from bot.parse.asked_count import asked_count
from bot.parse.asked_model import (
    asked_card,
)
from bot.parse.count_failed import GATE_RE as FAILED_ONE_RE
from bot.parse.count_failed import failed_count, unread_repeat
from bot.parse.counted_card import counted_gpu, counts, nearest_is, over_card, own_memory, per_card_memory
from bot.parse.counts_outcome import COUNTS_WORKED
from bot.parse.counts_tried import COUNTS_FAILED, FAILED_RE, one_card, tried_counts, tried_read
from bot.parse.gpus import GpuMention, card_total, one_box, unified, variant_of_memory
from bot.parse.memory_room import room_not_card
from bot.parse.mixed_rig import layer_split_bandwidth, layer_split_memory, machine_rig, rig_choice
from bot.parse.one_card_named import ONE_MORE, memory_card_one, one_more, one_named_card
from bot.parse.roles import Role
from bot.parse.structure import job_card
from bot.parse.unknown_card import ONE_DEVICE_RE
from bot.parse.words import (
    SINGLE_CARD_RE,
)
from estimator import catalog

_MEMORY_OF = attrgetter("memory_gib")


class GpuFieldSteps:
    """Step 4's GPU fields. The state lives in the parse (:class:`bot.parse.assemble._Parse`)."""

    s: str
    s0: str
    raw: str
    f: dict[str, Any]
    notes: list[str]
    roles: list[Role]
    used: set[int]
    _explicit_tokens: bool
    named_unused: list[tuple[str, str]]
    accumulation: int | None
    _unknown_gpu: str | None

    def _gpu_fields(self, gpus: list[GpuMention], dual: bool) -> tuple[float | None, int | None]:
        """GPU, count (or a range, or a total memory), and the memory per card when stated."""
        f = self.f
        mem_role = self.first("gpu_mem")  # read either way: the mention's memory is the same number
        stated_memory, card = (mem_role.value, mem_role.extra or "") if mem_role else (None, "")
        if not gpus and card.startswith("card:") and not self._unknown_gpu:
            self._unknown_gpu = card.removeprefix("card:")  # "4 张 24G 的 A5000": its name and memory
        gpu_memory = next(filter(None, map(_MEMORY_OF, gpus)), None) or stated_memory
        rig: list[GpuMention] | None = None
        if mem_role is not None and gpu_memory != stated_memory:  # 'my GPU with 14.56 GiB … an A100 40G'
            self.named_unused.append((mem_role.tok.raw.strip(), "other_setup"))
        count, total_mem = asked_count(self), self.first("total_mem")
        if gpus:
            ends = [r.tok.end for r in self.roles if r.role == "count"]
            chosen = counted_gpu(gpus, count.tok.end if count is not None else None, ends)
            chosen = job_card(gpus, counted := chosen, self._segments)  # not another setup's card
            asked = asked_card(self.s, gpus)
            if asked is not None:  # two setups: the card asked about
                chosen = asked if asked.gpu_id != chosen.gpu_id else chosen
                self.notes.append("asked_card")  # bot.core.pipeline.ASKED_CARD
            one_each = count is not None and count.value == 1 and len(gpus) > 1  # '一张 5090 加一张 3080'
            rig = machine_rig(self.s, gpus, count is None or one_each) if len(gpus) > 1 else None  # one card
            if rig and count is not None:  # each card's count is not the machine's ('1 A100 plus 3 4090s')
                self.used.update(
                    id(r) for r in self.roles if r.role == "count" and r.tok.end <= rig[-1].start
                )
                count = None
            if rig:  # one machine of different cards: by how its engine splits, the others named
                chosen, n, why = rig_choice(rig, f.get("runtime"), f.get("stage"))
                if any(g.memory_gib for g in rig):  # s19: a memory written with a card is that card's alone
                    gpu_memory = chosen.memory_gib
                gpu_memory = layer_split_memory(rig, f.get("runtime")) or gpu_memory  # s19: their sum
                f["rig_bandwidth_gbps"] = layer_split_bandwidth(rig, f.get("runtime"))  # both cards' (s20)
                typed = {g.gpu_id: g.memory_gib for g in rig if why.get(g.gpu_id) == "mixed_rig_sum"}
                others, rig = set(why), rig[:n]  # s45: a summed card's memory as typed, in the sum (its item)
                self.named_unused += [(_with_memory(g, typed.get(g)), why[g]) for g in sorted(others)]
                gpus[:] = [g for g in gpus if g.gpu_id not in others]  # parts of the rig, not alternatives
            elif len({g.gpu_id for g in gpus}) > 1:  # each option's own count, or the count of the card sized
                chosen, count = option_counts(self, chosen, gpus, count, asked or counted is not chosen)
            gpus.remove(chosen)
            gpus.insert(0, chosen)  # the card sized first; the others are the alternatives named
            f["gpu"] = chosen.gpu_id
            if len({g.gpu_id for g in gpus}) > 1:  # "V100 上要 31G，我只有两张 16G 的 T4": the T4's memory
                gpu_memory = chosen.memory_gib or own_memory(chosen, gpus, mem_role, self.s)  # r24: after it
        summed = total_mem is None and count is None and bool(gpus) and bool(gpu_memory)
        summed = summed and card_total(gpus[0], gpu_memory)
        if summed:  # 'A100 (160GB)': two cards' memory, never one card of 160 GB
            f["total_memory_gib"], gpu_memory = gpu_memory, None
        if total_mem is not None and count is None:
            f["total_memory_gib"] = total_mem.value
        elif total_mem is not None and not gpu_memory and count.value > 0:  # '96 GB in total across 4 cards'
            gpu_memory = round(total_mem.value / count.value, 2)  # round 4: each card's share, never dropped
        if total_mem is not None and count is not None:  # '192GB total over 8 RTX 4090s': named as their sum
            self.named_unused.append((f"{total_mem.value:g} GB", "cards_total"))
        count_max: int | None = None
        if count is not None:
            f["gpu_count"] = count.value + bool(ONE_MORE(self.s) and one_more(self.s, gpus, count.value))
            if (per_card := per_card_memory(gpus, gpu_memory, count.value, self.raw)) is None and gpu_memory:
                self.named_unused.append((f"{gpu_memory:g} GB", "cards_total"))  # round 9: named, not dropped
            gpu_memory = per_card
            count_max = self._count_kinds(count, gpus)
        elif (
            SINGLE_CARD_RE.search(self.s)
            or memory_card_one(self.s)
            or one_named_card(self.s, self.f, getattr(self, "_plural_gpu", False))
        ):  # one card read from how the card is named (bot.parse.one_card_named), or one and another
            f["gpu_count"] = 1 + bool(ONE_MORE(self.s) and one_more(self.s, gpus))
        elif dual:
            f["gpu_count"] = 2
        elif (gpus and unified(gpus[0].gpu_id)) or (mem_role is not None and one_card(mem_role)):
            f["gpu_count"] = 1  # "M2 Ultra 能跑 70B 吗": one Mac is one device; 'OOM on 16 GB': one card
        if summed and count is None:
            f["gpu_count"] = None  # "an H100 640GB": a box of them, counted from the total
        if gpus and count is None and rig:
            f["gpu_count"] = len(rig)
        gpu_memory = room_not_card(self, mem_role, gpu_memory)  # s19: memory free or left is not the card's
        if f.get("gpu"):  # the card's own variant of that memory, whatever the word order
            f["gpu"] = variant_of_memory(f["gpu"], gpu_memory)
        return (over_card(self, gpus, gpu_memory) if (gpu_memory or 0) > 24 else gpu_memory), count_max

    def _count_kinds(self, count: Role, gpus: list[GpuMention]) -> int | None:
        """A range's top (returned), counts tried or failed (noted), machines of 8 or of n (fields)."""
        f = self.f
        if count.extra and count.extra.startswith("range:"):
            self.notes.append("gpu_count_range_min")
            f["gpu_count"], top = sorted((f["gpu_count"], round(float(count.extra.split(":", 1)[1]))))
            return top  # a range is ordered: '4 or 2 A100' from 2 up to 4 (s35-fixa #3)
        cued = count.extra is None and co.WORKED_CUES.search(self.s) and co.FAILED_CUES.search(self.s)
        pair = (
            co.worked_failed_counts(self.s, self.roles, gpus) if cued else None
        )  # before 'all failed' (s49)
        tried = None if pair or count.extra is not None or len(gpus) > 1 else tried_counts(self.s, self.roles)
        if tried:
            f["gpu_count"] = tried[0]  # '7 卡和八卡都试过': from 7, up to 8 (s16)
            self.used.update(id(r) for r in tried[2])
            failed = FAILED_RE.search(self.s) and not tried[3]  # r34: asked ('两张呢'), not tried
            self.notes.append(COUNTS_FAILED if failed else "gpu_count_range_min")
            self.unread = tried_read(self.unread, tried)  # the bare '4' of '4 and then 8': read (s17)
            return tried[1]
        if pair:  # '2 A100 … 4 A100'; s49: '1 张 OOM，2 张也 OOM，4 张可以' — the 4 worked, not all failed
            f["gpu_count"] = pair[0]  # '两张卡 OOM；4 张卡就能正常跑': from 2, up to 4 (s26)
            self.used.update(id(r) for r in pair[2])
            self.notes += ["gpu_count_range_min", COUNTS_WORKED]  # a row per count (bot.parse.value_list)
            return pair[1]
        if count.extra is None and FAILED_ONE_RE.search(self.s) and failed_count(self.s, self.roles):
            self.notes.append(COUNTS_FAILED)  # '8 卡 OOM 了': one count failed, a lower bound (s18)
            self.unread = unread_repeat(self.unread, count)
        elif count.extra == "nodes×8" and (ONE_DEVICE_RE.search(self._unknown_gpu or "") or one_box(gpus)):
            f["gpu_count"] = count.value // 8  # '一台 DGX Spark': one device a machine (s17; s31 catalog)
        elif count.extra == "nodes×8":
            self.notes.append("nodes_assumed_8_gpus")
        elif count.extra and count.extra.startswith("per_node:"):  # '2机4卡': the machines of 4 laid out
            f["gpus_per_node"] = per = int(float(count.extra.split(":", 1)[1]))
            if f.get("gpu_count") and f["gpu_count"] % per == 0:  # '4 nodes of 8': the 4 made the 32 (s42 #9)
                self.computed_from = (*self.computed_from, f["gpu_count"] // per)
        return None

    def _count_of(self, card: GpuMention, gpus: list[GpuMention], count: Role | None) -> Role | None:
        """The count said of ``card`` (of any mention of it) in place of ``count`` when ``count`` counts
        another card; ``count`` when it counts this card or counts none. A count of another card when this
        one has none ('How many H800s …? We have 16 H100'): no count — the card's count is asked — and the
        other card's count named as another setup, never moved onto this card (trial s11 item 11)."""
        same = [g for g in gpus if g.gpu_id == card.gpu_id]
        others = [g for g in gpus if g.gpu_id != card.gpu_id]
        if count is not None and not any(counts(count.tok.end, g) for g in others):
            return count
        own = next((r for r in self.roles if r.role == "count" and nearest_is(r.tok.end, gpus, same)), None)
        if own is None and count is not None:
            other = next(g for g in others if counts(count.tok.end, g))
            self.named_unused.append((f"{count.value:g} × {catalog.gpu(other.gpu_id).name}", "other_setup"))
            return None
        if own is None or own is count:
            return count
        if count is not None:
            self.used.discard(id(count))
        self.used.add(id(own))
        return own


def _with_memory(gpu_id: str, memory_gib: float | None) -> str:
    """A rig's other card as named ('RTX 5080'), with the memory typed beside it when the rig's memory was
    summed ('RTX 5080 16GB', ``mixed_rig_sum``: that memory is part of the sum sized; s45 round 41 zh)."""
    name = gpu_id.replace("-", " ")
    return f"{name} {memory_gib:g}GB" if memory_gib else name
