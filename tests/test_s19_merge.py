"""Session 19's merge fix-ups: a card's memory written after its name is that card's variant, never a
"memory with a verdict and no card" ('24G 够吗', s19-r13zh's reader), and a step count is planned from the
parse result, not a search of the message in core (tests/test_core_one_pass.py)."""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json


@pytest.mark.parametrize(
    ("text", "gpu", "memory_gib"),
    [
        ("部署Llama-2-13B，1张A100 40G够吗", "A100-SXM4-40GB", 40.0),  # the catalog's 40 GB A100
        ("一张 A100 40G 够不够跑 Qwen2.5-14B 推理", "A100-SXM4-40GB", 40.0),
        ("Serve Llama-2-13B on one A100 40GB, is it enough?", "A100-SXM4-40GB", 40.0),
    ],
)
def test_a_cards_memory_after_its_name_is_that_card(text: str, gpu: str, memory_gib: float) -> None:
    data = answer_json(text)
    assert data["request"]["gpu"] == gpu
    assert data["report"]["hardware"]["memory_gib"] == pytest.approx(memory_gib, rel=0.01)


@pytest.mark.parametrize(
    "text",
    [
        "跑 Qwen2.5-14B 推理，24G 够吗",
        "Qwen2.5-14B 24G 够吗",
        "24GB is not enough for Qwen2.5-32B, how many?",
    ],
)
def test_a_memory_with_a_verdict_and_no_card_is_still_one_card_of_it(text: str) -> None:
    data = answer_json(text)
    assert data["report"]["hardware"]["memory_gib"] == pytest.approx(24.0, rel=0.03)  # a 24 GB card


RELEASE_PROBE = """
from bot import regex_store
from bot.chat.warmup import warm_up
from bot.core.pipeline import answer
from bot.render.renderer import render
from estimator import _dataclass_code

questions = (
    "用 4 张 H100 LoRA 微调 Qwen2.5-32B，1 亿 token 要多久",
    "Serve Llama-3.1-70B on 4 L40S for 20 users",
)
before = [render(answer(q), "text") for q in questions]
warm_up()
assert all(not codes for codes in regex_store._loaded.values())
assert not _dataclass_code._stored
assert [render(answer(q), "text") for q in questions] == before
print("same")
"""


def test_the_stored_code_is_released_after_the_warm_up_and_answers_stay() -> None:
    """The bot's idle memory (budget 80 MiB, tests/test_warmup.py): after the warm-up the stored regex and
    dataclass code are emptied (~1.8 MiB); an answer made afterwards, whose patterns compile from source, is
    the same answer. In a process of its own: the release is for the whole process."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-c", RELEASE_PROBE], cwd=root, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "same"
