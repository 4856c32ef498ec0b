"""s43 merge review (/work/notes/s43/review/report.md): what the design review of the merged parts found.

1. 'PEFT' / '参数高效微调' without a LoRA word is sized as LoRA (s43-workmiss) and now says so: a substitution
   'read “PEFT” as LoRA' (design.md §8: every assumption is shown), never when LoRA itself is named.
2. A department or person as the subject of 'says' ('finance says the budget is $500') is no training
   framework (bot.parse.subject_tools.PEOPLE_NOUNS).
"""

from __future__ import annotations

import json

import pytest

from tests.cli_run import ask_quietly


def _json(q: str) -> dict:
    return json.loads(ask_quietly("--format", "json", q))


@pytest.mark.parametrize(
    ("q", "typed"),
    [
        ("Fine-tune Llama-3-8B with PEFT on one RTX 4090", "PEFT"),
        ("parameter-efficient fine-tuning of Qwen2.5-7B on one RTX 4090", "parameter-efficient fine-tuning"),
        ("用参数高效微调训练Qwen2.5-7B，一张4090", "参数高效微调"),
    ],
)
def test_peft_sized_as_lora_is_said(q: str, typed: str) -> None:
    """The method sized is LoRA and the reply's substitutions name the PEFT words as typed."""
    d = _json(q)
    assert d["request"]["method"] == "lora"
    subs = [s for s in d["interpretation"]["substitutions"] if s["reason"] == "peft_as_lora"]
    assert subs == [{"typed": typed, "used": "LoRA", "reason": "peft_as_lora"}]


@pytest.mark.parametrize(
    "q",
    [
        "Fine-tune Llama-3-8B with PEFT LoRA on one RTX 4090",
        "用 peft 库做 LoRA 微调 Qwen2.5-7B，一张4090",
        "Fine-tune Llama-3-8B with LoRA on one RTX 4090",
        "full fine-tune Llama-3-8B on 8 A100, peft==0.10.0 installed",
    ],
)
def test_no_peft_substitution_where_lora_is_named_or_no_peft_method(q: str) -> None:
    """LoRA named: the method is theirs, nothing substituted; a peft release is a library, no method."""
    subs = _json(q)["interpretation"]["substitutions"]
    assert not [s for s in subs if s["reason"] == "peft_as_lora"]


def test_peft_substitution_in_the_chinese_reply() -> None:
    """The substitution's zh_CN text names the words as typed and LoRA."""
    out = ask_quietly("用参数高效微调训练Qwen2.5-7B，一张4090")
    assert "“参数高效微调”按 LoRA 计算" in out


@pytest.mark.parametrize(
    "q",
    [
        "Fine-tune Llama-3-8B with LoRA on 2 A100s, but finance says the budget is $500",
        "Serve Llama-3.1-8B on one L40S for 20 users; management says latency must stay under 2 s",
    ],
)
def test_a_department_saying_something_is_no_tool(q: str) -> None:
    """'finance says', 'management says': no training framework or runtime named after them."""
    ignored = _json(q)["interpretation"]["ignored"]
    assert not [i for i in ignored if "finance" in i["text"] or "management" in i["text"]]


def test_a_tool_as_subject_is_still_named() -> None:
    """The reader still names an unknown lower-case tool that says something (s43-fixread #6)."""
    ignored = _json("Serve Llama-3.1-8B on one L40S for 20 users; optiml says it needs 2 GPUs")[
        "interpretation"
    ]["ignored"]
    assert [i for i in ignored if "optiml" in i["text"]]
