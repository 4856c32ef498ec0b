"""Session 46, part leftovers: readers and answers the session's parts left (issue 24 items 2–4).

1. Reader (bot.parse.earlier_counts): a setup the message says is past ('之前只用了 2 张 …，现在有 8 张',
   'Before, we only used 2 A100s …; now we have 8 A100s') gives way to the current one: the present's word
   ('现在', '目前', 'now', 'currently') ends the earlier setup's stretch, the past count is named
   ``other_setup`` and the current one sized.
"""

from __future__ import annotations

from tests.cli_run import ask_json_in_process as _answer
from tests.cli_run import ignored_pairs as _named

# 1. a past setup, then the current one: must read ----------------------------------------------------------


def test_a_past_count_gives_way_to_the_current_one_zh() -> None:
    """'之前只用了 2 张 … 现在有 8 张': the 8 sized, the 2 named as the earlier setup's (before: 2 sized)."""
    a = _answer("之前只用了 2 张 A100 微调 Qwen2.5-7B，现在有 8 张，1 万条数据要多久？")
    assert a["request"]["gpu_count"] == 8
    assert ("2", "other_setup") in _named(a)


def test_a_past_count_gives_way_to_the_current_one_with_mu_qian_zh() -> None:
    """'以前 … 目前有 8 张 A100': '目前' ends the earlier stretch as '现在' does."""
    a = _answer("以前用 2 张 A100 LoRA 微调 Qwen2.5-7B，目前有 8 张 A100，1 万条数据要多久？")
    assert a["request"]["gpu_count"] == 8
    assert ("2", "other_setup") in _named(a)


def test_a_past_count_gives_way_to_the_current_one_en() -> None:
    """'Before, we only used 2 A100s …; now we have 8 A100s': the 8 sized (before: 2, the 8 'repeated')."""
    a = _answer(
        "Before, we only used 2 A100s to LoRA Qwen2.5-7B; now we have 8 A100s. How long for 10k samples?"
    )
    assert a["request"]["gpu_count"] == 8
    assert ("2", "other_setup") in _named(a)


def test_a_used_to_count_gives_way_to_the_current_one_en() -> None:
    """'We used to run on 2 A100s, currently 8 A100s': 'currently' ends the earlier stretch."""
    a = _answer("We used to run on 2 A100s, currently 8 A100s. How long to LoRA Qwen2.5-7B on 10k samples?")
    assert a["request"]["gpu_count"] == 8
    assert ("2", "other_setup") in _named(a)


# 1. must not misread: a lone past count, and 'before' as a clause of time --------------------------------


def test_a_lone_past_count_stays_the_job_zh() -> None:
    """'之前只用了 2 张 A100 …' with no current count: the only count said stays sized."""
    a = _answer("之前只用了 2 张 A100 微调 Qwen2.5-7B，1 万条数据要多久？")
    assert a["request"]["gpu_count"] == 2
    assert ("2", "other_setup") not in _named(a)


def test_before_as_a_clause_of_time_opens_no_past_setup_en() -> None:
    """'Before we start, we have 8 A100s …': no past setup; the 8 is the user's own and stays sized."""
    a = _answer("Before we start, we have 8 A100s. How long to LoRA Qwen2.5-7B on 10k samples?")
    assert a["request"]["gpu_count"] == 8
    assert ("8", "other_setup") not in _named(a)


def test_a_now_count_before_the_past_word_is_the_job_zh() -> None:
    """'现在有 8 张 A100，之前只用 2 张': the past stretch starts at '之前'; 8 sized, 2 named."""
    a = _answer("现在有 8 张 A100，之前只用 2 张，LoRA 微调 Qwen2.5-7B 1 万条数据要多久？")
    assert a["request"]["gpu_count"] == 8
