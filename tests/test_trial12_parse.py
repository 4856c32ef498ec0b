"""Parser defects from the s12 fresh-user trial (/work/notes/s12/trial_report.md), each asserted on the
values read, in both languages where there is language.

A7: a card name glued to its memory and a count ('A100-40GB x4', 'H100-80GB x8', 'A100-80G*4',
'A100-40G×4'): that many cards of that card. Before, the hyphen made the count a negative '-4', named to the
user as a negative number they never typed.
"""

from __future__ import annotations

import pytest

from bot.parse import parse
from tests.cli_run import ask_quietly


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("LoRA 7B on A100-40GB x4", "A100-SXM4-40GB", 4),
        ("LoRA 7B on H100-80GB x8", "H100-SXM5-80GB", 8),
        ("LoRA 7B on A100-80G*4", "A100-SXM4-80GB", 4),
        ("7B LoRA，A100-40G×4", "A100-SXM4-40GB", 4),
        ("7B 模型 LoRA 微调，H100-80GB x8，要几天", "H100-SXM5-80GB", 8),
        ("serve Llama-3.1-8B on H100-80GB x 8, 10 users", "H100-SXM5-80GB", 8),
    ],
)
def test_a_card_glued_to_its_memory_times_a_count(text: str, gpu: str, count: int) -> None:
    r = parse(text)
    assert (r.request.gpu, r.request.gpu_count) == (gpu, count)
    assert r.nonpositive_numbers == []


def test_no_negative_count_is_named_in_the_reply() -> None:
    en = ask_quietly("LoRA 7B on A100-40GB x4")
    assert "“-4”" not in en and "4 × A100 40G" in en
    zh = ask_quietly("7B 模型 LoRA 微调，A100-40G×4 够吗")
    assert "“-4”" not in zh and "4 张 A100 40G" in zh
