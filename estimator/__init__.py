"""LLM compute sizing estimator: pure, deterministic math (SizingRequest → SizingReport)."""

from estimator._pydantic_plugins import skip_plugin_search_when_none_declared

skip_plugin_search_when_none_declared()  # before the first model is built: see the module

from estimator.models import SizingReport, SizingRequest  # noqa: E402

__all__ = ["SizingReport", "SizingRequest", "estimate"]


def estimate(request: SizingRequest) -> SizingReport:
    """Fill stated defaults and size the job. See :func:`estimator.sizing.estimate`."""
    from estimator.sizing import estimate as _estimate

    return _estimate(request)
