"""A message written with markup asks what its words ask (trial s21 #20: the '1' of
``<script>alert(1)</script>`` was named back as one of the user's numbers)."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.textclean import strip_markup


def test_tags_and_code_elements_go_words_stay():
    assert strip_markup("<b>how many</b> H100 <script>alert(1)</script> for 8B?").split() == [
        "how", "many", "H100", "for", "8B?",
    ]  # fmt: skip
    assert strip_markup("<STYLE>p{width:8px}</STYLE>7B<br/>LoRA").split() == ["7B", "LoRA"]


@pytest.mark.parametrize("text", ["batch <8 on 4 GPUs", "a < b and c > d", "no markup", "<|im_start|>user"])
def test_a_less_than_sign_that_opens_no_tag_stays(text):
    assert strip_markup(text) == text


def test_the_number_inside_a_script_element_is_not_the_users():
    result = answer("<b>how many</b> H100 to LoRA <script>alert(1)</script> Llama 3 8B?")
    assert result.report is not None and result.report.request.model == "Llama-3-8B"
    assert all(typed != "1" for typed, _ in result.parsed.unused_numbers)
    assert result.report.request.gpu == "H100-SXM5-80GB"
