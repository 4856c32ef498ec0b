"""'Which GPUs?', '租什么卡', 'the cheapest way to …' with no card named (session 22 trial #8, s21 #16): the
question asks to choose the card, so the common training cards are compared — the rows an 'A100 vs H100'
question already produces (bot.core.pipeline compares ``gpu_alternatives``), the cheapest whole job first —
instead of one default card sized alone. The default card (the estimator's A100 80G, the seed article's
reference) stays the first row; the H100 80G (SXM5) is added as its alternative, noted :data:`CARDS_ASKED`."""

from __future__ import annotations

import re

from bot.parse.result import ParseResult

GATE_RE = re.compile(
    r"\bwhich\s+(?:(?:cloud|rental|rented|data[- ]?cent(?:er|re)|nvidia)\s+)?"
    r"(?:gpus?|cards?|hardware|accelerators?|instances?)\b"
    r"|\bwhat\s+(?:kind\s+of\s+|type\s+of\s+|sort\s+of\s+)?(?:gpus?|cards?|hardware)\s+(?:should|to|do|would|is|are)\b"
    r"|\bcheapest\s+(?:way|gpus?|cards?|option|setup|hardware)\b"
    r"|(?:租|买|用|选|上)\s*(?:什么|哪种|哪款|哪个|哪类|啥)\s*(?:样的)?\s*(?:云\s*)?(?:卡|显卡|gpu)"
    r"|(?:什么|哪种|哪款|啥)\s*(?:卡|显卡|gpu)\s*(?:最)?\s*(?:便宜|划算|合适|省钱)"
    r"|最\s*(?:便宜|省钱)\s*的\s*(?:方案|办法|做法|卡)"
    r"|推荐\s*(?:用|买|租|选)?\s*(?:什么|哪种|哪款|哪个|哪些|啥)\s*(?:样的)?\s*(?:云\s*)?(?:卡|显卡|gpu)"
    r"|\brecommend(?:ed)?\s+(?:a\s+|which\s+|what\s+)(?:gpus?|cards?|hardware)\b",
    re.IGNORECASE,
)
"""The asking of a card: 'which GPUs?', 'which cloud GPUs' (s24 trial 2 #12), 'what GPU should I rent',
'cheapest way to', '租什么卡', '用哪种卡', '什么卡最划算', '最便宜的方案'; s42 trial #10: '推荐什么卡',
'recommend a GPU'. The call site's cheap gate (the
parse-call bound, tests/test_parse_render_speed)."""
COMMON_CARDS = ("H100-SXM5-80GB",)
"""Compared with the default A100 80G: the two cards every GPU cloud rents (the rows of 'A100 vs H100')."""
SERVING_CARDS = ("H100-SXM5-80GB", "H200-SXM-141GB")
"""Compared with the default A100 80G when serving: those two and the H200 (141 GB: the card whose memory
holds the most KV cache and the largest models on one node, FP8 DeepSeek-V3 on 8; trial s25 #4: 'which GPUs
and how many' for serving got one card and ``comparisons: []``)."""
CARDS_ASKED = "cards_asked"
"""The ParseResult note: no card was named and the question asks which; the common cards are compared."""
CHEAPEST_ASKED = "cheapest_cards"
"""The ParseResult note beside :data:`CARDS_ASKED` when the question asks the cheapest card ('cheapest card
to run …', '最便宜用什么卡'): a serving answer then compares every card priced in the reply's currency
(bot.core.priced_cards, trial s27 #2), not only the common ones."""
CHEAPEST_RE = re.compile(
    r"\bcheapest\b|\bleast\s+expensive\b|\blowest[- ]cost\b|最便宜|最省钱|最划算|成本最低", re.I
)
"""The asking of the cheapest ('cheapest card', 'least expensive GPU', '最便宜用什么卡', '什么卡最划算')."""


def with_cards_compared(parsed: ParseResult, raw: str = "") -> ParseResult:
    """``parsed`` with :data:`COMMON_CARDS` as its alternatives and the note :data:`CARDS_ASKED`, when it
    names no card (nor an unknown one, nor alternatives); :data:`SERVING_CARDS` for a serving question
    (the cheapest that holds the load leads: bot.core.pipeline), and :data:`CHEAPEST_ASKED` too when the
    message ``raw`` asks the cheapest; else ``parsed`` unchanged (the same object)."""
    cheapest = CHEAPEST_RE.search(raw) is not None
    if parsed.request.gpu and cheapest and not parsed.gpu_alternatives and CHEAPEST_ASKED not in parsed.notes:
        # 'cheapest way to … I have a 4090': their card beside the priced ones (s34 trial #2)
        # their card stays sized first (bot.core.pipeline.ASKED_CARD), the cheapest is named above it
        return parsed.model_copy(update={"notes": [*parsed.notes, CHEAPEST_ASKED, "asked_card"]})
    if parsed.request.gpu or parsed.unknown_gpu or parsed.gpu_alternatives or "gpu" in parsed.found:
        return parsed
    serving = getattr(parsed.request.stage, "value", parsed.request.stage) == "inference"
    cards = SERVING_CARDS if serving else COMMON_CARDS
    notes = [*parsed.notes, CARDS_ASKED]
    notes += [CHEAPEST_ASKED] if cheapest else []  # training too: every priced card (s34 trial #2)
    return parsed.model_copy(update={"gpu_alternatives": list(cards), "notes": notes})
