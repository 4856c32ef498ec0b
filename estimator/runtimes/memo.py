"""One serving question's runtime, remembering its per-card budget and workspace (CPU time of the
estimate, issue 23 item 7: the layout search of one answer asked the same
:meth:`ServingRuntime.workspace_bytes` ~30 times — vLLM's profile peak is a dozen formulas each time)."""

from __future__ import annotations

from typing import Any

from estimator.catalog import GpuSpec, ModelSpec
from estimator.runtimes.base import NO_LOAD, Load, ServingRuntime


class MemoRuntime:
    """``inner`` (a :class:`ServingRuntime`) for one model ``spec`` on one card ``gpu``: the same answers,
    :meth:`usable_bytes` computed once and :meth:`workspace_bytes` once per (TP, load) — both pure
    functions of their arguments; the load as :meth:`ServingRuntime.workspace_key` reads it — and
    :meth:`kv_replication` once per TP. Asked about another model or card (not these objects), it asks
    ``inner``. Every other attribute is ``inner``'s. Kept across answers
    (:func:`estimator.search_keep.kept_runtime`): every key holds all its value reads (s47-fixreview B1)."""

    __slots__ = (
        "_need_is_workspace",
        "_replication",
        "_room",
        "_room_at",
        "_usable",
        "_workspace",
        "_workspace_at",
        "dp_said",
        "gpu",
        "inner",
        "prefills_batch",
        "spec",
        "splits_layers",
    )

    def __init__(self, inner: ServingRuntime, spec: ModelSpec, gpu: GpuSpec) -> None:
        self.inner, self.spec, self.gpu = inner, spec, gpu
        self._usable: float | None = None
        self._workspace: dict[tuple, float] = {}
        self._workspace_at: dict[tuple, float] = {}  # by (TP, load) as asked: workspace_bytes' first lookup
        self._replication: dict[int, float] = {}
        self._room: dict[tuple, float] = {}
        self._room_at: dict[tuple, float] = {}  # by (PP, TP, load) as asked: :meth:`room`'s first lookup
        self.splits_layers, self.prefills_batch = inner.splits_layers, inner.prefills_batch  # asked often
        self.dp_said = inner.dp_said  # gates replicated_bytes at its call sites: no frame unless stated (s44)
        self._need_is_workspace = type(inner).needed_workspace is ServingRuntime.needed_workspace

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def usable_bytes(self, gpu: GpuSpec) -> float:
        """:meth:`ServingRuntime.usable_bytes` (bytes per card)."""
        if gpu is not self.gpu:
            return self.inner.usable_bytes(gpu)
        if self._usable is None:
            self._usable = self.inner.usable_bytes(gpu)
        return self._usable

    def workspace_bytes(self, spec: ModelSpec, gpu: GpuSpec, tp: int, load: Load = NO_LOAD) -> float:
        """:meth:`ServingRuntime.workspace_bytes` (bytes per card)."""
        if spec is not self.spec or gpu is not self.gpu:
            return self.inner.workspace_bytes(spec, gpu, tp, load)
        found = self._workspace_at.get((tp, load))  # asked again as asked before: no key frame (s40)
        if found is None:
            found = self._workspace_at[tp, load] = self._keyed_workspace(spec, gpu, tp, load)
        return found

    def needed_workspace(self, spec: ModelSpec, gpu: GpuSpec, tp: int, load: Load = NO_LOAD) -> float:
        """:meth:`ServingRuntime.needed_workspace` (bytes per card): :meth:`workspace_bytes`, remembered,
        where the runtime's need is its workspace (s47-speedest: it was evaluated afresh each answer)."""
        if self._need_is_workspace:
            return self.workspace_bytes(spec, gpu, tp, load)
        return self.inner.needed_workspace(spec, gpu, tp, load)

    def _keyed_workspace(self, spec: ModelSpec, gpu: GpuSpec, tp: int, load: Load) -> float:
        """:meth:`workspace_bytes` of this spec and card once per :meth:`ServingRuntime.workspace_key`."""
        key = self.inner.workspace_key(tp, load)
        found = self._workspace.get(key)
        if found is None:
            found = self._workspace[key] = self.inner.workspace_bytes(spec, gpu, tp, load)
        return found

    def room(self, spec: ModelSpec, gpu: GpuSpec, tp: int, load: Load, pp: int) -> float:
        """:meth:`ServingRuntime.room` (bytes per card), once per PP and workspace key of (TP, load): the
        load on PP stages differs from ``load`` in its PP only, so PP and the key of ``load`` fix the
        key it has (the key reads PP or not), hence its workspace; with DP attention stated, also per weight
        precision (:meth:`ServingRuntime.replicated_bytes` reads ``load.precision``; s47-fixreview B1).
        The layout searches ask it for every group of every weights variant (~25 times a question; the
        variants' loads share their keys but for that precision)."""
        if spec is not self.spec or gpu is not self.gpu:
            return self.inner.room(spec, gpu, tp, load, pp)
        found = self._room_at.get((pp, tp, load))  # asked again as asked before: no key frame (s37)
        if found is not None:
            return found
        # DP attention's replicated bytes read the weights' precision, which the workspace key may drop
        # (vLLM's): kept across answers (search_keep.kept_runtime), a room of int4 weights was found for bf16
        key = (pp, self.inner.workspace_key(tp, load), load.precision if self.dp_said else None)
        found = self._room.get(key)
        if found is None:  # workspace_bytes and usable_bytes in place (s40): the same floats, no frames
            piped = load.with_pp(pp)
            workspace = self._workspace_at.get((tp, piped))
            if workspace is None:
                workspace = self._workspace_at[tp, piped] = self._keyed_workspace(spec, gpu, tp, piped)
            usable = self._usable if self._usable is not None else self.usable_bytes(gpu)
            found = usable - workspace
            if self.dp_said:  # DP attention's whole weights on a rank (s44; every model since s45)
                found -= self.inner.replicated_bytes(spec, tp, piped, pp)
            self._room[key] = found
        self._room_at[pp, tp, load] = found
        return found

    def kv_replication(self, spec: ModelSpec, tp: int) -> float:
        """:meth:`ServingRuntime.kv_replication` (copies of each token's KV across a TP group)."""
        if spec is not self.spec:
            return self.inner.kv_replication(spec, tp)
        found = self._replication.get(tp)
        if found is None:
            found = self._replication[tp] = self.inner.kv_replication(spec, tp)
        return found
