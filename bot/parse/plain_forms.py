"""Ways of writing that change no meaning but changed the answer (s31 metamorphic sweep:
``python -m tests.metamorphic``, tests/data/metamorphic_census.md), written plainly.

Where a message enters (:func:`plain_forms`, on the text as typed):

- **Full-width letters, digits and spaces** (U+FF10–U+FF19, U+FF21–U+FF3A, U+FF41–U+FF5A; U+3000, the
  ideographic space), as a Chinese input method types them ('８ 张 Ａ１００', 'Qwen２.５-７２B'): the
  ASCII characters they stand for (Unicode's NFKC maps them so: UAX #15, the <wide> compatibility
  decompositions). The text normalization (bot.parse.normalize) did so already, but the readers of the
  message as typed (pasted configs and launch lines, names as typed, the whole-message steps) saw '８'.
  Full-width punctuation ('，', '：', '（') is left as typed: the readers know it.
- **Markdown emphasis and inline code** around a word ('Llama 2 **70B**', 'on 2x `A100` 80GB'): the words
  inside. '**' between two numbers ('2**70') is Python's power and stays (its reader: bot.parse.normalize
  ``_POWER_RE``); that reader read 'Llama 2 **70B**' as 2⁷⁰ and 'R1 **671B**' as 1⁶⁷¹. An emphasis opens
  after no word character and closes before none (CommonMark 0.31 §6.2: a left-flanking delimiter run is
  not followed by white space, a right-flanking one not preceded by it); a code span's backticks are not
  part of a run of backticks (§6.1), so a fenced block (```yaml) is left as typed.

On the normalized text (bot.parse.normalize.prepare):

- **A count in Chinese numerals** before a classifier of cards or machines, as Arabic digits
  (:func:`arabic_counts`: '四张显卡' → '4张显卡'). Every question read in full with '4 张' was read in full
  with Arabic digits, not always with the numeral ('服务器有 四张显卡，每张 23GB' sized 23/4 = 5.75 GB a
  card; '每台 十六张 32G 显存的卡' 0.5 GB; '两张 h20 做推理，六张 h20 训练' 2 cards, not 8). Numerals 2–99
  (二 … 九十九, 两; not 一); '千卡', '单卡', '几张' keep their readers, '一块钱' is money; no time word.
- **A sequence length written in full** right before the job, in thousands (:func:`in_thousands`:
  'Llama3-70B 8192 全参数微调' → '8k 全参数微调', as bot.parse.roles ``R_SEQ_JOB`` reads it; '8192' there
  was a number no word named). Only the lengths model configs use (powers of two from 2,048 to 262,144:
  max_position_embeddings, vLLM's --max-model-len examples), never after a batch or step word
  ('global batch 4096 训练' is a batch).
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

_WIDE = "".join(chr(c) for c in (*range(0xFF10, 0xFF1A), *range(0xFF21, 0xFF3B), *range(0xFF41, 0xFF5B)))
_FOLD = str.maketrans({**{w: chr(ord(w) - 0xFEE0) for w in _WIDE}, "\u3000": " "})
"""Full-width digit and letter → its ASCII character (code point − 0xFEE0); the ideographic space → ' '."""

_EMPHASIS_RE = rc(r"(?<![\w*])(\*\*?)(?=[^\s*])([^*\n]{1,120}?)(?<=[^\s*])\1(?![\w*])")
"""'**70B**' (strong emphasis) and '*32*' (emphasis; s35 fixd #5: 'lora_alpha: *32*'): the words inside;
'2**70' (a power) and '4*A100' (a product) have a word character before the mark, '2 * 8' a space after."""
_CODE_RE = rc(r"(?<![`\w])`(?=[^\s`])([^`\n]{1,120}?)(?<=[^\s`])`(?![`\w])")
"""'`A100`' (a code span of one backtick): the words inside; '```' fences are runs, left as typed."""

CUE_RE = rc(r"[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a\u3000]|\*|`")
"""A character :func:`plain_forms` may change: its gate at the call sites (one C search; no call
without it)."""


def plain_forms(text: str) -> str:
    """``text`` with full-width letters, digits and spaces as ASCII and markdown emphasis and code spans
    around words unwrapped (module docstring); the same object when it has none of them (one C search:
    core calls this on every message, and runs no regex of its own: tests/test_core_one_pass.py).
    Idempotent."""
    if CUE_RE.search(text) is None:
        return text
    text = wide_ascii(text)
    if "*" in text:
        text = _EMPHASIS_RE.sub(_inner2, text)
    if "`" in text:
        text = _CODE_RE.sub(_inner, text)
    return text


def wide_ascii(text: str) -> str:
    """``text`` with full-width letters, digits and spaces as ASCII, and nothing else changed: no regex
    (one ``str.translate``, none for ASCII text). Core calls this before it looks for a pasted config or
    launch line (bot.core.pipeline.answer); the emphasis and code spans are unwrapped in parse only, in
    the prose (s31 review: a pasted 'f(**kwargs)' or a shell's backticks stay as typed)."""
    return text if text.isascii() else text.translate(_FOLD)


def _inner2(m: re.Match[str]) -> str:
    """``r"\\2"`` as a function (the emphasis mark is group 1)."""
    return m.group(2)


def _inner(m: re.Match[str]) -> str:
    """``r"\\1"`` as a function (a template makes ``re`` call its Python helper on every call)."""
    return m.group(1)


# --- counts in Chinese numerals (read on the normalized text: bot.parse.normalize.prepare) ---------

_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"两": 2}

COUNT_RE = rc(
    r"(?<![零〇一二两三四五六七八九十百千万亿\d.第每几数上好机])"
    r"([二三四五六七八九]十[一二三四五六七八九]?|十[一二三四五六七八九]|[二两三四五六七八九])"
    r"(?=\s?(?:张|(块)(?![钱零一二两三四五六七八九半毛角元])|台|卡(?![片住顿])|个?节点))"
)
"""A Chinese numeral of 2–99 (not after another numeral or a digit, as part of a longer number, nor after 第
or 每) right before a classifier of cards or machines: 张/块/台/卡, 节点. Not 一: 'a'/'one' in phrases
with readers of their own ('一机多卡' is single-node multi-GPU, '每一张卡' each card, '一张 4090' one
card). Not of time: '一天只开8小时' is a rate per day, its reader's (bot.parse.daily_hours). Not a vague
count (s31 review): after 几/数/上/好 ('几十张', '数十台', '上十台', '好几十张': how many is not said) a
numeral is no count, and a bare 十 is no count either ('十几张'): only 二十 … 九十九 and 十一 … 十九. 块 is a
card count only beside a card word (:data:`_CARD_WORD_RE`, before or after it): '三块五', '两块钱' are
money. Not 'N机M卡' ('两机八卡', machines × cards): its own reader reads it whole and echoes
it as typed, so neither numeral is rewritten (s31 merge: tests/test_s9_review_fixes_a.py)."""

_CARD_WORD_RE = rc(r"显?卡|gpu|npu|[ahlbv]\d{2,3}|rtx|\d{4}\b|h20|昇腾|ascend|mi\d{3}|tesla|910")
"""A card or GPU word: a 块 count's neighbour ('四块 A100', '3090 两块', '两块显卡')."""


def _is_card_block(m: re.Match[str]) -> bool:
    """The 块 after the numeral counts cards: a card word within a few characters after or before it."""
    s = m.string
    after = s[m.end() + 1 : m.end() + 12]
    before = s[max(0, m.start() - 12) : m.start()]
    return bool(_CARD_WORD_RE.match(after.lstrip()) or _CARD_WORD_RE.search(before))


def _value(numeral: str) -> int | None:
    """1–99 of '四', '两', '十六', '三十', '九十九'; None for anything else."""
    if "十" not in numeral:
        return _DIGITS.get(numeral)
    tens, _, ones = numeral.partition("十")
    if tens == "两":
        return None  # '两十' is no numeral
    return (_DIGITS[tens] if tens else 1) * 10 + (_DIGITS[ones] if ones else 0)


def _arabic(m: re.Match[str]) -> str:
    if m.group(2) and not _is_card_block(m):
        return m.group(0)  # '三块五', '两块一小时': money, not cards (s31 review)
    value = _value(m.group(1))
    return m.group(0) if value is None else str(value)


def arabic_counts(s: str) -> str:
    """``s`` with each count of :data:`COUNT_RE` in Arabic digits ('两台八卡' → '2台8卡'); none where a
    count of 一 stays in words ('只有一张卡被占用，两张卡怎么才能都用上'): the readers that compare two
    counts read them in one script (s31 merge: tests/test_s16_gen_kinds.py)."""
    if _ONE_COUNT_RE.search(s):
        return s
    return COUNT_RE.sub(_arabic, s)


_ONE_COUNT_RE = rc(
    r"(?<![零〇一二两三四五六七八九十百千\d第])一\s?(?:[张台]|块(?![钱零一二两三四五六七八九半毛角元]))"
)
"""A count of one in words ('一张卡', '一台机器'), which :data:`COUNT_RE` leaves as typed."""


# --- lengths written in full (read on the normalized text: bot.parse.normalize.prepare) ------------

FULL_LENGTH_RE = rc(
    r"(?<![\w.,\-=:/])(2048|4096|8192|16384|32768|65536|131072|262144)(?=\s*(?:的\s*)?"
    r"(?:dpo|sft|全参|全量|lora|qlora|长文本|微调|训练|推理|部署|inference\b|serving\b))"
)
"""A power-of-two length written in full right before a job word (the words of ``R_SEQ_JOB``)."""
_COUNTED_BEFORE_RE = rc(r"(?:batch|bs|steps?|iters?|samples?|步|条|样本|批)[\s_\-:=]*$")
"""A batch, step or sample word right before the number: the number is that, not a length."""


def _thousands(m: re.Match[str]) -> str:
    if _COUNTED_BEFORE_RE.search(m.string[max(0, m.start() - 16) : m.start()]):
        return m.group(0)
    return f"{int(m.group(1)) // 1024}k"


def in_thousands(s: str) -> str:
    """``s`` with each length of :data:`FULL_LENGTH_RE` written in binary thousands ('8192' → '8k')."""
    return FULL_LENGTH_RE.sub(_thousands, s)
