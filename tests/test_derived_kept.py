"""Session 30 (s30-spest, issue 23 item 7): a catalog entry's derived values are kept on the entry after the
first read (estimator.derived) — read again without a Python call, never carried into a copy that changes
what they derive from, and never seen by serialization, comparison or iteration."""

from __future__ import annotations

import copy
import sys
from functools import cached_property
from operator import attrgetter

import pytest

from estimator import catalog
from estimator.catalog import ModelSpec
from estimator.gpu_spec import GpuSpec
from estimator.units import GIB

MODEL_KEPT = [n for n, v in vars(ModelSpec).items() if isinstance(v, cached_property)]
GPU_KEPT = [n for n, v in vars(GpuSpec).items() if isinstance(v, cached_property)]


def _python_calls(obj, name: str) -> int:
    """Python frames entered reading ``obj.<name>`` (attrgetter: a C call, no frame of its own)."""
    read = attrgetter(name)
    calls = 0

    def count(frame, event, arg) -> None:
        nonlocal calls
        calls += event == "call"

    sys.setprofile(count)
    try:
        read(obj)
    finally:
        sys.setprofile(None)
    return calls


def test_the_kept_values_are_the_ones_the_search_reads_most():
    assert set(MODEL_KEPT) >= {"head_dim_effective", "is_moe", "gated_ffn", "active_ffn_hidden", "moe_layers"}
    assert "addressable_bytes" in GPU_KEPT


def test_a_kept_value_is_read_again_without_a_call_and_is_the_computed_one():
    spec = catalog.model("DeepSeek-V3")
    fresh = spec.model_copy()
    for name in MODEL_KEPT:
        first = getattr(fresh, name)
        assert first == vars(ModelSpec)[name].func(fresh), name  # the property's own body, called afresh
        assert _python_calls(fresh, name) == 0, name
    # DeepSeek-V3 (config.json): 8 routed experts of 2,048 + 1 shared of 2,048 a token; 61 layers, the
    # first 3 dense
    assert fresh.is_moe and fresh.active_ffn_hidden == 9 * 2048
    assert fresh.moe_layers == 58 and fresh.dense_mlp_layers == 3


@pytest.mark.parametrize("deep", [False, True])
def test_a_copy_with_an_update_derives_afresh(deep):
    card = catalog.gpu("L40S")
    assert card.addressable_bytes == 46068 / 1024 * GIB  # nvidia-smi's memory.total with ECC on
    smaller = card.model_copy(update={"memory_gib": 20.0, "ecc_visible_mib": None}, deep=deep)
    assert smaller.addressable_bytes == 20.0 * GIB
    assert card.addressable_bytes == 46068 / 1024 * GIB
    spec = catalog.model("Qwen2.5-7B")
    assert spec.head_dim_effective == 3584 // 28 and not spec.is_moe
    wider = spec.model_copy(update={"head_dim": 256, "experts": 8, "experts_top_k": 2}, deep=deep)
    assert wider.head_dim_effective == 256 and wider.is_moe
    assert wider.active_ffn_hidden == 2 * (spec.moe_ffn_hidden or spec.ffn_hidden)


def test_kept_values_are_not_fields_anywhere():
    spec = catalog.model("Qwen2.5-7B")
    for name in MODEL_KEPT:
        getattr(spec, name)
    assert set(vars(spec)) > set(ModelSpec.model_fields)  # kept on the instance …
    assert dict(spec).keys() == ModelSpec.model_fields.keys()  # … but not a field to iteration,
    assert spec.model_dump().keys() == ModelSpec.model_fields.keys()  # serialization,
    unread = ModelSpec.model_validate(spec.model_dump())
    assert unread == spec  # and comparison
    for made in (copy.copy(spec), copy.deepcopy(spec), spec.model_copy()):
        assert vars(made).keys() == ModelSpec.model_fields.keys()
        assert made == spec
