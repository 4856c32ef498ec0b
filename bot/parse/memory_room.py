"""Memory said as free, left or usable on a card ('加载后剩 8G 的空闲显存', '20 GB of usable VRAM' on a 4090):
the room the weights leave for the KV cache, not the card's size (design review of session 19: such a
number had made a 4090 of 8 GB). Read by :func:`bot.parse.role_left.room_said`; named here."""

from __future__ import annotations

from typing import Protocol

from bot.parse.regex import rc
from bot.parse.role_left import ROOM, USABLE
from bot.parse.roles import Role
from estimator import catalog

ROOM_REASON = "memory_room"
"""The ``ignored`` reason of such a memory (bot.render.ignored_texts): not the card's, the card's is sized."""


ROOM_AFTER_RE = rc(
    r"(?P<v>\d+(?:\.\d+)?)\s*(?:gb|gib|g)\s*(?:of\s+|的\s*)?"
    r"(?:usable|available|free|spare|remaining|可用|空闲|剩余)(?:的)?\s*(?:vram|显存|gpu\s+memory)"
)
"""A memory and its room word read with the card's name ('a 4090 with 20 GB of usable VRAM'): the name's
reader takes the memory as the card's, so the words are looked at here, in the text."""


class _Steps(Protocol):
    raw: str
    f: dict
    named_unused: list[tuple[str, str]]


SWITCH_CUES = ("换", "改用", "改成", "升级", "升到", "switch", "move to", "moving to", "go to", "going to",
               "upgrad", "g one", "gb one", "g version", "gb version", "g variant", "gb variant")  # fmt: skip
"""The words of :data:`bot.parse.switched_memory.SWITCHED_RE`, tested in C before its module is imported
(substring tests: a module-level pattern gets a gate frame, bot.parse.module_gates)."""


def room_not_card(steps: _Steps, mem_role: Role | None, gpu_memory: float | None) -> float | None:
    """The memory per card (GiB) to size: ``gpu_memory`` unless it is ``mem_role``'s and that was said as
    free or left (:data:`ROOM`: always) or as usable (:data:`USABLE`: when the named card's catalog memory is
    larger, e.g. 20 of an RTX 4090's 24 GiB); then None (the card's own memory is sized) and the number is
    named in ``steps.named_unused`` with :data:`ROOM_REASON`."""
    if any(map(steps.s.__contains__, SWITCH_CUES)):  # s33-gen2: '换成 80G 的', 'the 80GB one'
        from bot.parse.switched_memory import switched_memory

        gpu_memory = switched_memory(steps, gpu_memory)
    gpu_id = steps.f.get("gpu")
    if mem_role is None and gpu_id and gpu_memory and catalog.gpu(gpu_id).memory_gib > gpu_memory + 0.5:
        said = [m for m in ROOM_AFTER_RE.finditer(steps.raw.lower()) if float(m.group("v")) == gpu_memory]
        if said:  # 'a 4090 with 20 GB of usable VRAM': the mention's memory, said as room
            steps.named_unused.append((said[0].group("v"), ROOM_REASON))
            return None
    if mem_role is None or mem_role.extra not in (ROOM, USABLE):
        return gpu_memory
    other = (mem_role.tok.raw.strip(), "other_setup")
    if gpu_memory != mem_role.value:  # 'A100 80G … 还剩 50G 空闲显存': the room, not another setup's card
        if mem_role.extra == ROOM and other in steps.named_unused:
            steps.named_unused[steps.named_unused.index(other)] = (other[0], ROOM_REASON)
        return gpu_memory
    if mem_role.extra == USABLE and (not gpu_id or catalog.gpu(gpu_id).memory_gib <= gpu_memory + 0.5):
        return gpu_memory
    steps.named_unused.append((mem_role.tok.raw.strip(), ROOM_REASON))
    return None
