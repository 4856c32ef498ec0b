"""LLM compute sizing estimator: pure, deterministic math (SizingRequest → SizingReport).

Importing the package installs the start-up aids first (before pydantic builds anything):
:mod:`estimator._dataclass_code`, :mod:`estimator._lazy_stdlib`, :mod:`estimator._pydantic_plugins` and
:mod:`estimator._schema_store`;
``SizingReport`` and ``SizingRequest`` are imported on first use (``from estimator import SizingRequest``
works as before).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from estimator._dataclass_code import install as _install_dataclass_code
from estimator._lazy_stdlib import install as _install_lazy_stdlib
from estimator._pydantic_plugins import skip_plugin_search_when_none_declared
from estimator._schema_store import install as _install_schema_store

_install_dataclass_code()  # before the first dataclass: see the module
_install_lazy_stdlib()  # before pydantic imports them: see the module
skip_plugin_search_when_none_declared()  # before the first model is built: see the module
_install_schema_store()  # before the first model is made: see the module

if TYPE_CHECKING:
    from estimator.models import SizingReport, SizingRequest

__all__ = ["SizingReport", "SizingRequest", "estimate"]


def __getattr__(name: str) -> Any:
    """``SizingReport`` and ``SizingRequest``, from :mod:`estimator.models` on first use."""
    if name in ("SizingReport", "SizingRequest"):
        from estimator import models

        return getattr(models, name)
    raise AttributeError(f"module 'estimator' has no attribute {name!r}")


def estimate(request: SizingRequest) -> SizingReport:
    """Fill stated defaults and size the job. See :func:`estimator.sizing.estimate`."""
    from estimator.sizing import estimate as _estimate

    return _estimate(request)
