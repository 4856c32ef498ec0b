"""A model's name in a message typed with no capital letter ('the 7b llava', 'emollm 模型', '微调 cogvlm',
'hunyuanocr 是 1b 的模型'): s33 metamorphic sweep, family ``case/lower`` (tests/data/metamorphic_census.md).

The name readers of bot.parse.model_names and bot.parse.verb_names tell a name from a word by its capitals
(``name_like``: 'LLaVA', 'CogVLM', 'BLT'); a message with no capital anywhere carries no such sign, so
the same question typed in lower case named no model. In such a message (*uncased*: ``raw == raw.lower()``,
a C call, set once on the ``Typed`` of bot.parse.model_names ``typed_in``) a word in a reader's name slot
is a name when:

- it carries a model-name morpheme (:data:`MORPHEME_RE`: 'llm', 'vlm', 'ocr', 'bert', 'gpt', 'omni',
  'glm', 'cpm', a final '-lm' / consonant + 'lm': 'emollm', 'cogvlm', 'monkeyocr', 'modernbert',
  'gena-lm', 'mdlm'; not 'film', 'helm', 'realm'); or
- it stands where only a name stands and is no plain word (``plain_name``: four letters or more, no
  size word, method, tool, stage or verb form; no catalog family, read as it is when typed in capitals):
  after an article and a size ('the 7b llava', 'the 8b llada model') when it is no English word
  (:func:`english_word`: 'the 7b film model', 'the 8b alpha release', 'the 7b helm chart' name no model;
  s33 fix-b), unless it carries a morpheme ('the 7b foollm'),
  or, in a Chinese message, beside a job word ('chatmed 推理', '预训练 minimind') — a Chinese message's
  Latin words are names and terms, not English prose.

The name is echoed as typed (lower case): docs/design.md §8.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from bot.parse.regex import rc

CJK_RE = rc(r"[\u4e00-\u9fff]")
"""A Chinese character: the message is Chinese (its Latin words are names and terms)."""
MORPHEME_RE = rc(r"llm|vlm|ocr|bert|gpt|omni|glm|cpm|(?:^|[\-_]|[^aeiou\W\d_])lm(?![a-z])")
"""A part only model names carry (see the module docstring); searched in C."""

ARTICLE_BEFORE_RE = rc(r"(?<![a-z])(?:the|a|an|this|that|my|our|your|their)\s+$")
"""An article right before the size ('the 7b llava', 'a 13b fooformer'): the size and the word after it
are one noun phrase, not a size ending one clause and a verb starting the next ('internvl 76b take')."""
AFTER_SIZE_NOUNS = frozenset((
    "weights", "weight", "checkpoint", "checkpoints", "version", "versions", "variant", "variants",
    "release", "releases", "dense", "gguf", "quant", "quants", "dataset", "data", "corpus", "tokens",
    "token", "context", "window", "vram", "memory", "ram", "card", "cards", "gpus", "node", "nodes",
    "total", "active", "experts", "expert", "student", "teacher", "draft", "target", "range", "class",
    "size", "sizes", "scale", "level", "tier", "model", "models", "params", "parameter", "parameters",
))  # fmt: skip
"""Nouns that follow a size and are not a name ('the 7b weights', 'a 70b checkpoint', '8b dense'): asked
first, in C (the parse's budget of Python calls)."""


def morpheme_name(name: str) -> bool:
    """Whether ``name`` (typed in lower case) carries a model-name morpheme (:data:`MORPHEME_RE`)."""
    return name.islower() and MORPHEME_RE.search(name) is not None


WORDS_PATH = Path(__file__).parent / "data" / "english_words.txt"
"""English words of four letters or more (SCOWL sizes 10-35 via Debian's wamerican-small: the file's
header cites it and carries its notice)."""


@cache
def _english_words() -> frozenset[str]:
    lines = WORDS_PATH.read_text(encoding="utf-8").splitlines()
    return frozenset(w for w in lines if w and w[0] != "#")


def english_word(name: str) -> bool:
    """Whether ``name`` is an English dictionary word ('film', 'alpha', 'storm'), not a coined name
    ('llava', 'llada'); the list is read once, on the first call (the article rule's path only)."""
    return name.lower() in _english_words()


@cache
def family_spelling(family: str) -> str:
    """How the catalog spells a model family typed in lower case ('starcoder' → 'StarCoder', 'qwen' →
    'Qwen'): the start of the first catalog model's id that begins with it; the family itself when none
    does. s34: a family after an article and a size ('the 7b starcoder') is read as the catalog spells it,
    as when typed so ('the 7B StarCoder' names 'StarCoder 7B', not in the catalog at that size)."""
    from estimator import catalog

    for model_id in sorted(catalog.models()):
        if model_id.lower().startswith(family):
            return model_id[: len(family)]
    return family
