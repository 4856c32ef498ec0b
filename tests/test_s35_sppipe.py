"""Session 35 (s35-sppipe, issue 23 item 7): the parse made cheaper without a different answer.

:data:`bot.parse.tool_slots.SLOT_RE` rewritten so the engine does not try its slow branches at every
position (a possessive name; a word's literal before its look-behind; the clause-head branches found by
their punctuation first): every match — span, ``lastgroup``, the name — equals the pattern as it was on
main 555e62d8 (kept here verbatim), on every text of tests/data and on sentences of our own."""

from __future__ import annotations

import re

import pytest

from bot.parse.cued_alternation import CuedAlternation
from bot.parse.tool_slots import SLOT_RE
from tests.test_cue_index import CORPUS

_TOKEN = r"[A-Za-z][A-Za-z0-9]*(?:[.\-][A-Za-z0-9]+)*"
_EN_NOUN = r"(?:launcher|trainer|framework|toolkit|codebase|repo|repository|library|scripts?|engine)"
_EN_JOB = r"(?:deployment|pre-?training|training|fine-?tuning|finetuning|serving|inference)"
_ZH_NOUN = r"(?:框架|脚本|工具|仓库|项目|代码|引擎)"
_ZH_JOB = r"(?:部署|推理|训练|微调|预训练|跑|启动|起(?:个|一个)?服务)"
_HEAD = r"(?:^|(?<=[,;:!?，。；：！？\n]))\s*"
OLD_SLOT = re.compile(
    rf"(?<![A-Za-z0-9_\-.])(?P<zn>{_TOKEN})(?=\s*(?:的\s*)?(?:{_ZH_JOB}\s*)?{_ZH_NOUN})"
    rf"|(?<![A-Za-z0-9_\-.])(?P<en>{_TOKEN})(?=(?:['’]s)?\s+(?:{_EN_JOB}\s+)?{_EN_NOUN}\b)"
    rf"|{_HEAD}(?P<zh>{_TOKEN})\s*(?:里|中|上)?\s*{_ZH_JOB}"
    rf"|{_HEAD}(?P<eh>{_TOKEN})\s+(?:{_EN_JOB}\b|on\s+(?:a|an|one|my|two|\d+)\b[^,;:!?\n]*?\b(?:serv|train|fine))"
    rf"|\b(?:trainer|framework|engine|runtime|stack|toolkit)\s+(?:is|was)\s+(?P<co>{_TOKEN})"
    rf"|(?:用的是|框架是|工具是)\s*(?P<zc>{_TOKEN})"
    rf"|在\s*(?P<zi>{_TOKEN})\s*(?:里|中)"
    rf"|\bdoes\s+(?P<su>{_TOKEN})\s+(?:need|support|fit|handle|take|use)\b"
    rf"|\b[Rr]u(?:n|ns|nning)\s+(?P<ru>{_TOKEN})(?=\s+v?\d[\w.]*|\s+on\s|\s*[:?!;,]|\.(?:\s|$)|$)"
    rf"|\b[Cc]ompared?\s+(?P<cm>{_TOKEN})\s+(?:with|to|against|and|vs\.?)\s"
    rf"|(?:对比|比较)了?\s*(?P<zb>{_TOKEN})\s*(?:和|与|跟|同)"
    rf"|(?<![A-Za-z0-9_\-.])(?P<ob>{_TOKEN})(?=['’]s\s+(?:[\w\-]+\s+){{0,2}}benchmarks?\b)"
)
"""SLOT_RE on main 555e62d8, as one pattern."""

OWN = [  # must-read and must-not-misread places, both languages, edge spellings of a name
    "We use the OpenLLM framework for serving.",
    "OpenLLM's trainer is slow; ipex-llm's all-in-one benchmark too",
    "my trainer is X-R1, does LLaMA2-Accessory need 8 GPUs?",
    "Running ds4 on an RTX 6000. Running ds4.",
    "to run ds4 v0.4.2, then run llama.cpp.",
    "runs foo.bar_baz and reruns Foo, ran Bar: brun Baz",
    "compared ROLL with verl; Compare X-1 to Y",
    "OLMo-core training on a single A10 serving chat",
    ",Lvllm 里跑 and ，Lvllm 部署，h2o-llmstudio 起个服务",
    "用 Lvllm 起服务，用的是 fengshenbang，在 DB-GPT 里微调",
    "对比了 ROLL 和 verl，比较 X 与 Y",
    "DeepSpeed-Chat 的训练脚本, foo 框架, bar.baz 的 代码",
    "a.b-c.d- framework, x.y. engine, -z engine, _q trainer, 9x library",
    "Megatron-LM\ntraining on two nodes\nFSDP2 fine-tuning",
    "nanotron pretraining run, torchtitan pre-training; axolotl: finetuning",
    "The engine was vLLM-ascend. The stack is SGLang. Mystack is Foo.",
    "does vLLM support it? doesn't Foo need it? undoes Bar need",
    "Trainer is FOO, RUN Foo, runner Bar, runs",
    "x.y.z's library, a-b's  scripts, c’s script, d's repository, e repos",
    "",
    ",",
    "\n",
    "ab",
]


def _matches(found: object) -> list[tuple[tuple[int, int], str | None, str]]:
    return [(m.span(), m.lastgroup, m.group(m.lastgroup or 0)) for m in found]  # type: ignore[attr-defined]


def test_slot_branches_cues_unchanged() -> None:
    """The rewritten branches keep their cues (the texts whose branches run are the same)."""
    old = CuedAlternation([(None, OLD_SLOT.pattern)], 0, declared=SLOT_RE._declared)
    cues = [c for _, c in SLOT_RE.branch_cues()]
    assert cues == [c for _, c in old.branch_cues()]
    assert cues[3] == frozenset(
        {"deployment", "fine", "finetuning", "inference", "serv", "serving", "train", "training", "tuning"}
    )


@pytest.mark.parametrize("text", OWN)
def test_slot_matches_as_before_on_own_sentences(text: str) -> None:
    SLOT_RE.build()
    assert _matches(SLOT_RE.finditer(text)) == _matches(OLD_SLOT.finditer(text))
    assert _matches(SLOT_RE.full.finditer(text)) == _matches(OLD_SLOT.finditer(text))


def test_slot_matches_as_before_on_every_corpus_text() -> None:
    SLOT_RE.build()
    wrong = [t[:80] for t in CORPUS if _matches(SLOT_RE.finditer(t)) != _matches(OLD_SLOT.finditer(t))]
    assert wrong == []
    found = sum(1 for t in CORPUS for _ in OLD_SLOT.finditer(t))
    assert found > 1000  # the comparison sees many matches, not only empty lists


def test_own_sentences_read_their_names() -> None:
    names = {m.group(m.lastgroup or 0) for t in OWN for m in SLOT_RE.finditer(t)}
    assert {"OpenLLM", "ipex-llm", "X-R1", "ds4", "llama.cpp", "ROLL", "Lvllm", "DB-GPT"} <= names
    assert {"OLMo-core", "vLLM", "SGLang", "vLLM-ascend", "fengshenbang", "h2o-llmstudio"} <= names
    assert "Foo" not in {m.group("su") for m in SLOT_RE.finditer("doesn't Foo need it? undoes Bar need")}
