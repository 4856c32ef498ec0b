"""A setting the user corrects as they type (trial s12 B6): 'two RTX A4000? no, two 24GB 3090s', '4 A100,
sorry, 8 A100', '4 张 A100，不对，8 张 H100'.

The words before the correction cue are what the user took back: they are masked (same length), so the
rules read the corrected setting only, and the taken-back phrase is named as not sized
(``replaced_by_later_value``).
Before, the taken-back card was sized ('RTX A4000 24G … the catalog's card has 16 GiB') and the
corrected 3090 shown only as a comparison row.
"""

from __future__ import annotations

from bot.parse.normalize import mask
from bot.parse.regex import rc, words_gate

CUE_RE = rc(
    r"\s*(?:[?？]\s*(?:no|nope)|(?:[,，]\s*)?(?:[(（]\s*)?(?:no\s+wait|sorry|i\s+mean|i\s+meant|correction|my\s+bad"
    r"|actually)|(?:[,，]\s*)?(?:[(（]\s*)?(?:不对|说错了|打错了|写错了|我是说|我的意思是|更正))\s*[,，:：!！]\s*(?=\S)"
    r"|(?:(?<=[,，?？(（])|(?<=[,，?？(（]\s))\s*(?:no\s+wait|i\s+mean|i\s+meant|我是说|我的意思是|更正为?)\s*"
    r"(?=(?:on\s+|to\s+|an?\s+|用\s*)?(?:[\d一两二三四五六七八九十]|[a-z][\w.\-]*\d))"
)
"""The cue after the taken-back words: '? no,', ', sorry,', ', i mean,', ' (no wait, …)', '，不对，',
', actually,', '，我是说，'; without a comma after it only the cues that cannot be read otherwise,
after a comma, '?' or bracket ('? no wait on 2 …', ', i mean 4 H100', '，我是说 8 张', '，更正为 8 张':
s34 trial #4).
The comma and the bracket each take the spaces after them (the texts and spans of
``\\s*[,，]?\\s*[(（]?\\s*``, whose three adjacent ``\\s*`` split a run of n spaces n² ways at each of its
n starts: ~90 ms on a 193-character question whose masked words left a run of spaces)."""
CLAUSE_BREAK_RE = rc(r"[,;:()（），。；：\n?？!！]|\.(?=\s|$)")
"""Where the clause holding the taken-back words starts (a '.' only before a space: not '2.5')."""
NUMBER_RE = rc(
    r"(?<![\w.\-])(?:\d+(?:\.\d+)?[a-z]*|one|two|three|four|five|six|eight|single"
    r"|[一两二三四五六七八九十单](?=\s*[张块台个卡]))"
)
"""A number that opens a setting ('2 l40s', 'one 4090', '4 张 a100', '两张', '7b'): never one inside a name
('llama-3-8b', 'qwen2.5', 'a100')."""
JOINED_RE = rc(r"\s*(?:x|×|\*|张|块|台|个)?\s*$")
"""Between two numbers of one setting ('one 4090', '2 x 4090')."""
MAX_OLD = 40
"""Longest taken-back phrase (characters)."""


MEMORY_SIZE_RE = rc(r"\d+(?:\.\d+)?\s*(?:g|gb|gib|g显存)")
"""A card's memory size ('64gb', '80g'): the end of a card phrase whose count comes first ('2 a100 64gb')."""
CARD_NAME_GAP_RE = rc(r"\s*(?:x|×|\*|张|块|台|个)?\s*[a-z][a-z0-9\-]*\s*")
"""Between a card's count and its memory size: the card's name ('2 a100 64gb', '2 x rtx-3090 24g')."""


NAME_END_RE = rc(r"(?<![\w.\-/])[a-z][\w.\-/]*\d[\w.\-/]*$")
"""A name with a digit closing the taken-back words ('llama-3-8b', 'qwen2.5-7b', 'a100'): a model or card
taken back with no count before it (s34 trial #4)."""


def _end(s: str, cue_start: int) -> int:
    """Where the taken-back words end: before the spaces and the '?' / ',' that close them ('on 2 A100 64GB?
    no wait, …': the '?' is the question's, not a clause break before the taken-back words)."""
    while cue_start > 0 and s[cue_start - 1] in " ?？!！,，":
        cue_start -= 1
    return cue_start


def _taken_back(s: str, cue_start: int) -> int | None:
    """Where the setting taken back before ``cue_start`` starts: the last number opening a setting in the
    cue's clause ('serve llama-3-8b on 2 l40s, sorry, …': '2 l40s'; 'on one 4090, sorry': 'one 4090'),
    else a model's or card's name closing it ('llama-3-8b, sorry, …'), or None."""
    cue_start = _end(s, cue_start)
    breaks = [b.end() for b in CLAUSE_BREAK_RE.finditer(s, max(0, cue_start - MAX_OLD), cue_start)]
    clause = breaks[-1] if breaks else max(0, cue_start - MAX_OLD)
    numbers = list(NUMBER_RE.finditer(s, clause, cue_start))
    if not numbers:  # 'fine-tune llama-3-8b, sorry, qwen2.5-7b': a model's or a card's name with no count
        name = NAME_END_RE.search(s, clause, cue_start)
        return name.start() if name is not None else None
    i = len(numbers) - 1
    if (
        i > 0
        and MEMORY_SIZE_RE.fullmatch(numbers[i].group())
        and CARD_NAME_GAP_RE.fullmatch(s, numbers[i - 1].end(), numbers[i].start())
    ):
        i -= 1  # '2 a100 64gb': the count before the card and its memory (s34 trial #4)
    while i > 0 and JOINED_RE.fullmatch(s, numbers[i - 1].end(), numbers[i].start()):
        i -= 1  # 'one 4090': the count before the card
    return numbers[i].start()


_GATE = (
    "? no",
    "?no",
    "？no",
    "sorry",
    "i mean",
    "no wait",
    "correction",
    "my bad",
    "不对",
    "说错了",
    "打错了",
    "写错了",
    "actually",
    "我是说",
    "我的意思是",
    "更正",
)
_GATE_RE = words_gate(_GATE)


def self_correction(s: str) -> tuple[str, list[tuple[str, str]]]:
    """``s`` with each taken-back setting and its cue masked; the settings named as
    ``replaced_by_later_value`` (the user changed it: not "another setup in your message"). The
    setting is anchored on its own number right before the cue, whatever precedes it ('on 2 L40S, sorry,
    4 L40S', '用 4 张 A100，不对，8 张 H100', 'on 8 H100 (no wait, 8 A100)'; session 13 review finding 9:
    only a phrase after a comma or bracket was read)."""
    if not _GATE_RE.search(s):
        return s, []
    named: list[tuple[str, str]] = []
    for m in reversed(list(CUE_RE.finditer(s))):
        start = _taken_back(s, m.start())
        if start is None:
            continue  # only a taken-back setting with a number or a card
        named.insert(0, (" ".join(s[start : _end(s, m.start())].split()), "replaced_by_later_value"))
        s = mask(s, start, m.end(), " ")
    return s, named
