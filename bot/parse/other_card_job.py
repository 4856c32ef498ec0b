"""One card of the rig kept for another job (issue 24, s50 leftovers #3): '两张 3090，想用单卡跑模型，另一张跑
embedding', 'two 3090s: one card runs the model, the other one runs the embedding model'.

The model is asked about on one card ('单卡', 'one card'): the other card does another job (an embedding
model, a reranker, ASR …), so it is not the model's. Before, both cards were sized for the model (2 × 24
GB). Now the model gets the one card, and the phrase of the other card is named as not used
(``other_card_job``), as typed; the 'one' of 'the other one' / '另一张' is no longer a second count
('repeated'). Only with one card said for the model before the other card's phrase, and a count above one.
"""

from __future__ import annotations

import re

from bot.parse.result import ParseResult

OTHER_CARD_RE = re.compile(
    r"(?P<zh>(?:另一|另外一|剩下的?一|第二)\s*(?:张|块|个)\s*(?:卡|gpu|显卡)?\s*(?:拿来|用来|用于|专门)?\s*"
    r"(?:跑|做|部署|放|给)\s*[^\s，,。;；!！?？]{1,30})"
    r"|(?P<en>\bthe\s+other(?:\s+(?:one|card|gpu))?\s+(?:(?:is|will\s+be)\s+(?:used\s+)?for|runs?|will\s+run|serves?"
    r"|hosts?|handles?|does|for)\s+(?:the\s+|an?\s+|my\s+)?[\w\-]+(?:\s+models?)?)",
    re.IGNORECASE,
)
"""The other card and its job ('另一张跑 embedding', '另外一块卡用来跑 bge-m3', 'the other one runs the
embedding model', 'the other card for the reranker')."""
ONE_CARD_RE = re.compile(
    r"单卡|一张卡|一块卡|用\s*一张|\bone\s+(?:card|gpu)\b|\ba\s+single\s+(?:card|gpu)\b", re.IGNORECASE
)
"""The model's one card, said before the other card's phrase ('想用单卡跑模型', 'one card runs the model')."""


def with_other_card_job(parsed: ParseResult, raw: str) -> ParseResult:
    """``parsed`` with the model on one card when ``raw`` keeps the other card for another job (module
    doc), the other card's phrase named ``other_card_job``; else ``parsed`` as it was."""
    m = OTHER_CARD_RE.search(raw)
    count = parsed.request.gpu_count
    if m is None or not count or count < 2 or not ONE_CARD_RE.search(raw, 0, m.start()):
        return parsed
    said = " ".join(m.group(0).split())
    one = ("一", "one")  # the 'one' of 'the other one' / '另一张', read as a second count
    unused = [(t, r) for t, r in parsed.unused_numbers if not (r == "repeated" and t.lower() in one)]
    return parsed.model_copy(
        update={
            "request": parsed.request.model_copy(update={"gpu_count": 1}),
            "unused_numbers": [*unused, (said, "other_card_job")],
        }
    )
