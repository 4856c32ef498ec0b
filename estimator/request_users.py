"""The people a serving request is for, declared here and mixed into
:class:`estimator.request.SizingRequest` (the request module stays within the 500-line limit)."""

from typing import Literal

from pydantic import Field

from estimator.request_setting import _setting


class ServiceUsers:  # a plain mixin of SizingRequest (request_setting.drop_mixin_defaults)
    """A head count of the people a service is for (JSON name as the field)."""

    users: int | None = Field(
        None,
        ge=1,
        le=100_000_000,
        description="the people a service is for, a head count ('200 employees', '公司大概200人用'), not "
        "sequences at once: without a stated concurrency the load is ⌈users × 10 %⌉ "
        "(estimator.active_users, trial s21 #3)",
        json_schema_extra=_setting("serving", json_order=76),
    )
    memory_asked: bool | None = Field(
        None,
        description="the user asks each GPU's memory when serving ('每张卡显存占多少', 'memory per GPU'): "
        "the answer states it on their count (Inference.bytes_per_gpu), fitting or not (trial s25 #2)",
        json_schema_extra=_setting(json_order=82),  # a cue, as concurrency_asked: never "not used"
    )
    context_asked: bool | None = Field(
        None,
        description="the user asks the longest context their setup serves ('max context?', '上下文能开多大') "
        "and states none: the answer is sized at the longest one sequence (or the stated load) fits on their "
        "GPUs, at most the model's own limit (estimator.longest_context, trial s26 #10)",
        json_schema_extra=_setting(json_order=83, echo="serving_suffix"),  # a cue: never "not used"
    )
    start_asked: bool | None = Field(
        None,
        description="the user asks whether the server starts ('will vLLM start with max_model_len 32768?', "
        "'能启动吗'): with a context and no load the answer is the start-up check's yes/no on their GPUs, "
        "sized for one sequence and no assumed load (bot.core.start_only, trial s26b #6)",
        json_schema_extra=_setting(json_order=88),  # a cue, as concurrency_asked: never "not used"
    )
    cost_asked: bool | None = Field(
        None,
        description="the user asks what a training job costs ('多少钱', 'how much would it cost'): with no "
        "count stated the answer prices the count it recommends, not a borderline fewest one when the "
        "comfortable count costs about as much (estimator.comfortable_count, as for a budget; trial s35 #2)",
        json_schema_extra=_setting(json_order=91),  # a cue, as memory_asked: never "not used"
    )
    values_listed: list[float] | None = Field(
        None,
        description="the other values of one setting the message listed after the one sized ('on 1, 2 or 4 "
        "A100': [2, 4] beside gpu_count 1; '并发 10、20、50': [20, 50]): each sized in a row of its own, "
        "report.per_value (bot.core.per_value, s36-lists); set in the JSON answer, never by the estimate",
        json_schema_extra=_setting(json_order=99),  # a cue: the rows are the answer's, never "not used"
    )
    requests_per_day: float | None = Field(
        None,
        ge=1,
        le=1e10,
        description="requests a service gets a day ('每天1万次对话', '10k requests a day'): with no stated "
        "load, the sequences at once by Little's law at the busiest hour (estimator.request_volume, s35)",
        json_schema_extra=_setting("serving", json_order=95),
    )
    requests_per_hour: float | None = Field(
        None,
        ge=1,
        le=1e10,
        description="requests a service gets an hour ('每小时500个请求', '500 requests per hour'): with no "
        "stated load, the sequences at once by Little's law (estimator.request_volume, s35)",
        json_schema_extra=_setting("serving", json_order=96),
    )
    tokens_per_day: float | None = Field(
        None,
        ge=1,
        le=1e15,
        description="tokens a service processes a day ('we process 50 million tokens per day', "
        "'每天要处理 1 亿 token'): with no stated load, a throughput target at the busiest hour, the day's "
        "tokens ÷ 86,400 s × the request volume's peak factor (estimator.request_volume, s44)",
        json_schema_extra=_setting("serving", json_order=117),
    )
    tokens_per_hour: float | None = Field(
        None,
        ge=1,
        le=1e15,
        description="tokens a service processes an hour ('2M tokens an hour', '每小时 500 万 token'): "
        "with no stated load, a throughput target of the hour's tokens ÷ 3,600 s (estimator.request_volume)",
        json_schema_extra=_setting("serving", json_order=118),
    )
    tokens_period_asked_s: int | None = Field(
        None,
        ge=1,
        le=31_536_000,
        description="the period whose tokens a serving question asks for, in seconds ('how many tokens a "
        "day can 8 H100 generate', '一天能生成多少 token': 86,400; an hour: 3,600): the answer is the "
        "deployment's total output throughput at the most sequences its GPUs hold × the period "
        "(estimator.batch_work, s44)",
        json_schema_extra=_setting("serving", json_order=119),
    )
    batch_tokens: float | None = Field(
        None,
        ge=1,
        le=1e15,
        description="the tokens an offline batch must generate, asked how long it takes ('process 1B tokens, "
        "how long on 8xH100', '总共10亿token要处理，要跑多久'): the time is these tokens ÷ the deployment's "
        "total output throughput at the most sequences its GPUs hold (estimator.batch_work, s44)",
        json_schema_extra=_setting("serving", json_order=120),
    )
    qps: float | None = Field(
        None,
        gt=0,
        le=1e9,
        description="requests a second the service gets, stated with the output tokens of each ('QPS 20, "
        "300 tokens out'): target_tokens_per_s = qps × output; the sequences at once by Little's law on the "
        "layout sized, qps × (time to first token + output ÷ tokens/s per sequence) (estimator.rate_load)",
        json_schema_extra=_setting("serving", json_order=112),
    )
    tokens_per_request: int | None = Field(
        None,
        ge=1,
        le=10_000_000,
        description="tokens of each request beside a request volume ('平均每次2000 token', '~2k tokens per "
        "conversation'): each counted as generated, the time it is in the system (estimator.request_volume)",
        json_schema_extra=_setting("serving", json_order=97),
    )
    release: Literal["instruct", "base"] | None = Field(
        None,
        description="the release of the model the name typed: 'instruct' ('-Instruct', '-Chat', '-it'), "
        "'base' (a hub id with no such suffix, 'Qwen/Qwen2.5-7B', or '-Base'); None: not said. vLLM checks "
        "--max-model-len against that release's config.json (Qwen/Qwen2.5-7B-Instruct 32,768, "
        "Qwen/Qwen2.5-7B 131,072; estimator.ledger.beyond_window, s38 release)",
        json_schema_extra=_setting(json_order=101),  # a cue of the name typed: never "not used"
    )
    tokens_per_s_per_sequence: float | None = Field(
        None,
        gt=0,
        description="output tokens/s each user (sequence) should get ('30 tokens/s per user', "
        "'每个用户每秒 20 token'), not the service's total: asked how many, the answer is the most sequences "
        "that each decode "
        "at least this (estimator.speed_floor, in place of MLPerf's 5 tokens/s); with a stated load, the "
        "reply says whether each sequence reaches it (s41 review #2)",
        json_schema_extra=_setting("serving", json_order=107, stated=(0.1, 100_000)),
    )
