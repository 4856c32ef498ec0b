"""The GPU names found through the table of first characters (bot/parse/gpu_table.py, issue 23 item 7)
match as the one alternation of every name that it replaces (the full pattern, still built as before):
the same matches, spans and groups, in order, on the corpus questions, on every catalog alias (with
vendor words, counts, memory, form factors and plurals around it) and on texts made for the table's
edges (a vendor word with nothing after it, a name after 'Nx', names back to back, Chinese names)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.parse import gpus
from bot.parse.gpu_table import GpuTable
from bot.parse.normalize import normalize

QUESTIONS = [q["text"] for q in json.loads((Path(__file__).parent / "data" / "questions.json").read_text())]

EDGES = [
    "", "nvidia", "nvidia ", "tesla", "amd", "华为", "华为 ", "nvidia  a100", "nvidia\ta100", "nvidiaa100",
    "8xa100", "8x a100", "ax100", "a100a100", "a100 a100", "a100,h100", "a100/h100", "xa100", "_a100",
    "a100s", "a100ss", "a100x8x80g", "a100-80gb-pcie", "a100 pcie 40g", "h100 sxm5 nvl", "2x 4090s",
    "rtx4090 rtx 4090 rtx-4090 rtx_4090", "geforce rtx 3090 ti", "tesla v100s 32gb", "amd mi300x",
    "instinct mi250", "华为 910b", "昇腾910b", "升腾 910", "nvidia tesla a100", "amd-mi300x", "l40s l40 l4",
    "a10 a10g a100",
    "nvidia nvidia a100", "tesla tesla", "4090 4090d", "h20 h200 h800", "9 4090", "a100\n\nnvidia",
]  # fmt: skip


def _signature(matches: object) -> list[tuple[object, ...]]:
    return [(m.span(), m.group(0), m.groupdict()) for m in matches]  # type: ignore[attr-defined]


def _alias_texts() -> list[str]:
    out = []
    for key in gpus._gpu_index().names:
        for name in (key, key.replace(" ", "-"), key.replace(" ", "")):
            for before in ("", "nvidia ", "8x", "华为 ", "tesla-", "2 "):
                for after in ("", " 80gb", "s", "x8x80g", " pcie", "z", " and " + key):
                    out.append(before + name + after)
    return out


@pytest.fixture(scope="module")
def index() -> gpus._GpuIndex:
    return gpus._gpu_index()


def test_table_matches_the_full_alternation_on_the_corpus_and_edges(index: gpus._GpuIndex) -> None:
    texts = [t for q in (*QUESTIONS, *EDGES) for t in (q, q.lower(), normalize(q))]
    full = index.regex.compiled
    for text in texts:
        assert _signature(index.table.finditer(text)) == _signature(full.finditer(text)), text


def test_table_matches_the_full_alternation_on_every_alias(index: gpus._GpuIndex) -> None:
    texts = _alias_texts()
    assert len(texts) > 5000
    full = index.regex.compiled
    for text in texts:
        assert _signature(index.table.finditer(text)) == _signature(full.finditer(text)), text


def test_every_alias_alone_is_found_whole(index: gpus._GpuIndex) -> None:
    for key in index.names:
        found = index.table.finditer(key)
        assert [(m.start(), m.end()) for m in found] == [(0, len(key))], key


def test_table_patterns_hold_only_the_names_of_their_first_characters(index: gpus._GpuIndex) -> None:
    table: GpuTable = index.table
    pattern = table._pattern("h", "")
    assert pattern is not None
    assert pattern.match("h100") and not pattern.match("a100")
    assert table._pattern("h", "") is pattern  # built once
    nvidia = table._pattern("n", "a")
    assert nvidia is not None and nvidia.match("nvidia a100")


def test_extract_gpus_after_the_first_text_uses_the_table(index: gpus._GpuIndex) -> None:
    gpus.extract_gpus("warm up")
    assert index.pattern_for("a100") is index.table
    _, found = gpus.extract_gpus("train on 8 nvidia a100 80gb and 2x h100 sxm5")
    assert [g.gpu_id for g in found] == ["A100-SXM4-80GB", "H100-SXM5-80GB"]
