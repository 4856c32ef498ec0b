"""The machine of a question with no GPU (s41 cpufix #3): a CPU named with no GPU (bot.parse.cpu_named,
the ``cpu_not_gpu`` numbers) or no GPU said in words (bot.parse.no_gpu, the ``no_gpu`` note), and no GPU
named. The answer carries the CPU run (``report.cpu``, estimator.cpu_decode) and names the machine in
``interpretation.machine`` (:func:`machine_without_gpu`); bot.render.cpu_head formats both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.parse import ParseResult
    from estimator.models import SizingReport

NO_GPU_SAID = "no_gpu_said"
"""``interpretation.machine``: the message says its machine has no GPU ('no GPU', '只有 CPU')."""
CPU_NAMED = "cpu_named"
"""``interpretation.machine``: a CPU named and no GPU ('Llama-3-8B on an i7-12700 with 16GB')."""


def machine_without_gpu(parsed: ParseResult) -> str | None:
    """:data:`CPU_NAMED`, :data:`NO_GPU_SAID` or None (a GPU named, or neither said). The caller tests the
    parse note ``cpu_only`` first (both readers note it): most answers pay no call."""
    if parsed.request.gpu is not None:
        return None
    for _, why in parsed.unused_numbers:  # a loop, not any(...): no generator frames
        if why == "cpu_not_gpu":
            return CPU_NAMED
    return NO_GPU_SAID if "no_gpu" in parsed.notes else None


def cpu_machine(report: SizingReport | None, parsed: ParseResult) -> SizingReport | None:
    """``report`` with ``cpu`` (estimator.cpu_decode.cpu_run: the precision, RAM and host bandwidth the
    message states) when the machine has no GPU and a model is served; else unchanged."""
    if report is None or report.inference is None or "cpu_only" not in parsed.notes:
        return report
    if machine_without_gpu(parsed) is None:
        return report
    from estimator.cpu_decode import cpu_run

    req = parsed.request
    run = cpu_run(
        report, req.precision, req.host_memory_gib, req.host_bandwidth_gbps, req.host_ddr, req.host_channels
    )
    return report.model_copy(update={"cpu": run}) if run is not None else report
