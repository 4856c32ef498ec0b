"""The training searches kept across answers (s33-spre; bounded by s33 fix-b): what
:func:`estimator.plan.training_memory` finds at no particular GPU count, filed per job so that a follow-up
or the same question in another format reuses it. Pure caching: the same floats in the same order, the
same answer (bench/answers_dump.py ``same``)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

from estimator.memory import SearchMemo

if TYPE_CHECKING:
    from estimator.catalog import GpuSpec, ModelSpec
    from estimator.plan import Searched
    from estimator.runtimes.base import ServingRuntime
    from estimator.runtimes.memo import MemoRuntime
    from estimator.setup import TrainingSetup

KEPT_JOBS = 32
"""Jobs whose searches :func:`kept_searches` keeps (spec, params, card, setup), least recently used dropped
first. 32 jobs of the corpus (tests/data/questions.json) hold 0.93 MiB (tracemalloc, measured 2026-12-05);
none at start-up: the idle and after-10,000-updates budgets (issue 23 item 7, bench/memory.py) keep room.
Each job keeps at most :data:`KEPT_BATCHES` searches and each search at most :data:`KEPT_PLANS` plans, so
the whole stays bounded however many batches or counts one job is asked at (tests/test_s33_fixb.py). The
same bound holds the jobs' memos (:func:`job_memo`, s35), each shared by its searches on every card."""
KEPT_BATCHES = 4
"""Searches one job keeps (by alternatives, recommended size, global batch): :func:`training_memory` files
the one it uses last, :func:`kept_searches` drops the first past this many (s33 fix-b: every distinct
global batch added one, 200 batches on one job kept 4.2 MiB)."""
KEPT_PLANS = 64
"""Plans by count a kept search's memo keeps (``SearchMemo.plans``); past it they are cleared when its
job is found again (a pure cache: the same plans are sized again, the same answer)."""


_KEPT: OrderedDict[tuple, tuple[object, object, dict[tuple, Searched]]] = OrderedDict()
_KEEPING = threading.Lock()
"""Held while :data:`_KEPT` is read and reordered (a job found by one thread, dropped by another)."""


def kept_searches(
    spec: ModelSpec, params: float, gpu: GpuSpec, setup: TrainingSetup
) -> dict[tuple, Searched]:
    """The ``reuse`` dict of :func:`training_memory` for this job, kept across answers: what it finds at no
    particular count (:class:`Searched`) depends only on the spec, the parameter count, the card, the setup
    and its flags, so a follow-up that changes the count, deadline, tokens, budget or price — or the same
    question in another format — reuses the search instead of sizing its candidates again (the same floats
    in the same order: the same answer). The spec and card are pydantic models holding lists (unhashable):
    a job is filed under their ids (catalog names, ``dense-7B``…) and found only where the kept spec and
    card are these very objects (catalog entries; :func:`estimator.architecture.shape_for_size`'s, made
    once per size) or equal to them field by field; else it is filed anew in its place."""
    key = (spec.id, gpu.id, params.__class__, params, setup)
    entry = (spec, gpu, {})
    with _KEEPING:  # answers off the event loop (Feishu: asyncio.to_thread) share the kept jobs
        found = _KEPT.setdefault(key, entry)  # the setup hashed once (a Python __hash__) on a first answer
        if found is entry:
            if len(_KEPT) > KEPT_JOBS:
                _KEPT.popitem(last=False)
            return entry[2]
        if (found[0] is spec or found[0] == spec) and (found[1] is gpu or found[1] == gpu):
            _KEPT.move_to_end(key)
            kept = found[2]  # room for this answer's search: the least recently used dropped (s33 fix-b)
            for old in list(kept)[: max(0, len(kept) - KEPT_BATCHES + 1)]:  # list(): others may file one
                kept.pop(old, None)
            for searched in list(kept.values()):  # in place, no frame (the estimate pin)
                if len(searched[0].plans) > KEPT_PLANS:  # a pure cache: sized again, the same plans
                    searched[0].plans.clear()
            return kept
        _KEPT[key] = entry  # another spec or card under the same names (a pasted config, a stated memory)
        _KEPT.move_to_end(key)
        return entry[2]


_JOBS: OrderedDict[tuple, tuple[object, SearchMemo]] = OrderedDict()
"""The :class:`estimator.memory.SearchMemo` of each job (spec, parameter count, setup) on every card
(:func:`job_memo`), at most :data:`KEPT_JOBS`, least recently used dropped first."""


def job_memo(spec: ModelSpec, params: float, setup: TrainingSetup) -> SearchMemo:
    """The :class:`estimator.memory.SearchMemo` of this job (spec, parameter count, setup) for a search on
    any card: a new one on the job's first search, then the same one (s35-sptail: 'the cheapest card' sizes
    one job on six cards of six memory sizes, and each search sized the same layouts' parts again). What
    a memo keeps is the job's own (state parts, breakdowns and their peaks, the bounds' floors, kept
    activations) or filed under what the search reads of the card: ``plans`` and ``fewest`` by
    :func:`estimator.search_groups.card_key`, ``unfit`` by the limit and the search's shape (its card's
    GPUs a node and NVLink). Pure caching: the same floats, the same answer (bench/answers_dump.py
    ``same``; tests/test_s35_sptail.py). Kept like :func:`kept_searches` (found only for this very spec or
    one equal to it); none when ``KEPT_JOBS`` is 0."""
    key = (spec.id, params.__class__, params, setup)
    entry = (spec, SearchMemo())
    with _KEEPING:
        found = _JOBS.setdefault(key, entry) if KEPT_JOBS > 0 else entry  # the setup hashed once
        if found is entry:
            if len(_JOBS) > KEPT_JOBS:
                _JOBS.popitem(last=False)
            return entry[1]
        _JOBS.move_to_end(key)
        if found[0] is not spec and found[0] != spec:  # another spec under the same name: filed anew
            _JOBS[key] = entry
            return entry[1]
        return found[1]


KEPT_RUNTIMES = 32
"""Serving runtimes :func:`kept_runtime` keeps (runtime, model, card), least recently used dropped first:
each a :class:`estimator.runtimes.memo.MemoRuntime` of a few dozen floats (its usable bytes, workspaces by
TP and load, rooms by PP, KV copies by TP); none at start-up."""

KEPT_ROOMS = 128
"""Rooms (or workspaces) by (PP, TP, load) a kept memo may hold when found again; past it a fresh memo is
filed in its place (its loads are the questions' contexts, prompts and batches, unbounded over a busy bot's
answers; the corpus's most is 38): ≤ ~40 kB a memo (~6.6 kB on the corpus's 28, sys.getsizeof of the
dicts, keys and floats, measured 2026-12-07), ≤ ~1.3 MiB for all :data:`KEPT_RUNTIMES`."""

_RUNTIMES: OrderedDict[tuple, MemoRuntime] = OrderedDict()


def kept_runtime(inner: ServingRuntime, spec: ModelSpec, gpu: GpuSpec) -> MemoRuntime:
    """The :class:`estimator.runtimes.memo.MemoRuntime` of ``inner`` for ``spec`` on ``gpu``, kept across
    answers (s47-speedest, issue 23 item 7: a serving question asked again, or in another format, worked out
    every workspace and room again; a comparison of serving cards asks each card's). What it keeps is a pure
    function of the runtime's fields (a frozen dataclass: equal runtimes hash alike), the model and the card
    (:class:`MemoRuntime`), so the same floats: the same answer (bench/answers_dump.py ``same``). Found only
    where the kept memo's spec and card are these very objects (catalog entries; a pasted or derived spec is
    filed anew in its place); none kept when :data:`KEPT_RUNTIMES` is 0."""
    key = (inner, spec.id, gpu.id)
    found = _RUNTIMES.get(key)
    if (
        found is not None
        and found.spec is spec
        and found.gpu is gpu
        and len(found._room_at) <= KEPT_ROOMS  # else filed afresh (the memo's own rooms grow by load)
        and len(found._workspace_at) <= KEPT_ROOMS
    ):
        with _KEEPING:
            if key in _RUNTIMES:  # another thread may have dropped it
                _RUNTIMES.move_to_end(key)
        return found
    from estimator.runtimes.memo import MemoRuntime  # loaded with estimator.inference already

    memo = MemoRuntime(inner, spec, gpu)
    if KEPT_RUNTIMES > 0:
        with _KEEPING:
            _RUNTIMES[key] = memo
            if len(_RUNTIMES) > KEPT_RUNTIMES:
                _RUNTIMES.popitem(last=False)
    return memo


def forget_searches() -> None:
    """Drop every search :func:`kept_searches` keeps, every job's memo (:func:`job_memo`) and every kept
    serving runtime (:func:`kept_runtime`): a benchmark or test measuring a first answer."""
    with _KEEPING:
        _KEPT.clear()
        _JOBS.clear()
        _RUNTIMES.clear()
