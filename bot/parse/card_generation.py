"""A card named with a generation or form word its catalog entry lacks (fresh-user trial s19, issue 24
item 4): 'A100 Blackwell', 'RTX 4090 Hopper', 'L40S SXM', 'A6000 Ampere' sized on the catalog card it was
read as is said in the reply (``card_generation`` substitution), never swapped in silence. Words: NVIDIA's
architecture names (Volta, Turing, Ampere, Ada Lovelace, Hopper, Blackwell) and the board forms SXM /
PCIe. 'A6000 Ada' is no such case: the catalog aliases it to the RTX 6000 Ada Generation (gpus.toml)."""

from __future__ import annotations

from bot.parse.regex import rc

GENERATION_RE = rc(
    r"(?<![a-z0-9])(?P<card>(?:[a-z]+\s*)?[a-z]?\d{2,4}[a-z]{0,3}(?:\s*(?:ti|super|max))?)\s*[-\s]?\s*"
    r"(?P<gen>ada(?:\s+lovelace)?|lovelace|blackwell|hopper|ampere|turing|volta|sxm\d?|pcie)(?![a-z])"
)
"""A card's name (letters, then 2–4 digits) followed by a generation or form word ('a100 blackwell')."""
_GENERATIONS = {
    "ada": "ada lovelace", "lovelace": "ada lovelace", "blackwell": "blackwell", "hopper": "hopper",
    "ampere": "ampere", "turing": "turing", "volta": "volta",
}  # fmt: skip


def card_generation(raw: str, gpu: str | None) -> str | None:
    """The card as typed in ``raw`` ('A100 Blackwell') when its generation or form word is not the catalog
    card ``gpu``'s (``GpuSpec.generation``, its id, name and interconnect); else None. Callers gate it on
    :data:`GENERATION_RE` (a compiled search)."""
    from estimator import catalog

    spec = catalog.gpus().get(gpu) if gpu else None
    if spec is None:
        return None
    m = GENERATION_RE.search(raw.lower())
    if m is None:
        return None
    word = m.group("gen").split()[0]
    if word.startswith(("sxm", "pcie")):
        board = f"{spec.id} {spec.name} {spec.interconnect or ''}".lower()
        said = "sxm" if word.startswith("sxm") else "pcie"
        mismatch = said not in board
    else:
        mismatch = _GENERATIONS[word] != (spec.generation or "").lower()
    return raw[m.start() : m.end()].strip() if mismatch else None
