"""Rewrite families added in session 34 (s34-meta) to the sweep of :mod:`tests.metamorphic`: ways people
write the same question that no earlier family tried. Each is declared once in
``tests.metamorphic.FAMILIES`` with its expected effect: no stated key changes.

- ``hf_links``: a model named by its Hugging Face path ('Qwen/Qwen2.5-7B-Instruct') pasted as the model
  page's link ('https://huggingface.co/Qwen/Qwen2.5-7B-Instruct'), or with a revision after it
  ('Qwen/Qwen2.5-7B-Instruct@main', as ``huggingface-cli download … --revision`` and vLLM's docs write it).
- ``labelled_parts``: a forum post's parts under labels: the first sentence after 'Setup:' / '背景：' and
  the last after 'Question:' / '问题：' (as a post template or a careful asker writes them).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tests import metamorphic_more as more

_HF_PATH_RE = re.compile(
    r"(?<![\w\-./:@])([A-Za-z][\w\-]{1,38}/[A-Za-z][\w.\-]*\d[\w.\-]*?)(?=[\s,，。;；:：)）?？!！]|$)"
)
"""An organization/name path of a model ('Qwen/Qwen2.5-7B-Instruct', 'meta-llama/Llama-3.1-8B'): two
names with one slash, the second with a digit (a size or version), not a file path nor a link already."""
_NOT_MODEL_RE = re.compile(
    r"(?i)^(?:examples?|configs?|scripts?|data|src|docs?|home|usr|tmp|models?|[a-z]{1,3}\d{2,4}[a-z]?)/|\.\w{2,4}$"
)
"""A folder or file path, not a model ('examples/full_multi_gpu', 'train/sft.yaml'), nor 'A100/A800'."""


def _hf_paths(text: str) -> list[re.Match[str]]:
    return [m for m in _HF_PATH_RE.finditer(text) if not _NOT_MODEL_RE.search(m[1])]


def hf_links(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """'Qwen/Qwen2.5-7B-Instruct' → 'https://huggingface.co/Qwen/Qwen2.5-7B-Instruct', and → the path with
    '@main' after it (the revision)."""
    found = _hf_paths(text)
    if not found:
        return
    for label, form in (("url", "https://huggingface.co/{}"), ("revision", "{}@main")):
        out, last = [], 0
        for m in found:
            out += [text[last : m.start()], form.format(m[1])]
            last = m.end()
        yield label, "".join(out) + text[last:]


_LABELS = {"zh": ("背景：", "问题："), "en": ("Setup: ", "Question: ")}
_SPLIT_RE = re.compile(r"(?<=[。！？!?\n])|(?<=\.)(?=\s+[A-Z])")


def labelled_parts(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """The first sentence after a setup label and the last after a question label, each on its own line,
    when the message has two to six sentences and its last one asks on its own (not 'And …?', 'Or …?')."""
    parts = [p.strip() for p in _SPLIT_RE.split(text) if p.strip()]
    if not 2 <= len(parts) <= 6 or not re.search(r"[?？]\s*$", parts[-1]) or more.leans_back(parts[-1]):
        return  # 'And how much for inference?' leans on the sentence before it: no question of its own
    setup, question = _LABELS[lang]
    sep = "" if lang == "zh" else " "
    body = sep.join(parts[:-1]).replace("\n", " ")
    yield "labels", f"{setup}{body}\n{question}{parts[-1]}"
