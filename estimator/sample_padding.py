"""Samples counted at the stated sequence length (issue 24): 'cutoff_len: 4096, 50,000 samples' says how
long a sample may be, not how long each one is. Memory is sized at the cap (the longest batch), and the
time counts every sample at it — an upper bound, said in the reply: without packing each batch is padded
to its own longest sample, not to the cap (e.g. LLaMA-Factory's SFT data collator, built on
transformers ``DataCollatorForSeq2Seq`` with ``padding=True``; the note names the tool in use:
:data:`PADS_PER_BATCH`); with packing, samples are joined into sequences of
the cap, so the bound holds with equality only when samples fill it."""

from __future__ import annotations

from estimator.ledger import Ledger
from estimator.models import SizingRequest
from estimator.reasons import Why


def samples_at_cap(req: SizingRequest, ledger: Ledger) -> float:
    """Tokens per sample when samples and a sequence length are stated, but not the samples' length:
    padded, the sequence length (tokens), with its reason and a note that the time is an upper bound;
    packed (axolotl ``sample_packing``, LLaMA-Factory ``packing``/``neat_packing``, TRL ``packing``),
    the dataset's own tokens — samples × the average sample (:data:`estimator.defaults.TOKENS_PER_SAMPLE`,
    at most the sequence length): packing joins samples into full sequences, so no token is padding
    (s24 trial #14: 100K samples × 8,192 = 35 days for a chat dataset). Requires ``req.seq_len``."""
    assert req.seq_len
    if req.packing:
        from estimator import defaults

        average = min(defaults.TOKENS_PER_SAMPLE.value, req.seq_len)
        return ledger.assume("tokens_per_sample", average, Why.samples_packed_average, length=req.seq_len)
    per = ledger.assume("tokens_per_sample", req.seq_len, Why.samples_at_seq_len)
    if req.training_tool not in PADS_PER_BATCH:
        ledger.note("time_bound_padded", length=req.seq_len)
    else:  # the tool in use, never another's (trial s16 #5)
        ledger.note("time_bound_padded", length=req.seq_len, tool=req.training_tool)
    return per


PADS_PER_BATCH = frozenset({"LLaMA-Factory", "TRL", "HF Trainer", "ms-swift", "OpenRLHF", "verl"})
"""Tools whose collators pad a batch to its longest sample: LLaMA-Factory (transformers
``DataCollatorForSeq2Seq``, padding=True), TRL (its trainers' collators pad to the batch's longest), the
Hugging Face Trainer with ``DataCollatorWithPadding``, ms-swift, OpenRLHF and verl's rollouts (padded per
batch or unpadded: never to the cap). Any other tool or none: the note names no tool."""
