"""A finished run, then the job asked about (session 14 fresh-user trial #1, #2):
'上个月2台8卡H800跑了36小时，LoRA微调Qwen2-72B，5亿token。现在10亿token，用4台8卡H800要多久？' sized the
5亿 on 32 cards and named the 36 and the 10亿 as run results; 'We pretrained a 1.3B model on 100B tokens
with 32 A100s in 4 days. How long for 7B on 1T tokens with 256 H100s?'
read the 4 days as a deadline and dropped the 256 H100.

The message is cut where the new job starts: a word of this time ('现在', '这次', '这回', 'now', 'this time')
opening a clause after the run, or, with none, the sentence after the run's. The part before states the
finished run (a past-run verb and its duration, its cards, count and data); the part after states the
job. The job is the later part's parse, each field it does not state taken from the run's (the same
model, method, card, epochs: '现在有10万条数据，想两周内做完，最少需要几张卡？' is the same full fine-tune of
ChatGLM3-6B on A100 40G, 3 epochs). Its count is never carried when the later part asks for one.

The run measured a throughput, k·N·D ÷ (GPUs × seconds) per GPU (:mod:`bot.parse.earlier_run`; k = 6 for
full training, 4 for LoRA/QLoRA; D in tokens, samples × epochs × the tokens per sample the estimator
assumes). With the same method on the same card the MFU carries over (the data and the model may differ): the
job is timed at that throughput (``achieved_tflops_per_gpu``) unless it exceeds the cards' peak (set
aside, ``earlier_run_above_peak``), named ``earlier_run_same_job`` (the same model) or
``earlier_run_other_model`` (s15 trial #2: 'full fine-tune of Llama-3.2-3B … 20 hours. How long for
Llama-3.1-8B on the same 8 H100s?'). The same model and method on another card (s17 trial #3: 8 × A800,
then 16 × H100): the MFU it reached (its throughput ÷ its card's peak), carried by the calibrated ratio of
the two generations' likely MFU (:func:`bot.parse.scaled_run.card_ratio`: A100-class → H100-class × 0.7),
times the new job on the new card (``mfu``, named ``earlier_run_other_card``). Another model on another
card, or another method: the run and its MFU are named (``earlier_run_other_job``), not used.
"""

from __future__ import annotations

import re
from operator import itemgetter

from bot.parse.asides import without_other_setups
from bot.parse.bare_nodes import machines_in
from bot.parse.cluster_rate import CLUSTER_RATE, with_cluster_rate
from bot.parse.earlier_counts import ASKS_COUNT_AFTER_RE
from bot.parse.earlier_run import (
    ABOVE_PEAK,
    RL_ALGORITHMS,
    RL_RUN,
    SAME_DATA_RE,
    earlier_run,
    with_earlier_run,
)
from bot.parse.message import parse_one as parse
from bot.parse.numbers import parse_chinese_numeral
from bot.parse.result import ParseResult
from estimator import catalog
from estimator.ledger import Ledger
from estimator.models import Algorithm, Method, SizingRequest, Stage
from estimator.training_setup import assume_tokens_per_sample

_REASON = itemgetter(1)
SAME_JOB = "earlier_run_same_job"
"""The reason of an earlier run of the same model and method once it calibrates the new job."""
OTHER_MODEL = "earlier_run_other_model"
"""The reason of an earlier run of another model on the same cards and method (s15 trial #2): the MFU it
reached times the new job (a larger model usually reaches a little more, a smaller one a little less)."""
OTHER_JOB = "earlier_run_other_job"
"""The reason of an earlier run of another model or method: named with its MFU, not used."""
OTHER_CARD = "earlier_run_other_card"
"""The reason of an earlier run of the same model and method on another card (s17 trial #3): the MFU it
reached times the new job on the new card (a newer card often reaches a different MFU)."""
PAST_VERB_RE = re.compile(
    r"跑了|训了|训练了|练了|用了|花了|耗时|上次|上回"
    r"|\b(?:ran|took|trained|pretrained|pre-trained|fine-tuned|finetuned|spent|lasted|last\s+time)\b",
    re.IGNORECASE,
)
_EN_COUNTS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
_EN_COUNTS |= {"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "couple of": 2}
DURATION_RE = re.compile(
    r"(?P<n>\d+(?:\.\d+)?|(?<![一两二三四五六七八九十半])[一两二三四五六七八九十]{1,3}|半"
    r"|\b(?:" + "|".join(_EN_COUNTS) + r")(?=\s))\s*(?:个)?(?P<half>半)?\s*"
    r"(?P<unit>小时|天|周|星期|月|hours?|hrs?|days?|weeks?|months?)(?![a-z])",
    re.IGNORECASE,
)
"""A run's duration: '36小时', '3 days', '两个月', '一个半月', 'about two weeks' (trial s20 #2: a month or a
count in words was not read, so the run was named another setup); a month is 30.4 days (365 ÷ 12)."""
NOW_RE = re.compile(
    r"(?:^|(?<=[。！？!?;；\n，,.]))\s*(?:现在|这次|这回|今次|\bnow\b|\bthis\s+time\b"
    r"|(?:那|那么|如果|要是|假如|若)?(?:换成|换到|换用|换|改用|改成|改到)(?=\s*(?:\d|[a-z]|[一两二三四五六七八九十]))"
    r"|\b(?:if\s+we\s+(?:switch|move|go)|switching|moving)\s+to\b"
    r"|(?P<use>(?:请问?)?\s*(?:(?:推测|估计|估算|预估|算)\s*(?:一下)?\s*)?(?:那|那么|如果|要是|假如|若)?\s*用"
    r"(?=\s*(?:\d{1,4}|[一两二三四五六七八九十]{1,3})\s*(?:张|块|台|卡|个)\s*(?:的\s*)?[a-z0-9])))",
    re.IGNORECASE,
)
"""Where the job starts: a word of this time, or a change of cards opening a clause ('…跑了 3 天，换成 8 张
H100 要多久': trial s18 #2, the run had been named 'another setup' and the job sized from scratch); round
35 zh: cards to use opening the next clause after the run, in the same sentence ('8 块 4090 训练了 46 小时，
请推测一下用 3 张 A800 需要训练多久', '8 张 4090 跑了 10 小时，用 4 张 A100 要多久') — only after a
past-run verb (``use``: '微调 7B，用 8 张 A100 跑了 3 天' is the run's own cards)."""
SENTENCE_RE = re.compile(r"[。！？!?；;\n]|\.(?=\s)")
_SECONDS = {"小时": 3600, "天": 86400, "周": 604800, "星期": 604800, "月": 2_626_560}
_TRAINING = (Stage.pretrain, Stage.finetune, Stage.continued_pretrain)
_NOT_CARRIED = frozenset(
    {"gpu_count", "hours", "deadline_days", "budget", "count_asked", "achieved_tflops_per_gpu"}
)
_DATA = ("tokens", "num_samples")


def _seconds(m: re.Match[str]) -> float:
    unit, n = m.group("unit").lower(), m.group("n")
    per = _SECONDS.get(unit) or (86400 if unit.startswith("d") else 604800 if unit.startswith("w") else 3600)
    per = _SECONDS["月"] if unit.startswith("mo") else per
    count = 0.5 if n == "半" else float(n) if n[0].isdigit() else _EN_COUNTS.get(n.lower())
    count = count if count is not None else parse_chinese_numeral(n) or 0.0
    return (count + (0.5 if m.group("half") else 0.0)) * per


def split_at_job(text: str) -> tuple[str, str, re.Match[str]] | None:
    """(the finished run's part, the job's part, the run's duration) of ``text``, or None when it
    does not start with a finished run (a past-run verb and one duration) followed by another part.
    s42-tail: a text with no past-run verb is None whichever way it is cut (the run's part must hold one),
    so :data:`PAST_VERB_RE` is asked first and :data:`NOW_RE`, tried at every position, only after one
    (a 12,000-character pasted sample: ~0.5 ms CPU less)."""
    verb = PAST_VERB_RE.search(text)
    if verb is None:
        return None
    for now in NOW_RE.finditer(text):  # a loop, not next(genexpr): no generator frame a parse
        if now.start() > 0 and (not now.group("use") or PAST_VERB_RE.search(text, 0, now.start())):
            cut = now.start()
            break
    else:
        took = DURATION_RE.search(text, verb.end())  # 'trained …; it took two weeks.'
        end = SENTENCE_RE.search(text, took.end() if took else verb.end())
        cut = end.end() if end else -1
    if cut <= 0 or not text[cut:].strip():
        return None
    before = text[:cut]
    durations = list(DURATION_RE.finditer(before))
    if not PAST_VERB_RE.search(before) or len(durations) != 1:
        return None
    return before, text[cut:], durations[0]


def _data_tokens(req: SizingRequest) -> float | None:
    """The tokens a run trained on: tokens × epochs, or samples × epochs × tokens per sample."""
    epochs = req.epochs or 1.0
    if req.tokens:
        return req.tokens * epochs
    if req.num_samples:
        per = req.tokens_per_sample or req.seq_len
        per = per or assume_tokens_per_sample(req, req.stage or Stage.finetune, Ledger())
        return req.num_samples * per * epochs
    return None


def _job(run: ParseResult, later: ParseResult, after: str) -> SizingRequest:
    """The later part's request (``after``: its text), each field it does not state taken from the
    run's (module doc)."""
    req, old = later.request, run.request
    update: dict[str, object] = {}
    own_model = "model" in later.found or "params_total" in later.found
    for field in run.found:
        if field in _NOT_CARRIED or field in later.found or not hasattr(req, field):
            continue
        if field in _DATA and any(f in later.found for f in _DATA):
            continue
        if field in ("model", "params_total") and own_model:
            continue
        if field == "gpu_memory_gib" and "gpu" in later.found:  # the run's card's memory, not the job's
            continue
        update[field] = getattr(old, field)
    if "stage" in later.found and req.stage not in _TRAINING:
        return req  # '现在想部署它': a serving job, not timed by the run
    if "method" not in later.found and not own_model and old.stage in _TRAINING:
        update.update(stage=old.stage, method=old.method)  # '现在10亿token': the same fine-tune
    elif update.get("algorithm") not in (None, Algorithm.sft) and old.stage in _TRAINING:
        update["stage"] = old.stage  # the run's GRPO/DPO on another model: post-training, never pre-training
    machines = machines_in(after, [t for t, why in later.unused_numbers if why == "unread"])
    if machines and old.gpus_per_node and "gpu_count" not in later.found:  # '用4台': 4 of the run's 8-GPU
        update.update(
            gpu_count=int(machines) * old.gpus_per_node, gpus_per_node=old.gpus_per_node
        )  # machines
    asked = "count_asked" in later.found or ASKS_COUNT_AFTER_RE.search(after) is not None  # 'how many H100?'
    if (
        "gpu_count" in run.found
        and "gpu_count" not in update
        and "gpu_count" not in later.found
        and not asked
    ):
        update["gpu_count"] = old.gpu_count  # the same cards when the job names none and asks none
    return req.model_copy(update=update)


def with_past_then_now(parsed: ParseResult, text: str) -> ParseResult:
    """``parsed`` (the whole message's), or the job after a finished run calibrated by it (module doc);
    unchanged (the same object) when the message is no such pair."""
    cut = split_at_job(text)
    if cut is None:
        return parsed
    before, after, duration = cut
    run, later = parse(before), without_other_setups(parse(after))
    old = run.request
    if old.stage not in _TRAINING or not (old.gpu and old.gpu_count and old.params_total):
        return parsed
    later_keys = ("tokens", "num_samples", "gpu_count", "count_asked", "params_total")
    card_only = "gpu" in later.found and "duration_asked" in later.found  # '换成H100要多久' (trial s20-2)
    if not card_only and not any(f in later.found for f in later_keys):
        return parsed
    job = _job(run, later, after)
    if (
        job.gpu_count
        and later.request.gpu_count is None
        and job.gpus_per_node
        and old.gpu_count != job.gpu_count
    ):
        later = _machines_read(later, job)
    d_old = _data_tokens(old)
    if job.stage in _TRAINING and d_old is None:  # no data size: the same job, scaled (s17-2 #4)
        from bot.parse.scaled_run import scaled_hours

        hours = scaled_hours(old, job, _seconds(duration))
        if hours is None:
            return parsed
        from bot.parse.scaled_run import SCALED, scaled_said

        item = (scaled_said(_said(run, old, duration.group(0)), hours, job, parsed.lang), SCALED)
        return _result(parsed, later, job.model_copy(update={"hours": round(hours, 2)}), item)
    if job.stage not in _TRAINING or d_old is None:
        return parsed
    other_model_same_data = job.params_total != old.params_total and SAME_DATA_RE.search(after) is not None
    if other_model_same_data and earlier_run(parsed):
        return parsed  # another model on the same data, read as bot.parse.earlier_run reads it
    k = 4.0 if old.method in (Method.lora, Method.qlora) else 6.0
    spec = catalog.models().get(old.model or "")
    params = spec.params_total if spec is not None and spec.params_total else old.params_total  # 7.6B
    params = (
        old.params_active or (spec.params_active if spec is not None else None) or params
    )  # MoE: 6·N_active·D
    tflops = k * params * d_old / (old.gpu_count * _seconds(duration)) / 1e12
    gpu = catalog.gpus().get(old.gpu)
    peak = gpu.peak_flops_16bit / 1e12 if gpu is not None and gpu.peak_flops_16bit else None
    said = _said(run, old, duration.group(0))
    mfu = f" → MFU {tflops / peak:.1%}" if peak else ""
    same_run = job.method == old.method and job.gpu == old.gpu  # the same cards and method: its MFU carries
    if not same_run and other_model_same_data:
        return parsed  # another card's run on the same data: the whole message is the job (s13 fix D)
    if {old.algorithm, job.algorithm} & RL_ALGORITHMS:  # the rollouts' generation is not k·N·D (s16)
        return _result(parsed, later, job, (f"{said}{mfu}", RL_RUN))
    other_card = job.method == old.method and job.params_total == old.params_total and not job.mfu
    if peak is not None and tflops <= peak and not same_run and other_card:  # only the card changed
        from bot.parse.scaled_run import card_ratio

        carried = tflops / peak * card_ratio(gpu, job.gpu, params)  # its MFU, as the new generation has it
        job = job.model_copy(update={"mfu": round(carried, 3)})
        return _result(parsed, later, job, (f"{said}{mfu} → {carried:.1%}", OTHER_CARD))
    if not same_run or peak is None or tflops > peak:
        why = OTHER_JOB if not same_run else ABOVE_PEAK
        return _result(parsed, later, job, (f"{said}{mfu}", why))
    job = job.model_copy(update={"achieved_tflops_per_gpu": round(tflops, 1)})
    why = SAME_JOB if job.params_total == old.params_total else OTHER_MODEL  # '3B run → 8B': its MFU (s15)
    return _result(parsed, later, job, (f"{said}{mfu}", why))


def _said(run: ParseResult, old: SizingRequest, duration: str) -> str:
    """'Qwen2-72B · 16 × H800 · 36小时': the run in one item."""
    model = run.model_typed or old.model or f"{(old.params_total or 0) / 1e9:g}B"
    card = (old.gpu or "").split("-")[0]
    return f"{model} · {old.gpu_count} × {card} · {duration.strip()}"


def _machines_read(later: ParseResult, job: SizingRequest) -> ParseResult:
    """``later`` with its machine count ('4台', '4 nodes') read as machines × the run's GPUs per machine
    (bot.parse.bare_nodes): no longer unread, and said as read ('4台' → '4 × 8 = 32')."""
    per = job.gpus_per_node or 1
    typed = f"{(job.gpu_count or 0) // per:g}"
    unused = [(t, why) for t, why in later.unused_numbers if (t, why) != (typed, "unread")]
    read = (typed, f"{typed} × {per} = {job.gpu_count}", "ji_ka_each")
    return later.model_copy(
        update={
            "unused_numbers": unused,
            "nodes_read": [*later.nodes_read, read],
            "found": [*later.found, "gpu_count"],
        }
    )


def _result(
    parsed: ParseResult, later: ParseResult, job: SizingRequest, item: tuple[str, str]
) -> ParseResult:
    found = sorted(f for f in set(parsed.found) | set(later.found) if getattr(job, f, True) is not None)
    unused = [*later.unused_numbers, item]
    return later.model_copy(
        update={"request": job, "found": found, "unused_numbers": unused, "lang": parsed.lang}
    )


def with_past_runs(parsed: ParseResult, text: str) -> ParseResult:
    """``parsed`` read for a finished run before the job (:func:`with_past_then_now`), then for an
    earlier run on the same data (:func:`bot.parse.earlier_run.with_earlier_run`), then for a cluster's
    training rate (:func:`bot.parse.cluster_rate.with_cluster_rate`) and a plain 内存 size beside its card
    (:func:`bot.parse.host_plain.with_plain_ram`): run once a parse, so these steps cost no frame of their own
    (tests/test_parse_render_speed.py) and keep bot.parse.parse within 80 lines."""
    parsed = with_earlier_run(with_past_then_now(parsed, text))
    if CLUSTER_RATE in parsed.notes:  # s42 zhleft #2: a cluster's training rate, per GPU by its count
        parsed = with_cluster_rate(parsed)
    req = parsed.request  # s42 zhleft #3: '单张 4090，内存 128G': the host's RAM or the card's own size
    if (
        req.gpu
        and ("内存" in parsed.normalized or "memory" in parsed.normalized)
        and (req.host_memory_gib or "unread" in map(_REASON, parsed.unused_numbers))  # in C: no frame
    ):
        from bot.parse.host_plain import with_plain_ram  # imported when used: start-up

        return with_plain_ram(parsed)
    return parsed
