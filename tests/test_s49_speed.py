"""Session 49 (s49-speed, issue 23 item 7): bench/answers_identity.py, the byte-identity check a speed change
runs before and after (every working split of every round, the bench's questions, both languages'
paraphrases).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from tests import real_questions as rq

ROOT = Path(__file__).resolve().parents[1]
_SPEC = importlib.util.spec_from_file_location(
    "bench_answers_identity", ROOT / "bench" / "answers_identity.py"
)
assert _SPEC is not None and _SPEC.loader is not None
identity = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(identity)


def test_working_splits_only_and_every_round() -> None:
    """The splits read are ``work`` and each round's ``rNwork`` (a new round included without an edit),
    never a ``*test`` split nor a round held out whole; the bench's own questions are among the texts."""
    splits = identity.working_splits()
    assert all(s.endswith("work") for s in splits)
    assert not {f"{tag}work" for tag in rq.HELD_OUT_WHOLE} & set(splits)
    rounds = [t for t in rq.ROUNDS if t not in rq.HELD_OUT_WHOLE]
    assert splits == ["work", *(f"{t}work" for t in rounds)]
    texts = identity.texts(ROOT)
    bench = [q["text"] for q in json.loads((ROOT / "tests" / "data" / "questions.json").read_text("utf-8"))]
    assert set(bench) <= set(texts)
    assert len(texts) == len(set(texts))


def test_same_finds_a_difference(tmp_path: Path) -> None:
    """``same``: 0 when every output is equal, 1 when one differs or a text is missing (zh and en texts)."""
    en = "How many H100s for a 70B?"
    a = {"7B模型1万亿token要多少A100": {"json": "{}\nexit=0"}, en: {"text": "x\nexit=0"}}
    (tmp_path / "a.json").write_text(json.dumps(a, ensure_ascii=False), "utf-8")
    (tmp_path / "b.json").write_text(json.dumps(a, ensure_ascii=False), "utf-8")
    assert identity.same(tmp_path / "a.json", tmp_path / "b.json") == 0
    b = {**a, en: {"text": "y\nexit=0"}}
    (tmp_path / "c.json").write_text(json.dumps(b, ensure_ascii=False), "utf-8")
    assert identity.same(tmp_path / "a.json", tmp_path / "c.json") == 1
    (tmp_path / "d.json").write_text(
        json.dumps({"How many H100s for a 70B?": a["How many H100s for a 70B?"]}), "utf-8"
    )
    assert identity.same(tmp_path / "a.json", tmp_path / "d.json") == 1
