"""The cues of :mod:`bot.parse.token_asks` (s44 trial #3, #4), kept apart from it so its caller's gate
(:func:`bot.parse.daily_users.read_daily_users`, ``in`` tests only) imports no pattern at start-up."""

DURATION_ASK = ("how long", "多久", "多长时间", "几天", "how many days", "how many hours", "几个小时")
"""A duration asked: a batch's tokens are its work only beside one of these."""
BATCH_WORDS = ("process", "generat", "run ", "handle", "infer", "push", "through", "共", "总计", "生成")
"""The words before a batch's tokens (:data:`bot.parse.token_asks.BATCH_RE`)."""
PERIOD_WORDS = (
    "per day", "a day", "each day", "every day", "per hour", "an hour", "each hour", "every hour",
    "in one day", "一天", "每天", "每日", "一小时", "每小时", "一个小时",
)  # fmt: skip
"""The periods of :data:`bot.parse.token_asks.PERIOD_ASK_RE`."""
ROW_WORDS = (
    "row", "prompt", "request", "sample", "document", "record", "item", "example", "quer", "question",
    "entr", "条", "篇", "个请求", "个问题", "行",
)  # fmt: skip
"""The row nouns of :data:`bot.parse.row_batch.ROWS_RE` (its cheap gate: rows × tokens a row)."""
