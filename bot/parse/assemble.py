"""Text → typed SizingRequest (Chinese and English): the steps in order, and the assembly.

The parse runs in fixed steps on one normalized string (docs/design.md §4):

1. normalize (:mod:`bot.parse.normalize`);
2. names: models (:mod:`bot.parse.models`), precisions and parallelism settings (``TP=8``), GPUs
   (:mod:`bot.parse.gpus`), each masked so its digits are not numbers ("8卡H20" keeps the GPU's place);
3. numbers (:mod:`bot.parse.numbers`), each given a role (:mod:`bot.parse.roles`). Bare sizes
   ("70B", "2T") fill params first, then tokens. "模型有130亿token，数据是2万亿参数" (words on both
   sides disagree) is a unit swap: the smaller number is the model;
4. stage, method, algorithm from keywords (:mod:`bot.parse.words`); everything assembled into a
   SizingRequest field by field, dropping values a field would reject (non-positive, NaN,
   absurd). Never raises.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from operator import attrgetter, itemgetter
from typing import Any

from bot.later_names import asks_usable, keyed, other_setups, rope_read, spec_config_read
from bot.parse import lexicon as lx
from bot.parse import message_flags as mf
from bot.parse import module_gates  # noqa: F401 - the module-level patterns' gates, second message on
from bot.parse.atlas_servers import atlas_read
from bot.parse.bare_size import named_unknown, whole_name
from bot.parse.chassis_slots import slots_cue, slots_read
from bot.parse.count_forms import set_aside_counts
from bot.parse.cue_index import forget as forget_cues
from bot.parse.cue_words import EXTEND_CUES, VERSION_CUES
from bot.parse.cues import cues
from bot.parse.data_parallel import apply_data_parallel
from bot.parse.dp_attention import DP_ATTENTION_RE, dp_attention_said
from bot.parse.engine_world import engine_world
from bot.parse.field_steps import FieldSteps, vllm_default_length
from bot.parse.generic_values import ACCUMULATION, place_unread
from bot.parse.gpus import GpuMention
from bot.parse.hardware_specs import peak_rates
from bot.parse.inline_flags import sharded_tp
from bot.parse.instances import typed_only
from bot.parse.lang import detect_lang
from bot.parse.left_behind import left_behind, other_memories, spans
from bot.parse.mention_steps import MentionSteps
from bot.parse.models import ModelMention
from bot.parse.node_shape import bare_per_node, kept_per_node
from bot.parse.node_words import ji_ka_read
from bot.parse.normalize import prepare
from bot.parse.numbers import size_as_typed
from bot.parse.one_card_named import unknown_card_fields
from bot.parse.output_forms import rate_times_output
from bot.parse.parse_error import failed_parse
from bot.parse.prose_forms import cap_and_load
from bot.parse.quantized_lora import lora_on_four_bits
from bot.parse.regex import add_gates
from bot.parse.request_fields import (
    alternative_memory,
    alternatives,
    as_typed,
    beyond_bounds,
    build_request,
    recipe_tools,
)
from bot.parse.result import ParseResult
from bot.parse.rl_batch import rl_batch_is_global
from bot.parse.role_dispatch import Role  # roles.classify's rules, chosen by key
from bot.parse.stage_steps import StageSteps
from bot.parse.steps import apply_steps, asks_steps
from bot.parse.tool_method import ADAPTER_DEFAULT_TOOLS, tool_default_method
from bot.parse.vague_amounts import english_read
from bot.parse.words import (
    ASKS_CONCURRENCY_RE,
    ASKS_COUNT_RE,
    ASKS_GPU_DAYS_RE,
    ASKS_LARGEST_RE,
    ASKS_SPEED_RE,
    ASKS_TTFT_RE,
    DUAL_CARD_RE,
    MEASURE_CUES,
    OFFLOAD_RE,
    OPTIMIZER_CPU_RE,
    TARGET_CUES,
)
from bot.parse.worked_sums import shares_not_used
from bot.parse.written_names import unequal_products
from estimator import catalog
from estimator.models import SizingRequest
from estimator.request import MAX_PARAMS

ECHO_CUES = ("小时", "hour", "hrs", "并发", "concurren", " at ", " on ")
"""Literals one of which the message holds for any rule of :mod:`bot.parse.echoed_values` to read anything
(its gate: that module is imported only past it, start-up s45-speed)."""

__all__ = ["parse", "recipe_tools"]


_PARSES = 0
"""Messages parsed by this process (the regex gates are added from the second on)."""


def parse(text: str) -> ParseResult:
    """Parse one message. Never raises: on any internal error the result is simply empty."""
    raw = text if isinstance(text, str) else ""
    global _PARSES
    _PARSES += 1
    try:
        if _PARSES > 1:  # not for the first message: `sizing-bot ask` answers one (start-up)
            add_gates()
        forget_cues()  # the cue tables' memo is of one message only (bot.parse.cue_index)
        one = _Parse(raw)
        out = one.run()  # s41: a list of node counts, in GPUs (_Parse._node_list), kept on the result
        nodes = getattr(one, "_node_counts", None)
        return out.model_copy(update={"node_counts": nodes}) if nodes else out
    except Exception:  # logged, and the reply names the message as not read (bot.parse.parse_error)
        return failed_parse(raw)


def _nodes_read(s0: str, gpu_count: int | None, normalized: str, raw: str, card: bool) -> list[str]:
    """What set the GPU count from machines or a chassis' slots ('2 机 16 卡', 'a DGX H100') or Atlas servers
    (read in ``normalized``, before bot.parse.atlas_servers rewrote them), each reader behind its own cue."""
    nodes = ji_ka_read(s0, gpu_count) if "机" in s0 else []
    nodes += atlas_read(normalized, raw) if "atlas" in normalized else []  # s32: as typed, from raw
    return [*nodes, *slots_read(s0, gpu_count, card)] if slots_cue(s0) else nodes


def _rough_used(rough: list[tuple[str, float]], request: SizingRequest) -> list[tuple[str, float]]:
    """The rough amounts read ('a few thousand tokens': 5,000) the request uses anywhere: each one said."""
    if not rough:
        return []
    used = {
        v for v in request.model_dump().values() if isinstance(v, int | float) and not isinstance(v, bool)
    }
    return [r for r in rough if r[1] in used]


_TOK_OF = attrgetter("tok")
_ROLE = attrgetter("role")
_WHY = itemgetter(1)  # a (text, why) pair's why: tested in C (s37)


@dataclass
class _Parse(MentionSteps, FieldSteps, StageSteps):
    """One parse in progress: the text as it is masked step by step, and what each step found."""

    raw: str
    s: str = ""
    f: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    roles: list[Role] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    nonpositive: list[str] = field(default_factory=list)
    unusable: list[str] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)
    unread_toks: list[Any] = field(default_factory=list)
    used: set[int] = field(default_factory=set)
    dropped_roles: list[Role] = field(default_factory=list)  # used, then their field dropped: unread
    named_unused: list[tuple[str, str]] = field(default_factory=list)
    vague_read: list[tuple[str, float]] = field(default_factory=list)
    accumulation: int | None = None
    tool_cue: str | None = None
    data_parallel: int | None = None
    steps: int | None = None
    steps_raw: str | None = None
    computed_from: tuple[int, ...] = ()  # values a field was computed from (llama.cpp -c: seq × slots)

    def unused(self) -> list[tuple[str, str]]:
        """Numbers not used, as typed, with why: 'unread' (no word said what), 'repeated' (a second value)."""
        aside = set_aside_counts(getattr(self, "s0", ""))  # '2 卡给 vllm'; a machine's 8 beside 2 visible
        unread = {raw: self.unread_reason(raw, aside.get(raw, "unread")) for raw in self.unread}
        if unread and "speculative-config" in self.s0:  # s44 fixspec2 (B6): its JSON's values are named
            unread = spec_config_read(unread, self.named_unused)
        out = [*self.named_unused, *unread.items()]
        s0 = self.s0  # a role's number with its words ("7b, 2张"): the same words again are no second value
        used_roles = {
            r.role: s0[max(r.tok.start - 8, 0) : r.tok.end + 1] for r in self.roles if id(r) in self.used
        }
        values = {r.role: r.value for r in self.roles if id(r) in self.used}
        for r in self.roles:
            if id(r) not in self.used:
                raw = r.tok.raw.strip()
                if used_roles.get(r.role) == s0[max(r.tok.start - 8, 0) : r.tok.end + 1]:
                    continue  # '…，2张4090，' pasted 500 times (trial2 #13): the value used, said again
                if r.role == "count" and values.get("count") == r.value:
                    continue  # '16张H100（2机8卡）': 2 × 8 is the 16 used, no second value (s26 trial 2 #17)
                why = self.why_unused(r, used_roles, aside.get(raw, "unread"))
                pct = "%" if why == "other_setup" and s0[r.tok.end : r.tok.end + 1] == "%" else ""
                out.append((raw + pct, why))  # s47: another setup's '34%' keeps its sign
        if ("=" in self.raw or "--" in self.raw) and "'repeated'" in str(out):  # s47: 'N=1 or N=2'
            out = other_setups(self.raw, out)
        return list(dict.fromkeys(out))  # the same item said 94 times is named once

    def repeated_used(self) -> dict[str, str]:
        """For each 'repeated' number, its field's value used, as typed (the reply says which was used)."""
        used = {r.role: r.tok.raw.strip() for r in self.roles if id(r) in self.used}
        return {
            r.tok.raw.strip(): used[r.role] for r in self.roles if id(r) not in self.used and r.role in used
        }

    def run(self) -> ParseResult:
        self.s, truncated, normalized = prepare(self.raw)  # then the yes/no readers s0 has cues of, and
        s0 = self.s0 = self.s  # '双4090' before GPU names are masked (bot.parse.message_flags)
        dual = mf.DUAL in (flags := mf.FLAGS.candidates(s0)) and DUAL_CARD_RE.search(s0) is not None
        preference, stage = self._stage_and_settings(s0)
        models, precision = self._names()
        precision = self.f.get("precision") or precision
        gpus = self._gpus()
        self._numbers()
        model_mention, unknown = self._model_and_params(models)
        data_bytes = self._data_and_context(stage)
        gpu_memory, count_max = self._gpu_fields(gpus, dual)
        self._rate_and_replicas()
        self._money_and_serving(stage)
        self.named_unused += cap_and_load(self.f) + peak_rates(normalized) + shares_not_used(self.raw)
        self._global_batch()
        self.named_unused += rl_batch_is_global(self.f, self.s0, bool(self.accumulation))  # verl's (s21)
        apply_steps(self.f, self.steps, self.steps_raw, self.named_unused)
        if isinstance(c := self.f.get("gpu_count"), float) and not c.is_integer():  # '3.5 A100s'
            self._whole_count()
        if (params := self.f.get("params_total")) and params > MAX_PARAMS:  # beyond any real model: not sized
            self._absurd_size(params)
        self.f["method"] = lora_on_four_bits(self.f, precision, self.s0)  # LoRA on a 4-bit base
        if self.f.get("training_tool") in ADAPTER_DEFAULT_TOOLS:  # its gate here: no frame without one
            self.f["method"] = tool_default_method(self.f, self.s0)  # Unsloth's own default (s28 H3)
        self.f["precision"] = precision or ("int4" if self.f.get("method") == "qlora" else None)
        self._count_fields(count_max, gpu_memory)
        cpu_opt = ("优化器" in self.s or "optimizer" in self.s) and OPTIMIZER_CPU_RE  # s47 r43: on CPU
        said = OFFLOAD_RE.search(self.s) or (cpu_opt and cpu_opt.search(self.s))
        if said and self.f.get("offload") is None:
            self.f["offload"] = True
        if unknown_gpu := as_typed(self.raw, self._unknown_gpu) if not gpus and self._unknown_gpu else None:
            unknown_card_fields(self.f, self.raw, unknown_gpu, self.s)  # named as typed; one card (r43 en)
        self._other_device(gpus)
        self._time_and_asks(gpus)
        self._generic(model_mention)  # then each field beyond its bound: named, not dropped; vLLM's length
        request, found = build_request(self.f)
        unknown_model = named_unknown(unknown, self) if model_mention is None else None  # '7B': a size
        unused = self._left_behind(request, [unknown_model, model_mention], unknown_gpu)
        return ParseResult(
            request=request,
            lang=detect_lang(self.raw),
            found=found,
            gpu_alternatives=alternatives(gpus),
            gpu_alternative_memory=alternative_memory(gpus),
            gpu_alternative_counts=getattr(self, "_option_counts", {}),  # each option's own count
            gpu_alternative_prices=getattr(self, "_option_prices", {}),  # each option's own price
            unknown_gpu=unknown_gpu,
            gpu_suggestions=self._gpu_suggestions if not gpus else [],
            unknown_model=whole_name(self.raw, unknown_model.text) if unknown_model else None,
            model_typed=as_typed(self.raw, model_mention.text) if model_mention else None,
            model_substitution=model_mention.substitution if model_mention else None,
            model_suggestions=unknown_model.suggestions if unknown_model else [],
            model_family_only=bool(unknown_model and unknown_model.family_only),
            truncated=truncated,
            out_of_scope=mf.OUT_OF_SCOPE in flags and lx.OUT_OF_SCOPE_RE.search(s0) is not None,
            preference=preference,
            asks_cost=bool(self.f.get("cost_asked")),  # read in stage_steps (s35)
            asks_concurrency=bool(request.concurrency_asked),
            asks_largest=mf.LARGEST in flags and ASKS_LARGEST_RE.search(s0) is not None,
            asks_ttft=mf.TTFT in flags and ASKS_TTFT_RE.search(s0) is not None,
            asks_speed=mf.SPEED in flags and ASKS_SPEED_RE.search(s0) is not None,
            asks_usable=("显存" in s0 or "memory" in s0) and asks_usable(s0),  # s32 #2
            asks_steps=("tep" in s0 or "步" in s0) and asks_steps(s0),  # steps a day (s32 fixi #1)
            asks_gpu_days=mf.GPU_DAYS in flags and ASKS_GPU_DAYS_RE.search(s0) is not None,
            gpu_memory_gib=gpu_memory,
            gpu_count_max=count_max,
            data_bytes=data_bytes,
            recipe_tools=recipe_tools(s0) if mf.RECIPE_ALONE in flags or mf.RECIPE_WORD in flags else None,
            notes=self.notes,
            ignored_numbers=self.ignored,
            nonpositive_numbers=self.nonpositive,
            unusable_numbers=self.unusable,
            unused_numbers=unused,
            repeated_used=self.repeated_used(),
            tool_cue=self.tool_cue,
            nodes_read=_nodes_read(s0, request.gpu_count, normalized, self.raw, request.gpu is not None),
            vague_read=_rough_used([*self.vague_read, *english_read(self.raw)], request),
            **cues(self.raw, normalized),
        )

    def _absurd_size(self, params: float) -> None:
        """A size beyond any real model (:data:`estimator.request.MAX_PARAMS`) is named as typed, '500
        quadrillion' (s17), and nothing is sized: bot.core.pipeline.ABSURD_MODEL."""
        self.ignored.append(size_as_typed(self.roles, params))
        self.f["params_total"] = self.f["params_active"] = None
        self.notes.append("absurd_model")

    def _count_fields(self, count_max: int | None, gpu_memory: float | None) -> None:
        """The count range's upper end and the card memory as stated ("A100 40G"); a range read from a
        written list's last two items ('1, 2 or 4 A100') starts at its first (s39 fixl2 #3); a list of node
        counts is a range from the first's GPUs to the last's (s41, :meth:`_node_list`)."""
        self.f["gpu_count_max"], self.f["gpu_memory_gib"] = count_max, gpu_memory
        if count_max and (low := self.f.get("gpu_count")) and low > 1 and _item_after(self.s, int(low)):
            self.f["gpu_count"] = _list_start(self.s, int(low), count_max)
        last = self.f.get("gpu_count_max") or self.f.get("gpu_count")
        if last and last > 2 and any(map(self.raw.lower().__contains__, NODE_WORDS)):  # no frame without one
            self._node_list(int(last))  # s41: '2, 4 or 8 nodes of 8 H100'

    def _node_list(self, last: int) -> None:
        """A list of node counts read as its last item's GPUs ('2, 4 or 8 nodes of 8 H100' → 64, s41): the
        count range runs from the first item's GPUs to the last's, each a row (bot.core.per_value), and the
        other items are no longer unread (bot.parse.value_list.node_list). Else a range of GPU counts whose
        top is the nodes' GPUs ('from 32 to 1,024 GPUs') is that range (value_list.gpu_range_low)."""
        from bot.parse.value_list import gpu_range_low, node_list

        # as written: the preprocessing turns 'N nodes (8x H100 each)' into N × 8 cards
        found = node_list(raw := self.raw.lower(), last)
        if found is None or len(found[1]) < 2:
            low = None if self.f.get("gpu_count_max") else gpu_range_low(raw, last)
            if low:  # '256 nodes of 4 …, scaling from 32 to 1,024 GPUs'
                self.f["gpu_count"], self.f["gpu_count_max"] = low, last
                self._node_items = {str(low)}
            return
        per, items = found
        self.f["gpu_count"], self.f["gpu_count_max"] = items[0] * per, items[-1] * per
        self._node_items = {str(n) for n in items}
        self._node_counts = tuple(n * per for n in items)
        self.f["gpus_per_node"] = self.f.get("gpus_per_node") or per  # as stated: '(8x H100 each)'

    def _whole_count(self) -> None:
        """A count like "3.5 A100s": cards come whole, rounded up and said (``fractional_count``)."""
        count = self.f.get("gpu_count")
        if isinstance(count, float) and math.isfinite(count) and 0 < count < 1e7 and not count.is_integer():
            self.f["gpu_count"] = math.ceil(count)
            self.named_unused.append((f"{count:g}", "fractional_count"))

    def _other_device(self, gpus: list[GpuMention]) -> None:
        """'my macbook / rtx 3090': a device outside the catalog beside a catalog card is named as not
        sized (``unknown_other_device``), never dropped (s23; design §8)."""
        if not (gpus and self._unknown_gpu) or _mac_of_chip(self._unknown_gpu, gpus[0].gpu_id):
            return
        from bot.parse.rig_unknown import unknown_rig_memory

        reason, own = "unknown_other_device", unknown_rig_memory(self.s, gpus) if "\ue002" in self.s else None
        if own is not None:  # s24: a part of the same machine (bot.parse.rig_unknown), its memory its own
            if self.f.get("gpu_memory_gib") == own and not gpus[0].memory_gib:
                self.f["gpu_memory_gib"] = None  # 'a 4090 + a 2080 Super (8GB)': the 8 GB is the 2080's
            sized = self.f.get("gpu_memory_gib") or catalog.gpu(gpus[0].gpu_id).memory_gib
            reason = "mixed_rig_largest" if own < sized else reason
        name = as_typed(self.raw, self._unknown_gpu)
        from bot.parse.rig_unknown import memory_after_unknown

        mem = (
            memory_after_unknown(self.s) if reason == "unknown_other_device" and "\ue002" in self.s else None
        )
        if mem is not None:  # 'Jetson Orin 64GB' beside another setup: its memory was written (s29 #2)
            name, reason = f"{name} {mem}GB", "unknown_other_device_memory"
            self.named_unused[:] = [n for n in self.named_unused if n != (mem, "other_setup")]
        self.named_unused.append((f"{name} ({own:g} GB)" if reason == "mixed_rig_largest" else name, reason))

    def _left_behind(
        self, request: SizingRequest, models: list[ModelMention | None], gpu: str | None
    ) -> list[tuple[str, str]]:
        """The unused numbers (:meth:`unused`), and those a reader masked and dropped, named as unread
        (issue 24, session 10: :mod:`bot.parse.left_behind`); the names as typed are no such number."""
        self.named_unused += unequal_products(self.s0, self.raw) if " unequal)" in self.s0 else []  # '(4x8)'
        unused = self.unused()
        named = [*unused, *self.named_unused]
        names = [m.text for m in models if m is not None] + [gpu or "", getattr(self, "_flops_raw", "")]
        extra, at = [*self.ignored, *self.nonpositive, *self.unusable, *names], spans(self.roles, self.used)
        mem = getattr(catalog.gpus().get(request.gpu or ""), "memory_gib", 0)  # the sized card's, catalog
        computed = (self.accumulation, self.data_parallel, self.steps, mem, *self.keyed, *self.computed_from)
        lost = left_behind(self.s0, self.s, vars(request), named, extra, computed, at)  # at: places read
        out, mem = unused + [(raw, "unread") for raw in lost], request.gpu_memory_gib  # r32: other options'
        if nodes := getattr(self, "_node_items", None):  # s41: a list of node counts, each a row
            out = [u for u in out if not (u[1] in ("unread", "repeated") and u[0].strip() in nodes)]
        if "inferentia" in self.s0 or "trainium" in self.s0 or "neuroncore" in self.s0:  # s42: AWS Neuron
            out = typed_only(out, self.raw)  # no number the parser wrote for the chips (bot.parse.instances)
            self.named_unused[:] = typed_only(self.named_unused, self.raw)
        if "'unread'" in str(out):  # s43-workmiss: another run's value said as the one used was
            for cue in ECHO_CUES:  # a loop of C tests: no search, no frame (the gate)
                if cue in self.s0:
                    from bot.parse.echoed_values import echoed  # imported when used (start-up)

                    out = echoed(self.s0, out, vars(request))
                    break
        if "'unread'" in str(out):  # s44-workmiss: another run's value after its setting's key
            out = keyed(self.s0, out, vars(request))
        if request.concurrency and ("concurren" in self.s0 or "并发" in self.s0):  # s46: a sweep of loads
            for cue in MEASURE_CUES:  # a rate or throughput: measured (a loop of C tests, no frame)
                if cue in self.s0:
                    from bot.parse.measured_loads import measured  # imported when used (start-up)

                    out = measured(self.s0, out, request.concurrency)
                    break
        named = str(out)  # s46: 'down to 48GB'; review N2: a target read as another setup's too
        if ("'unread'" in named or "'other_setup'" in named) and ("gb" in self.s0 or "显存" in self.s0):
            for cue in TARGET_CUES:  # a loop of C tests: no search, no frame (the gate)
                if cue in self.s0:
                    from bot.parse.memory_target import memory_targets  # imported when used (start-up)

                    out = memory_targets(self.s0, out)
                    break
        if "'unread'" in str(out) and any(
            map(self.s0.__contains__, VERSION_CUES)
        ):  # s48b: 'FlashAttention-2'
            from bot.parse.software_versions import versions_named  # imported when used (start-up)

            out = versions_named(self.s0, out)
        return other_memories(self.s0, mem, out) if mem and "'unread'" in str(out) else out  # memories named

    def _generic(self, mention: ModelMention | None = None) -> None:
        """Numbers unread or unused that a field's name places in unset fields (s10, :mod:`.generic_values`)
        or names (s34-gen), each off the unread list; then fields beyond their bounds are named; then vLLM
        named in words with no length starts at the model's own (:func:`vllm_default_length`, s45)."""
        s0 = getattr(self, "s0", self.s)
        extend = ("stretch" in s0 or "extend" in s0) and ("context" in s0 or "window" in s0 or "ctx" in s0)
        extend = extend or (any(map(self.raw.__contains__, EXTEND_CUES)) and ("上下文" in s0 or "窗口" in s0))
        if "yarn" in s0 or "rope" in s0 or extend:  # s47: a RoPE scaling factor; s48: a window extended
            rope_read(self, mention.model_id if mention else None)
        dropped = set(map(id, self.dropped_roles))  # by identity: a used '8' said twice stays used
        roles = [r for r in self.roles if id(r) not in self.used or id(r) in dropped]
        toks = self.generic_tokens([*self.unread_toks, *map(_TOK_OF, roles)])  # the job's clauses
        accumulation = self.accumulation
        for p in place_unread(self.s, toks, self.f, accumulation, self.named_unused):
            raw = p.tok.raw.strip()
            if p.reason is not None and any(r.tok is p.tok for r in roles):
                continue  # a number with a role keeps its reader's reason
            if p.reason is not None:  # an unread number's key of the other job, or its field's second value
                self.named_unused.append((f"{p.field}: {raw}", p.reason))
            elif p.field == ACCUMULATION:
                self.accumulation = self.accumulation or int(p.value)
            elif self.f.get(p.field) is None:
                self.f[p.field] = int(p.value) if float(p.value).is_integer() else p.value
            if raw in self.unread:  # one occurrence: the same number said again elsewhere stays
                self.unread.remove(raw)
            self.named_unused = [u for u in self.named_unused if u != (raw, "unread")]
            self.used.update(id(r) for r in roles if r.tok is p.tok)
        if self.accumulation != accumulation:
            self._global_batch()
        self.named_unused += beyond_bounds(self.f)
        if self.f.get("runtime") == "vLLM":  # its gate: no frame without vLLM named
            ran = "observed" in dict(self.named_unused).values()  # a figure of a run: it started
            self.f["max_model_len_default"] = vllm_default_length(self.f, mention, ran)

    # -- step 1b: stage, method, algorithm and the stated settings

    def _rate_and_replicas(self) -> None:
        """Round 3: a request rate with the output tokens per request ('10 qps, 512 output tokens') is
        the output tokens/s to serve; a data-parallel size in prose ('--dp 2') is DP × TP × PP GPUs; TGI's
        'SHARDED=true' on N cards is TP N."""
        if self.f.get("gpu_count") is None and getattr(self, "_own_single", False):
            self.f["gpu_count"] = 1
        f = self.f  # s31: a serving prompt said beside a context ('32k context, prompts of 2000'): used too
        if (
            f.get("stage") == "inference"
            and f.get("prompt_tokens") is None
            and "prompt" in map(_ROLE, self.roles)
        ):
            f["prompt_tokens"] = self.first("prompt").value  # type: ignore[union-attr]
        self.f["gpus_per_node"] = per = kept_per_node(self.f, self.roles, self.s, self.s0)  # s23, r18, r25
        if per and str(per) in self.unread and bare_per_node(self.s) == per:  # s48: 'Gaudi2 (8 per node)'
            self.unread.remove(str(per))  # its 8 read; one occurrence (bot.parse.node_shape.bare_per_node)
        if "qps_needs_output" in map(_WHY, self.named_unused):
            reply = self.first("reply")
            rate_times_output(self.named_unused, reply.value if reply else None, self.f)
        if self.data_parallel:
            if self.f.get("dp_attention") is None and DP_ATTENTION_RE.search(self.s):  # SGLang's DP inside
                self.f["dp_attention"] = dp_attention_said(self.s)  # the TP group, no replicas (s40 fixs #1)
            counted = "count" in [r.role for r in self.roles]
            other = apply_data_parallel(self.f, self.data_parallel, counted)
            self.named_unused += [other] if other else []
        self.f["tp"] = sharded_tp(self.f, self.s0)  # s15: TGI 'SHARDED=true' on N cards: TP over all N
        asked = ASKS_COUNT_RE.search(self.s) or ASKS_CONCURRENCY_RE.search(self.s)  # one copy's TP; capacity
        counted = "count" in map(_ROLE, self.roles) or asked is not None
        world = engine_world(self.f, counted)  # s23: '--tp 8', no count (asked: the TP is one copy's)
        self.f["gpu_count"] = world or self.f.get("gpu_count")


NODE_WORDS = ("node", "machine", "server", "instance", "host", "节点", "台", "机")
"""The words of a node count (bot.parse.value_list.NODE_AFTER_RE): the gate of the node-list reader."""


def _mac_of_chip(unknown: str, gpu_id: str) -> bool:
    """'a mac studio m2 max 64GB': the Mac beside its Apple chip is that chip's machine (s24 review)."""
    return gpu_id.startswith("Apple-") and unknown.lower().replace(" ", "").startswith(("mac", "imac"))


def _list_start(s: str, low: int, count_max: int) -> int:
    """bot.parse.value_list.list_start, imported when used (start-up)."""
    from bot.parse.value_list import list_start

    return list_start(s, low, count_max)


def _item_after(s: str, n: int) -> bool:
    """Whether ``n`` is written after a list's separator ('1, 2 or 4', '1、2'): the cheap gate of
    bot.parse.value_list.list_start (no regex search on a range written alone, '2 or 4', '2 到 8')."""
    text, at = str(n), s.find(str(n))
    while at > 0:
        if s[:at].rstrip()[-1:] in (",", "，", "、", "/"):
            return True
        at = s.find(text, at + 1)
    return False
