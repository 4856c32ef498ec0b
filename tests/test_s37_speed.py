"""Session 37 (s37-speed): the pipeline budget's cuts give the same figures and words as before.

- estimator.runtimes.memo.MemoRuntime.room: a room asked again with the same (PP, TP, load) is the one
  remembered under them, without the runtime's workspace key frame; every answer equals the runtime's own.
- estimator.serving_layout: the KV copies across TP asked of the runtime in place (no
  ``_kv_replication`` frame); ``_kv_replication`` itself stays, the same value.
- bot.render.duration.unit_text: a GPUs ↔ time column's figures, ``Fmt.days`` itself in days and
  :func:`in_unit` otherwise: the same text, worked by hand below.
"""

from __future__ import annotations

import pytest

from bot.render.duration import in_unit, unit_text
from bot.render.fmt import fmt_for
from estimator import catalog
from estimator.request import Precision
from estimator.runtimes import SGLANG, TRANSFORMERS, VLLM
from estimator.runtimes.base import Load
from estimator.runtimes.memo import MemoRuntime
from estimator.serving_layout import _kv_replication


@pytest.mark.parametrize("runtime", [VLLM, SGLANG, TRANSFORMERS])
def test_a_remembered_room_is_the_runtime_s_own(runtime) -> None:
    spec, gpu = catalog.model("DeepSeek-R1-Distill-Llama-70B"), catalog.gpu("H100-SXM5-80GB")
    memo = MemoRuntime(runtime, spec, gpu)
    loads = [Load(8192, 2048, 4, Precision.bf16), Load(32768), Load(8192, 2048, 4, Precision.fp8)]
    for _ in range(2):  # the second pass: every room from the first lookup
        for load in loads:
            for tp, pp in ((1, 1), (2, 1), (4, 2), (8, 1)):
                assert memo.room(spec, gpu, tp, load, pp) == runtime.room(spec, gpu, tp, load, pp)
    assert len(memo._room_at) == len(loads) * 4


def test_a_room_asked_again_asks_no_workspace_key(monkeypatch) -> None:
    spec, gpu = catalog.model("DeepSeek-R1-Distill-Llama-8B"), catalog.gpu("H100-SXM5-80GB")
    memo, load = MemoRuntime(VLLM, spec, gpu), Load(4096)
    first = memo.room(spec, gpu, 2, load, 1)
    asked: list[tuple] = []
    real = type(VLLM).workspace_key
    monkeypatch.setattr(
        type(VLLM), "workspace_key", lambda self, tp, ld: asked.append((tp, ld)) or real(self, tp, ld)
    )
    assert memo.room(spec, gpu, 2, load, 1) == first
    assert asked == []
    memo.room(spec, gpu, 4, load, 1)  # a new TP: its key asked by the room and by its workspace
    assert asked == [(4, load), (4, load)]


def test_the_kv_copies_are_the_runtime_s() -> None:
    spec = catalog.model("DeepSeek-R1-Distill-Llama-70B")  # 8 KV heads: one copy per GPU up to TP 8
    for tp in (1, 2, 4, 8):
        assert _kv_replication(spec, tp, VLLM) == VLLM.kv_replication(spec, tp) == 1.0


@pytest.mark.parametrize(
    ("days", "unit", "text"),
    [
        (7.56, "days", "7.6"),  # one decimal under 10 days
        (61.4, "days", "61"),  # whole days from 10
        (0.45, "days", "0.45"),  # two decimals under a day
        (0.5, "hours", "12"),  # 12 hours: whole from 10
        (0.25, "hours", "6"),  # 6 whole hours: no decimal
        (0.3, "hours", "7.2"),  # 7.2 hours (7.199999999999999 as a float) to one decimal
        (0.01, "minutes", "14.4"),  # 0.24 h = 14.4 minutes
    ],
)
def test_a_column_in_its_unit_reads_as_before(days: float, unit: str, text: str) -> None:
    f = fmt_for("en")
    assert unit_text(unit, f)(days) == in_unit(days, unit, f) == text


def test_a_column_of_days_is_the_formatter_s_own_method() -> None:
    f = fmt_for("zh")
    assert unit_text("days", f) == f.days  # no in_unit frame a figure
    assert unit_text("hours", f)(2.0) == "48"


@pytest.mark.parametrize(
    ("text", "nonpositive", "unusable"),
    [
        ("Llama 70B on 0 H100, 4k context", ["0"], []),  # a count of 0: not positive
        ("用 -2 张 A100 训练 7B 模型", ["-2"], []),  # a negative count
        ("训练 7B，上下文 0，batch 1000000000", ["0"], ["1000000000"]),  # 0 tokens; a batch past its bound
        ("7B model with 100000 GPUs", [], []),  # within the count's bounds: used
    ],
)
def test_the_roles_sorted_by_their_bounds_in_one_loop(text: str, nonpositive: list, unusable: list) -> None:
    """assemble._numbers: the roles not positive, outside their bounds and kept, in one loop (s37-speed); the
    same lists as the five comprehensions before (checked on main 23ce7a0e)."""
    from bot.parse import parse

    parsed = parse(text)
    assert parsed.nonpositive_numbers == nonpositive
    assert parsed.unusable_numbers == unusable
    assert parsed.request.gpu_count == (100000 if "100000 GPUs" in text else None)
