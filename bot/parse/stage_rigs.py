"""Two stages in one message, each on its own cards (issue 24 item 9, s21: en14-023 kind): 'We pretrain
a 7B on 1T tokens on 64 H800, then SFT it on 8 A100 with 1B tokens. How long does the SFT take?',
'先用64张H800预训练7B模型1万亿token，再在8张A100上SFT 10亿token，SFT要多久？', 'Can I do instruction
fine-tuning with 4x 3090? … And how much memory does inference need: can I use one 3090?'.

Before, one job took the fine-tuning's stage with the pre-training's cards and tokens (64 H800, 1T),
the other numbers named 'repeated'. Now the message is cut into blocks, one a stage: at each sentence end
and at each 'then' ('then', 'after that', '然后', '再', '接着'); a piece that names no stage goes with the
one before it. With exactly two blocks of different stages, each naming its own cards, the block the
question is in (the first block holding a question; a last question naming one block's stage, 'How long
does the pretraining take?', asks about that block) is sized from its own words: the other block is
blanked out but for the model it names ('it' in 'then SFT it' is that model), and named as another
setup (``other_setup``), as typed, with its stage (``stage: finetune``, s48).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import pairwise

from bot.parse import STAGE_CUES  # the gate is declared beside parse's call, which imports this module
from bot.parse import STAGE_RIGS_RE as GATE_RE  # only when the gate finds the message (start-up)
from bot.parse.cue_index import FOLD_TABLE
from bot.parse.gpus import extract_gpus
from bot.parse.normalize import normalize
from bot.parse.result import ParseResult
from bot.parse.words import explicit_stage


def rigs_gate(raw: str) -> bool:
    """Whether :data:`GATE_RE` finds ``raw`` (bool). First, in C and without a regex, whether
    :func:`bot.parse.cue_index.fold` of ``raw`` holds :data:`STAGE_CUES` twice: the gate's third
    look-ahead needs two stage words, each holding one (a 12,473-character paste: ~2.7 ms of look-aheads
    → ~0.07 ms; most messages with a training word name one stage once). :func:`bot.parse.parse` asks the
    same, written out at its call site (no frame)."""
    folded = raw.translate(FOLD_TABLE).lower()  # bot.parse.cue_index.fold, no frame
    return sum(map(folded.count, STAGE_CUES)) >= 2 and GATE_RE.search(raw) is not None


CUT_RE = re.compile(
    r"(?<=[.?!。？！;；])\s+|(?<=[。？！；])|[,，]?\s*(?=\b(?:and\s+)?then\b|\bafter\s+that\b|然后|接着)"
    r"|[,，]\s*(?=再|之后|随后)",
    re.IGNORECASE,
)
"""Where a block may end: after a sentence, before 'then' / 'after that' / 然后 / 接着 / '，再' / '，之后'."""
ASK_RE = re.compile(r"[?？]|[吗呢][。.!！]?\s*$|多久|多少|几张|几台|how\s+(?:long|many|much)", re.IGNORECASE)
"""A piece that asks."""
_SIZE_RE = re.compile(r"\d+(?:\.\d+)?\s?[bBmM](?![a-zA-Z])(?!\s*(?:tokens?|token|词元))")


def _blocks(raw: str) -> list[tuple[int, int, str]]:
    """(start, end, stage) of the stage blocks of ``raw``: pieces between cuts, a stage-less piece joined
    to the one before it (the first joined to the next), consecutive pieces of one stage joined."""
    cuts = [0, *(m.start() for m in CUT_RE.finditer(raw) if 0 < m.start() < len(raw)), len(raw)]
    pieces = [(a, b, explicit_stage(normalize(raw[a:b]))) for a, b in pairwise(cuts) if b > a]
    blocks: list[list] = []
    for a, b, stage in pieces:
        if blocks and (stage is None or stage == blocks[-1][2]):
            blocks[-1][1] = b
        elif blocks and blocks[-1][2] is None:
            blocks[-1][1:] = [b, stage]
        else:
            blocks.append([a, b, stage])
    return [(a, b, s) for a, b, s in blocks]


def _kept(block: str, model: str | None) -> list[tuple[int, int]]:
    """Spans of ``block`` that name its model: the model as typed, else a size said in it."""
    if model:
        at = block.lower().find(model.lower())
        if at >= 0:
            return [(at, at + len(model))]
    return [m.span() for m in _SIZE_RE.finditer(block)][:1]


def stage_rigs(raw: str, parse_one: Callable[[str], ParseResult]) -> ParseResult | None:
    """The parse of ``raw`` sized on the asked stage's own block (module doc), or None when ``raw`` is
    not two stages each with its own cards (the caller parses it whole)."""
    if not GATE_RE.search(raw):
        return None
    blocks, asked = _blocks(raw), None
    if len(blocks) == 3 and ASK_RE.search(
        raw[blocks[2][0] : blocks[2][1]]
    ):  # '… How long does the SFT take?'
        asked = next((i for i in (0, 1) if blocks[i][2] == blocks[2][2]), None)
        blocks = blocks[:2] if asked is not None else blocks
    if len(blocks) != 2 or None in (blocks[0][2], blocks[1][2]) or blocks[0][2] == blocks[1][2]:
        return None
    if not all(extract_gpus(normalize(raw[a:b]))[1] for a, b, _ in blocks):
        return None  # one rig for both: the whole message is one setup
    if asked is None:
        asked = next((i for i, (a, b, _) in enumerate(blocks) if ASK_RE.search(raw[a:b])), 1)
    a, b, other_stage = blocks[1 - asked]
    other = raw[a:b]
    keep = _kept(other, parse_one(other).model_typed)
    blank = "".join(c if any(x <= i < y for x, y in keep) or c == "\n" else " " for i, c in enumerate(other))
    parsed = parse_one(raw[:a] + blank + raw[b:])
    said = " ".join(other.split()).strip(" ,，。.;；")
    said = said if len(said) <= 80 else said[:79] + "…"
    # s48-workmiss: the other block's stage named too, as the stage readers name it ('stage: finetune' beside
    # '要做 LoRA 微调是不是得双 4090…'): the block's words alone do not say which stage was set aside
    named = [(said, "other_setup"), (f"stage: {other_stage}", "other_setup")]
    return parsed.model_copy(update={"unused_numbers": [*parsed.unused_numbers, *named]})
