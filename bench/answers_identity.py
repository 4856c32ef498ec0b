"""Every answer byte-identical between two trees (issue 23 item 7: a speed change must not move an answer).

Usage (each tree with its own interpreter; run from anywhere)::

    /work/main/.venv/bin/python bench/answers_identity.py dump --tree /work/main /tmp/s49speed/main.json
    .venv/bin/python bench/answers_identity.py dump HEAD.json          # this checkout
    python bench/answers_identity.py same /tmp/s49speed/main.json HEAD.json

``dump`` answers, through :func:`bot.cli.ask` in one process and one fixed order, every text of every
working split of tests/real_questions.py (``work`` and each round's ``rNwork``, read from ``ROUNDS`` so a
new round is included without an edit here; never a ``*test`` split nor a round held out whole), then
bench/answers_dump.py's texts (tests/data/questions.json — the bench's questions —, the zh and en
paraphrases, the field cases), in the formats given by ``--formats`` (default json, text, html, markdown).
bench/answers_dump.py ``all`` stops at ``r27work``; this reads every round. ``same`` exits 1 and lists the
first differences when any output differs or a text is missing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def working_splits() -> list[str]:
    """``work`` and each round's ``rNwork`` of tests/real_questions.py's ``ROUNDS``, less the rounds held
    out whole (``r8``): never a ``*test`` split."""
    from tests import real_questions as rq

    splits = ["work", *(f"{tag}work" for tag in rq.ROUNDS if tag not in rq.HELD_OUT_WHOLE)]
    if not all(split.endswith("work") for split in splits):  # never a held-out split
        raise SystemExit(f"refusing {splits}")
    return splits


def texts(tree: Path) -> list[str]:
    """The distinct texts to answer, in a fixed order (working splits first, then answers_dump's)."""
    sys.path[:0] = [str(tree), str(HERE)]
    from answers_dump import _texts

    from tests import real_questions as rq

    found: dict[str, str] = {}
    for split in working_splits():
        found.update({f"{split}:{r['id']}": r["text"] for r in rq.records(split)})
    found.update(_texts())
    return list(dict.fromkeys(found.values()))


def dump(tree: Path, out: Path, formats: list[str]) -> None:
    order = texts(tree)
    from bot.cli import ask

    answers = {}
    for text in order:
        answers[text] = {}
        for fmt in formats:
            reply, code = ask(text, None, fmt)
            answers[text][fmt] = f"{reply}\nexit={code}"
    out.write_text(json.dumps(answers, ensure_ascii=False, indent=0), encoding="utf-8")
    print(f"{len(answers)} texts x {len(formats)} formats from {tree}")


def same(before: Path, after: Path) -> int:
    a = json.loads(before.read_text(encoding="utf-8"))
    b = json.loads(after.read_text(encoding="utf-8"))
    bad = [(t, f) for t in a for f in a[t] if b.get(t, {}).get(f) != a[t][f]]
    for t, f in bad[:20]:
        print(f"{t[:70]!r} {f}")
    outputs = sum(len(v) for v in a.values())
    print(f"{len(a)} texts, {outputs} outputs: {len(bad)} differ, {len(set(a) - set(b))} missing")
    return 1 if bad or set(a) - set(b) else 0


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("out", type=Path)
    d.add_argument("--tree", type=Path, default=HERE.parent)
    d.add_argument("--formats", default="json,text,html,markdown")
    s = sub.add_parser("same")
    s.add_argument("before", type=Path)
    s.add_argument("after", type=Path)
    args = ap.parse_args()
    if args.cmd == "dump":
        dump(args.tree.resolve(), args.out, args.formats.split(","))
    else:
        sys.exit(same(args.before, args.after))


if __name__ == "__main__":
    main()
