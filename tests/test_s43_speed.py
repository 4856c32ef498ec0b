"""Issue 23 item 7, ``sizing-bot ask`` start-up (session 43, s43-speed).

- ``import bot`` pauses Python's cyclic collector while it loads the start-up aids (estimator's aids and
  pydantic with them), then freezes what is loaded (``gc.freeze``) and turns the collector back on; a caller
  that turned it off keeps it off and nothing is frozen (bot/__init__.py).
- Nine reader and estimator modules a plain question calls nothing of are imported on their first call
  (:class:`estimator.later.Later` stand-ins: ``bot.later_names`` and ``later()`` in the estimator callers):
  a question that needs one loads it, and its caller then holds the real function.
- ``bot.parse.regex.top_level_branches`` jumps between the characters it reads: the same lists as the
  character-by-character scan it replaced.
"""

from __future__ import annotations

import importlib
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.parse.regex import top_level_branches
from bot.regex_store import load_codes
from estimator import later
from tests.startup_probe import ask_loaded

ROOT = Path(__file__).resolve().parents[1]


def _run(code: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SIZING_BOT_")}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_import_bot_freezes_what_it_loaded_and_turns_the_collector_back_on() -> None:
    out = _run(
        "import gc; import bot, estimator.catalog; print(gc.isenabled(), gc.get_freeze_count() > 1000)"
    )
    assert out == "True True"


def test_a_caller_that_turned_the_collector_off_keeps_it_off_and_nothing_is_frozen() -> None:
    out = _run("import gc; gc.disable(); import bot; print(gc.isenabled(), gc.get_freeze_count())")
    assert out == "False 0"


# (caller module, name it holds, real module): the estimator callers' later() stand-ins
ESTIMATOR_STAND_INS = [
    ("estimator.plan", "live_score_bytes", "estimator.attention_scores"),
    ("estimator.transients", "kept_score_bytes", "estimator.attention_scores"),
    ("estimator.transients", "score_bytes_per_layer", "estimator.attention_scores"),
    ("estimator.transients", "gradient_credit", "estimator.late_gradients"),
    ("estimator.transients", "late_gradients", "estimator.late_gradients"),
    ("estimator.search_bounds", "gradient_credit", "estimator.late_gradients"),
    ("estimator.search_bounds", "late_gradients", "estimator.late_gradients"),
    ("estimator.layout_table", "accumulates", "estimator.late_gradients"),
    ("estimator.layout_table", "gradient_credit", "estimator.late_gradients"),
    ("estimator.memory", "accumulated_gradients", "estimator.late_gradients"),
    ("estimator.memory", "late_gradients", "estimator.late_gradients"),
    ("estimator.training_setup", "samples_at_cap", "estimator.sample_padding"),
    ("estimator.training", "samples_at_cap", "estimator.sample_padding"),
]


@pytest.mark.parametrize(("caller", "name", "module"), ESTIMATOR_STAND_INS)
def test_each_estimator_stand_in_names_a_function_of_its_module(caller: str, name: str, module: str) -> None:
    got = getattr(importlib.import_module(caller), name)
    real = getattr(importlib.import_module(module), name)
    assert callable(real) and real.__module__ == module
    assert got is real or (isinstance(got, later.Later) and (got.module, got.name) == (module, name))


NEEDED = (
    "bot.parse.batch_asked",
    "bot.parse.memory_asked",
    "bot.render.unknown_card",
    "estimator.late_gradients",
)


@pytest.mark.parametrize(
    ("question", "loaded", "said"),
    [
        # one GPU, ZeRO-0: the gradients allocated late (estimator.late_gradients)
        ("7B全参微调，1张A100 80G够吗", ["estimator.late_gradients"], "A100"),
        # a batch asked for, one GPU (bot.parse.batch_asked, estimator.late_gradients)
        (
            "Full fine-tune a 1B model on one A100 80GB with batch 8 and gradient accumulation 4",
            ["bot.parse.batch_asked", "estimator.late_gradients"],
            "A100",
        ),
        # the memory asked (bot.parse.memory_asked)
        ("用vLLM部署Qwen2.5-7B，显存要多少", ["bot.parse.memory_asked"], "Qwen2.5-7B"),
        # an unknown card named as typed (bot.render.unknown_card)
        ("7B模型用X9000卡训练1万亿token要多久", ["bot.render.unknown_card"], "X9000"),
        (
            "how long to train a 7B model on 1T tokens with 64 FooGPU 9000 cards",
            ["bot.render.unknown_card"],
            "FooGPU",
        ),
    ],
)
def test_a_question_that_needs_a_deferred_module_loads_it(
    question: str, loaded: list[str], said: str
) -> None:
    reply, got = ask_loaded(NEEDED, question)
    assert said in reply and got == loaded


def test_a_plain_question_loads_none_of_them() -> None:
    reply, got = ask_loaded(
        (*NEEDED, "bot.parse.withheld", "estimator.attention_scores"), "7B模型1万亿token要多少A100"
    )
    assert "A100" in reply and got == []


def test_the_caller_holds_the_real_function_after_its_first_call() -> None:
    out = _run(
        "from bot.cli import ask; import estimator.transients as t, estimator.late_gradients as g; "
        "ask('7B全参微调，1张A100 80G够吗', None, 'text'); print(t.late_gradients is g.late_gradients)"
    )
    assert out == "True"


def _branches_char_by_char(pattern: str) -> list[str]:
    """bot.parse.regex.top_level_branches as it was before s43-speed (47822b33): one step a character."""
    out, depth, start, i, in_class = [], 0, 0, 0, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            i += pattern.startswith("^", i + 1)
            i += pattern.startswith("]", i + 1)
        elif ch in "()":
            depth += 1 if ch == "(" else -1
        elif ch == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
        i += 1
    out.append(pattern[start:])
    return [pattern] if re.search(r"\\[1-9]|\(\?P=|\(\?[aiLmsux]+\)", pattern) else out


@pytest.mark.parametrize(
    ("pattern", "branches"),
    [
        (r"a|b(c|d)|[|]|\|e", ["a", "b(c|d)", "[|]", r"\|e"]),
        (r"[]|]x|y", ["[]|]x", "y"]),  # a ']' first in a class is the character
        (r"[^]|]|z", ["[^]|]", "z"]),
        (r"(a)|\1", [r"(a)|\1"]),  # a back-reference: not split
        (r"(?i)gpu|卡", [r"(?i)gpu|卡"]),  # an inline global flag: not split
        ("显存|memory", ["显存", "memory"]),
    ],
)
def test_top_level_branches_splits_at_the_top_level_bars(pattern: str, branches: list[str]) -> None:
    assert top_level_branches(pattern) == branches == _branches_char_by_char(pattern)


def test_top_level_branches_is_the_character_scan_over_stored_and_random_patterns() -> None:
    stored = [key[0] for key in load_codes() if isinstance(key[0], str)]
    rnd = random.Random(43)
    made = ["".join(rnd.choice("ab|()[]^\\?:P=1i") for _ in range(rnd.randint(0, 14))) for _ in range(20_000)]
    for pattern in [*stored, *made]:
        assert top_level_branches(pattern) == _branches_char_by_char(pattern), pattern
