"""The note-code enum (issue 23 item 3): every note code the estimator and the pipeline write as a
literal has a ``NoteCode`` member, every member has a sentence, and the reply words a real note by
its member (through the CLI)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bot.cli import main
from bot.render.note_codes import NoteCode
from bot.render.wording import BUDGET_VERDICTS, NOTE_MESSAGES, SINGULAR_NOTE_MESSAGES, TOTAL_MEMORY_VERDICTS

ROOT = Path(__file__).resolve().parents[1]
NOTE_CALL = re.compile(r"""\.note\(\s*"([a-z0-9_]+)"|Note\(\s*code="([a-z0-9_]+)\"""")


def written_codes() -> set[str]:
    codes: set[str] = set()
    for folder in ("estimator", "bot"):
        for path in (ROOT / folder).rglob("*.py"):
            codes |= {a or b for a, b in NOTE_CALL.findall(path.read_text(encoding="utf-8"))}
    return codes


def test_every_written_code_is_a_member():
    codes = written_codes()
    assert {"tiny_job", "huge_job", "recompute_chosen", "global_batch_adjusted"} <= codes  # the scan works
    assert codes <= set(NoteCode), codes - set(NoteCode)


def test_every_member_has_a_sentence_and_the_tables_use_members():
    assert set(NOTE_MESSAGES) == set(NoteCode)
    assert all(isinstance(k, NoteCode) for k in NOTE_MESSAGES)
    for table in (SINGULAR_NOTE_MESSAGES, BUDGET_VERDICTS, TOTAL_MEMORY_VERDICTS):
        assert all(isinstance(k, NoteCode) for k in table)


def test_a_note_from_the_estimator_is_worded_by_its_member(capsys):
    main(
        ["ask", "--format", "json", "--lang", "en", "Fine-tune a 7B model with LoRA on 1M tokens on one A100"]
    )
    data = json.loads(capsys.readouterr().out)
    codes = [w["code"] for w in data["report"]["warnings"]]
    assert "tiny_job" in codes and NoteCode("tiny_job") is NoteCode.tiny_job
    assert "A small job" in data["reply"]
