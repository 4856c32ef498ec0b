"""LLM compute sizing estimator: pure, deterministic math (SizingRequest → SizingReport)."""

from estimator.models import SizingReport, SizingRequest

__all__ = ["SizingReport", "SizingRequest", "estimate"]


def estimate(request: SizingRequest) -> SizingReport:
    """Fill stated defaults and size the job. See :func:`estimator.sizing.estimate`."""
    from estimator.sizing import estimate as _estimate

    return _estimate(request)
