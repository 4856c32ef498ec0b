"""Issue 22 follow-ups (wave 3, T22 items 1 and 2): every reason the JSON's ``interpretation.ignored``
carries is said in the text reply, in both languages, and a repeated value is worded by the value that
was used, through the CLI."""

from __future__ import annotations

import json
import re

import pytest

from bot.cli import main
from bot.core.ignored_reasons import IGNORED_REASONS
from bot.render.i18n import translate
from bot.render.ignored_texts import IGNORED_TEXTS
from bot.render.understood import OWN_LINES, REPEATED_USED


def ask(capsys, *args: str) -> str:
    assert main(["ask", *args]) == 0
    return capsys.readouterr().out


def not_used_line(reply: str) -> str:
    lines = [ln for ln in reply.splitlines() if ln.startswith(("Not used:", "未使用："))]
    assert len(lines) == 1, reply[:600]
    return lines[0]


def test_every_ignored_reason_has_wording_in_both_languages() -> None:
    """Reflection over IGNORED_REASONS: a reason without a sentence is dropped from the text reply."""
    missing = [r for r in IGNORED_REASONS if r not in IGNORED_TEXTS and r not in OWN_LINES]
    assert missing == []
    assert not set(IGNORED_TEXTS) - set(IGNORED_REASONS)  # no wording for a reason nobody gives
    for reason, msgid in IGNORED_TEXTS.items():
        zh, en = translate("zh", msgid), translate("en", msgid)
        assert en == msgid, reason
        assert zh != msgid and re.search(r"[\u4e00-\u9fff]", zh), (reason, zh)
    assert re.search(r"[\u4e00-\u9fff]", translate("zh", REPEATED_USED, used="8"))


VLLM = "serve Qwen2.5-7B: vllm serve Qwen/Qwen2.5-7B-Instruct --enable-prefix-caching --swap-space 4"
"""(-dp 2 was the no_field flag here until round 3: the data-parallel size is now the GPU count, issue 24
item 1 — tests/test_round3_en_forms.py; --max-num-batched-tokens 8192 until s46, when vLLM's prefill chunk
became a setting, estimator.runtimes.vllm.)"""
TORCHRUN = (
    "torchrun --nproc_per_node 8 train.py, LoRA fine-tune Qwen2.5-7B on 1B tokens with A100s, "
    "but only use 2 of them"
)


@pytest.mark.parametrize(
    ("lang", "message", "expected"),
    [
        (
            "en",
            VLLM,
            [
                "“--enable-prefix-caching: True” (it changes the answer, but the sizing has no setting",
                "“--swap-space: 4” (the tool has no setting of that name)",
            ],
        ),
        ("zh", VLLM, ["“--enable-prefix-caching: True”（会影响结果，但估算暂无这一项设置）"]),
        (
            "en",
            TORCHRUN,
            [
                "“gpu_count: 2” (your pasted config gives another value, and the config's is used)",
                # the training tool is used since issue 24 item 3 (it limits the layouts), not named
            ],
        ),
        ("zh", TORCHRUN, ["（与你贴的配置不一致，以配置中的值为准）"]),
    ],
)
def test_config_reasons_reach_the_text_reply(capsys, lang: str, message: str, expected: list[str]) -> None:
    data = json.loads(ask(capsys, "--format", "json", "--lang", lang, message))
    reasons = {i["reason"] for i in data["interpretation"]["ignored"]}
    assert reasons & {"no_field", "unknown_key", "config_differs"}
    line = not_used_line(ask(capsys, "--lang", lang, message))
    for piece in expected:
        assert piece in line


@pytest.mark.parametrize(
    ("message", "expected", "gpus"),
    [
        (  # round 10: the cards used of those owned are the job's (bot.parse.used_counts); was 8.
            # Review of session 15: the machine's 8 is another setup, named so (was 'a second value')
            "LoRA fine-tune Qwen2.5-7B on 1B tokens, we have 8 A100s but only use 2 of them",
            "Not used: “8” (another setup in your message: this answer sizes the one named above — ask to "
            "size it).",
            2,
        ),
        (
            "我们有8张A100，只用其中2张，LoRA微调Qwen2.5-7B，10亿token",
            "未使用：“8”（你消息里的另一套配置：这次按上面写明的那套估算——要估这一套请单独问）。",
            2,
        ),
        (  # a self-correction: the count taken back is named as changed (s13 review 9, 17)
            "LoRA fine-tune Qwen2.5-7B on 1B tokens on 2 A100, no wait, 4 A100",
            "Not used: “2 a100” (the setting's earlier value: you changed it to the later one, which is "
            "used).",
            4,
        ),
    ],
)
def test_a_repeated_value_names_the_value_used(capsys, message: str, expected: str | None, gpus) -> None:
    """Was 'a second value; the first one is used' whichever of the two the answer used."""
    data = json.loads(ask(capsys, "--format", "json", message))
    used = data["request"]["gpu_count"]
    line = not_used_line(ask(capsys, message))
    assert "the first one is used" not in line and "使用第一个值" not in line
    if expected is not None:
        assert used == gpus
        assert line == expected
    else:  # whichever count was used, the line names it and the other one as not used
        other = ({"2", "4"} - {str(used)}).pop()
        assert f"“{other}” (a second value for the same setting; used: {used})" in line
