"""The settings readers skipped by one scan for their key words (:mod:`bot.parse.settings_scan`, issue 23
item 7) leave the settings step's answer as running every reader: compared on the settings step's input
of every message of the corpus, the field cases and every real-question file (training and not), and on
texts made of each reader's key words. Each reader's first patterns must be declared, so a reader that
gains a pattern fails here until it is."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from bot.parse import settings, settings_scan, stage_steps
from bot.parse import throughput_words as tw
from bot.parse.regex import AnyBranch, LazyPattern
from tests.test_parse_role_dispatch import _texts


def _inputs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []

    def record(s: str, training: bool, raw: str = "") -> Any:  # raw: the message as typed (round 9)
        seen.append(s)
        return settings.extract_settings(s, training, raw)

    monkeypatch.setattr(stage_steps, "extract_settings", record)
    from bot.parse import parse

    for text in _texts():
        parse(text)
    return seen


def _both(s: str, training: bool) -> tuple[str, str]:
    settings_scan.warm()
    scanned = repr(settings.extract_settings(s, training))
    table = list(settings_scan._TABLE)
    settings_scan._TABLE.clear()  # every reader, as before
    try:
        full = repr(settings.extract_settings(s, training))
    finally:
        settings_scan._TABLE[:] = table
    return scanned, full


def test_every_message_s_settings_as_with_every_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    inputs = _inputs(monkeypatch)
    assert len(inputs) > 900
    for s in inputs:
        for training in (True, False):
            scanned, full = _both(s, training)
            assert scanned == full, s


def _key_texts() -> list[str]:
    settings_scan.warm()
    out = []
    for rd, lits in settings_scan._TABLE:
        assert lits, rd.fn.__name__  # every reader here has key words
        for lit in sorted(lits):
            out += [
                f"{lit} 8",
                f"{lit}=16 on 8 h100",
                f"70b {lit} 2 days",
                f"用{lit}训练 32k",
                f"{lit}: 20 tok/s",
            ]
    return out


def test_key_word_texts_as_with_every_reader() -> None:
    texts = _key_texts()
    assert len(texts) > 400
    for s in texts:
        for training in (True, False):
            scanned, full = _both(s, training)
            assert scanned == full, s


def test_a_text_without_key_words_skips_the_readers() -> None:
    settings_scan.warm()
    called: list[str] = []
    table = list(settings_scan._TABLE)
    settings_scan._TABLE[:] = [
        (dataclasses.replace(rd, fn=lambda *a, n=rd.fn.__name__: called.append(n)), lits)
        for rd, lits in table
    ]
    try:
        settings_scan.run_readers(settings.Settings("7b 模型 1万亿 数据 多少张 a100"), training=True)
        settings_scan.run_readers(settings.Settings("7b 模型 1万亿 数据 多少张 a100"), training=False)
    finally:
        settings_scan._TABLE[:] = table
    assert called == ["_throughput"]  # not training: the serving targets have no key words


DEPENDENT = {  # patterns a reader reads only after one of its first patterns matched
    "_precision_words": {settings.COMMENTED_RE, settings.NO_QUANT_RE},
    # s42 zhleft: a cluster's rate is its own unless asked for (ASKED_RE, read after a rate matched)
    "_throughput": {settings.MEASURED_WORDS, settings.PER_GPU_BEFORE, settings.ASKED_RE},
    "_hours": {settings.GPU_HOUR_AFTER, settings.DEADLINE_BEFORE, settings.DEADLINE_AFTER},
    "_serving": {settings.ONLINE_RL_RE},
}
MODULES = [settings, tw]


READERS = {rd.fn.__name__: rd for rd in settings_scan.READERS}


def test_the_readers_are_those_of_the_settings_step() -> None:
    assert list(READERS) == [
        "_parallel", "_lora", "_precision_words", "_recompute", "_throughput", "_hours", "_serving",
        "_methods", "_lora_variant",  # s17-ax-model: DoRA/AdaLoRA/rsLoRA/LoRA+/PiSSA sized as LoRA
    ]  # fmt: skip
    assert {n for n, rd in READERS.items() if rd.training} == {"_throughput", "_serving", "_lora_variant"}
    assert {n for n, rd in READERS.items() if rd.always_unless_training} == {"_throughput"}


@pytest.mark.parametrize("name", list(READERS))
def test_each_reader_s_patterns_are_declared(name: str) -> None:
    fn = getattr(settings, name)
    assert READERS[name].fn is fn
    names = set(fn.__code__.co_names)
    read = {
        getattr(m, n)
        for m in MODULES
        for n in names
        if isinstance(getattr(m, n, None), (LazyPattern, AnyBranch))
    }
    rd = READERS[name]
    assert set(rd.after) == DEPENDENT.get(name, set())
    declared = set(settings_scan.first_patterns(rd)) | set(rd.after)
    undeclared = {getattr(p, "pattern", p) for p in read - declared}
    assert not undeclared, f"read after one? @reader(...) in bot.parse.settings: {undeclared}"


def _fake(after: tuple[Any, ...] = (), inline: bool = False) -> Any:
    def fake(out: Any) -> None:
        if settings.TP_RE.search(out.s) and re.search("x", out.s):
            out.s = out.s

    return settings_scan.Reader(fake, after, False, False, inline)


def test_a_pattern_the_analysis_cannot_handle_fails_at_table_build(monkeypatch: pytest.MonkeyPatch) -> None:
    assert settings_scan.first_patterns(_fake(inline=True)) == [settings.TP_RE]  # named in its code
    with pytest.raises(settings_scan.NotAnalysable, match="calls re itself"):
        settings_scan.first_patterns(_fake())  # an inline pattern it might read first
    with pytest.raises(settings_scan.NotAnalysable, match="does not name"):
        settings_scan.first_patterns(_fake((settings.PP_RE,), inline=True))  # a stale 'after'
    with pytest.raises(settings_scan.NotAnalysable, match="not a pattern"):
        settings_scan.literals_of(["tp"])
    monkeypatch.setattr(settings_scan, "READERS", [*settings_scan.READERS, _fake()])
    with pytest.raises(settings_scan.NotAnalysable):
        settings_scan.build()
