"""The KV cache per token an answer shows, the one figure of the reply and the JSON (session 30, L2).

With sliding-window layers (Gemma 2/3, gpt-oss, Mistral's window) each sequence keeps only the window on
those layers, so the per-sequence KV (``Inference.kv_bytes_per_sequence``) is below
``kv_bytes_per_token`` × context; the reply multiplies out the average over the context instead, and the
JSON gives that figure as ``report.inference.kv_bytes_per_token_shown`` (bytes per token)."""

from __future__ import annotations

from estimator.models import Inference

AVERAGED_BELOW = 0.99
"""Below this share of the full per-token figure the average is shown (and said to be one)."""


def kv_per_token_shown(inf: Inference) -> tuple[float, bool]:
    """(bytes per token shown, whether it is the average over the context): the average
    kv_bytes_per_sequence ÷ context_tokens where sliding-window layers make it lower, else
    kv_bytes_per_token."""
    per_token = inf.kv_bytes_per_token
    average = inf.kv_bytes_per_sequence / inf.context_tokens if inf.context_tokens else per_token
    if average >= AVERAGED_BELOW * per_token:
        return per_token, False
    return average, True
