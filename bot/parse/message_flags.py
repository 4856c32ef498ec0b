"""The normalized message's yes/no readers, chosen by content (issue 23 item 7, session 28).

The parse asks of the normalized message ``s0`` whether it holds two cards said as one ('双卡'), an
out-of-scope topic, a question for the largest model, the time to first token, the speed, GPU-days, or a
launch recipe: one search each (~5–13 µs on a corpus message: alternations whose first characters are
common letters, so the engine tries them at most positions), and most messages hold none of them.
:data:`FLAGS` is their :class:`bot.parse.cue_index.CueTable`: one C pass of every reader's cues over the
folded message says which searches can match; the parse makes only those
(:meth:`bot.parse.assemble._Parse.run`). A reader's cues are its pattern's required literals, lower-cased
(:func:`bot.parse.cue_index.derived_cues`), or declared here where rarer ones hold; tests/test_cue_index.py
checks every cue is necessary on every corpus text.
"""

from __future__ import annotations

from bot.parse import lexicon as lx
from bot.parse.cue_index import CueTable
from bot.parse.words import ASKS_GPU_DAYS_RE, ASKS_LARGEST_RE, ASKS_SPEED_RE, ASKS_TTFT_RE, DUAL_CARD_RE

DUAL = (DUAL_CARD_RE, "dual_card")
OUT_OF_SCOPE = (lx.OUT_OF_SCOPE_RE, "out_of_scope")
LARGEST = (ASKS_LARGEST_RE, "asks_largest")
TTFT = (ASKS_TTFT_RE, "asks_ttft")
SPEED = (ASKS_SPEED_RE, "asks_speed")
GPU_DAYS = (ASKS_GPU_DAYS_RE, "asks_gpu_days")
RECIPE_ALONE = (lx.RECIPE_ALONE_RE, "recipe_alone")
RECIPE_WORD = (lx.RECIPE_WORD_RE, "recipe_word")

DECLARED = {
    "asks_largest": ("模型", "多大参数", "model", "llm", "what can", "what could", "什么"),
    "asks_ttft": ("首", "ttft", "first", "prefill"),
    "asks_speed": (
        "每秒",
        "多快",
        "速度",
        "吞吐",
        "/",
        "second",
        "fast",
        "throughput",
        "speed",
        "latency",
        "tpot",
        "延迟",
        "时延",
    ),
    "asks_gpu_days": ("day", "天"),
}
"""Rarer cues than the derived ones ('what', 'how', 'token', 'gpu'), read off each pattern's branches
(bot/parse/words.py): the largest model's every branch names '模型', 'model' or 'llm' (or '多大参数'; the
model left unsaid, 'what can' / 'what could' or '什么'); the
first token's '首', 'ttft', 'first' or 'prefill'; the speed's a rate word, '/' ('tok/s', 'tokens / s'),
'second', 'fast', 'throughput' or 'speed', or the latency per token ('latency', 'tpot', '延迟', '时延');
GPU-days' 'day' or '天'."""

FLAGS = CueTable(
    (DUAL, OUT_OF_SCOPE, LARGEST, TTFT, SPEED, GPU_DAYS, RECIPE_ALONE, RECIPE_WORD),
    declared=DECLARED,
    folded=True,  # GPU-days is case-insensitive; the others' cues are lower case on a lower-cased text
)
"""The yes/no readers of the normalized message, chosen by content: ``FLAGS.candidates(s0)``."""
