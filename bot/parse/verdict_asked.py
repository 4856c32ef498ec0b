"""Whether a question on the user's own GPU count asks yes or no: does it fit ('2 张 4090 够吗', '够不够',
'能跑吗', '放得下吗', 'is it enough', 'will it fit', 'can I fine-tune …'): the reply then gives the verdict
for their setting in line 1, before the time (s39 fixv #6: 'Qwen2.5-14B LoRA 微调，2 张 4090 够吗' was
answered with 1 day and 50 GPU-hours, the asked 'enough?' nowhere in line 1).

Read with substring tests only (no regex: the parse's searches are pinned), and only for a message that
states a GPU count (the call site's gate in :func:`bot.parse.parse`)."""

from __future__ import annotations

VERDICT_WORDS = (
    # Chinese: enough? / does it run? / does it fit? / can it train?
    "够吗", "够么", "够嘛", "够不够", "够用吗", "够用么", "够了吗", "足够吗", "能行吗", "行不行",
    "能跑吗", "能跑么", "跑得动吗", "跑得起来吗", "能不能跑", "可以跑吗", "跑得了吗",
    "放得下吗", "放得下么", "放不放得下", "装得下吗", "能放下吗", "能装下吗", "塞得下吗",
    "能训吗", "能训练吗", "能不能训", "可以训练吗", "能微调吗", "能不能微调", "可以微调吗", "训得动吗",
    # English (the message is lower-cased)
    "enough?", "is it enough", "is that enough", "is this enough", "are they enough", "are these enough",
    "be enough", "will it fit", "would it fit", "does it fit", "can it fit", "will this fit", "does this fit",
    "would this fit", "fit?", "fits?", "will it work", "would it work", "will it run", "can i train",
    "can i fine-tune", "can i finetune", "can i fine tune", "can i run", "could i train", "could i fine-tune",
    "is it feasible", "is this feasible", "feasible?", "is it possible", "is this possible",
)  # fmt: skip
"""Yes/no fit questions, as people write them; 'not enough memory, how many GPUs' or '足够的数据' ask no
verdict (no question form here)."""


YES_NO_STARTS = ("are ", "is ", "will ", "would ", "can ", "could ", "does ", "do ")
"""An English yes/no question's first word: with 'enough' or 'fit' anywhere after it ('are 8 H100 enough for
a 70B SFT', 'can 4 A100 fit a 70B full fine-tune')."""


def asks_verdict(normalized: str) -> bool:
    """Whether ``normalized`` (the message as parsed, lower-cased) asks whether the job fits or runs."""
    if normalized.startswith(YES_NO_STARTS) and ("enough" in normalized or " fit" in normalized):
        return True
    for word in VERDICT_WORDS:  # noqa: SIM110 — a loop of `in` tests: no generator frames (parse pin)
        if word in normalized:
            return True
    return False
