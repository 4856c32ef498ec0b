"""A stage the message says it is not about ('inference, not training', 'no fine-tuning', '是推理，不是训练';
s38-r34en, issue 24 round 34: en34-009 'I'm asking about inference, not training' was sized as a
fine-tuning). Imported only when a cue of :data:`bot.parse.stage_steps.NEGATED_STAGE_CUES` is in the text."""

from __future__ import annotations

from bot.parse.regex import rc

NEGATED_STAGE_RE = rc(
    r"(?P<aux>\b(?:can|could|did|do|does|would|will|should|shall|may|might|must|i|we|you|they)\s+)?"
    r"\b(?:not|no|never|without)\s+(?:(?:for|about|doing|any)\s+)?"
    r"(?:pre[\s\-]?train\w*|re[\s\-]?train\w*|train\w*|fine[\s\-]?tun\w*|finetun\w*|sft\b|inference|serving|deploy\w*)"
    r"|(?:不是|不用|不做|不需要|无需|并非|而非|不涉及)\s*(?:预训练|训练|微调|推理|部署)"
)
"""A stage word right after a negation: 'not training', 'not for inference', 'without fine-tuning', 'no
SFT', '不是训练', '无需微调'. Not 'not only training' (a word between that is no preposition), nor 'does not
fit for training' (the negation is of another verb); s38-rev: nor the stage verb negated by an auxiliary or
after its subject ('I could not fine-tune it, it OOMs', 'why can I not train 7B', 'did not train'): the job
is still that stage, only the attempt failed or is asked about (matched with ``aux`` and kept)."""


def without_negated_stage(s: str) -> str:
    """``s`` with each negated stage word of :data:`NEGATED_STAGE_RE` blanked (offsets kept): what the
    stage is read from, so a stage the user rules out is never the job."""
    return NEGATED_STAGE_RE.sub(lambda m: m.group(0) if m["aux"] else " " * len(m.group(0)), s)
