"""Session 35 (s35-sppipe, issue 23 item 7): the parse made cheaper without a different answer.

:data:`bot.parse.tool_slots.SLOT_RE` rewritten so the engine does not try its slow branches at every
position (a possessive name; a word's literal before its look-behind; the clause-head branches found by
their punctuation first): every match — span, ``lastgroup``, the name — equals the pattern as it was on
main 555e62d8 (kept here verbatim), on every text of tests/data and on sentences of our own.

:func:`bot.parse.count_forms.count_forms` tests each reader's own first test at its call (a Python frame
less a parse where it fails): each test is necessary (the reader returns its text unchanged on every
corpus text that fails it), and the rewrites are those of 555e62d8 (the outputs below, run on it)."""

from __future__ import annotations

import re

import pytest

from bot.parse import length_forms, price_forms, request_shape, vague_amounts, with_without
from bot.parse.count_forms import count_forms
from bot.parse.cued_alternation import CuedAlternation
from bot.parse.normalize import normalize
from bot.parse.shared_value import spread_shared_value
from bot.parse.tool_slots import SLOT_RE
from bot.parse.written_products import each_of_count
from tests.test_cue_index import CORPUS

_TOKEN = r"[A-Za-z][A-Za-z0-9]*(?:[.\-][A-Za-z0-9]+)*"
_EN_NOUN = r"(?:launcher|trainer|framework|toolkit|codebase|repo|repository|library|scripts?|engine)"
_EN_JOB = r"(?:deployment|pre-?training|training|fine-?tuning|finetuning|serving|inference)"
_ZH_NOUN = r"(?:框架|脚本|工具|仓库|项目|代码|引擎|教程)"  # s36-r32zh: a tutorial followed, '按照 X 的教程'
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
"""SLOT_RE on main 555e62d8, as one pattern, with the one noun s36-r32zh added to its reader (教程)."""

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


_COUNT_CASES = [  # count_forms(normalize(text)) on main 555e62d8
    (
        "fine-tune llama 8b with and without lora on 8 gpus",
        "fine-tune llama 8b  with lora or full fine-tuning on 8 gpus",
    ),
    ("h100 at $2/gpu/hr, 4 of them", "h100 at $2 per gpu-hour , 4 of them"),
    (
        "pretrain on tens of billions of tokens with a few h100s",
        "pretrain on 50 billion of tokens with a few h100s",
    ),
    ("samples run to about 2000 tokens, 8 gpus", "sequence length 2000  tokens, 8 gpus"),
    (
        "serve 128 parallel requests, isl 1024 osl 256 on a100",
        "serve 128 concurrent requests, input length 1024   and output length 256 on a100",
    ),
    ("每小时 12 元租 4 张 4090，样本长度 2000 左右", "12元每卡时租 4 张 4090, 样本长度 2000 左右"),
    (
        "each of my 4 gpus has 24gb (about 4k tokens each)",
        "4 gpus, with 24 gb each (about 4k tokens each)",
    ),
    ("what about fp8?", "what about fp8?"),
    ("a few thousand tokens each (avg 4k) on 2 gpus", "4k tokens each on 2 gpus"),
    ("prompts of a few thousand tokens (about 3k), 2 gpus", "prompts of 3k tokens, 2 gpus"),
]

_SKIPPED = [  # (the test at the call, the reader it gates), as bot.parse.count_forms calls them
    (with_without.GATE.search, with_without.with_without),
    (request_shape.GATE.search, request_shape.request_shape),
    (price_forms.GATE.search, price_forms.price_forms),
    (vague_amounts.GATE.search, vague_amounts.english_rough),
    (length_forms.GATE.search, length_forms.length_forms),
    (lambda s: " of " in s, each_of_count),
    (lambda s: "小时" in s or "钟头" in s, price_forms.zh_hourly_price),
    (lambda s: "(" in s or "（" in s, vague_amounts.restated),
    (lambda s: "_" in s or "-" in s, spread_shared_value),  # bot.parse.prose_vocab.read_vocabulary
]


def test_count_forms_call_tests_are_necessary() -> None:
    """A text failing a call's test is one its reader leaves as it is: skipping the call changes nothing."""
    texts = [*CORPUS, *(t for t, _ in _COUNT_CASES)]  # as written, lower-cased, normalized; our own
    changed = {i: 0 for i in range(len(_SKIPPED))}
    for i, (test, reader) in enumerate(_SKIPPED):
        for t in texts:
            if test(t):
                changed[i] += reader(t) != t
            else:
                assert reader(t) == t, (i, t[:80])
    assert all(changed.values())  # every reader rewrites some corpus text: the check sees real rewrites


@pytest.mark.parametrize(("text", "written"), _COUNT_CASES)
def test_count_forms_rewrites_as_before(text: str, written: str) -> None:
    assert count_forms(normalize(text)) == written
