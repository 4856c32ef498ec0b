"""Follow-ups that change only the context, and what the earlier question asked (trial s24 #2, #6).

* A length alone ('那32k呢', 'at 128K?', 'same at 32k', parse field ``bare_length``) or a small token
  count alone ('4096 tokens?') changes the previous question's context (serving) or sequence length
  (training): :func:`as_context`.
* The previous question's "how many concurrent" stays the question ('… how many concurrent users at
  16k?' then 'what about 32k?': the most sequences at 32k, not a fit check of an assumed load) unless the
  follow-up asks something else (how many GPUs, how long, the largest model) or states a load:
  :func:`without_old_question` before the merge, :func:`asks_carried` after it.

Core reads no text here: only the parse's fields (tests/test_core_one_pass.py).
"""

from __future__ import annotations

from typing import Any

from bot.parse import ParseResult
from estimator.models import SizingRequest, Stage

LONGEST_CONTEXT = 2 * 1024 * 1024
"""Tokens: the longest context a token count alone may be, after a serving question (2M; the
longest windows served today are 1M–10M, e.g. Qwen2.5-1M's 1,010,000 in its config.json)."""
LONGEST_TRAINING_LENGTH = 128 * 1024
"""Tokens: after a training question, a token count alone up to 128K is a sequence length, not a
data size (no training set is one context window long; longer counts stay the data's tokens)."""
LOAD_FIELDS = ("concurrency", "users", "target_tokens_per_s", "requests_per_day", "requests_per_hour")
"""A load stated: the follow-up sizes that load, not the most sequences the GPUs hold."""


def _length(tokens: float) -> int:
    """'32K tokens' is read as 32,000 tokens: as a length, the binary 32,768 (bot.parse.bare_length)."""
    k = tokens / 1000
    from bot.parse.bare_length import BINARY_K

    return int(k) * 1024 if k == int(k) and int(k) in BINARY_K else int(tokens)


def as_context(
    parsed: ParseResult, prev: SizingRequest, new: dict[str, Any]
) -> tuple[ParseResult, dict[str, Any]]:
    """The follow-up's parse and fields with a length alone read as ``seq_len`` (the serving context or
    the training sequence length): the parse's ``bare_length``, or a token count that is all the
    follow-up says and too small to be the data (:data:`LONGEST_CONTEXT` after serving,
    :data:`LONGEST_TRAINING_LENGTH` after training). Unchanged otherwise."""
    length = None
    if not new and parsed.bare_length:
        length = parsed.bare_length
    elif set(new) == {"tokens"} and new["tokens"]:
        serving = prev.stage == Stage.inference and parsed.stage_word in (None, Stage.inference)
        longest = LONGEST_CONTEXT if serving else LONGEST_TRAINING_LENGTH
        if (serving or parsed.stage_word is None) and new["tokens"] <= longest:
            length = _length(new["tokens"])
    if length is None:
        return parsed, new
    request = parsed.request.model_copy(update={"seq_len": length, "tokens": None})
    found = [f for f in parsed.found if f not in ("tokens", "stage")] + ["seq_len"]
    unused = [u for u in parsed.unused_numbers if not (parsed.bare_length and u[1] == "unread")]
    update = {"request": request, "found": found, "unused_numbers": unused, "stage_word": None}
    return parsed.model_copy(update=update), {"seq_len": length}


def asks_else(parsed: ParseResult, new: dict[str, Any]) -> bool:
    """The follow-up asks another question than the previous one's (how many GPUs, how long, the
    largest model) or states a load."""
    return (
        parsed.count_cue or parsed.duration_cue or parsed.asks_largest or any(new.get(f) for f in LOAD_FIELDS)
    )


def without_old_question(parsed: ParseResult, prev: SizingRequest, new: dict[str, Any]) -> dict[str, Any]:
    """``new`` with the previous 'how many concurrent' dropped when the follow-up asks something else
    (:func:`asks_else`); unchanged when it says nothing of it (the merge keeps it)."""
    if prev.concurrency_asked and "concurrency_asked" not in new and asks_else(parsed, new):
        return {**new, "concurrency_asked": None}
    return new


def asks_carried(request: SizingRequest, parsed: ParseResult) -> ParseResult:
    """The follow-up's parse asking what the merged request still asks: 'how many concurrent' carried
    from the previous question heads the answer as the most sequences, as it did there."""
    if request.concurrency_asked and not parsed.asks_concurrency and not request.concurrency:
        return parsed.model_copy(update={"asks_concurrency": True})
    return parsed
