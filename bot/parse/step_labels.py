"""A step's number in a procedure (trial s35 #5): 'DeepSpeed-Chat step 3', 'step-2 reward model', 'stage 2
of DeepSpeed-Chat', 'phase 1', '第3步', '第三步', '步骤 2', 'the 3rd step'. The number names which step of a
recipe is run — DeepSpeed-Chat's three (SFT, reward model, RLHF: microsoft/DeepSpeedExamples
applications/DeepSpeed-Chat/training/step{1,2,3}_*) or any tutorial's — not a count of anything: no
optimizer steps (those are counted before their word, '1000 steps', '训练1000步': :mod:`bot.parse.steps`),
no GPUs, no stage of ZeRO. Masked before numbers are read and named as not used (``step_label``), so it is
neither left unread nor taken for a count.
"""

from __future__ import annotations

import re

from bot.parse.normalize import mask

STEP_LABEL_RE = re.compile(
    r"(?<![a-z0-9_])(?:step|phase)[\s\-_]?(?:#\s*)?(?P<n>\d{1,2})(?![\d.]|\s*(?:k\b|个|步|steps?\b|x\b|×))"
    r"|(?<![a-z0-9_])(?<!zero )(?<!zero-)(?<!zero_)stage[\s\-_]?(?P<s>\d)(?=\s+of\b)"
    r"|(?P<c>第\s*(?:\d{1,2}|[一二三四五六七八九十])\s*(?:步|阶段)(?!数))"
    r"|(?P<z>步骤\s*(?:\d{1,2}|[一二三四五六七八九十]))(?![\d.])"
    r"|(?<![\w.])(?P<o>\d{1,2}(?:st|nd|rd|th)\s+(?:step|stage|phase))\b"
)
"""'step 3', 'step-3', 'step3', 'step #2', 'phase 1' (not 'step 3k', 'step 3 steps'); 'stage 2 of …' (a
ZeRO stage is 'stage 3' alone: bot.parse.tried_settings); '第3步', '第三阶段' (not '第3步数'); '步骤2'; '3rd
step'. On the normalized (lower-case) text."""


def step_labels(s: str) -> tuple[str, list[tuple[str, str]]]:
    """``s`` with each step label masked (same length), and the labels named as not used, as typed."""
    named: list[tuple[str, str]] = []
    for m in STEP_LABEL_RE.finditer(s):
        named.append((" ".join(m.group(0).split()), "step_label"))
        s = mask(s, m.start(), m.end(), " ")
    return s, named
