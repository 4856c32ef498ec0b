"""A config line with its colon missing (issue 24 item 1, s39 fixc: ``quantization_bit 4`` inside an
otherwise valid LLaMA-Factory YAML was left to the prose, read there as "int4" and named "differs from
your config": the QLoRA the line asks for was lost).

A line inside the YAML block (or just after it) that is two words, the first a key of the pasted tool
(:func:`bot.parse.configs.vocab.known`) and the second one value (a number, a boolean or a name or path),
is read as ``key: value`` and named so (``colon_missing``, a used reason). No regex: it runs only once a
YAML config was found, on the lines the YAML reader left out.
"""

from __future__ import annotations

from bot.parse.configs.vocab import known

VALUE_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./+")
"""What one YAML value a key takes is written with (a number '1.0e-4', 'true', 'lora', a path)."""


def colonless(lines: list[str], block: list[int], tool: str) -> dict[int, str]:
    """{line index: 'key: value'} for each ``key value`` line of ``tool`` within ``block``'s span."""
    if not block:
        return {}
    out: dict[int, str] = {}
    taken = set(block)
    for i in range(block[0] + 1, min(block[-1] + 2, len(lines))):
        if i in taken or " " not in lines[i].strip():
            continue
        words = lines[i].split()
        if len(words) != 2 or not set(words[1]) <= VALUE_CHARS or not _key_shape(words[0]):
            continue
        if known(tool, words[0]):
            out[i] = f"{words[0]}: {words[1]}"
    return out


def _key_shape(word: str) -> bool:
    """A config key: ASCII letters, digits, '_' and '.', starting with a letter ('quantization_bit')."""
    return word.isascii() and word[0].isalpha() and word.replace("_", "").replace(".", "").isalnum()
