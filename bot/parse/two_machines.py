"""Two machines of different cards, each with its own count ('一台 8×4090 和一台 4×A100', 'one 8×A100 box
and one 4×H100 box', s32 left item 2).

Before, the two were sized as one rig of one kind: the first card at the first count, the other compared
at the same count (8 × A100 where the machine holds 4). Cards of two machines cannot form one
tensor-parallel group: vLLM and SGLang shard each layer evenly over ranks that must hold equal shares of
the weights at the same speed (vLLM ``ParallelConfig``: one ``tensor_parallel_size`` for every rank), and
across machines TP runs over the network, not NVLink (Narayanan et al. 2021 §3.2: "tensor model
parallelism … within a server"). So the answer sizes one machine — the one asked about (its card named
again: 'can the H100 box serve it?'), else the one with more memory in total (count × the card's memory; a
tie: the first written) — and names the other as not used (reason
``other_machine``), never as a second value of the count. A sentence that asks about one card, or a
message that weighs them ('or', 'vs', '还是'), keeps its own reading (:mod:`bot.parse.option_counts`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.parse.regex import rc
from estimator import catalog

if TYPE_CHECKING:
    from bot.parse.gpus import GpuMention
    from bot.parse.role_dispatch import Role

MACHINE_RE = rc(
    r"\b(?:boxe?s?|servers?|machines?|nodes?|workstations?|hosts?|rigs?)\b|台|服务器|机器|节点|主机|工作站"
)
"""A word for one machine ('box', 'server', '台', '服务器')."""
TWO_MACHINES_RE = rc(
    r"\b(?:two|2)\s+(?:boxes|servers|machines|nodes|hosts)\b|(?:两|二|2)\s*台"
    r"|\b(?:box|server|machine|node|host|rig|workstation)\b[^.;?!]{0,60}?\band\s+(?:one|another)\s+(?:with|of)\b"
    r"|另一台"
)
"""Two machines said at once ('two servers', '两台'), or the second said by 'one' (s38: 'one server with 8
RTX 4090 and one with 4 A100', '一台 8 卡 4090，另一台 4 张 A100')."""
ONE_MACHINE_RE = rc(
    r"\b(?:in|inside)\s+(?:one|the\s+same|a\s+single)\s+(?:box|machine|server|node|host|rig)\b"
    r"|同一台|一台(?:机器|服务器|主机)?里"
)
"""Cards said to share one machine ('in one box', '同一台', '一台机器里'): one rig, not two machines."""
BOTH_USED_RE = rc(
    r"\b(?:both|across|together|combined)\b|一起|两台都|合起来|跨(?:两台|机器|节点)"
    r"|\b(?:zero[\s\-_]?[123]?|fsdp|ddp|deepspeed|data[\s\-]parallel)\b|数据并行"
    r"|(?:总共|一共|合计|加起来)[^，。？！,?!]{0,12}?(?:显存|卡|张|gpu)"
    r"|\bin\s+total\b[^.,;?!]{0,16}?(?:vram|memory|gpus|cards)|(?:vram|memory|gpus|cards)\s+in\s+total\b"
)
"""Both machines used ('across both nodes', '两台一起') or data parallelism stated (ZeRO/FSDP/DDP: each rank
holds an equal shard or replica and no tensor-parallel group spans the cards; s32 fixf 2); s37-models: the
two machines' cards or memory summed ('40*8 + 80*8 = 960，总共也是 960G 显存', '24 GPUs in total', '总共 16
张卡'), never a total of time or money ('一共要多久')."""
TRAIN_ROLE_RE = rc(
    r"(?:训练|微调)\s*用|用(?:来|于)?\s*(?:训练|微调)|\bfor\s+(?:training|fine[\s\-]?tuning)\b"
)
SERVE_ROLE_RE = rc(
    r"(?:部署|推理|服务|上线)\s*用|用(?:来|于)?\s*(?:部署|推理|服务|上线)"
    r"|\bfor\s+(?:serving|inference|deployment)\b"
)
"""A machine given a stage ('训练用一台 8×H100', '部署用一台 4×4090', '8 H100 for training')."""


def machines_said(s: str) -> int:
    """Machines the text names: :data:`MACHINE_RE` matches, those within 3 characters of the one before
    counted once ('一台服务器' is one machine); 2 for :data:`TWO_MACHINES_RE`."""
    if TWO_MACHINES_RE.search(s):
        return 2
    ends = [(m.start(), m.end()) for m in MACHINE_RE.finditer(s)]
    return sum(1 for k, (start, _) in enumerate(ends) if k == 0 or start - ends[k - 1][1] > 3)


def _memory(g: GpuMention) -> float:
    return g.memory_gib or catalog.gpu(g.gpu_id).memory_gib


def two_machines(p: Any, gpus: list[GpuMention], own: dict[int, Role]) -> tuple[GpuMention, Role] | None:
    """``(card, count)`` of the machine sized when the message names two machines (:func:`machines_said`;
    none said to share one, :data:`ONE_MACHINE_RE`) of two different cards, each with its own count
    (``own``: the count of each mention, :func:`bot.parse.option_counts.own_counts`); the other machine's
    cards named (``other_machine``) and dropped from ``gpus`` (no alternative row at a count it does not
    have), the machine's GPUs per node set to its count. None otherwise (module doc)."""
    if len({g.gpu_id for g in gpus}) != 2 or len(own) != 2:
        return None
    if machines_said(p.s) < 2 or ONE_MACHINE_RE.search(p.s):
        return None
    (i, a), (j, b) = sorted(own.items(), key=lambda kv: gpus[kv[0]].start)
    first, second = gpus[i], gpus[j]
    roles = _stages(p.s, first, second)
    if BOTH_USED_RE.search(p.s) and not roles:
        return _data_parallel(p, gpus, (first, a), (second, b))
    named = [g.gpu_id for g in gpus]  # a card named again ('can the H100 box serve …') is the one asked
    asked = named.count(first.gpu_id) - named.count(second.gpu_id)
    larger = a.value * _memory(first) >= b.value * _memory(second)
    if roles:  # the machine of the stage asked (training unless the message serves)
        asked = 1 if roles[0] == ("serve" if p.f.get("stage") == "inference" else "train") else -1
    sized, other, count, other_count = (
        (first, second, a, b) if asked > 0 or (asked == 0 and larger) else (second, first, b, a)
    )
    _use(p, a, b)
    name = f"{other_count.value:g} × {other.gpu_id.replace('-', ' ')}"
    training = p.f.get("stage") not in (None, "inference")  # the reason worded by stage (s32 fixf 2)
    reason = "other_stage_machine" if roles else "other_machine_training" if training else "other_machine"
    p.named_unused.append((name, reason))
    gpus[:] = [g for g in gpus if g.gpu_id != other.gpu_id]
    p.f["gpus_per_node"] = int(count.value)
    return sized, count


def _use(p: Any, a: Role, b: Role) -> None:
    p.used.update((id(a), id(b)))
    ones = (id(r) for r in p.roles if r.role in ("nodes", "count") and r.value == 1)  # 'one box', '一台'
    p.used.update(ones)


def _stages(s: str, first: GpuMention, second: GpuMention) -> tuple[str, str] | None:
    """('train' | 'serve' for the first machine, the same for the second) when each is given a different
    stage (:data:`TRAIN_ROLE_RE`, :data:`SERVE_ROLE_RE`: the role word before the card, after the one
    before it); None otherwise."""

    def stage(text: str) -> str | None:
        ends = [(m.end(), "train") for m in TRAIN_ROLE_RE.finditer(text)]
        ends += [(m.end(), "serve") for m in SERVE_ROLE_RE.finditer(text)]
        return max(ends)[1] if ends else None

    one, two = stage(s[: first.start]), stage(s[first.start : second.start])
    if one is None and two is None:
        return None
    if one is None or two is None:  # '8 H100 for training and 4 4090 for serving': the words after
        one, two = stage(s[first.start : second.start]), stage(s[second.start :])
    return (one, two) if one and two and one != two else None


def _data_parallel(
    p: Any, gpus: list[GpuMention], one: tuple[GpuMention, Role], two: tuple[GpuMention, Role]
) -> tuple[GpuMention, Role]:
    """Both machines' cards in one data-parallel run (ZeRO/FSDP/DDP, 'across both'): every rank holds an
    equal share, so the run is sized as all the cards at the smaller card's memory (a tie: the slower card,
    which paces each step); the other card named (``other_machine_dp``)."""

    def key(g: GpuMention) -> tuple[float, float]:
        return (_memory(g), catalog.gpu(g.gpu_id).peak_flops_16bit or 0.0)

    (sized, count), (other, other_count) = sorted((one, two), key=lambda gr: key(gr[0]))
    _use(p, count, other_count)
    name = f"{other_count.value:g} × {other.gpu_id.replace('-', ' ')}"
    p.named_unused.append((name, "other_machine_dp"))
    gpus[:] = [g for g in gpus if g.gpu_id != other.gpu_id]
    if count.value == other_count.value:
        p.f["gpus_per_node"] = int(count.value)
    return sized, replace(count, value=count.value + other_count.value)
