"""Issue 23 item 7: the parse stage's instructions (callgrind), of a tree, over the corpus questions.

Usage (each tree under the same interpreter and packages; base from ``git archive`` with this checkout's
build outputs copied in)::

    PYTHONHASHSEED=0 setarch -R valgrind --tool=callgrind --dump-before=getppid \\
        --callgrind-out-file=OUT.%p python bench/parse_instructions.py [TREE] [--each]

then ``callgrind_annotate OUT.<pid>.2 | head`` (dump 2 is the window); with ``--each`` an ``os.getppid()``
follows every question too, so dump ``k + 1`` is question ``k``'s parse alone (the median and the long
paste apart). The window is one ``parse`` of every
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

ARGS = [a for a in sys.argv[1:] if a != "--each"]
TREE = Path(ARGS[0] if ARGS else Path(__file__).resolve().parents[1])
EACH = "--each" in sys.argv


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
        if EACH:
            os.getppid()
    if not EACH:
        os.getppid()
    print(sys.modules["bot.parse"].__file__, len(questions))


if __name__ == "__main__":
    main()
