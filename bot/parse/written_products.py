"""Products people write with a multiplication sign (issue 24, round 4), written as the forms the count,
memory and model-name rules read:

- **Cards times each card's memory, no card named** ('a 49GB*4 machine', 'is 8*24G enough', '4 x 48GB',
  '24GB x 2', '4x80GB', '49G*4 的机器'): that many cards of that memory, written 'N gpus with M gb each'
  (the form '8 GPUs of 64GB' is written in). Before, both numbers were named as unread, or (4x80GB)
  dropped in silence. A card name right after the product ('2x24GB A5000') keeps the form the card
  rules read; RAM words after it ('64GB x 2 of RAM') are the host's, left as written.
- **A mixture-of-experts name written with spaces or a star** ('Mixtral 8 x 7B', 'Mixtral 8*7B'): one
  name, '8x7b' (before, the model was found but sized as a 7B). Mistral AI's own MoE models written
  under the company's name ('Mistral 8x7B', 'mistral 8x22b') are its Mixtral models.

- **A count inside 'each of my N GPUs'** ('each of my 4 GPUs has 40 GB', 'all of our 8 cards'): N cards.
- **A card with its count × memory in brackets, no unit** ('A800（8*80）'): that many cards of that memory.
- **One DGX/HGX system written with an article** ('a DGX A100 (8x80GB)', 'our HGX H100'): one system of
  eight GPUs, as '2台DGX H100' is read.

Each rule is gated on a cheap substring test (most messages have no product at all).
"""

from __future__ import annotations

import re

from bot.parse.host_forms import ram_products
from bot.parse.regex import rc
from bot.parse.unit_cues import TIMES

_UNIT = r"g(?:b|ib)?(?![a-z])"
_NOT_RAM_AFTER = r"(?!\s*(?:of\s+)?(?:ram|system|cpu|host|ddr|内存|disk|ssd|storage|memory\s+ram))"
_CARD_AFTER = r"(?!\s*(?:x\s*)?(?:nvidia|geforce|rtx|tesla|quadro|radeon|[a-z]{1,5}\s?-?\d{2,4}[a-z]{0,4}\b))"
MEMORY_TIMES_COUNT_RE = rc(
    rf"(?<![\d.a-z])(?P<m>\d{{1,3}})\s*{_UNIT}\s*[x*×]\s*(?P<n>\d{{1,3}})(?![\d.]|\s*(?:g|gb|gib|t|tb|b|x|\*)\b)"
    + _NOT_RAM_AFTER
)
"""'49GB*4', '24GB x 2', '49G*4': each card's memory, then how many."""
COUNT_TIMES_MEMORY_RE = rc(
    rf"(?<![\d.a-z*])(?P<n>\d{{1,3}})\s*[x*×]\s*(?P<m>\d{{1,3}})\s*{_UNIT}"
    + _NOT_RAM_AFTER
    + r"(?!\s*(?:gpus?|cards?|accelerators?|devices?|显卡|的卡|卡|张|块))"
    + _CARD_AFTER
)
"""'8*24G', '4 x 48GB', '4x80GB' with no card word or name after (those forms are read already)."""
MOE_NAME_RE = rc(r"(?<![\d.])([2-9]|1[0-6])\s*(?:[x×*]\s*|\s+x\s*)(\d{1,3}(?:\.\d+)?)\s*b(?![a-z0-9])")
"""'8 x 7b', '8*7b', '8 x22b': a mixture-of-experts name (experts × each one's size) — glued when a model
word is right before it (:data:`_MOE_BEFORE_RE`)."""
_MOE_BEFORE_RE = rc(r"(?:mixtral|mistral|moe|grok|dbrx|qwen\S*|deepseek\S*|\bmodel)[\s\-_]*$")
MISTRAL_MOE_RE = rc(r"\bmistral(?:ai)?[\s\-_]*(?=(?:8x7b|8x22b)(?![a-z0-9]))")
"""'Mistral 8x7B', 'mistral-8x22b': Mistral AI's mixture-of-experts models, Mixtral 8x7B and 8x22B."""
MOE_FIRST_RE = rc(
    r"(?<![a-z0-9.])(8x7b|8x22b)[\s\-_]*(?:的\s*)?(?:mixtral|mistral(?:ai)?)(?![a-z0-9])(?![\s\-_]*\d+x\d)"
)
"""'8x22b mixtral', '8x7B Mistral', '8x22B 的 mixtral': the shape typed before the family name, written
'mixtral 8x22b' (s27: before, the bare 'mixtral' alias took the name, and an 8x22B was sized as the 8x7B)."""
ONE_SYSTEM_RE = rc(
    r"\b(?:a|an|one|our|my|the|single|a\s+single)\s+(?=(?:nvidia\s+)?(?:dgx|hgx)[\s\-_]*"
    r"(?:a100|a800|h100|h200|h800|b200)(?![a-z0-9])(?![\s\-_]*(?:clusters?|superpods?|pods?)\b))"
)
"""'a DGX A100', 'our HGX H100': one such system, written '1 dgx …' (its eight GPUs are counted as
'2台DGX H100' is, :data:`bot.parse.roles.R_DGX`). Before, the article left the system uncounted. Only an
8-GPU generation (A100/A800/H100/H200/H800/B200) is one 8-GPU system: 'our DGX H100 cluster', 'a DGX
SuperPOD', 'a DGX Spark' (one GB10), 'a DGX Station', 'our DGX GB200 NVL72' (72 GPUs) are not."""
EACH_OF_RE = rc(
    r"\b(?:each|every\s+one|all)\s+of\s+(?:my|our|the|these|those|its|their)\s+(\d{1,3})\s+"
    r"((?:[a-z0-9\-]+\s+)?(?:gpus?|cards?|accelerators?|devices?))\b"
)
"""'each of my 4 GPUs has 40 GB', 'all of our 8 cards': that many cards, written '4 gpus, each …' (before, the
count was left unread)."""
_PRODUCT_GATE = re.compile(r"\d\s*(?:g|gb|gib)?\s*[x*×]\s*\d")


_CARD_BEFORE_RE = rc(
    r"(?:\b(?:gpus?|cards?|nvidia|rtx|tesla|quadro)|[a-z]{1,5}\s?-?\d{2,4}[a-z]{0,4}s?)"
    r"(?:\s*(?:服务器|机器|节点|nodes?|servers?|machines?|box(?:es)?))?\s*[,(（:]?\s*$"
)
"""A card right before the product ('A5000 (2x24GB)', '2x A5000, 2x24GB'): its memory, the card rules'."""


_RAM_BEFORE_RE = rc(
    r"(?:内存|\bram|\bcpu|\bhost|\bsystem|硬盘|磁盘|\bdisk|\bssd)(?:\s+memory)?\s*[:：=]?\s*(?:is\s+)?$"
)
"""System memory before the product ('内存 64G*2', 'RAM: 64GB x 2'): the host's, no card."""


MAX_WRITTEN_COUNT = 64
"""The most cards read from a written product ('49GB*4'): 8 nodes of 8; a larger factor is not a card
count people write beside a memory."""
MEMORY_GB_RANGE = (4, 288)
"""GB per card a written product may state: the smallest card memory in the catalog class people fine-tune
on (4 GB) to the largest single accelerator memory shipping (AMD MI355X, 288 GB HBM3E, AMD datasheet 2025)."""


_GLUED_CARD_RE = rc(r"(?<![a-z0-9])[a-z]{1,5}\s?\d{2,4}[a-z]{0,4}[-_]$")
"""A card name glued to the product by a hyphen ('A100-40GB x4', 'H100-80GB x8', 'A100-80G*4', 'A100-40G×4'):
that card's memory, then the count (trial s12 A7: before, the hyphen made the count a negative '-4')."""


def _count_cards(m: re.Match[str]) -> str:
    count, memory = int(m.group("n")), int(m.group("m"))
    before = m.string[max(0, m.start() - 24) : m.start()]
    if _GLUED_CARD_RE.search(before) and 1 <= count <= MAX_WRITTEN_COUNT:
        return f"{m.group('m')}gb ({count} gpus)"  # 'a100-40gb (4 gpus)', as the card rules read it
    if _CARD_BEFORE_RE.search(before) or _RAM_BEFORE_RE.search(before):
        return m.group(0)
    if not (1 <= count <= MAX_WRITTEN_COUNT and MEMORY_GB_RANGE[0] <= memory <= MEMORY_GB_RANGE[1]):
        return m.group(0)
    return f"{count} gpus with {memory} gb each"


_BATCH_BEFORE_RE = re.compile(r"(?:batch|\bbs|批)[^。,，;；?？\n]{0,12}$")
_HOURS_AFTER_RE = re.compile(r"\s*(?:小时|h\b|hours?\b|hrs?\b|天|days?\b)")


def _bare_product(m: re.Match[str]) -> str:
    s, start, end = m.string, m.start(), m.end()
    if _CARD_BEFORE_RE.search(s[max(0, start - 24) : start]):
        return m.group(0)
    if (m.group("m") == "24" and m.group("n") == "7") or _HOURS_AFTER_RE.match(s, end):
        return m.group(0)  # '24x7 serving', '24*4 小时': time, not cards
    if _BATCH_BEFORE_RE.search(s[max(0, start - 24) : start]):
        return m.group(0)  # 'global batch 是 32*4': a batch product
    if not _MEMORY_TALK_RE.search(s[max(0, start - 16) : end + 32]):
        return m.group(0)  # the memory word must be beside the product, not anywhere in the message
    return f"{m.group('n')} gpus with {m.group('m')} gb each"


def _moe(m: re.Match[str]) -> str:
    if not _MOE_BEFORE_RE.search(m.string[max(0, m.start() - 24) : m.start()]):
        return m.group(0)
    return f"{m.group(1)}x{m.group(2)}b"


BRACKET_COUNT_MEMORY_RE = rc(
    r"(?<![a-z0-9])(?P<card>[a-z]{1,6}\s?-?\d{2,4}[a-z]{0,4})\s*\(\s*(?P<n>\d{1,2})\s*[x*×]\s*"
    r"(?P<m>24|32|40|48|64|80|94|96|141|192)\s*\)"
)
"""A card, then its count times each card's memory in brackets, no unit ('A800（8*80）', 'H800 (8x80)'):
written 'a800 80gb (8 gpus)' as the card rules read it (s17: before, neither number was read). The memory
must be a card size people buy (24 to 192 GB) so '(2*8)', nodes × cards, stays a count."""


BARE_MEMORY_TIMES_COUNT_RE = rc(
    r"(?<![\d.a-z*×])(?P<m>24|32|40|48|80|96)\s*[*×x]\s*(?P<n>[1-9]|1[0-6])"
    r"(?![\d.]|\s*(?:g|gb|gib|t|b|k|m|张|块|卡|台|机|nodes?|gpus?|cards?)(?![a-z]))"
    r"(?![^。,，;；?？\n]{0,8}(?:batch|bs\b|tokens?|seq|样本|条|步|steps?|epochs?))"
)
"""'我这 24*4 怎么还报显存溢出': a card memory times a count, no unit and no card, in a message about GPU
memory: that many cards of that memory (s17: before, both numbers were unread). The memory must be a card size
people buy, and memory words (显存, VRAM, OOM) must stand beside it (16 characters before, 32 after),
so '16*8' nodes × cards stays a count; never after a batch word ('global batch 是 32*4'), before
hours ('24*4 小时') or as '24x7' (review of s17: those were read as cards)."""
_MEMORY_TALK_RE = re.compile(r"显存|vram|\boom|out\s+of\s+memory|gpu\s+memory")
_BARE_GATE = re.compile(r"(?:24|32|40|48|80|96)\s*[*×x]\s*\d(?![\d.])")
_BRACKET_GATE = re.compile(r"\(\s*\d{1,2}\s*[x*×]\s*\d{2,3}\s*\)")


def _sub(pattern: re.Pattern[str], repl: object, s: str) -> str:
    return pattern.sub(repl, s) if pattern.search(s) else s  # type: ignore[call-overload]


BATCH_PRODUCT_RE = rc(
    r"(?<![a-z_])(?P<k>batch(?:[\s_\-]*size)?|bs)\s*(?:of\s+|is\s+|=\s*|:\s*)?(?P<a>\d{1,4})\s*[x×*]\s*"
    r"(?P<b>\d{1,4})(?!\d|\.\d|\s*[x×*]\s*\d|\s*(?:gpus?|cards?|nodes?|[a-z]\d))"
)
"""Round 24: a batch written as its product ('batch size 8*8' on 8 GPUs, 'bs 4x16'): the first factor per
device, the product the global batch, written 'batch size 8 (global batch 64)' for the batch rules
(:data:`bot.parse.lexicon.GLOBAL_BATCH_RE`). Before, the second factor was left unread and the global batch
lost. Never a count of cards after the product ('batch 4 x 8 GPUs': each GPU's batch and the count)."""


def _batch_product(m: re.Match[str]) -> str:
    a, b = int(m.group("a")), int(m.group("b"))
    return f"{m.group('k')} {a} (global batch {a * b})"


def written_products(s: str) -> str:
    """The normalized text ``s`` with the products above written as the rules read them."""
    if "gx" in s:
        s = ONE_SYSTEM_RE.sub("1 ", s)

    if not (any(map(s.__contains__, TIMES)) and _PRODUCT_GATE.search(s)):
        return s
    if "b" in s:
        s = BATCH_PRODUCT_RE.sub(_batch_product, s)
    if "内存" in s or "ddr" in s or " ram" in s:  # round 33 zh: '内存 16G*2' is the host's 32 GB
        s = ram_products(s)
    if _BARE_GATE.search(s) and _MEMORY_TALK_RE.search(s):
        s = _sub(BARE_MEMORY_TIMES_COUNT_RE, _bare_product, s)
    if _BRACKET_GATE.search(s):
        s = _sub(BRACKET_COUNT_MEMORY_RE, r"\g<card> \g<m>gb (\g<n> gpus)", s)
    s = MOE_NAME_RE.sub(_moe, s)
    if "mistral" in s:
        s = MISTRAL_MOE_RE.sub("mixtral ", s)
    if "mixtral" in s or "mistral" in s:
        s = MOE_FIRST_RE.sub(r"mixtral \1", s)
    s = MEMORY_TIMES_COUNT_RE.sub(_count_cards, s)
    return COUNT_TIMES_MEMORY_RE.sub(_count_cards, s)


def each_of_count(s: str) -> str:
    """'each of my 4 GPUs' written '4 gpus, each' (run before the memory forms read 'GPUs has 40 GB')."""
    return EACH_OF_RE.sub(r"\1 \2, each", s) if " of " in s and EACH_OF_RE.search(s) else s
