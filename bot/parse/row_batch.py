"""An offline batch said as rows × tokens a row (session 45 fixread item 1).

'Qwen2.5-7B on 2 H100, 100,000 条 × 500 输出 token 要跑多久', 'how long to generate 500 tokens
for each of 100k rows', '10 万条 prompt，每条输入 1000 token、输出 500 token，多久' state a batch as
a count of rows (prompts, requests, documents …) and the tokens each row carries. Before, the count was
read as a training run's samples ('a training setting on an inference question') or as a context length
('100k prompts'), and the time asked went unanswered. The batch's tokens are rows × (input + output tokens
a row), every token figure beside the rows counted once (:mod:`estimator.batch_work` times them all at the
decode rate, an upper bound when most are prompt). The rows' count is masked (same length), so it is read
as nothing else; the tokens a row stay in the text for the context readers (a row's input + output is its
sequence). Callers gate on a duration ask (:data:`bot.parse.token_words.DURATION_ASK`) and
:data:`bot.parse.token_words.ROW_WORDS`."""

from __future__ import annotations

from bot.parse.normalize import mask
from bot.parse.regex import rc
from bot.parse.request_volume import _TN, _value

ROWS_RE = rc(
    r"(?<![\w.])"
    + _TN.format(g="e")
    + r"\s*(?:input\s+|user\s+|test\s+)?(?:rows|prompts|requests|samples|documents|docs|records|items"
    r"|examples|queries|questions|entries)\b"
    r"|(?<![\w.])" + _TN.format(g="z") + r"\s*(?:条|篇|个请求|个问题|个\s*prompts?|行)"
)
"""'100k rows', '5,000 prompts', '100,000 条', '10 万条', '2000 篇', '5000 个请求' (lower case)."""
ROW_TOKENS_RE = rc(
    r"(?<![\w.])(?P<n>\d[\d,]*(?:\.\d+)?)\s*(?P<k>k(?![a-z])|千)?\s*(?:个\s*)?"
    r"(?:(?:input|prompt|output|generated|new|completion|输入|输出|生成)\s*)?(?:tokens?\b|词元)(?!\s*(?:/|per\s+s))"
    r"|(?:输入|输出|生成|input|output)\s*(?:了|为|是|约|大约|:|：)?\s*(?P<c>\d[\d,]*)\s*(?P<ck>k(?![a-z])|千)?"
    r"(?![\d.])(?!\s*(?:%|gb|g\b|秒|s\b|ms|tokens?\s*/|tokens?\s+per\s+s))"
)
"""A row's tokens: '500 输出 token', '1000 input tokens', '输出 500 token', '2k tokens', and the forms the
output and input readers write before this runs ('input 1000', '输出 500', :mod:`bot.parse.output_forms`);
never a speed ('50 tokens/s')."""
NOT_BATCH = ("ttft", "latency", "首 token", "首token", "首字", "延迟")
"""A duration asked of one request, not of the batch ('how long is the ttft')."""
SERVED = (
    "generat", "output", "input", "prompt", "request", "quer", "infer", "process", "label", "annotat",
    "complet", "输出", "输入", "生成", "推理", "处理", "标注", "请求",
)  # fmt: skip
"""A word of running a model over the rows (generating, a prompt, an output …). Without one, rows and
tokens a row are a training set's ('20k samples of 1k tokens each … how long': tests/test_s37_fresh.py)."""
_K = {"k": 1000, "千": 1000}


def read_row_batch(s: str, whole: str) -> tuple[str, float, float, str]:
    """(``s`` with the rows' count masked, the rows, the tokens a row (the sum of each token figure of
    ``whole``, the message before earlier readers' masks), the rows' figure as typed); (``s``, 0, 0, "")
    without a rows count, without a token figure, with a training word
    (:data:`bot.parse.request_volume.TRAINING_CUES`: the rows of a training set are its samples), with a
    latency word (:data:`NOT_BATCH`) or without a word of running a model over them (:data:`SERVED`)."""
    from bot.parse.request_volume import TRAINING_CUES

    if any(map(whole.__contains__, TRAINING_CUES + NOT_BATCH)) or not any(map(whole.__contains__, SERVED)):
        return s, 0.0, 0.0, ""
    rows = ROWS_RE.search(s)
    if rows is None:
        return s, 0.0, 0.0, ""
    g = "e" if rows.group("e") else "z"
    count = _value(rows, g)
    per_row = 0.0
    for m in ROW_TOKENS_RE.finditer(whole):
        n, k = (m.group("n"), m.group("k")) if m.group("n") else (m.group("c"), m.group("ck"))
        per_row += float(n.replace(",", "")) * _K.get(k or "", 1)
    if not (1 <= count <= 1e10) or not (1 <= per_row <= 1e7):
        return s, 0.0, 0.0, ""
    typed = (rows.group(g) + (rows.group(g + "m") or "")).strip()
    return mask(s, rows.start(), rows.end(), " "), count, per_row, typed
