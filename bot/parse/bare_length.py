"""A length written alone ('那32k呢', 'at 128K?', 'same at 32k'): the message sets nothing else, and
its one number, written in thousands, has no unit or noun to read it by. On its own it is no question;
after one it changes that question's context (serving) or sequence length (training):
:func:`bot.core.context_followup.bare_length_fields` (trial s24 #2: such follow-ups got the help text).
"""

from __future__ import annotations

from bot.parse.regex import rc
from bot.parse.result import ParseResult

_K_RE = rc(r"(?P<n>\d{1,4}(?:\.\d+)?)k")
"""A number written in thousands, as the parser keeps it in ``unused_numbers`` ('32k', '128k')."""
BINARY_K = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
"""'32k' context is 32 × 1,024 tokens when the thousands are a power of two, as the parser reads a
context or sequence length (:func:`bot.parse.roles.seq_value`; model configs' max_position_embeddings
are powers of two: 32768, 131072); '20k' is 20,000."""


def length_tokens(thousands: float) -> int:
    """Tokens of a length written as ``thousands`` k ('32' → 32,768; '20' → 20,000; '1.5' → 1,500)."""
    if thousands == int(thousands) and int(thousands) in BINARY_K:
        return int(thousands) * 1024
    return round(thousands * 1000)


def with_bare_length(parsed: ParseResult) -> ParseResult:
    """``parsed`` with ``bare_length`` (tokens) when it read nothing (``found`` empty), is in scope, and
    its one unread number is written in thousands; unchanged otherwise. The caller gates on an empty
    ``found`` and some ``unused_numbers`` (no call for the other messages: the parse-call bound)."""
    unread = [said for said, why in parsed.unused_numbers if why == "unread"]
    if parsed.out_of_scope or len(unread) != 1 or len(parsed.unused_numbers) != 1:  # '4K gaming'
        return parsed
    m = _K_RE.fullmatch(unread[0].replace(" ", "").lower())
    if m is None:
        return parsed
    return parsed.model_copy(update={"bare_length": length_tokens(float(m["n"]))})


SERVING_K_RE = rc(r"(?:^|[\s&+/，,、;；])(?P<n>\d{1,4})k$")
"""'… 4张A100 & 32k', '… + 32k', '… / 32k', '…，32k': a number in thousands after a space or a joining
sign, as the parser keeps the message normalized (lower case)."""


SIZE_BEFORE_RE = rc(r"(?<![\w.])\d{1,4}(?:\.\d+)?b\s+$")
"""S36-gen2 (en32-034): a length in thousands right after a model's size names the variant's context ('the
Llama2 70B 32k and the Llama2 13B 32k variants' of LongLoRA, 'Foo 7B 128k'), in any stage: the context (a
serving job's) or the sequence length (a training job's); before, a fine-tuning question left '32k' unread."""


def with_serving_length(parsed: ParseResult) -> ParseResult:
    """A serving question's one unread length in thousands is its context ('70B 推理 4张A100 & 32k',
    '70B on 4 A100 + 32k': session 30): ``seq_len`` set, the number no longer named unused. Only a power of
    two (:data:`BINARY_K`: '32k', '128k'), only when no context was read; unchanged otherwise. The caller
    gates on a serving stage or a size then a space (:data:`SIZE_BEFORE_RE`), no ``seq_len`` and some
    ``unused_numbers``."""
    unread = [said for said, why in parsed.unused_numbers if why == "unread"]
    if parsed.out_of_scope or len(unread) != 1:
        return parsed
    said = unread[0].replace(" ", "").lower()
    m = _K_RE.fullmatch(said)
    if m is None or "." in m["n"] or int(m["n"]) not in BINARY_K:
        return parsed
    at = parsed.normalized.find(said)
    serving = parsed.request.stage == "inference"
    if at < 0 or not (
        (serving and SERVING_K_RE.search(parsed.normalized[max(0, at - 1) : at + len(said)]))
        or SIZE_BEFORE_RE.search(parsed.normalized, max(0, at - 12), at)
    ):
        return parsed
    request = parsed.request.model_copy(update={"seq_len": length_tokens(float(m["n"]))})
    unused = [u for u in parsed.unused_numbers if u != (unread[0], "unread")]
    return parsed.model_copy(
        update={"request": request, "unused_numbers": unused, "found": [*parsed.found, "seq_len"]}
    )
