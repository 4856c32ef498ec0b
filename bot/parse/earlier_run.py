"""An earlier run as a calibration (s14 trial): '上次用 8 张 A100 训 7B 用了 3 天，这次 13B 同样 500 亿 token
要多久' — the earlier run on the same data, cards and count measured a throughput: model FLOPs
k·N·D ÷ (GPUs × seconds) per GPU (k = 6 for full training, 4 for LoRA/QLoRA: the FLOPs per parameter
per token the estimator times the new job with). That throughput is the user's measurement
(``achieved_tflops_per_gpu``): the estimator turns it into the MFU of the new job — or sets it aside
with a note when it exceeds the card's peak, as it does any measured throughput
(:func:`estimator.training_rate.training_rate`). Read from what the parser gives: the run's duration and
model named as another setup (``other_setup``: bot.parse.earlier_counts), the job's card, count and
tokens, and a word saying the data is the same."""

from __future__ import annotations

import re
from typing import NamedTuple

from bot.parse.result import ParseResult
from estimator import catalog
from estimator.compute import flops_per_param_token
from estimator.models import Algorithm, Method, Stage

EARLIER_RUN = "earlier_run"
"""The reason of the earlier run's duration and model once they calibrate the answer."""
ABOVE_PEAK = "earlier_run_above_peak"
"""The reason of an earlier run whose throughput exceeds the cards' dense peak: set aside."""
RL_RUN = "earlier_run_rl"
"""The reason of an earlier RL run (GRPO, RLOO, PPO), set aside (s16 item 5): most of its time is the
rollouts' generation, which k·N·D does not count (an 'MFU 0.3 %' is no training rate); the new job is timed
with the rollouts the estimator models (estimator.rollout)."""
RL_ALGORITHMS = frozenset({Algorithm.grpo, Algorithm.rloo, Algorithm.ppo})
"""The algorithms whose steps generate rollouts (estimator.compute.flops_per_param_token)."""
SAME_DATA_RE = re.compile(
    r"(?:同样|相同|一样)(?:的)?\s*(?:\d|数据|token|样本|语料|训练集)|\bsame\s+(?:\d|data|dataset|tokens?|corpus)"
)
"""'同样 500 亿 token', '相同的数据', 'on the same data': the earlier run saw the job's tokens."""
_DURATION_RE = re.compile(
    r"^(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>天|日|小时|个小时|周|星期|days?|hours?|hrs?|weeks?)$", re.IGNORECASE
)
_SECONDS = {"天": 86400, "日": 86400, "小时": 3600, "个小时": 3600, "周": 604800, "星期": 604800}
_MODEL_RE = re.compile(r"^model:\s*(?P<name>.+)$")
_SIZE_RE = re.compile(r"^(?P<n>\d+(?:\.\d+)?)\s*b$", re.IGNORECASE)
_TRAINING = (Stage.pretrain, Stage.finetune, Stage.continued_pretrain)


class EarlierRun(NamedTuple):
    """An earlier run: its model's parameters, its wall-clock seconds, and its two named items."""

    params: float
    seconds: float
    items: tuple[tuple[str, str], ...]


def _seconds(text: str) -> float | None:
    m = _DURATION_RE.match(text.strip())
    if m is None:
        return None
    unit = m.group("unit").lower()
    per = _SECONDS.get(unit) or (86400 if unit.startswith("d") else 604800 if unit.startswith("w") else 3600)
    return float(m.group("n")) * per


def _params(text: str) -> float | None:
    m = _MODEL_RE.match(text.strip())
    if m is None:
        return None
    name = m.group("name").strip()
    size = _SIZE_RE.match(name)
    if size is not None:
        return float(size.group("n")) * 1e9
    spec = catalog.models().get(name)
    return spec.params_total if spec is not None else None


def earlier_run(parsed: ParseResult) -> EarlierRun | None:
    """The earlier run of a training question that names one duration and one model as another setup's,
    on the same data ('同样', 'same'), with the job's card, count and tokens known and no throughput or
    MFU of the user's own; None otherwise."""
    req = parsed.request
    if req.stage not in _TRAINING or not (req.gpu and req.gpu_count and req.tokens and req.params_total):
        return None
    if req.mfu or req.achieved_tflops_per_gpu or req.tokens_per_second_per_gpu or req.hours:
        return None
    if not SAME_DATA_RE.search(parsed.normalized):
        return None
    others = [(t, why) for t, why in parsed.unused_numbers if why == "other_setup"]
    durations = [(t, s) for t, _ in others if (s := _seconds(t)) is not None]
    models = [(t, p) for t, _ in others if (p := _params(t)) is not None]
    if len(durations) != 1 or len(models) != 1 or len(others) != 2:  # the run's own count or tokens said:
        return None  # not the job's cards and data (review s14: 8 GPUs' run divided by the job's 16)
    (d_text, seconds), (m_text, params) = durations[0], models[0]
    return EarlierRun(params, seconds, ((m_text, "other_setup"), (d_text, "other_setup")))


def with_earlier_run(parsed: ParseResult) -> ParseResult:
    """``parsed`` with the earlier run's throughput per GPU as the measured one (TFLOPS, model FLOPs:
    k·N·D ÷ (GPUs × seconds) ÷ 10¹²) and its duration and model named as ``earlier_run`` instead of
    another setup; unchanged (the same object) without one (:func:`earlier_run`)."""
    run = earlier_run(parsed)
    if run is None:
        return parsed
    req = parsed.request
    algorithm = req.algorithm.value if req.algorithm else "sft"  # k as the estimator times the job
    k = flops_per_param_token(req.method not in (Method.lora, Method.qlora), algorithm)
    tflops = k * run.params * (req.tokens or 0.0) / ((req.gpu_count or 1) * run.seconds) / 1e12
    gpu = catalog.gpus().get(req.gpu or "")
    peak = gpu.peak_flops_16bit / 1e12 if gpu is not None and gpu.peak_flops_16bit else None
    said = f"{run.items[0][0].removeprefix('model: ')} · {run.items[1][0]}"  # '7B · 3 天': one item
    kept = [(t, why) for t, why in parsed.unused_numbers if (t, why) not in run.items]
    mfu = f" → MFU {tflops / peak:.1%}" if peak else ""
    if req.algorithm in RL_ALGORITHMS or (peak is not None and tflops > peak):  # MFU 325 % or 0.3 %
        why = RL_RUN if req.algorithm in RL_ALGORITHMS else ABOVE_PEAK
        return parsed.model_copy(update={"unused_numbers": [*kept, (f"{said}{mfu}", why)]})
    request = req.model_copy(update={"achieved_tflops_per_gpu": round(tflops, 1)})
    return parsed.model_copy(
        update={"request": request, "unused_numbers": [*kept, (f"{said}{mfu}", EARLIER_RUN)]}
    )
