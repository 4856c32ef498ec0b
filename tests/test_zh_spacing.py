"""Session 24 trial #18: Chinese answers said "每卡 微批次：1 — 每卡 微批次 为 1 条序列" (a space between Han
characters, left by word-by-word translation) and "micro-batch 设为 1" (an English word where the Chinese term
exists). Chinese sets Han characters without spaces between them (W3C "Requirements for Chinese Text Layout",
clreq: no inter-word spaces; spacing only between Han and Western text); a space stays next to Latin letters
and figures ("微批次 1")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.cli import main

PO = Path(__file__).resolve().parents[1] / "locales" / "zh_CN" / "LC_MESSAGES" / "messages.po"
HAN_SPACE_HAN = re.compile(r"[\u4e00-\u9fff] +[\u4e00-\u9fff]")


def _catalog():
    with PO.open("rb") as f:
        return read_po(f)


def test_no_chinese_string_puts_a_space_between_han_characters() -> None:
    spaced = []
    for message in _catalog():
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        spaced += [s for s in strings if s and HAN_SPACE_HAN.search(s)]
    assert spaced == []


def test_the_micro_batch_setting_is_said_in_chinese() -> None:
    catalog = _catalog()
    said = catalog.get("micro-batch %(value)s (per_device_train_batch_size)").string
    assert said.startswith("微批次设为 %(value)s") and "micro-batch" not in said


QUESTION = "全参微调Qwen2.5-7B，8张A800，1万条数据每条2k token，要几个小时"
SAID = {
    "zh": "每卡微批次：1 — 每卡微批次为 1 条序列（显存最省，其余靠梯度累积）",
    "en": "Micro-batch per GPU: 1 — micro-batch of 1 sequence per GPU (memory-minimal; gradient accumulation",
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_assumed_micro_batch_line_reads_in_each_language(capsys, lang: str) -> None:
    capsys.readouterr()
    assert main(["ask", "--lang", lang, QUESTION]) == 0
    out = capsys.readouterr().out
    assert SAID[lang] in out
    assert "每卡 微批次" not in out
