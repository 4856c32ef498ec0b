"""Issue 23 item 7, ``sizing-bot ask`` start-up (session 28, part s28-spstart; figures in bench/RESULTS.md).

- ``SizingRequest``'s settings mixins (``Provenance`` … ``AttentionLayout``) defer their own core
  schemas: none is validated alone, ``SizingRequest`` builds (or loads) the one schema that is used
  (session 44: they are plain classes, no pydantic model at all).
- The modules that declare the pydantic models a plain ``ask`` builds keep their annotations as objects
  (no ``from __future__ import annotations``): pydantic evaluates a string annotation by compiling it
  (``typing.ForwardRef``) and ``eval``-ing it, once per field and once more per subclass (the mixin
  chains), ~23k instructions each (callgrind: ``estimator/models.py``'s 170 strings, −3.9M).
"""

import importlib

import pytest

from estimator.models import SizingReport, SizingRequest

MIXINS = (
    "estimator.request_provenance:Provenance",
    "estimator.request_loss:LossKernel",
    "estimator.request_optimizer:OptimizerStep",
    "estimator.request_compute:ComputeBudget",
    "estimator.request_rollout:RolloutSettings",
    "estimator.request_users:ServiceUsers",
    "estimator.request_local:SplitKvTypes",
    "estimator.request_local:LocalServingSettings",
    "estimator.request_local:ServingSchedule",
    "estimator.request_local:AttentionLayout",
    "estimator.request_data:DataSettings",
)

EVALUATED = (
    "estimator.models",
    "estimator.request",
    "estimator.request_compute",
    "estimator.request_data",
    "estimator.request_local",
    "estimator.request_loss",
    "estimator.request_optimizer",
    "estimator.request_provenance",
    "estimator.request_rollout",
    "estimator.request_users",
    "estimator.gpu_spec",
    "estimator.host_ram",
    "estimator.largest_rows",
    "bot.parse.result",
    "bot.parse.configs.model",
    "bot.settings.chat",
    "estimator.catalog",  # s29-spstart: ModelSpec, PriceEntry, the catalog files
    "estimator.layer_offload",  # s29-spstart: LayerSplit
)


def _load(name: str) -> type:
    module, _, cls = name.partition(":")
    return getattr(importlib.import_module(module), cls)


def test_the_mixins_are_plain_and_the_request_validates_all_their_fields() -> None:
    """Session 44 (s44-speed): the mixins are plain classes, not pydantic models (as models each one collected
    and copied every field of the mixins above it again: ~18M instructions of ``ask``); pydantic collects
    their fields into ``SizingRequest`` alone, and no ``Field(...)`` attribute is left on a mixin."""
    from pydantic import BaseModel

    req = SizingRequest(model="Llama-3-8B", users=40, optimizer_impl="fused")
    assert req.users == 40 and req.optimizer_impl == "fused"
    for name in MIXINS:
        cls = _load(name)
        assert issubclass(SizingRequest, cls) and not issubclass(cls, BaseModel), name
        own = set(vars(cls).get("__annotations__", {}))
        assert own and own <= set(SizingRequest.model_fields), name
        assert not own & set(vars(cls)), name  # drop_mixin_defaults: no Field(...) left behind
        assert not any(hasattr(SizingRequest, field) for field in own), name
    with pytest.raises(ValueError):
        SizingRequest(users=-1)


@pytest.mark.parametrize("name", EVALUATED)
def test_model_modules_keep_annotations_as_objects(name: str) -> None:
    module = importlib.import_module(name)
    assert "annotations" not in vars(module), f"{name}: `from __future__ import annotations` is back"
    for cls in vars(module).values():
        if isinstance(cls, type) and cls.__module__ == name:
            strings = [k for k, v in vars(cls).get("__annotations__", {}).items() if isinstance(v, str)]
            assert not strings, (name, cls.__name__, strings)


def test_the_report_still_reads_its_nested_models() -> None:
    fields = SizingReport.model_fields
    assert fields["request"].annotation is SizingRequest
    assert "memory" in fields and "inference" in fields


def test_the_key_sets_read_as_the_str_enums_they_were() -> None:
    import enum
    import json

    from bot.render.note_codes import NoteCode
    from estimator.reasons import Why, Word

    for keys in (Why, Word, NoteCode):
        assert not isinstance(keys, enum.EnumType)  # built without enum's per-member machinery
        members = list(keys)
        assert len(members) == len(keys) and len({str(m) for m in members}) == len(members)
        for m in members:
            assert keys(str(m)) is m and m in keys and isinstance(m, keys) and isinstance(m, str)
            assert type(m.value) is str and m.value == m == m._value_ and getattr(keys, m.name) is m
    assert len(Why) >= 150 and len(NoteCode) >= 100  # the sets as written (153 and 104 at s28)
    key = Why.micro_batch
    assert (str(key), f"{key}", "-".join([key]), json.dumps({key: [key]})) == (
        "micro_batch",
        "micro_batch",
        "micro_batch",
        '{"micro_batch": ["micro_batch"]}',
    )
    assert repr(key) == "<Why.micro_batch: 'micro_batch'>" and {key: 1}["micro_batch"] == 1
    assert NoteCode("tiny_job") == "tiny_job" and "no_such_code" not in NoteCode
    with pytest.raises(ValueError, match="not a valid NoteCode"):
        NoteCode("no_such_code")
    with pytest.raises(AttributeError):
        Why.micro_batch = "other"  # type: ignore[misc]
