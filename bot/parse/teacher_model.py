"""The model a distillation trains, not its teacher (session 18, part fxb).

'用 Open-R1 复现 DeepSeek-R1 的蒸馏，训练 Qwen2.5-7B' fine-tunes Qwen2.5-7B on DeepSeek-R1's outputs: the
student is the model trained and sized, the teacher (before '的蒸馏' / '蒸馏', after 'distill … from' or
'teacher') is named as another setup, not sized. Before, DeepSeek-R1 (671B) was sized and the 7B named.
"""

from __future__ import annotations

from typing import Any

from bot.parse.regex import rc

TEACHER_AFTER_RE = rc(
    r"\s*(?:的\s*)?(?:蒸馏|distill|(?:as\s+(?:the\s+)?)?teacher|(?:作为?|当|做)\s*(?:teacher|教师|老师))"
)
"""Words right after a model that make it the teacher ('DeepSeek-R1 的蒸馏', 'R1 distillation', 'Qwen2.5-72B
当teacher', '… 作为教师': trial s43 q09_zh)."""
TEACHER_BEFORE_RE = rc(r"(?:teacher(?:\s+model)?|教师模型|从|from|distil(?:l|ling|led)?)\s*[:：]?\s*$")
"""Words right before a model that make it the teacher ('teacher: …', 'distil from …', '从 … 蒸馏')."""
STUDENT_BEFORE_RE = rc(
    r"(?:训练|微调|train(?:ing)?|fine[\s\-]?tun(?:e|ing)|student(?:\s+model)?|学生模型|\binto|蒸馏(?:到|给|进|成))"
    r"\s*[:：]?\s*$"
)
"""Words right before the model a distillation trains ('训练 Qwen2.5-7B', 'student: …', '蒸馏到 Qwen2.5-7B':
trial s43 q09_zh)."""
NEAR = 12


def is_teacher(s: str, c: Any) -> bool:
    """Whether candidate ``c`` (:func:`student_candidate`'s) is a distillation's teacher in the normalized
    text ``s``: :data:`TEACHER_AFTER_RE` right after it or :data:`TEACHER_BEFORE_RE` right before it.
    Call behind the same literal gate."""
    end = c.mention.end if c.mention is not None else c.start
    return bool(
        TEACHER_AFTER_RE.match(s, end) or TEACHER_BEFORE_RE.search(s[max(0, c.start - NEAR) : c.start])
    )


def student_candidate(s: str, found: list[Any]) -> Any | None:
    """Of several candidates (:class:`bot.parse.asked_model.Candidate`: ``start``, ``starts``, ``end``
    via ``mention``), the one trained when another is the teacher of a distillation; else None.
    Call behind a literal gate ('蒸馏', 'distil' or 'teacher' in ``s``)."""
    teachers, students = [], []
    for c in found:
        end = c.mention.end if c.mention is not None else c.start
        before = s[max(0, c.start - NEAR) : c.start]
        if TEACHER_AFTER_RE.match(s, end) or TEACHER_BEFORE_RE.search(before):
            teachers.append(c)
        elif STUDENT_BEFORE_RE.search(before):
            students.append(c)
    return students[0] if teachers and len(students) == 1 else None
