"""A model named only inside a file's name is not the model asked about (issue 24, round 6).

People launch jobs with config files named after the model the file was written for
('DeepSeek-V3-Chat-multi-gpu-4.yaml', 'examples/train_lora/llama3_lora_sft.yaml', 'run_qwen2_7b.sh') and
name the model they run in prose ('… 在 4 卡上运行了 ds-r1'). When several models are named and some are
named outside any file name, the model sized is one of those (the usual order among them); a model named
only inside file names is named as another setup (``other_setup``), as every other model is.

Also from paths: a directory named with the version and the size glued ('/mnt/0913/Qwen1.572B' for
Qwen1.5-72B) is that release; the size read from it ('1.572B') is not its parameters when the catalog
release it names is far from it (:func:`glued_version`).
"""

from __future__ import annotations

from bot.parse.asked_model import Candidate
from bot.parse.regex import rc

FILE_TAIL_RE = rc(r"[\w.\-/~${}]*\.(?:ya?ml|json|sh|py|toml|cfg)(?![a-z0-9])")
"""The rest of a file's name after a model named in it ('-chat-multi-gpu-4.yaml', '_lora_sft.yaml', '.sh')."""


def _in_file_name(s: str, c: Candidate) -> bool:
    """Whether the model ``c`` is named once, inside a file's name (its name runs on into an extension)."""
    mm = c.mention
    return mm is not None and len(c.starts) <= 1 and FILE_TAIL_RE.match(s, mm.end) is not None


def outside_file_names(s: str, found: list[Candidate]) -> Candidate | None:
    """Of the distinct models ``found`` in the normalized text ``s``, the first named outside every file
    name (a catalog name first), when others are named only inside file names; else None. A size said
    alone ('an 8B') is no name: beside a file named after a model, the usual order stands."""
    if len(found) < 2 or "." not in s:
        return None
    outside = [c for c in found if c.mention is not None and not _in_file_name(s, c)]
    if not outside or len(outside) == len(found):
        return None
    return min(outside, key=_rank)


def _rank(c: Candidate) -> tuple[bool, int]:
    mm = c.mention
    return mm is not None and mm.model_id is None, c.start


def glued_version(size: float, catalog_params: float | None) -> bool:
    """Whether the size read from a name (``size``, parameters) is the version glued to the real size
    ('Qwen1.572B': 1.572B) rather than the parameters of the catalog release it names
    (``catalog_params``, 72.3B): more than 2 × apart (a size said of its release is within ~20 %: '7B' of
    Qwen2.5-7B's 7.6B; an MoE named by its active size, 'Llama-4-Scout-17B-16E', is its release too)."""
    return bool(catalog_params) and not 0.5 <= size / catalog_params <= 2


EXAMPLE_RE = rc(
    r"以\s*(?P<a>[^，,。;；!！?？\n]{1,60}?)\s*为例"
    r"|(?:for\s+example|for\s+instance|e\.g\.?|take|taking)\s*,?\s*(?P<b>[^,;.!?\n]{1,60}?)"
    r"(?=\s*(?:as\s+(?:an?\s+)?example|[,;:]|$))"
)
"""'以 Qwen3-14B 为例', 'for example Qwen3-14B,', 'take Qwen3-14B as an example': the model an example's
numbers are about."""


def example_model(s: str, found: list[Candidate]) -> Candidate | None:
    """Of several distinct models ``found`` in the normalized text ``s``, the one named as the example
    the message's numbers are about ('部署了几个模型…以 Qwen3-14B 为例，单并发每秒 30 token'), when exactly
    one is; else None (the usual order decides)."""
    if len(found) < 2 or not ("为例" in s or "example" in s or "e.g" in s or "take" in s or "instance" in s):
        return None
    spans = [(m.start(), m.end()) for m in EXAMPLE_RE.finditer(s)]
    inside = [
        c
        for c in found
        if c.mention is not None and any(a <= at < b for a, b in spans for at in (c.starts or [c.start]))
    ]
    return inside[0] if len(inside) == 1 else None
