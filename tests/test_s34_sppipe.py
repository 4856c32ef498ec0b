"""Session 34 (s34-sppipe, issue 23 item 7): the parse's fast paths for an ASCII text and a text without
'-' or '_' give what the full path gives.

- ``normalize``: an ASCII text skips NFKC, the Traditional → Simplified table, the Chinese typos and the
  rental terms (each is the identity on it); a text with any other character takes every step.
- the language readers: an ASCII text has no CJK character (``str.isascii`` is O(1) in CPython).
- ``CODEBASE_RE`` (bot.parse.codebases): every match holds '-' or '_', so the call sites test those first.
- ``cue_index.fold``: an ASCII text is only lower-cased.
- ``build_request``: only a capped field's value is cleaned; every other passes as stated.
- ``CueTable.candidates`` of a case-sensitive table: one search of its cues' alternation first; with no cue
  found, only the readers that have none (what the ``in`` tests give).
"""

from __future__ import annotations

import importlib
import json
import unicodedata
from pathlib import Path

import pytest

from bot.parse import parse
from bot.parse import spelling_tables as sp
from bot.parse.codebases import CODEBASE_RE, codebase_spans
from bot.parse.cue_index import fold
from bot.parse.lang import detect_lang, message_lang
from bot.parse.request_fields import build_request

nz = importlib.import_module("bot.parse.normalize")  # bot.parse.normalize is also a function's name
CORPUS = Path(__file__).parent / "data" / "questions.json"
TEXTS = [q["text"] for q in json.loads(CORPUS.read_text(encoding="utf-8"))]


def test_skipped_steps_are_the_identity_on_ascii() -> None:
    """What the ASCII path skips changes no ASCII text: every key of the tables is another character."""
    assert all(k > 0x7F for k in sp.TRAD_TO_SIMP)
    assert not any(wrong.isascii() for wrong in sp.CN_TYPOS)
    assert "包" in sp.CN_RENTAL_RE.pattern  # the rental reader needs '包': its gate
    for text in [t for t in TEXTS if t.isascii()]:
        assert unicodedata.normalize("NFKC", text) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Fine-tune Llama-3-8B on 8x A100", "fine-tune llama-3-8b on 8x a100"),
        ("How many A100s?", "how many a100s?"),
        ("訓練 7B 模型要多少卡", "训练 7b 模型要多少卡"),  # Traditional → Simplified (sp.TRAD_TO_SIMP)
        ("8卡H100包月多少钱", "8卡h100租一个月多少钱"),  # a month's rental (sp.CN_RENTAL_TERMS)
        ("微条 qwen 7b", "微调 qwen 7b"),  # a typo (sp.CN_TYPOS)
        ("ＡＢＣ 70B", "abc 70b"),  # full-width letters: NFKC, then lower case
        ("Llama-3 8B ❤️", "llama-3 8b ❤"),  # the variation selector dropped, as before
    ],
)
def test_normalize_reads_each_script(text: str, expected: str) -> None:
    assert nz.normalize(text) == expected


def test_language_of_ascii_and_cjk() -> None:
    assert detect_lang("How many A100s for a 70B?") == "en"
    assert detect_lang("7B模型要多少卡") == "zh"
    assert detect_lang("ＡＢＣ 70B") == "en"  # full-width Latin is no CJK character
    assert message_lang("H100?") is None  # only names and numbers
    assert message_lang("how many H100?") == "en"
    assert message_lang("要几张 H100?") == "zh"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("用 logic-rl 训练 7b 模型", "logic-rl"),
        ("fine-tune with open-r1-sft scripts", "open-r1-sft"),
        ("using the trl-ppo code", "trl-ppo"),
        ("复现 simple_grpo 的 7b", "simple_grpo"),
    ],
)
def test_codebases_still_read(text: str, name: str) -> None:
    assert CODEBASE_RE.search(text) is not None
    assert [n for _, _, n in codebase_spans(text)] == [name]


def test_no_codebase_without_a_joining_character() -> None:
    """The gate at the call sites: with every '-' and '_' written as a space, no text matches (the corpus
    and sentences of our own that name training words beside tool verbs)."""
    own = [
        "trainer rlhf with lora",
        "using grpo training recipes",
        "用 open r1 sft 复现",
        "with the ppo trainer's fine-tuning code",
        "via llama factory's training scripts",
    ]
    for text in [*own, *(nz.prepare(t)[0] for t in TEXTS)]:
        plain = text.replace("-", " ").replace("_", " ")
        assert CODEBASE_RE.search(plain) is None, plain


def test_parse_reads_a_codebase_and_a_plain_text() -> None:
    named = parse("Fine-tune Qwen2.5-7B with the trl-ppo code on 8x A100")
    assert named.unused_numbers == [("training_tool: trl-ppo", "no_field")]  # named, not sized
    assert named.request.stage == "finetune" and named.request.gpu_count == 8
    zh = parse("用 Logic-RL 训练 7B 模型需要几张 A100?")
    assert zh.unused_numbers == [("training_tool: logic-rl", "no_field")]
    plain = parse("Fine tune Qwen2.5 7B with LoRA on 8x A100, how long?")
    assert not any(item[0].startswith("training_tool") for item in plain.unused_numbers)
    assert plain.request.gpu_count == 8


def test_fold_of_ascii_and_other_text() -> None:
    assert fold("ABC Def") == "abc def"
    assert fold("İSTANBUL ſ") == "istanbul s"  # cue_index._FOLD_EXTRA, then lower case


def test_build_request_cleans_only_capped_fields() -> None:
    request, found = build_request({"gpu_count": 8.0, "gpu": "A100", "mfu": None, "seq_len": 0})
    assert request.gpu_count == 8 and isinstance(request.gpu_count, int)  # a count is whole
    assert request.gpu == "A100"  # uncapped: as stated
    assert request.seq_len is None  # 0 tokens: not a length (clean_value)
    assert found == ["gpu", "gpu_count"]


def test_cue_table_search_first_gives_the_in_tests_answer() -> None:
    """Every case-sensitive table, on the corpus texts and sentences of our own: the candidates are the
    readers one of whose cues occurs (``in``), or that have none, in the table's order."""
    from bot.parse.cue_index import TABLES, forget

    for t in TEXTS * 2:
        parse(t)  # the tables are built from the second message on
    own = ["train with LLaMA-Factory on 8 A100", "serve it with TensorRT-LLM", "no tool named here", ""]
    texts = [*own, *(nz.prepare(t)[0] for t in TEXTS)]
    tables = [table for table in TABLES if not table.folded]
    assert tables
    for table in tables:
        cues = table.cues
        for text in texts:
            forget()
            expected = tuple(
                item
                for item, needed in zip(table._items, cues, strict=True)
                if not needed or any(cue in text for cue in needed)
            )
            assert table.candidates(text) == expected, text
