"""A message typed in capitals throughout ('HOW MANY A100S TO FINE-TUNE MINICPM-V?'), read as its lower
case, with the names it echoes kept as typed (s32 metamorphic sweep, family ``case/upper``:
``python -m tests.metamorphic --family case``, tests/data/metamorphic_census.md).

The readers find names by their capitals ('InternVL', 'LLaDA', 'EasyContext': bot.parse.model_names
``typed_as_name``, bot.parse.tool_slots) and read words in their usual case ('4-bit', '10s', '--tp 2',
'Pro'); in a message with no lower-case letter every word looks like a name, so a shouted message lost
its tool, model or card, or read 'TOKEN 2B' as a model. Such a message is read in lower case (the
capitals carry nothing there), and each name it echoes as not in the catalog (unknown model or card, the
model as typed, a number named as not used) is given back its capitals from the message as typed
(docs/design.md §8: a name is echoed as typed).

A message is *shouted* when it has no lower-case ASCII letter (``str.isupper`` of the whole message, a C
call: its gate at the call site) and at least two of its words are words people type in lower case
(:data:`LOWER_WORDS`: English function words; the Chinese messages' usual lower-case words, 'token',
'batch', 'qwen', 'lora' …). A Chinese message whose only Latin letters are card and acronym names ('用 8
张 A100 训练 GPT 模型') is not shouted: none of those is a lower-case word.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.parse.regex import rc

if TYPE_CHECKING:
    from bot.parse.result import ParseResult

_LOWER_WORDS = """THE WITH AND ON OF FOR HOW WHAT WHY WHEN IS ARE WAS TO IN MY WE CAN DOES DO IT AN AT BY
FROM BUT OR IF THAT THIS THESE USE USING RUN RUNNING RUNS NEED NEEDS MUCH MANY LONG TAKE TAKES WOULD SHOULD
HAVE HAS GET GETS ONE TWO EACH PER ABOUT INTO MODEL TRAINING TRAIN MEMORY ENOUGH TOKEN TOKENS BATCH EPOCH
EPOCHS QWEN LLAMA LORA QLORA VLLM DEEPSEEK CHATGLM MINICPM CHAT BASE INSTRUCT PYTHON TORCHRUN DEEPSPEED
OLLAMA SERVE LAUNCH SIZE"""
LOWER_WORDS = frozenset(_LOWER_WORDS.split())
"""Words typed in lower case (or with one capital) when the message is not shouted."""

_WORD_RE = rc(r"(?<![A-Za-z0-9])[A-Z]{2,}(?![A-Za-z0-9])")
"""A word of capitals alone (no digit beside it: 'A100', 'H20' are card names in any message)."""

_LOWER = str.maketrans({chr(c): chr(c + 32) for c in range(ord("A"), ord("Z") + 1)})
"""ASCII capitals → lower case; nothing else (the text keeps its length: echoes are found by position)."""


def unshouted(text: str) -> tuple[str, str | None]:
    """(``text`` in lower case, ``text``) when it is shouted (module docstring; ASCII letters only are
    changed), else (``text``, None). Call it only when ``text.isupper()`` (its gate: a C call)."""
    hits = {w for w in _WORD_RE.findall(text) if w in LOWER_WORDS}
    return (text.translate(_LOWER), text) if len(hits) >= 2 else (text, None)


def with_typed_case(parsed: ParseResult, typed: str) -> ParseResult:
    """``parsed`` (of :func:`unshouted` ``typed``) with each name it echoes as typed: the unknown model and
    card, the model as typed and the numbers named as not used, each its span of ``typed`` (same length
    as the lower-cased text: ASCII letters only were changed)."""
    lowered = typed.translate(_LOWER)

    def back(value: str | None) -> str | None:
        if not value:
            return value
        at = lowered.find(value)
        return typed[at : at + len(value)] if at >= 0 else value

    update: dict[str, object] = {
        name: back(getattr(parsed, name)) for name in ("unknown_gpu", "unknown_model", "model_typed")
    }
    update["unused_numbers"] = [(back(text) or text, why) for text, why in parsed.unused_numbers]
    return parsed.model_copy(update=update)
