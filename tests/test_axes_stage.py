"""The stage-by-story axis stress set (tests/data/axes/stage_{zh,en}.json, s19-audit: first-contact fault kind
C of rounds 9–12, tests/data/real_questions/README.md): the work two-thirds stay understood at least as well
as after bot/parse/stage_hints.py's release and tuning-verb hints, and the frozen third is the one frozen
before them (scored for totals only)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.parse.stage_hints import tuning_only_stage
from tests.axes import DATA, frozen_digest, records
from tests.real_questions import answer_json, score

WORK_FLOOR = 16
"""Work records understood in full after s19-audit's hints (of 16; 11 at the freeze)."""


def test_frozen_third_is_unchanged() -> None:
    stored = Path(DATA / "frozen_stage.sha256").read_text().strip()
    assert frozen_digest("stage") == stored


def test_work_split_floor() -> None:
    work = records("stage", "work")
    assert len(work) == 16
    full = sum(not score(r, answer_json(r["text"])) for r in work)
    assert full >= WORK_FLOOR


@pytest.mark.parametrize(
    ("text", "stage", "expected"),
    [
        # a release trained (the weak hint 'train' gave pre-training): a fine-tuning
        ("用 fsdp 在 16 张 h100 上训 qwen2.5-32b，显存够吗", "pretrain", "finetune"),
        ("how could i train llama-3.1-8b at 4k on four 24gb cards", "pretrain", "finetune"),
        ("can i teach llama-3-8b our support tone on one 4090", None, "finetune"),
        ("想在 2 张 a100 上再训一下 mistral-7b", "pretrain", "finetune"),
        # a catalog family with its size in words (en11-006, en12-027's phrasings)
        ("how could i train the 32b qwen model using torch fsdp", "pretrain", "finetune"),
        ("i could train the llama 8b model at sequence length 1024", "pretrain", "finetune"),
        ("train a gpt 7b model on 64 a100s", "pretrain", "pretrain"),
        # a size, a scale, or a pre-training codebase: stays a pre-training (en11-030, en6-010)
        ("train a 7b model on 8 a100s for 1t tokens", "pretrain", "pretrain"),
        ("train llama-3.1-70b from scratch on 512 h100s", "pretrain", "pretrain"),
        ("how many h100 to train llama-3.1-70b with torchtitan", "pretrain", "pretrain"),
        ("the 2-7b model gets about 7 sequences per second training", "pretrain", "pretrain"),
        # a serving story is never turned into a training by a verb
        ("teach me how to serve qwen2.5-7b on one 4090", "inference", "inference"),
    ],
)
def test_stage_told_by_the_story(text: str, stage: str | None, expected: str) -> None:
    assert tuning_only_stage(stage, text) == expected
