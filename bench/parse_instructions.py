"""Issue 23 item 7: the parse stage's instructions (callgrind), of a tree, over the corpus questions.

Usage (each tree under the same interpreter and packages; base from ``git archive`` with this checkout's
build outputs copied in)::

    PYTHONHASHSEED=0 setarch -R valgrind --tool=callgrind --dump-before=getppid \\
        --callgrind-out-file=OUT.%p python bench/parse_instructions.py [TREE]

then ``callgrind_annotate OUT.<pid>.2 | head`` (dump 2 is the window). The window is one ``parse`` of every
question of tests/data/questions.json (125), after two warm passes (the gates and cue tables are built
from the second message on), GC off; an ``os.getppid()`` before and after it marks the window. Python
calls a parse are counted by tests/test_parse_render_speed.py (profile 'call' events).
"""

from __future__ import annotations

import gc
import json
import os
import sys
from pathlib import Path

TREE = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1])


def main() -> None:
    sys.path.insert(0, str(TREE))
    from bot.parse import parse

    questions = [q["text"] for q in json.loads((TREE / "tests/data/questions.json").read_text("utf-8"))]
    for text in questions * 2:
        parse(text)
    gc.collect()
    gc.disable()
    os.getppid()
    for text in questions:
        parse(text)
    os.getppid()
    print(sys.modules["bot.parse"].__file__, len(questions))


if __name__ == "__main__":
    main()
