"""Session 36 (s36-sppipe, issue 23 item 7): bench/parse_costs.py, the parse's time without the profiler.

The script records every :class:`bot.parse.regex.LazyPattern` call of a parse by wrapping the patterns'
methods, replays them, and puts the methods back: a later parse in the same process must answer as before
and call the same methods (gated or not). Its "found nothing" test is the methods' own no-match value."""

from __future__ import annotations

import gc
import importlib.util
import re
from pathlib import Path

from bot.parse import parse
from bot.parse.regex import LazyPattern

_PATH = Path(__file__).resolve().parents[1] / "bench" / "parse_costs.py"
_SPEC = importlib.util.spec_from_file_location("bench_parse_costs", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
costs = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(costs)

TEXTS = ["70B要几张卡？", "Fine-tune Llama-3-8B with LoRA on 2 A100s, bs 4, seq 2048"]
KINDS = {
    "found",
    "nothing: behind a gate",
    "nothing: no required literal",
    "nothing: a required literal present",
    "nothing: literals absent, no gate",
}


def test_nothing_is_each_methods_no_match() -> None:
    p = re.compile(r"a(b)")
    assert costs._nothing("search", p.search("xx"), ("xx",))
    assert not costs._nothing("search", p.search("xab"), ("xab",))
    assert costs._nothing("finditer", list(p.finditer("xx")), ("xx",))
    assert costs._nothing("findall", p.findall("xx"), ("xx",))
    assert not costs._nothing("findall", p.findall("ab"), ("ab",))  # ['b']
    assert costs._nothing("sub", p.sub("-", "xx"), ("-", "xx"))
    assert not costs._nothing("sub", p.sub("-", "xab"), ("-", "xab"))  # 'x-'
    assert costs._nothing("split", p.split("xx"), ("xx",))
    assert not costs._nothing("split", p.split("xaby"), ("xaby",))  # ['x', 'b', 'y']


def test_replay_puts_every_method_back() -> None:
    for text in TEXTS * 2:  # warm: the gates are added from the second message on
        parse(text)
    before = [parse(t).model_dump(mode="json") for t in TEXTS]
    patterns = [o for o in gc.get_objects() if type(o) is LazyPattern and o._compiled is not None]
    methods = {(id(p), m): getattr(p, m) for p in patterns for m in costs.METHODS}
    kinds, wasted = costs.regex_calls(TEXTS)
    assert set(kinds) <= KINDS and kinds["found"][0] > 0  # the LoRA sentence's names, numbers …
    assert all(calls > 0 for calls, _us in kinds.values())
    assert all(us >= 0 and calls > 0 for us, calls, _key in wasted)
    assert all(getattr(p, m) is methods[(id(p), m)] for p in patterns for m in costs.METHODS)
    assert [parse(t).model_dump(mode="json") for t in TEXTS] == before
