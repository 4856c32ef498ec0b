"""The batch lines of a reply's memory section (split from :mod:`bot.render.memory_text`, s28 tidy): the
plan's global batch as micro-batch × accumulation × DP (DeepSpeed ``_batch_assertion``:
train_batch_size = micro × accumulation × world size ÷ model parallel), the accumulation that keeps a
stated global batch on another layout, and a stated batch that does not fit before the one that does
(design §8). Counts of sequences and tokens, formatted by :class:`bot.render.fmt.Fmt`."""

from __future__ import annotations

from typing import Any

from bot.render.fmt import Fmt
from bot.render.i18n import N_, translate
from bot.render.plan_text import gpus_text
from estimator.models import Plan, SizingReport
from estimator.training_tools import tool_limits


def _step_sequence_tokens(request: Any) -> int | None:
    """Tokens a sequence of the batch trains on average: a sample's when the data is a sample count
    with its own (or an assumed) length, else the sequence length. SFT on a bare count: 512, not the
    2,048 the memory is sized at (estimator.training_setup.sample_tokens). Packed (``request.packing``):
    the sequence length, each sequence full of joined samples (trial s43 q10: '样本打包成满长序列' beside
    '128 条序列（19.2万 token，按每条样本 1,500 token 计）')."""
    if request.packing and request.seq_len:
        return request.seq_len
    per_sample = request.tokens_per_sample if request.num_samples else None
    return per_sample or request.seq_len


def batch_line(
    plan: Any, seq_len: int | None, f: Fmt, memory_seq: int | None = None
) -> dict[str, str] | None:
    """The plan's global batch and the gradient accumulation it implies (estimator.plan.with_batch).
    ``seq_len`` is the tokens a sequence trains on (a sample's); when the sequence length the memory is
    laid out for (``memory_seq``) is longer, both are named (``sample``, ``seq``: trial s12 D5, '序列
    4096 … 每条 1500 token' gave '128 条序列（19.2万 token）' beside a sequence length of 4,096)."""
    if plan.global_batch_sequences is None or plan.gradient_accumulation is None:
        return None
    py = f._python_digits  # f.int's Python path in place: no frame a figure (s36)
    out = {
        "global": f"{round(plan.global_batch_sequences):,}" if py else f.int(plan.global_batch_sequences),
        "tokens": f.tokens(plan.global_batch_sequences * seq_len) if seq_len else "—",
        "micro": f"{round(plan.micro_batch):,}" if py else f.int(plan.micro_batch),
        "accumulation": f"{round(plan.gradient_accumulation):,}" if py else f.int(plan.gradient_accumulation),
        "dp": f"{round(plan.dp):,}" if py else f.int(plan.dp),
    }
    if seq_len and memory_seq and memory_seq > seq_len:
        out |= {"sample": f.int(seq_len), "seq": f.int(memory_seq)}
    return out


ACCUMULATION_REDERIVED = N_(
    "Your %(user_accumulation)s accumulation × micro-batch %(micro)s on %(user_gpus)s (DP %(user_dp)s) is "
    "%(global)s sequences per step; this layout's DP %(dp)s keeps that step with %(accumulation)s "
    "accumulation (with your %(user_accumulation)s, each optimizer step would see fewer sequences)"
)
"""A stated accumulation on a plan whose data parallelism is not the user's GPU count (s17 trial t2: the
8 became 16 on TP 2 × DP 4 without a word): the global batch they set is kept (micro × accumulation ×
DP: DeepSpeed ``_batch_assertion``) and the accumulation that keeps it is named."""


BATCH_ROUNDED = N_(
    "%(target)s → %(global)s sequences per step: a whole number of micro-batch × DP (%(per_step)s), "
    "%(accumulation)s accumulation steps"
)
"""The global batch asked or assumed, rounded to a whole number of micro-batch × DP sequences
(:func:`estimator.plan_batch.with_batch`: 1,024 on DP 136 → 8 × 136 = 1,088), said beside the batch
line (trial s30 #2: the assumptions said 1,024, the batch line 1,088, nothing why)."""


def _given_batch(req: Any) -> int | None:
    """The user's global batch the plan was rounded from (not verl's, which counts prompts × rollout.n,
    nor one beside a stated accumulation: estimator.training_setup ``_global_batch``)."""
    given = getattr(req, "global_batch", None)
    if not given or getattr(req, "gradient_accumulation", None):
        return None
    limits = tool_limits(getattr(req, "training_tool", None))
    return None if limits is not None and limits.whole_step_rollout else int(given)


def _rounded(report: SizingReport, main: Plan, line: dict[str, str], f: Fmt) -> str | None:
    """:data:`BATCH_ROUNDED` where ``main``'s global batch is not the one assumed
    (``assumptions['global_batch']``) or asked, unless the note 'global_batch_adjusted' already says so
    for this very batch. Plain loops: no generator frames on every training reply (render speed pin)."""
    target = None
    for row in report.assumptions:
        if row.field == "global_batch":
            target = int(row.value) if isinstance(row.value, int | float) else None
            break
    else:
        target = _given_batch(report.request)
    got = main.global_batch_sequences
    if target is None or got is None or got == target:
        return None
    for w in report.warnings:
        if w.code == "global_batch_adjusted" and w.params.get("adjusted") == got:
            return None
    per_step = f.int(main.micro_batch * main.dp)
    return translate(f.lang, BATCH_ROUNDED, target=f.int(target), per_step=per_step, **line)


STEPS_ASKED = N_(
    "→ %(steps)s optimizer steps over the run (%(data)s tokens ÷ %(step_tokens)s tokens a step). "
)
"""The answer to 'which global batch?' (trial s42 #7, :mod:`bot.parse.batch_asked`): the steps the run
takes at the batch shown, steps = tokens trained ÷ (global batch × tokens a sequence), then why the batch is
that size (:data:`BATCH_WHY`)."""

BATCH_WHY = {
    "global_batch_finetune_long": N_(
        "The batch is capped at about %(cap)s tokens a step, a pre-training step's (Llama 2 §2.2), as "
        "Llama 2 Long kept it at 32,768-token sequences (Xiong et al. 2023 §2): the usual 128 sequences "
        "would be %(full)s tokens a step and %(full_steps)s steps."
    ),
    "global_batch_finetune": N_(
        "128 sequences a step is the Stanford Alpaca and Vicuna fine-tuning batch (Taori et al. 2023); a "
        "larger batch gives fewer steps, a smaller one more."
    ),
    "global_batch_pretrain": N_(
        "About 4M tokens a step is Llama 2's global batch (Touvron et al. 2023 §2.2)."
    ),
}
"""Why the batch is its size, by the ledger key of the assumed global batch (estimator.training_setup
``_global_batch``); a stated batch is the user's and gets none."""


def steps_text(report: SizingReport, main: Plan, f: Fmt) -> str | None:
    """:data:`STEPS_ASKED` and :data:`BATCH_WHY` for ``main``'s global batch, when the request asks the
    batch (``global_batch_asked``) and states its tokens; None otherwise."""
    req = report.request
    per_sequence, data, batch = _step_sequence_tokens(req), req.tokens, main.global_batch_sequences
    if not (getattr(req, "global_batch_asked", None) and per_sequence and data and batch):
        return None
    steps = data / (batch * per_sequence)
    out = translate(
        f.lang,
        STEPS_ASKED,
        steps=f.int(steps) if steps >= 10 else f.num(steps, 1),
        data=f.tokens(data),
        step_tokens=f.tokens(batch * per_sequence),
    )
    row = next((a for a in report.assumptions if a.field == "global_batch"), None)
    why = BATCH_WHY.get(row.why) if row is not None else None
    if why is None:
        return out.rstrip()
    full = 128 * per_sequence
    extra = {"cap": f.tokens(row.params.get("tokens") or 0), "full": f.tokens(full)}
    extra["full_steps"] = f.num(data / full, 1) if data / full < 10 else f.int(data / full)
    return out + translate(f.lang, why, **extra)


def memory_batch(report: SizingReport, main: Plan | None, f: Fmt) -> dict[str, str] | None:
    """:func:`batch_line` of ``main``, with ``kept`` (:data:`ACCUMULATION_REDERIVED`) when the user's
    stated accumulation is not the plan's, else ``rounded`` (:data:`BATCH_ROUNDED`) when the global
    batch asked or assumed is not a whole number of micro-batch × DP."""
    req = report.request
    line = batch_line(main, _step_sequence_tokens(req), f, req.seq_len) if main is not None else None
    stated = getattr(req, "gradient_accumulation", None)
    if line is not None and main is not None and (rounded := _rounded(report, main, line, f)):
        line = line | {"rounded": rounded}
    if line is not None and main is not None and getattr(req, "global_batch_asked", None):
        line = line | {"steps": steps_text(report, main, f) or ""}  # 'which global batch?' (s42 #7)
    if line is None or main is None or not (stated and req.global_batch and req.batch_size and req.gpu_count):
        return line
    if main.gradient_accumulation == stated or main.micro_batch != req.batch_size:
        return line
    user_dp = max(1, int(req.global_batch) // (int(req.batch_size) * stated))
    kept = {
        "user_accumulation": f.int(stated),
        "user_gpus": gpus_text(f.lang, req.gpu_count),
        "user_dp": f.int(user_dp),
    }
    return line | {"kept": translate(f.lang, ACCUMULATION_REDERIVED, **kept, **line)}


STATED_BATCH_UNFIT = N_(
    "Batch: yours on %(user_gpus)s, %(user_global)s sequences per step = micro-batch %(user_micro)s × "
    "%(user_accumulation)s accumulation × DP %(user_dp)s, does not fit (%(per_gpu)s per GPU of "
    "%(usable)s); on %(gpus)s: %(global)s sequences per step (%(tokens)s tokens) = micro-batch %(micro)s "
    "× %(accumulation)s accumulation × DP %(dp)s"
)
"""The batch line when the user's micro-batch and accumulation (or global batch) do not fit their GPUs
and the layout explained is another: theirs sized first, then the batch of the layout that fits
(design §8: their setting first, then what fits — never an accumulation re-derived for another layout
alone)."""


def stated_batch_text(report: SizingReport, main: Plan | None, f: Fmt) -> str | None:
    """:data:`STATED_BATCH_UNFIT`: the plan at the user's GPU count (``memory.plan``: their micro-batch
    and the accumulation their global batch gives there) when it does not fit, then ``main``'s batch;
    None when they fit, stated no micro-batch or no global batch, or ``main`` is their layout."""
    m, req = report.memory, report.request
    if m is None or m.plan is None or main is None or m.fits_requested is not False:
        return None
    if main is m.plan or main == m.plan:  # `is` first: no pydantic __eq__ frame
        return None
    if not (req.gpu_count and req.batch_size and req.global_batch):
        return None
    seq = _step_sequence_tokens(req)
    stated, fits = batch_line(m.plan, seq, f), batch_line(main, seq, f)
    if stated is None or fits is None:
        return None
    return translate(
        f.lang,
        STATED_BATCH_UNFIT,
        user_gpus=gpus_text(f.lang, req.gpu_count),
        **{f"user_{k}": v for k, v in stated.items() if k != "tokens"},
        per_gpu=f.gib(m.per_gpu_bytes),
        usable=f.gib(m.usable_bytes),
        gpus=gpus_text(f.lang, main.tp * main.pp * main.dp),
        **fits,
    )
