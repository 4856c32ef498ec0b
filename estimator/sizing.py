"""SizingRequest → SizingReport: resolve the request, then size training or serving.

Pure and deterministic: the same request always gives the same report. Every value the user
did not give is recorded as an Assumption with the key of its reason (:mod:`estimator.reasons`).
"""

from __future__ import annotations

from typing import Any

from estimator.ledger import Ledger
from estimator.models import SizingReport, SizingRequest, Stage
from estimator.resolve import resolve
from estimator.serving import size_serving
from estimator.training import rented_hours, size_training


def estimate(req: SizingRequest) -> SizingReport:
    """Size the job described by ``req``.

    Raises nothing for any valid SizingRequest; quantities that cannot be computed are None.
    """
    ledger = Ledger()
    r = resolve(req, ledger)
    if r.gpu.peak_tflops_bf16 is None and r.stage != Stage.inference:  # a training concern (loss scaling)
        ledger.note("gpu_no_bf16", gpu=r.gpu.family)
    filled: dict[str, Any] = {
        "stage": r.stage,
        "gpu": r.gpu.id,
        "params_total": r.params,
        "params_active": r.active,
    }
    fields: dict[str, Any] = {
        "gpu_name": r.gpu.name,
        "model_name": r.spec.name if (req.model or req.architecture) and r.spec else None,
    }
    if r.stage == Stage.inference:
        if r.spec is not None and r.params is not None:
            served = size_serving(req, r.spec, r.params, r.active, r.gpu, ledger)
            filled |= served.filled()
            fields |= served.report_fields()
        if req.hours:  # "served for 36 hours on 16 H800": the cost of those GPU-hours
            rented = rented_hours(req, r, ledger)
            filled |= rented.filled()
            fields |= {k: v for k, v in rented.report_fields().items() if k in ("gpu_hours", "days", "cost")}
    else:
        trained = size_training(req, r, ledger)
        filled |= trained.filled()
        fields |= trained.report_fields()
    values = req.model_dump()
    values.update({k: v for k, v in filled.items() if v is not None})
    return SizingReport(
        request=SizingRequest.model_validate(values),
        assumptions=ledger.assumptions,
        warnings=ledger.notes,
        **fields,
    )
