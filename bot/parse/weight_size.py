"""A model given only by the size of its weights: '62GB model', '62GB 的模型', '模型权重 62G' (session 18).

People who downloaded a checkpoint often know its size on disk, not its parameter count: 'I have a 62GB
model, how many RTX 4090 do I need to serve it', '62GB 的模型部署要几张 4090'. Left unread, the question
had no model and was not answered. Here, when no model nor parameter count was read, that size is the
weights' memory: parameters = bytes ÷ bytes per parameter of the precision said (bf16's 2 when none is:
the format checkpoints ship in; :data:`estimator.weights.BITS_PER_WEIGHT`), and the reply says so (a
``weights_size`` substitution). GB are decimal (10⁹ bytes: how Hugging Face and file browsers show sizes).

With a model named, the same words name the size of its file: named as not used, with why
(``weights_file``, s26): the weights are sized from the model and its format.

A post-step of the parse (:func:`bot.parse.message.parse_one`), behind one C search at its call site
(:data:`GATE_RE`).
"""

from __future__ import annotations

import re

from bot.parse.precision_words import BIT_WIDTHS, PRECISION_MAP
from bot.parse.regex import rc
from bot.parse.request_fields import as_typed
from bot.parse.result import ParseResult
from estimator.models import Precision
from estimator.weights import BITS_PER_WEIGHT

_SIZE = r"(?<![\d.])(?P<v>\d+(?:\.\d+)?)\s*(?:gb|gib|g)\b"
_MODEL = r"(?:(?:llm|ai|大)?\s*模型|(?:llm\s+|language\s+)?model\b|checkpoint\b|weights?\b|权重)"
_FMT = (
    r"(?:gguf|safetensors|awq|gptq[\w\-]*|fp8|int8|int4|nf4|bf16|fp16"
    r"|q\d_k(?:_[a-z]+)?|q\d_\d|q\d|[48][\s\-]?bit)"
)
"""A format said of the weights' file ('gguf', 'awq', 'fp8', 'q4_k_m', '4-bit')."""
WEIGHT_SIZE_RE = rc(
    _SIZE + r"\s*(?:的|大小的|大的)?\s*(?:(?P<f>" + _FMT + r")(?![a-z0-9])\s*(?:的)?\s*" + _MODEL
    + r"|(?P<g>gguf|awq|gptq[\w\-]*)(?![a-z0-9])|" + _MODEL + ")"
    + r"|(?:模型权重|模型文件|权重文件|模型大小|权重大小|model\s+(?:weights?|size|files?)"
    + r"|weights?|checkpoint|(?:the\s+)?gguf(?:\s+files?)?)"
    + r"\s*(?:是|有|大小|一共|共|约|大约|占用?|:|：|=|\bis\b|\bare\b|\bof\b|\babout\b|\btakes?\b|\bup\b"
    + r"|~|≈|\s)*"
    + _SIZE.replace("P<v>", "P<w>")
)  # fmt: skip
"""'62gb model', '62gb 的模型', '62g 大模型', '模型权重 62g', 'model weights are 62gb', 'weights: 62 gb',
'weights take 21gb', 'the gguf is 40 gb';
a format said of the file in group ``f`` or ``g`` ('62gb gguf', '62gb 的 fp8 权重', '62gb q4_k_m model')."""

_FMT_BEFORE = rc("(?P<f>" + _FMT + r")(?![a-z0-9])[^,，。;；:：!?！？\n]{0,12}$")
"""A format said right before the size, in its clause ('an awq 62gb model', 'fp8 权重 62g')."""
_FMT_AFTER = rc(r"\s*(?:in|as|at|是|为)?\s*(?P<f>" + _FMT + r")(?![a-z0-9])")
"""A format said right after it ('weights are 14gb in fp8', '62gb model as awq')."""
GATE_RE = re.compile(WEIGHT_SIZE_RE.pattern, re.ASCII)
"""The gate at the call site: the same pattern compiled by ``re`` (a C search, no Python frame)."""

BF16_BYTES = BITS_PER_WEIGHT[Precision.bf16] / 8
"""Bytes per parameter when no precision is said: bf16, 2."""


def _file_precision(m: re.Match[str], s: str, said: object) -> Precision | None:
    """The precision of the weights' file for the size match ``m`` in the normalized text ``s``: the format
    written next to the size or the model ('62gb q4_k_m model', '62gb 的 fp8 权重'), or the precision read
    (``said``) when only the container is ('62gb gguf … q4_k_m'); None (bf16) when no format is said of
    the file: a precision said elsewhere ('… serve it in int4') is the serving's target (s18-fxa)."""
    word = m.group("f") or m.group("g") or ""
    if not word and (before := _FMT_BEFORE.search(s, max(0, m.start() - 20), m.start())):
        word = before.group("f")
    if not word and (after := _FMT_AFTER.match(s, m.end())):
        word = after.group("f")
    if not word:
        return None
    key = re.sub(r"[\s\-]", "", word)
    named = PRECISION_MAP.get(key) or BIT_WIDTHS.get(key)
    if named in Precision.__members__:
        return Precision(named)
    return said if isinstance(said, Precision) else None


def with_weight_size(parsed: ParseResult, raw: str) -> ParseResult:
    """``parsed`` (of the message ``raw``) with its parameter count read from the weights' size when it
    names no model nor count ('62GB model': 31B parameters in bf16); else ``parsed`` unchanged."""
    req = parsed.request
    m = WEIGHT_SIZE_RE.search(parsed.normalized)
    if m is None:
        return parsed
    said = m.group("v") or m.group("w")
    if req.model or req.params_total:
        return _file_named(parsed, said)
    gb = float(said)
    precision = _file_precision(m, parsed.normalized, req.precision)
    per_param = BITS_PER_WEIGHT[precision] / 8 if precision in BITS_PER_WEIGHT else BF16_BYTES
    params = gb * 1e9 / per_param
    if not 1e8 <= params <= 1e13:  # a few hundred MB to 20 TB of weights: a model, not a disk
        return parsed
    typed = as_typed(raw, " ".join(m.group(0).split()))  # '62GB model', as written
    unused = list(parsed.unused_numbers)
    if (said, "unread") not in unused:  # read as something else: 'an A100 80GB model' is the card's
        return parsed
    unused.remove((said, "unread"))
    return parsed.model_copy(
        update={
            # the weights as given are sized: their format (bf16 unless said), never a quantization the user
            # did not ask for ('a 62GB model, how many 24GB GPUs': 31B in bf16, not re-quantized to 4-bit)
            "request": req.model_copy(
                update={"params_total": params, "precision": req.precision or precision or Precision.bf16}
            ),
            "found": [*parsed.found, "params_total"],
            "unused_numbers": unused,
            "bounds_read": [*parsed.bounds_read, (typed, f"{params / 1e9:.3g}B", "weights_size")],
        }
    )


def _file_named(parsed: ParseResult, said: str) -> ParseResult:
    """With a model or a parameter count read, the weights' file size left unread ('Qwen3.6-27B-AWQ … 模型文件
    21G') is named as not used, with why (``weights_file``): the weights are sized from the model and its
    format (:func:`estimator.weights.weight_bytes`), so a file of another size is another model or format.
    Unchanged when the number was read as something else."""
    if (said, "unread") not in parsed.unused_numbers:
        return parsed
    unused = [(said, "weights_file") if u == (said, "unread") else u for u in parsed.unused_numbers]
    return parsed.model_copy(update={"unused_numbers": unused})
