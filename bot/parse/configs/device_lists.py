"""GPU lists a launcher is given (issue 24 round 4, counts written as device lists): DeepSpeed's
``--include`` / ``-i`` ``"host:0,1,2,3[@host2:0,1]"`` (deepspeed/launcher/runner.py
``parse_inclusion_exclusion``: each host's slots joined by ``@``; a host without slots is all of its
GPUs, which the list does not count). The GPUs of the job are the slots listed."""

from __future__ import annotations

import re
from typing import Any

INCLUDE_FLAGS = ("--include", "-i")
_HOST_SLOTS_RE = re.compile(r"[^:@\s]+:(\d+(?:,\d+)*)")


def include_count(launcher: str, opts: dict[str, Any]) -> tuple[str, int] | None:
    """(flag, GPUs listed) for ``deepspeed --include localhost:0,1,2,3`` (4); None without such a list or
    when a host is named without its slots (all of its GPUs: a count the list does not give)."""
    if launcher != "deepspeed":
        return None
    flag = next((f for f in INCLUDE_FLAGS if f in opts), None)
    value = str(opts.get(flag, "")).strip("\"' ") if flag else ""
    hosts = [h for h in value.split("@") if h]
    slots = [_HOST_SLOTS_RE.fullmatch(h) for h in hosts]
    if not hosts or not all(slots):
        return None
    return flag, sum(len(m.group(1).split(",")) for m in slots if m)
