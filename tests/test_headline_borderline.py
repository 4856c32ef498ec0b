"""A second fresh-user trial: a borderline verdict was hidden behind a plain headline — "2 × A100 80G ≈
2 days" for a 79-of-80-GiB plan, "fits on 2 × RTX A6000" for a plan axolotl cannot run without ZeRO-3.
Line 1 now says it, in both languages, for the user's own count (the details follow below it)."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

TIMED = {  # s39 fixv #6: a yes/no fit question ('enough?', '够吗') puts the verdict before the time
    "en": (
        "LoRA fine-tune Qwen2.5-72B, 50k samples of 2k tokens: are 2 A100 80G enough?",
        "with 2 × A100 80G: borderline (see below)",
    ),
    "zh": (
        "qwen2.5-72b 做 LoRA 微调，5万条每条2k token，2张A100 80G够吗",
        "用 2 张 A100 80G：勉强放得下（见下）",
    ),
}
# The axolotl QLoRA Llama-3-70B on 2 A6000 of this trial is now "does not fit with plain DDP as configured"
# (s21 fixa item 2: a named data-parallel tool without a deepspeed/fsdp setting is judged on its DDP
# layout); a memory-only borderline case is a LoRA of Qwen2.5-72B at ~97 % of 2 A100 80G.
MEMORY_ONLY = {
    "en": (
        "LoRA fine-tune Qwen2.5-72B on 2 A100 80G, sequences of 2k tokens: will it fit?",
        "— borderline (see below)",
    ),
    "zh": ("qwen2.5-72b 做 LoRA 微调，每条2k token，2张A100 80G放得下吗", "——勉强可行（见下）"),
}


def _ask(capsys, question: str, fmt: str) -> str:
    assert main(["ask", "--format", fmt, question]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("cases", [TIMED, MEMORY_ONLY], ids=["timed", "memory_only"])
def test_a_borderline_verdict_is_in_the_headline(capsys, lang: str, cases) -> None:
    question, said = cases[lang]
    assert json.loads(_ask(capsys, question, "json"))["report"]["feasible"] == "borderline"
    assert said in _ask(capsys, question, "text").splitlines()[0]


def test_a_plain_fit_keeps_its_headline(capsys) -> None:
    question = "LoRA fine-tune Qwen2.5-7B on 50k samples of 2k tokens with 8 H100"
    assert json.loads(_ask(capsys, question, "json"))["report"]["feasible"] == "yes"
    assert "borderline" not in _ask(capsys, question, "text").splitlines()[0]
