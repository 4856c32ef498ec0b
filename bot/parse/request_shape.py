"""How people write a serving load and each request's shape (issue 24, round 4), written as the forms the
load and length rules read:

- **Requests run together in other words** ('128 parallel requests', '64 requests in parallel', '32
  in-flight requests', 'a batch of 128 requests', '128 个并行请求'): 'N concurrent requests'. Before,
  'parallel' left the number unread and 'a batch of N requests' was dropped for the default load.
- **Benchmark shapes** ('ISL 1024 OSL 256' as NVIDIA's and SemiAnalysis's benchmarks write input and output
  sequence lengths, '1k in / 256 out', '1024/256 in/out', 'in/out 2k/512'): 'input length N and output
  length M', the prompt and the reply of each request.
"""

from __future__ import annotations

import re

from bot.parse import lexicon as lx
from bot.parse.regex import rc

_N = r"(\d+(?:,\d{3})*(?:\.\d+)?\s*k?)"
"""A number (digits grouped by commas: '1,000'; never the comma after it: 'batch 64, input 32')."""
_REQUESTS = r"(?:requests?|reqs?|queries|prompts|sequences|streams|conversations|sessions|connections)\b"
LOAD_FORMS = (
    (rc(rf"(?<![\w.]){_N}\s+(?:parallel|in[\s\-]?flight)\s+{_REQUESTS}"), r"\1 concurrent requests"),
    (rc(rf"(?<![\w.]){_N}\s+{_REQUESTS}\s+in\s+parallel\b"), r"\1 concurrent requests"),
    (rc(rf"\bbatch(?:\s+size)?\s+of\s+{_N}\s+{_REQUESTS}"), r"\1 concurrent requests"),
    (rc(r"(?<![\d.])(\d[\d,]*)\s*(?:个|路|条)?\s*并行(?:的)?\s*(?:请求|会话|序列|查询)"), r"\1 路并发"),
    # s41 (round 37): SGLang's decode log 'Decode batch. #running-req: 20, #token: 157401' — requests in
    # flight (its scheduler's log_decode_stats: f"#running-req: {num_running_reqs}", len(running_batch.reqs))
    (rc(r"(?<![\w\-])#\s*running[\-_]reqs?\s*[:=]?\s*(\d+)(?![\w.])"), r"\1 concurrent requests"),
)
"""(pattern, rewrite): the requests served at once."""
NEW_TOKENS_FORM = (rc(rf"\bmax[\s_\-]*new[\s_\-]*tokens\s*=?\s*{_N}(?![\w.])"), r"output length \1")
"""Round 19 en: in a serving question, a generation cap written in prose ('max_new_tokens 500',
'max_new_tokens=500', transformers' and TGI's parameter) is each request's reply ('output length 500'), as
'OSL 500' is; it had been left unread beside '2k-length prompts'. Not in training (an RL rollout's key is
read by the trainer's tables) nor written as a config line ('max_new_tokens: 500')."""
TRAINING_BATCH_FORM = (
    rc(rf"\b(?:a\s+)?batch(?:\s+size)?\s+of\s+{_N}\s+(?:sequences|samples|examples|prompts)\b"),
    r"global batch \1 sequences",
)
"""In a training question, 'a batch of 64 sequences' is the global batch (sequences per optimizer step),
not a serving load."""
SHAPE_FORMS = (
    (rc(rf"\bisl\s*[=:]?\s*{_N}[\s,;/]*osl\s*[=:]?\s*{_N}"), r"input length \1 and output length \2"),
    (rc(rf"\bisl\s*[=:]?\s*{_N}"), r"input length \1"),
    (rc(rf"(?<!/)\bosl\s*[=:]?\s*{_N}"), r"output length \1"),  # s41: 'ISL/OSL 1k/1k' is read below
    (
        rc(
            # s36: 'input tokens' (the token word after 'input'), 'completion' for 'output'
            rf"(?<![\w.]){_N}[\s\-]*(?:tokens?[\s\-]*)?(?:in|input|prompts?)(?:[\s\-]*tokens?)?"
            rf"\s*(?:[/,;+]|\band\b|&|\s)\s*{_N}[\s\-]*(?:tokens?[\s\-]*)?(?:out|output|completions?)\b"
        ),
        r"input length \1 and output length \2",
    ),
    (
        rc(
            rf"(?<![\w.]){_N}\s*/\s*{_N}\s*(?:tokens?\s*)?(?:in\s*/\s*out|input\s*/\s*output|isl\s*/\s*osl)\b"
        ),
        r"input length \1 and output length \2",
    ),
    (
        rc(
            rf"\b(?:in\s*/\s*out|input\s*/\s*output|isl\s*/\s*osl)(?:\s+(?:lengths?|tokens))?\s*[=:]?\s*(?:of\s+|为|是)?\s*{_N}\s*/\s*{_N}"
        ),
        r"input length \1 and output length \2",
    ),
    (
        rc(
            rf"\b(?:input|prompt)(?:[\s_\-]*(?:len(?:gth)?|tokens?))?\s*[=:]?\s*{_N}\s*(?:tokens?\s*)?(?:[/,;]|\band\b|&)?\s*"
            rf"(?:output|completion|generation)(?:[\s_\-]*(?:len(?:gth)?|tokens?))?\s*[=:]?\s*{_N}(?![\w.])"
            r"(?:\s*tokens?\b)?(?:\s*(?:each|per\s+(?:request|response|query|call|reply)))?"  # s21: all of it
        ),
        r"input length \1 and output length \2",
    ),
)
"""(pattern, rewrite): each request's prompt and reply lengths ('8k input, 1k output', '2k input and 256
output': s17, the gate had missed a 'k' before 'input'; '2048 input 128 output' with no word between).
Round 15: the word before each number ('batch 64, input 32, output 96', 'prompt 512 / completion 128',
'input_len=1024 output_len=256'; en15-023 read 64 as the prompt and 96 as the whole sequence)."""
SHAPE_FORM_CN = (
    rc(
        rf"(?<![\w.]){_N}\s*(?:个\s*)?(?:tokens?\s*)?(?:的\s*)?(?:输入|提示词)(?:\s*(?:长度|tokens?))?\s*(?:[、,，;；/]|和|加|\s)*"
        rf"{_N}\s*(?:个\s*)?(?:tokens?\s*)?(?:的\s*)?输出(?![\w])"
    ),
    r"input length \1 and output length \2",
)
"""Round 17 zh: the length before each word ('7K 输入、2K 输出', '2048 输入 512 输出'), as '8k input, 1k
output' is read; before, the 7K became the whole sequence and the 2K was left unread ('输入 7K、输出 2K' was
read)."""
_KEY_ZH = r"\s*(?:长度|tokens?\s*(?:数|长度)?)?\s*(?:[:：=]|为|是)?\s*"
SHAPE_FORM_CN_KEY = (
    rc(
        rf"(?:输入|提示词){_KEY_ZH}{_N}\s*(?:个\s*)?(?:tokens?\s*)?(?:[、,，;；/]|和|加|\s)*输出{_KEY_ZH}{_N}"
        r"(?![\w.])"
    ),
    r"input length \1 and output length \2",
)
"""s36 (issue 24): each word before its length, a token word between ('输入 token 1500，输出 token 300',
'输入长度：2k，输出长度：512', '输入 tokens 为 1500、输出 tokens 为 300'), as 'input tokens 1500,
output tokens 300' is read; before, the prompt was left unread and the reply named as another setup."""
REPLY_WORD_FORM = (
    rc(
        rf"(?<![\w.]){_N}[\s\-]*tokens?\s+(?:answers?|replies|reply|responses?|outputs?|completions?|generations?)\b"
    ),
    r"output \1 tokens",
)
"""'500-token answers', '256 token replies': each request's reply ('2k-token prompts and 400-token answers'
lost its reply before)."""
GATE = re.compile(
    r"tokens?\s+(?:answer|repl|respon|output|complet|generat)|并行|parallel|in[\s\-]?flight"
    r"|batch(?: size)? of|\bisl\b|\bosl\b|#\s*running[\-_]req"
    r"|\d\s*k?[\s\-]*(?:tokens?[\s\-]*)?(?:in|input|prompts?)(?:[\s\-]*tokens?)?\s*(?:[/,;&+]|and\b|\d)"
    r"|max[\s_\-]*new[\s_\-]*tokens"
    r"|input(?:[\s_\-]*tokens?)?\s*[=:]?\s*\d|\d\s*k?\s*(?:个\s*)?(?:tokens?\s*)?(?:的\s*)?(?:输入|提示词)"
    r"|(?:in|input)\s*/\s*(?:out|output)"
    r"|(?:输入|提示词)\s*(?:长度|tokens?)"
)


def request_shape(s: str) -> str:
    """The normalized text ``s`` with the forms above rewritten (gated on one cheap search)."""
    return shape_forms(s) if GATE.search(s) else s


def shape_forms(s: str) -> str:
    """:func:`request_shape` past its gate (:data:`GATE`; tested at the call in bot.parse.count_forms)."""
    training = _is_training(s)
    if training and TRAINING_BATCH_FORM[0].search(s):
        s = TRAINING_BATCH_FORM[0].sub(TRAINING_BATCH_FORM[1], s)
    serving = () if training else (*LOAD_FORMS, NEW_TOKENS_FORM)
    for pattern, words in (*serving, *SHAPE_FORMS, SHAPE_FORM_CN, SHAPE_FORM_CN_KEY, REPLY_WORD_FORM):
        if pattern.search(s):
            s = pattern.sub(words, s)
    return s


def _is_training(s: str) -> bool:
    """A training question: training words and no serving word (the load forms apply to serving only)."""
    trains = lx.TRAIN_RE.search(s) or lx.FINETUNE_RE.search(s) or lx.PRETRAIN_RE.search(s)
    return bool(trains) and not lx.INFERENCE_RE.search(s)
