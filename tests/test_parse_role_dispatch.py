"""The per-number rules chosen from the number's keys (:mod:`bot.parse.role_dispatch`, issue 23 item 7)
give every number the role the former dispatch gives it (:func:`bot.parse.roles.classify`, which tries
every rule in order): compared at every number the parser classifies in the corpus, the field cases and
every real-question file, and at every number of generated texts (each unit and label word before and
after numbers of each kind, white space runs, ranges, pairs of numbers). The triggers declared for each
rule must cover every pattern the rule reads first, so a rule that gains a pattern fails here until it is
declared."""

from __future__ import annotations

import itertools
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.parse import followup_words as fw
from bot.parse import machine_memory as mm
from bot.parse import mention_steps, role_dispatch, roles
from bot.parse import node_words as nw
from bot.parse import role_left as rl
from bot.parse.numbers import scan_numbers
from bot.parse.regex import LazyPattern

DATA = Path(__file__).parent / "data"


def _texts() -> list[str]:
    out = [q["text"] for q in json.loads((DATA / "questions.json").read_text(encoding="utf-8"))]
    out += [c["q"] for c in json.loads((DATA / "field_cases.json").read_text(encoding="utf-8"))["cases"]]
    for path in sorted((DATA / "real_questions").glob("*.json")):
        items = json.loads(path.read_text(encoding="utf-8"))
        items = items if isinstance(items, list) else items.get("questions", [])
        out += [i["text"] for i in items if isinstance(i, dict) and isinstance(i.get("text"), str)]
    return out


def _parsed_calls(texts: list[str], monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, str, Any]]:
    """(number, text, next number) of every classify call the parse makes on ``texts``."""
    calls: list[tuple[Any, str, Any]] = []

    def record(tok: Any, s: str, nxt: Any) -> Any:
        calls.append((tok, s, nxt))
        return roles.classify(tok, s, nxt)

    monkeypatch.setattr(mention_steps, "classify", record)
    from bot.parse import parse

    for text in texts:
        parse(text)
    return calls


def test_every_parsed_number_gets_the_former_role(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _texts()
    assert len(texts) > 900
    role_dispatch.warm()  # as from a process's second message on
    calls = _parsed_calls(texts, monkeypatch)
    assert len(calls) > 3000
    for tok, s, nxt in calls:
        assert repr(role_dispatch.classify(tok, s, nxt)) == repr(roles.classify(tok, s, nxt)), (s, tok)


NUMBERS = ["8", "7b", "70", "1.5万亿", "two", "32k", "3000", "一", "40", "2t", "500m", "1,000"]
LEFT = [
    "", "bs=", "batch size ", "mfu ", "mfu=", "$", "¥", "rmb ", "预算", "budget of ", "上下文", "context ",
    "only have ", "只有", "a100 x", "h100*", "激活 ", "总参 ", "几台", "how many nodes of ", "并发 ",
    "epochs=", "每卡时", "per gpu hour ", "model ", "数据 ", "tokens ", "每条", "prompt of ", "reply ",
    "on ", "显存 ", "total vram is ", "used ", "\ue000 (", "  \n ", "花费", "with ",
]  # fmt: skip
RIGHT = [
    "", "卡", " gpus", "b tokens", "%", " 元", "元/卡时", "块钱一卡时", "天", " days", " weeks", "个月",
    " of them", "张a100", "gb 显存", "g 的卡", "gb of vram", "gb total capacity", " x 8 a100", "x8 a100s",
    "台8卡", " nodes of 8", "-gpu nodes", "卡的机器", " dgx h100", " 块4090", "块", " tokens", " tokens each",
    "-token sequences", " 的上下文", " 并发", " users", " samples", "条数据", " pairs", " epochs", " 轮",
    " 模型", " params", " active", " total", "k prompts", "/hr per h100", " per gpu-hour", " an hour",
    " 预算", " budget", " usd", " 美元", " dollars", "tb", " 字", " words", " dpo", " brand-new h100 gpus",
    " 24gb a5000", " 呢", " then", " " * 50 + "/hr", " " * 30 + "预算", "\t卡", " to 16 a100",
    "-30元/小时", " and 128k context", "机8卡", " 节点, 每个节点 8 张", " \ue000", "\ue000s",
]  # fmt: skip


def _generated() -> list[str]:
    texts = [left + n + right for left, n, right in itertools.product(LEFT, NUMBERS, RIGHT)]
    texts += [f"{a}{r} {b}" for a, b, r in itertools.product(NUMBERS[:6], NUMBERS[:6], RIGHT[:40:3])]
    return texts


def test_generated_numbers_get_the_former_role() -> None:
    role_dispatch.warm()
    checked = 0
    for s in _generated():
        toks = scan_numbers(s)
        for i, tok in enumerate(toks):
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            assert repr(role_dispatch.classify(tok, s, nxt)) == repr(roles.classify(tok, s, nxt)), (s, tok)
            checked += 1
    assert checked > 30_000
    skipped = [key for key, rules in role_dispatch._CHOICES.items() if len(rules) < len(roles._RULES)]
    assert len(skipped) > 100  # the keys chose fewer rules: the new path ran


def test_first_characters_of_patterns() -> None:
    fc = role_dispatch.first_chars
    assert fc(r"^\s*(?:元|块钱|rmb\b)", re.ASCII, "right") == frozenset("元块r")
    assert fc(r"^[\s\-]*(?:\+|多)?[\s\-]*(?:天|days?\b)", re.ASCII, "right") == frozenset("-+多天d")
    assert fc(r"^\s*(?:[,.]|$)", re.ASCII, "right") is None  # may match white space alone
    assert fc(r"^\s*[^a]", re.ASCII, "right") is None  # a negated class: any character
    assert fc(r"(?:预算|budget)\s*(?:of|:)?\s*$", re.ASCII, "left") == frozenset("算tf:")
    assert fc(r"(?:预算|budget)\s*", re.ASCII, "left") is None  # not anchored at the end
    assert fc(r"\d\s*$", re.ASCII, "left") == frozenset("0123456789")
    assert fc(r"\d\s*$", 0, "left") is None  # Unicode digits: too many
    assert "\u3000" in (fc(r"^\s*x", 0, "right") or set())  # a Unicode space is a key, not stripped


def test_unicode_spaces_are_python_s() -> None:
    spaces = {chr(i) for i in range(sys.maxunicode + 1) if chr(i).isspace()} - set(role_dispatch.WS)
    assert spaces == role_dispatch.UNICODE_SPACES
    assert all(re.match(r"\s", ch) for ch in spaces) and not re.match(r"\s", "\x1c", re.ASCII)


DEPENDENT = {  # patterns a rule reads only after one of its triggers matched
    roles._rates_and_money: {  # s44 r40en: L_MFU_DEGREE read once the rule runs, as MFU_NEAR
        rl.MFU_NEAR, roles.L_MONEY_END, roles.R_PRICE_AFTER, rl.L_PRICE, rl.L_MFU_DEGREE,
    },
    roles._bytes: {
        rl.L_TOTAL_CAPACITY, rl.R_TOTAL_CAPACITY, rl.L_NEEDS_OR_USES, rl.R_MEMORY_WORD, rl.L_MEM_TOTAL,
        rl.R_MEM_TOTAL_WORD, rl.R_MEM_TOTAL, mm.L_MACHINE, mm.L_PER_CARD, rl.L_TOTAL_VRAM, rl.L_MY_VRAM,
        rl.R_OF_VRAM, roles.L_GPU_PAREN, roles.R_UNIFIED, rl.R_MEM_GPU, roles.R_MEM_NAME, roles.L_COUNT_WORD,
        rl.R_MEM_DATA, rl.L_TOTAL_NEAR, rl.R_TOTAL_NEAR, rl.R_PER_CARD_USE,
    },
    roles._counts: {
        roles.L_ONE_NODE, roles.R_NODES, roles.R_KUAI_GPU, roles.R_END, roles.L_GPU_BEFORE, rl.L_HARDWARE_ON,
        rl.L_RATE, rl.RATE_VALUE_RE, nw.JI_KA_GAP, nw.NODE_GAP, nw.GPU_NODE_GAP, nw.R_PER_NODE_GPUS,
        nw.TIMES_GAP, nw.R_GPU_NODES, rl.L_SAME_NODES, nw.R_NODE_TYPE,  # s42: '3 x 8x H100 nodes'
    },
    roles._data_and_size: {rl.L_SEQ, rl.L_SAMPLE_EACH, rl.L_PER, rl.L_PROMPT, rl.L_REPLY, rl.L_MODEL_WORD,
                           rl.L_DATA_WORD, rl.R_GENERATED},  # s41: R_GENERATED after R_TOKENS matched
    roles._time_and_load: {rl.L_PER, roles.R_COUNTED_SEQS, roles.R_PAIRS},
    roles._left_words: set(),
}  # fmt: skip
HELPERS = {roles._counts: [roles._nodes_times_gpus], roles._rates_and_money: [roles._money_role]}
MODULES = [roles, rl, nw, fw]


def _patterns_read(fn: Any) -> set[Any]:
    names = set(fn.__code__.co_names)
    for helper in HELPERS.get(fn, []):
        names |= set(helper.__code__.co_names)
    return {getattr(m, n) for m in MODULES for n in names if isinstance(getattr(m, n, None), LazyPattern)}


@pytest.mark.parametrize("rule", roles._RULES, ids=lambda f: f.__name__)
def test_each_rule_s_patterns_are_declared(rule: Any) -> None:
    spec = role_dispatch.TRIGGERS[rule]
    declared = {p for side in ("right", "raw", "left") for p in spec.get(side, ())} | DEPENDENT[rule]
    undeclared = {p.pattern for p in _patterns_read(rule) - declared}
    assert not undeclared, f"declare in role_dispatch.TRIGGERS (or here, if read after one): {undeclared}"


def test_a_trigger_pattern_the_analysis_cannot_handle_fails_at_table_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fc = role_dispatch.first_chars
    with pytest.raises(role_dispatch.NotAnalysable, match="not anchored"):
        fc(r"\s*(?:元|rmb\b)", re.ASCII, "right")  # a search would find it anywhere to the right
    with pytest.raises(role_dispatch.NotAnalysable, match="not anchored"):
        fc(r"^\s*元|rmb", re.ASCII, "right")  # one branch unanchored
    with pytest.raises(role_dispatch.NotAnalysable, match="multi-line"):
        fc(r"(?m)(?:预算|budget)\s*$", re.ASCII, "left")
    assert fc(r"\s*(?:元|rmb\b)", re.ASCII, "at") == frozenset("元r")  # matched at a position
    assert fc(r"\A\s*(?:元|rmb\b)", re.ASCII, "right") == frozenset("元r")
    spec = {"right": (r"\s*(?:元|rmb\b)",)}
    monkeypatch.setitem(role_dispatch.TRIGGERS, roles._bytes, spec)
    with pytest.raises(role_dispatch.NotAnalysable):
        role_dispatch.build()


def test_the_raw_triggers_are_matched_at_the_number_s_end() -> None:
    """The 'raw' side is analysed as ``pattern.match(text, end)`` (no ``^`` can anchor there)."""
    import inspect

    source = inspect.getsource(rl)
    for name in ("_PER_GPU_HOUR", "_PER_HOUR"):
        assert getattr(rl, name) in role_dispatch.TRIGGERS[roles._rates_and_money]["raw"]
        uses = re.findall(rf"\b{name}\.(\w+)\(", source)
        assert uses and set(uses) == {"match"}, (name, uses)


def test_the_choices_follow_a_replacement_of_the_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """Review item 12: a number whose keys were chosen before the rules were replaced gets the new
    rules' role, not the old rules' (the cache is checked against the rules on every look-up)."""
    s = "8 gpus"
    tok = scan_numbers(s)[0]
    role_dispatch.warm()
    assert repr(role_dispatch.classify(tok, s, None)) == repr(roles.classify(tok, s, None))
    assert role_dispatch.classify(tok, s, None).role == "count"  # the count rule, now cached
    monkeypatch.setattr(roles, "_RULES", tuple(x for x in roles._RULES if x is not roles._counts))
    assert repr(role_dispatch.classify(tok, s, None)) == repr(roles.classify(tok, s, None))
    assert role_dispatch.classify(tok, s, None) is None  # no rule left for a count
    monkeypatch.undo()
    assert role_dispatch.classify(tok, s, None).role == "count"
