"""Session 44 (s44-speed), issue 23 item 7: ``sizing-bot ask`` start-up (figures in bench/RESULTS.md).

``SizingRequest``'s settings mixins (``Provenance`` … ``AttentionLayout``, estimator/request_*.py) are plain
classes: as pydantic models each one collected and copied every field of the mixins above it again (the
chain Provenance → LossKernel → OptimizerStep → ComputeBudget → RolloutSettings, and ServiceUsers →
SplitKvTypes → LocalServingSettings), ~18M instructions of ~1,025M, and none was ever validated alone.
Pydantic collects their annotated ``Field(...)`` attributes into ``SizingRequest`` only; what the request
is (its fields, their order, bounds, JSON schema, validation and answers) does not move.
"""

import json

import pytest
from pydantic import BaseModel, ValidationError

from bot.cli import ask
from estimator.request import JSON_FIELDS, SizingRequest, setting
from estimator.request_data import DataSettings
from estimator.request_local import AttentionLayout, LocalServingSettings, ServingSchedule, SplitKvTypes
from estimator.request_loss import LossKernel
from estimator.request_optimizer import OptimizerStep
from estimator.request_provenance import Provenance
from estimator.request_rollout import RolloutSettings
from estimator.request_users import ServiceUsers

MIXINS = (
    Provenance,
    LossKernel,
    OptimizerStep,
    RolloutSettings,
    ServiceUsers,
    SplitKvTypes,
    LocalServingSettings,
    DataSettings,
    ServingSchedule,
    AttentionLayout,
)


@pytest.mark.parametrize("mixin", MIXINS, ids=lambda c: c.__name__)
def test_a_mixin_is_a_plain_class_whose_fields_are_the_requests(mixin: type) -> None:
    assert not issubclass(mixin, BaseModel) and issubclass(SizingRequest, mixin)
    own = list(vars(mixin)["__annotations__"])
    assert own and set(own) <= set(SizingRequest.model_fields)
    for name in own:  # drop_mixin_defaults: no Field(...) left, on the mixin or seen through the request
        assert name not in vars(mixin) and not hasattr(SizingRequest, name), name


def test_the_fields_keep_their_declaration_order() -> None:
    """The request's fields in the order their classes declare them, the furthest base first (what
    pydantic did with the mixins as models): the JSON contract's order is ``json_order``, unchanged."""
    declared = [
        name
        for base in reversed(SizingRequest.__mro__)
        for name in vars(base).get("__annotations__", {})
        if name in SizingRequest.model_fields
    ]
    assert list(SizingRequest.model_fields) == list(dict.fromkeys(declared))
    assert len(SizingRequest.model_fields) == len(JSON_FIELDS)
    assert len({setting(n)["json_order"] for n in JSON_FIELDS}) == len(JSON_FIELDS)  # one place each


def test_a_mixin_fields_declaration_is_read_from_its_source() -> None:
    # estimator/request_users.py: users ge=1, le=100_000_000, serving scope, json_order 76
    users = SizingRequest.model_fields["users"]
    assert setting("users")["scope"] == "serving" and setting("users")["json_order"] == 76
    assert next(m for m in users.metadata if hasattr(m, "ge")).ge == 1
    assert next(m for m in users.metadata if hasattr(m, "le")).le == 100_000_000
    # estimator/request_data.py: packing, training scope, echoed beside the stage, json_order 67
    packing = setting("packing")
    assert (packing["scope"], packing["json_order"], packing["echo"]) == ("training", 67, "stage_suffix")


def test_a_mixin_field_is_validated_by_the_request() -> None:
    assert SizingRequest(users=40, optimizer_impl="fused", packing=True).users == 40
    with pytest.raises(ValidationError) as err:
        SizingRequest(users=0)  # ServiceUsers: ge=1
    assert err.value.errors()[0]["loc"] == ("users",)
    with pytest.raises(ValidationError):
        SizingRequest(users=40, not_a_field=1)  # _Frozen: extra="forbid", as before


@pytest.mark.parametrize(
    "text",
    ["Serve Llama-3-8B on L40S for a company of 200 employees", "公司大概200人用，L40S部署Llama-3-8B"],
)
def test_a_stated_head_count_reaches_the_request_in_both_languages(text: str) -> None:
    """ServiceUsers' ``users``: the people a service is for, as stated (both languages)."""
    request = json.loads(ask(text, None, "json")[0])["request"]
    assert (request["users"], request["gpu"], request["model"], request["stage"]) == (
        200,
        "L40S",
        "Llama-3-8B",
        "inference",
    )


@pytest.mark.parametrize(
    "text",
    ["Full fine-tune Llama-3-8B on 8 A100 with sample packing", "8张A100全参微调Llama-3-8B，开启packing"],
)
def test_stated_packing_reaches_the_request_in_both_languages(text: str) -> None:
    """DataSettings' ``packing``, stated (both languages); a serving question carries none."""
    request = json.loads(ask(text, None, "json")[0])["request"]
    assert (request["packing"], request["gpu_count"], request["method"]) == (True, 8, "full")


@pytest.mark.parametrize(
    "text", ["Serve Llama-3-8B on L40S for 40 concurrent users", "用L40S部署Llama-3-8B，40个并发用户"]
)
def test_concurrent_users_are_not_a_head_count(text: str) -> None:
    """'40 concurrent users' is the load at once (``concurrency``), not ServiceUsers' head count."""
    request = json.loads(ask(text, None, "json")[0])["request"]
    assert (request["users"], request["concurrency"], request["packing"]) == (None, 40, None)


def test_a_module_the_finder_makes_has_the_standard_attributes_in_the_standard_order() -> None:
    """bot._module_finder.Loader.create_module: ``__file__`` and ``__cached__`` set up front (and ``__path__``
    only until the body runs), so the import system raises no AttributeError for them; the module is the one
    ``importlib``'s own loader makes: the same attributes, in the same order, and no ``__path__``."""
    import importlib.util
    import sys

    from bot._module_finder import Finder, Loader

    name = "bot.parse.typo_words"
    loaded = sys.modules.get(name) or importlib.import_module(name)
    spec = Finder(("bot",)).find_spec(name, list(sys.modules["bot.parse"].__path__))
    assert spec is not None and isinstance(spec.loader, Loader)
    fresh = importlib.util.module_from_spec(spec)
    assert fresh.__path__ is None  # until exec_module: "not a package" to _init_module_attrs
    spec.loader.exec_module(fresh)
    standard_spec = importlib.util.spec_from_file_location(name, spec.origin)
    standard = importlib.util.module_from_spec(standard_spec)
    standard_spec.loader.exec_module(standard)
    assert not hasattr(fresh, "__path__") and not hasattr(loaded, "__path__")
    assert (fresh.__file__, fresh.__cached__) == (spec.origin, spec.cached)
    assert (loaded.__file__, loaded.__cached__) == (spec.origin, spec.cached)
    assert list(vars(fresh)) == list(vars(standard))
    assert fresh.TYPOS == loaded.TYPOS  # the same body ran
