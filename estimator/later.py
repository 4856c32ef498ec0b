"""Functions imported on their first call (issue 23 item 7, ``sizing-bot ask`` start-up).

A module whose functions a plain question never calls still cost its import on every start (~0.3M
instructions each: unmarshal and module body, callgrind, session 30). Where the calling module has no
room for an import at the call site (it sits at the 500-line or 80-line cap, tests/test_layout.py), it
imports a :class:`Later` stand-in from a table instead (``bot.later_names``), or calls it through a
:class:`LaterNames` object (:data:`LATE`).
The stand-in's first call imports the real module, rebinds the caller's global that holds the stand-in to
the real function (so every later call from that module goes straight to it: one extra Python call per
calling module and name, ever) and returns the real function's result. Calls, results and exceptions are
the real function's; only ``is`` against the real function differs until that first call.
"""

from __future__ import annotations

import sys
from typing import Any


class Later:
    """A stand-in for the function ``name`` of the module ``module`` (dotted), imported on first call."""

    __slots__ = ("module", "name")

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """The real function's result for ``args``/``kwargs``, after importing its module and rebinding
        the calling module's globals that hold this stand-in to it. Raises what the import or the
        function raises."""
        __import__(self.module)
        real = getattr(sys.modules[self.module], self.name)
        space = sys._getframe(1).f_globals
        for key in [key for key, value in space.items() if value is self]:
            space[key] = real
        return real(*args, **kwargs)

    def __repr__(self) -> str:
        return f"Later({self.module}.{self.name})"


def later(module: str, *names: str) -> tuple[Any, ...]:
    """One :class:`Later` per name in ``names`` of ``module`` (dotted), in order."""
    return tuple(Later(module, name) for name in names)


ESTIMATOR: dict[str, tuple[str, ...]] = {
    "estimator.dp_replicated": ("note_replicated",),
    "estimator.mla_layout": (
        "indexer_assumption",
        "mla_layout",
        "mla_tp_copies",
        "note_assumed_dp_attention",
    ),
    "estimator.serving_budget": ("check_serving_budget",),
    "estimator.serving_capacity": (
        "at_capacity",
        "fits_only_in_fp8",
        "fp8_on_count",
        "held_at_share",
        "fp8_at_load",
    ),
    "estimator.serving_schedule": ("on_schedule",),
    "estimator.sglang_raise": ("note_raised_fraction",),
    "estimator.throughput_target": ("concurrency_for_target", "note_short_of_target", "reach_target"),
    "estimator.rate_load": ("rate_concurrency",),
    "estimator.prefill_load": ("note_prefill_load", "prefill_in_decode"),
    "estimator.serving_layout_notes": ("layout_notes",),
    "estimator.speed_floor": ("at_speed_floor", "stated_speed_check"),
    "estimator.draft_model": ("draft_for", "note_draft"),
}
"""The serving functions estimator/serving.py (at the line cap) calls only for some questions: MLA
layouts, budgets, capacity pricing, schedules and throughput targets, s41's prefill load, layout notes and
speed floor (a plain training ``ask`` calls none, and the idle bot holds none of them)."""


class LaterNames:
    """The functions of ``table`` (module → names) as attributes, each module imported on the first
    read of one of its names; the real function is then stored on the object, so later reads are plain
    attribute reads (no Python call). Raises AttributeError for a name not in the table."""

    def __init__(self, table: dict[str, tuple[str, ...]]) -> None:
        self._modules = {name: module for module, names in table.items() for name in names}

    def __getattr__(self, name: str) -> Any:
        module = self.__dict__.get("_modules", {}).get(name)
        if module is None:
            raise AttributeError(name)
        __import__(module)
        real = getattr(sys.modules[module], name)
        setattr(self, name, real)
        return real


LATE = LaterNames(ESTIMATOR)
"""estimator/serving.py's functions of :data:`ESTIMATOR`: ``LATE.at_capacity(...)``."""
