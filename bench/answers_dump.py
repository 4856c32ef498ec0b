"""Dump ``sizing-bot ask`` answers (--format json and text) for every corpus question; compare two dumps.

Usage: ``python bench/answers_dump.py dump OUT.json``, then
``python bench/answers_dump.py compare A.json B.json``. ``parses OUT.json`` dumps, for every question of
every working split (``work``, ``r2work`` … ``r21work``; never a held-out one), the paraphrases (zh, en),
the field cases (``/work/shared/corpus/field_cases.json`` when present) and tests/data/questions.json,
the parse (``ParseResult.model_dump(mode="json")``) and the ``ask --format json`` answer: compare two
such dumps with ``compare`` too (session 28: the reader dispatch by content must not move either).
Runs the real CLI entry point (bot.cli.main) in-process, stdout captured. The comparison allows only
JSON fields added in B (a key absent from A); every other difference is counted and listed.

``python bench/answers_dump.py all OUT.json`` (session 28, s28-spest): every text of
tests/data/questions.json, of the working splits (``work``, ``r2work`` … ``r7work``, ``r9work`` …
``r21work``: never a frozen split), of the zh and en paraphrases and of the field cases, answered through
:func:`bot.cli.ask` in json, text, html and markdown; ``python bench/answers_dump.py same A.json B.json``
requires every output byte-identical (exit 1 and the first differences otherwise).
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "questions.json"


def _ask(text: str, fmt: str) -> str:
    from bot.cli import main

    out = io.StringIO()
    quiet = contextlib.redirect_stderr(io.StringIO())
    with contextlib.redirect_stdout(out), quiet, contextlib.suppress(SystemExit):
        main(["ask", "--format", fmt, "--", text])
    return out.getvalue()


def dump(path: str) -> None:
    questions = json.loads(CORPUS.read_text(encoding="utf-8"))
    answers = {q["id"]: {"text": _ask(q["text"], "text"), "json": _ask(q["text"], "json")} for q in questions}
    Path(path).write_text(json.dumps(answers, ensure_ascii=False, indent=1), encoding="utf-8")


WORKING_SPLITS = ("work", *(f"r{n}work" for n in (*range(2, 8), *range(9, 28))))
"""The working splits (tests/real_questions.py): the only real-question records read here; the frozen ones
never are."""
ALL_FORMATS = ("json", "text", "html", "markdown")


def corpus_texts() -> list[str]:
    """Distinct question texts in a fixed order: questions.json, working splits, paraphrases, field cases
    (:func:`_texts`' values)."""
    return list(dict.fromkeys(_texts().values()))


def dump_all(path: str) -> None:
    """Write ``{text: {format: output}}`` for every :func:`corpus_texts` text and :data:`ALL_FORMATS`."""
    from bot.cli import ask

    def one(text: str, fmt: str) -> str:
        reply, code = ask(text, None, fmt)
        return f"{reply}\nexit={code}"

    out = {t: {f: one(t, f) for f in ALL_FORMATS} for t in corpus_texts()}
    Path(path).write_text(json.dumps(out, ensure_ascii=False, indent=1), encoding="utf-8")


def same(before: str, after: str) -> int:
    """0 when every output of two :func:`dump_all` files is byte-identical, else 1 (differences printed)."""
    a = json.loads(Path(before).read_text(encoding="utf-8"))
    b = json.loads(Path(after).read_text(encoding="utf-8"))
    bad = [f"{t[:60]!r} {f}" for t in a for f in a[t] if b.get(t, {}).get(f) != a[t][f]]
    print("\n".join(bad[:30]))
    print(f"{len(a)} texts x {len(ALL_FORMATS)} formats, {len(bad)} differ, {len(set(b) - set(a))} new texts")
    return 1 if bad else 0


FIELD_CASES = CORPUS.parent / "field_cases.json"
"""The field cases (a copy of the shared corpus's field_cases.json kept in tests/data)."""


def _texts() -> dict[str, str]:
    """Every text to dump, keyed by where it comes from."""
    sys.path.insert(0, str(CORPUS.parents[2]))
    from tests.paraphrases import paraphrases
    from tests.real_questions import records

    texts = {f"q:{q['id']}": q["text"] for q in json.loads(CORPUS.read_text(encoding="utf-8"))}
    for split in WORKING_SPLITS:
        texts.update({f"{split}:{r['id']}": r["text"] for r in records(split)})
    for lang in ("zh", "en"):
        texts.update({f"para-{lang}:{r['id']}": r["text"] for r in paraphrases(lang)})
    if FIELD_CASES.exists():
        cases = json.loads(FIELD_CASES.read_text(encoding="utf-8"))["cases"]
        texts.update({f"field:{c['id']}": c["q"] for c in cases})
    return texts


def dump_parses(path: str) -> None:
    """The parse and the JSON answer of every text of :func:`_texts` (as ``dump`` writes, ``text`` being
    the parse's JSON), parsed in one process (the gates and cue tables are on from the second)."""
    from bot.parse import parse

    out = {}
    for key, text in _texts().items():
        parsed = json.dumps(parse(text).model_dump(mode="json"), ensure_ascii=False, sort_keys=True)
        out[key] = {"text": parsed, "json": _ask(text, "json")}
    Path(path).write_text(json.dumps(out, ensure_ascii=False, indent=1), encoding="utf-8")


def _diff(a: object, b: object, where: str, out: list[str]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in a:
            if key not in b:
                out.append(f"{where}.{key}: dropped")
            else:
                _diff(a[key], b[key], f"{where}.{key}", out)
        return
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _diff(x, y, f"{where}[{i}]", out)
        return
    if a != b:
        out.append(f"{where}: {str(a)[:80]!r} -> {str(b)[:80]!r}")


def compare(before: str, after: str) -> int:
    a = json.loads(Path(before).read_text(encoding="utf-8"))
    b = json.loads(Path(after).read_text(encoding="utf-8"))
    diffs: list[str] = []
    for qid, ans in a.items():
        if ans["text"] != b[qid]["text"]:
            diffs.append(f"{qid} text differs")
        try:
            ja, jb = json.loads(ans["json"]), json.loads(b[qid]["json"])
        except ValueError:
            if ans["json"] != b[qid]["json"]:
                diffs.append(f"{qid} json (unparsed) differs")
            continue
        _diff(ja, jb, qid, diffs)
    print("\n".join(diffs[:50]))
    print(f"{len(a)} questions, {len(diffs)} differences other than added JSON fields")
    return 1 if diffs else 0


if __name__ == "__main__":
    if sys.argv[1] == "dump":
        dump(sys.argv[2])
    elif sys.argv[1] == "all":
        dump_all(sys.argv[2])
    elif sys.argv[1] == "same":
        sys.exit(same(sys.argv[2], sys.argv[3]))
    elif sys.argv[1] == "parses":
        dump_parses(sys.argv[2])
    else:
        sys.exit(compare(sys.argv[2], sys.argv[3]))
