"""A question for the global batch itself (trial s42 #7: '全局批大小多少合适', '全局 batch 设多少',
'what global batch should I use', 'what batch size'): the reply's batch line then also gives the
optimizer steps the run takes at that batch and why the batch is that size
(bot.render.batch_text.steps_text). A batch stated with its number ('global batch 256',
'batch size 设 128') is a setting, not this question."""

from __future__ import annotations

from bot.parse.regex import rc

_NOT_MICRO = r"(?<!micro)(?<!micro[\s_\-])"  # 'micro_batch_size 设多少' is the per-GPU batch, not the step's
_BATCH_ZH = (
    r"(?:全局|总|有效)?\s*(?:批大小|批量大小|批次大小|批处理大小|批量"
    rf"|{_NOT_MICRO}batch(?:[\s_\-]*size)?)"  # not 'bs': its gate would test every 'jobs', 'labs'
)
_BATCH_EN = rf"(?:(?:global|effective|total)\s+)?{_NOT_MICRO}batch(?:[\s_\-]*size)?"
_NO_NUMBER = r"(?![\s_\-]*(?:size)?\s*(?:of|=|:|is)?\s*\d)"  # no backtracking to a bare 'batch'

BATCH_ASKED_RE = rc(
    rf"{_BATCH_ZH}\s*(?:应该|应|要|该|需要)?\s*(?:设置?|设成|设为|设定|选|取|用|开|定|配|调)?\s*(?:成|为|到)?\s*"
    r"(?:多少|多大|几|怎么设|如何设|怎么选|如何选|什么)"
    rf"|(?:what|which)(?:\s+is|'s)?\s+(?:the\s+|a\s+|my\s+)?{_BATCH_EN}\b{_NO_NUMBER}"
    rf"|how\s+(?:big|large)\s+(?:(?:a|the|my|should\s+(?:the|my|a))\s+)?{_BATCH_EN}\b{_NO_NUMBER}"
    rf"|{_BATCH_EN}\s+(?:should\s+(?:i|we)|to\s+use|do\s+(?:i|we)\s+need|would\s+you\s+(?:use|suggest|recommend))"
    rf"|(?:recommended|suggested|good|right|optimal|best|sensible|reasonable)\s+{_BATCH_EN}\b{_NO_NUMBER}"
)
"""The global batch asked, with no number of it said right after ('批大小多少合适', 'batch size 设多大',
'what global batch should I use', 'how big a batch', 'recommended batch size?'); not 'global batch 256',
'batch size 8, how long', 'batch inference'. Searched only where 'batch' or '批' is in the text."""


def asks_batch(s: str) -> bool:
    """Whether the normalized text ``s`` asks which global batch to use (:data:`BATCH_ASKED_RE`), behind
    its cue words: a question without 'batch' or '批' pays two substring tests."""
    return ("batch" in s or "批" in s) and BATCH_ASKED_RE.search(s) is not None
