"""A period's tokens or a batch's duration asked of a served model (s44 trial #3, #4).

'How many tokens per day can a cluster of 16 H100 generate serving Llama-3.1-70B', '8 张 H100 一天能生成
多少 token', '32张A100部署…，一天最多能生成多少token' ask the tokens a deployment generates in a day (or an
hour): ``tokens_period_asked_s`` (86,400 or 3,600). Its period word is masked (same length), so '一天' is not
read as a one-day training deadline. 'we need to process 1B tokens … How long on 8xH100?', '总共10亿token
要处理，8张H100大概要跑多久' ask how long a batch of tokens takes: ``batch_tokens``, masked, with a duration
question ('how long', '多久', '多长时间', '几天') in the message. The estimator answers both from the
deployment's throughput (:mod:`estimator.batch_work`). A token volume per day ('we process 50 million
tokens per day': :mod:`bot.parse.request_volume`) is a load, not asked: it has a number, these have
'how many' / '多少' where the number would be. Callers gate on 'token' and
on its cues (:mod:`bot.parse.token_words`)."""

from __future__ import annotations

from bot.parse.data_purpose import training_job_said
from bot.parse.normalize import mask
from bot.parse.regex import rc
from bot.parse.request_volume import _TN, TRAINING_CUES, _value
from bot.parse.token_words import DURATION_ASK, ROW_WORDS

PERIOD_ASK_RE = rc(
    r"how\s+many\s+(?:output\s+|generated\s+)?tokens?\b[^.?!;]{0,80}?\b(?:per|a|an|each|every|in\s+a|in\s+one)"
    r"\s+(?P<e>day|hour)\b"
    r"|(?P<z>一天|每天|每日|一小时|每小时|一个小时)[^,，。?？;；]{0,16}?(?:能|可以|可)[^,，。?？;；]{0,10}?"
    r"(?:生成|处理|输出|产出|跑|吐|推理)[^,，。?？;；]{0,4}?多少\s*(?:个\s*)?(?:tokens?|词元)"
)
"""'how many tokens per day', 'how many tokens can 8 h100 generate a day', '一天能生成多少 token'."""
BATCH_RE = rc(
    r"(?:process|run|generat|handle|push|infer|through)\w*\s+(?:a\s+total\s+of\s+|about\s+|~\s*|over\s+)?"
    + _TN.format(g="e")
    + r"\s*(?:input\s+|output\s+|prompt\s+)?tokens?\b"
    + r"(?!\s*(?:each|per\s|apiece|a\s+(?:row|prompt|request|sample)))"
    + r"|(?:总共|一共|共|总计)\s*(?:有|要|需要)?\s*"
    + _TN.format(g="z")
    + r"\s*(?:个\s*)?(?:tokens?|词元)"
    + r"|(?<!每)(?<!每[秒条个次行篇份句])(?<!各)(?:生成|产出|推理|处理)\s*(?:了|出)?"
    + r"\s*(?:约|大约|大概|总共|一共|共)?\s*"
    + _TN.format(g="g")
    + r"\s*(?:个\s*)?(?:tokens?|词元)"
)
"""'process 1b tokens', 'generating about 500m tokens' (s46: 'generating' too), '总共10亿token', '一共 5 亿
token', s46 trial #1: '生成 5000 万 token', '总共生成 5000 万 token' (never a rate or a row's: '每秒生成 50
token', '每条生成500个token', 'generating 500 tokens each')."""


def read_token_asks(s: str, whole: str = "") -> tuple[str, dict[str, float], list[str]]:
    """(``s`` with the asked period's word or the batch's tokens masked, {``tokens_period_asked_s`` or
    ``batch_tokens``: value}, the batch's figure as typed); (``s``, {}, []) when neither is asked or a
    training word is written (:data:`bot.parse.request_volume.TRAINING_CUES`: 'the teacher generates 50M
    tokens, then full SFT … How long?' is a distillation's data). ``whole``: the message before the earlier
    readers' masks, where a batch said as rows × tokens a row finds its row's tokens
    (:func:`bot.parse.row_batch.read_row_batch`)."""
    out: dict[str, float] = {}
    typed: list[str] = []
    if training_job_said(s, TRAINING_CUES):  # a training job: the tokens are a run's data, not served
        return s, out, typed  # s46 trial #1: 'synthetic data for distillation' is what generated data is for
    m = PERIOD_ASK_RE.search(s) if "how many" in s or "多少" in s else None
    if m is not None:
        g = "e" if m.group("e") else "z"
        out["tokens_period_asked_s"] = 3600 if ("hour" in m.group(g) or "小时" in m.group(g)) else 86400
        s = mask(s, m.start(g), m.end(g), " ")
    if any(map(s.__contains__, DURATION_ASK)) and (b := BATCH_RE.search(s)) is not None:
        h = next(g for g in ("e", "z", "g") if b.group(g))
        tokens = _value(b, h)
        if 1 <= tokens <= 1e15:
            out["batch_tokens"] = tokens
            typed.append((b.group(h) + (b.group(h + "m") or "")).strip())
            s = mask(s, b.start(h), b.end(), " ")
    if (
        "batch_tokens" not in out
        and any(map(s.__contains__, DURATION_ASK))
        and any(map(s.__contains__, ROW_WORDS))
    ):
        from bot.parse.row_batch import read_row_batch  # s45 fixread #1: rows × tokens a row

        s, rows, per_row, rows_typed = read_row_batch(s, whole or s)
        if rows:  # the rows kept as said (``num_samples``), not named unused beside their batch
            out |= {"batch_tokens": rows * per_row, "num_samples": rows}
            typed.append(rows_typed)
    return s, out, typed
