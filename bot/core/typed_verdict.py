"""The serving verdict for the setting as typed, where vLLM refuses it (session 30, item 2).

A ``--max-model-len`` past the model config's ``max_position_embeddings`` is refused at vLLM's start-up
unless ``VLLM_ALLOW_LONG_MAX_MODEL_LEN=1`` is set (vllm/config/model.py ``_get_and_verify_max_len``; the
estimator's note 'vllm_long_max_model_len', :func:`estimator.ledger.beyond_window`). Where the answer
sizes that start on the user's GPUs (:func:`bot.core.start_only.start_only`), its headline says "no, not as
typed"; every other serving headline leads with "Not as typed: vLLM refuses …" (trial s30 #1); the
estimator's memory verdict (``report.feasible``) is the start with the variable set. The JSON
gives the headline's verdict as ``report.feasible`` / ``report.feasible_reason``
('max_model_len_past_config') and the memory verdict as ``report.feasible_with_override``, so the
JSON and the headline agree."""

from __future__ import annotations

from estimator.models import SizingReport

PAST_CONFIG = "max_model_len_past_config"
"""``report.feasible_reason`` where vLLM refuses the typed max_model_len past the model config."""


def refused_as_typed(report: SizingReport, start_only: bool) -> bool:
    """Whether the headline says vLLM refuses the typed max_model_len while the memory fits: the
    'vllm_long_max_model_len' note is there and the memory verdict is not already 'no'. Every serving
    headline leads with the refusal since trial s30 #1 (not only the start-only one), so ``start_only``
    no longer decides it (kept for the caller's signature)."""
    del start_only
    if report.feasible in (None, "no"):
        return False
    return any(w.code == "vllm_long_max_model_len" for w in report.warnings)


def typed_verdict(report: SizingReport, start_only: bool) -> dict[str, str | None]:
    """``report.feasible``, ``feasible_reason`` and ``feasible_with_override`` of the JSON contract: the
    headline's 'no' as typed (module doc), else the estimator's verdict (``feasible_with_override``
    None)."""
    if refused_as_typed(report, start_only):
        return {"feasible": "no", "feasible_reason": PAST_CONFIG, "feasible_with_override": report.feasible}
    return {
        "feasible": report.feasible,
        "feasible_reason": report.feasible_reason,
        "feasible_with_override": None,
    }
