"""Session 48's fresh-user trial of main (/work/notes/s48/trial_report.md), each fixed finding with the
trial's sentence, sentences that must be read the same way and neighbours that must not be misread, in both
languages (sentences written for these tests):

1. a Liger kernel named as the last item of a list a cue governs — 'with 8-bit Adam and Liger kernel',
   '用 8-bit Adam 和 Liger 内核' — is on, as 'with Liger' is; a negated list is off; a question or a list with
   no cue sets nothing and is named (``liger_asked``) (bot/parse/liger_words.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json


def _ignored(answer: dict[str, Any]) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]]


# 1 ---------------------------------------------------------------------------------------------------
_FT = "Full fine-tune Qwen2.5-7B on 8 A100, seq 4096, "
_FT_ZH = "全参微调 Qwen2.5-7B，8 张 A100，序列 4096，"


@pytest.mark.parametrize(
    ("question", "chunked"),
    [
        (
            "Full fine-tune Llama 3.1 8B on a single 4090 with 8-bit Adam and Liger kernel, seq 2048 — "
            "does it fit?",
            True,
        ),
        ("用 8-bit Adam 和 Liger 内核全参微调 Llama 3.1 8B，一张 4090 够吗", True),
        (_FT + "using DeepSpeed ZeRO-3 and the Liger kernel. Memory?", True),
        (_FT_ZH + "开了梯度检查点和 liger，显存够吗", True),
        (_FT + "without 8-bit Adam and Liger. Memory?", False),
        (_FT_ZH + "不用 8-bit Adam 和 liger，显存够吗", False),
    ],
)
def test_liger_in_a_list_takes_the_lists_cue(question: str, chunked: bool) -> None:
    answer = answer_json(question)
    assert answer["request"]["chunked_loss"] is chunked
    assert not [i for i in _ignored(answer) if i[0] == "Liger kernel"]


@pytest.mark.parametrize(
    "question",
    [
        _FT + "should I use 8-bit Adam and Liger kernel?",
        _FT_ZH + "要不要用 8-bit Adam 和 liger？",
        _FT_ZH + "不知道 deepspeed 和 liger 哪个省显存",
        _FT + "DeepSpeed and Liger: which saves more memory?",
    ],
)
def test_liger_in_a_question_or_a_list_without_a_cue_sets_nothing(question: str) -> None:
    answer = answer_json(question)
    assert answer["request"]["chunked_loss"] is None
    assert ("Liger kernel", "liger_asked") in _ignored(answer)


def test_liger_in_a_list_changes_the_logits_memory() -> None:
    """The trial's sentence sized with Liger's chunked loss: the logits term falls below the fp32 loss's
    (12 B per logit → 2.5 B: linkedin/Liger-Kernel ops/fused_linear_cross_entropy.py,
    estimator.request_loss)."""
    said = answer_json(_FT + "using DeepSpeed ZeRO-3 and the Liger kernel. Memory?")
    plain = answer_json(_FT + "using DeepSpeed ZeRO-3. Memory?")
    assert said["report"]["memory"]["per_gpu_bytes"] < plain["report"]["memory"]["per_gpu_bytes"]
