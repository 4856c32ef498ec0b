"""``SizingRequest`` and ``Band`` carry no validators (s18-fxc #8).

estimator/report_request.py and estimator/built.py build them without validating again (issue 23 item 7): a
model or field validator added to either would be skipped there silently. This fails the day one is added,
so the builders are changed with it."""

from __future__ import annotations

import pytest

from estimator.models import Band
from estimator.request import SizingRequest


@pytest.mark.parametrize("cls", [SizingRequest, Band])
def test_no_validators(cls: type) -> None:
    decorators = cls.__pydantic_decorators__
    assert decorators.model_validators == {}
    assert decorators.field_validators == {}
    assert decorators.root_validators == {}
    assert decorators.validators == {}
