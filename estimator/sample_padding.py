"""Samples counted at the stated sequence length (issue 24): 'cutoff_len: 4096, 50,000 samples' says how
long a sample may be, not how long each one is. Memory is sized at the cap (the longest batch), and the
time counts every sample at it — an upper bound, said in the reply: without packing each batch is padded
to its own longest sample, not to the cap (LLaMA-Factory's SFT data collator, built on transformers
``DataCollatorForSeq2Seq`` with ``padding=True``); with packing, samples are joined into sequences of
the cap, so the bound holds with equality only when samples fill it."""

from __future__ import annotations

from estimator.ledger import Ledger
from estimator.models import SizingRequest
from estimator.reasons import Why


def samples_at_cap(req: SizingRequest, ledger: Ledger) -> float:
    """Tokens per sample when samples and a sequence length are stated, but not the samples' length:
    the sequence length (tokens), with its reason (packed or padded) and a note that the time is an upper
    bound. Requires ``req.seq_len``."""
    assert req.seq_len
    why = Why.samples_packed if req.packing else Why.samples_at_seq_len
    per = ledger.assume("tokens_per_sample", req.seq_len, why)
    ledger.note("time_bound_packed" if req.packing else "time_bound_padded", length=req.seq_len)
    return per
