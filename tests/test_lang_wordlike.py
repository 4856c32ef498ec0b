"""A run of letters that is no word says nothing of the writer's language (trial s21 #15: a Chinese
Telegram user, language_code zh, three Chinese turns, sent 5,000 x's and got the English help)."""

from __future__ import annotations

import pytest

from bot.core.conversation import Conversation
from bot.parse.lang import message_lang


@pytest.mark.parametrize("text", ["x" * 5000, "x" * 40, "zzz", "qwrtp", "hmm", "xxxx yyyy"])
def test_letter_runs_that_are_no_word_are_no_evidence(text):
    assert message_lang(text) is None


@pytest.mark.parametrize("text", ["hello", "how many H100?", "asdfgh", "fine-tune it"])
def test_words_are_english_evidence(text):
    assert message_lang(text) == "en"


def test_a_chinese_user_gets_chinese_help_for_an_unreadable_message():
    chat = Conversation()
    chat.ask(1, 1, "7B模型1万亿token要多少A100", user_lang="zh")
    turn = chat.ask(1, 1, "x" * 5000, user_lang="zh")
    assert turn.answer.report is None and turn.answer.lang == "zh"
    fresh = Conversation().ask(2, 2, "x" * 5000, user_lang="zh")  # no earlier turn: the client's language
    assert fresh.answer.lang == "zh"
    english = Conversation().ask(3, 3, "x" * 5000, user_lang="en")
    assert english.answer.lang == "en"
