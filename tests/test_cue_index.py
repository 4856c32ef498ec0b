"""The declared-cue index (bot.parse.cue_index, session 19 issue 23 item 7): every reader's cues are
necessary — on every text in tests/data (as written, lower-cased and normalized), a reader never matches a
text that holds none of its cues — so the index skips only readers that could not match; the cues
derived from a pattern are its required literals; a table answers as the loop over every reader did."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest

import bot.parse
from bot.parse import stack_words, words
from bot.parse.cue_index import MEMOS, TABLES, CueTable, derived_cues, fold, forget, per_message
from bot.parse.cued_alternation import CUED, CuedAlternation
from bot.parse.normalize import normalize
from bot.parse.regex import rc

DATA = Path(__file__).parent / "data"


def _strings(node: object) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for key, value in node.items() if key != "id" for s in _strings(value)]
    if isinstance(node, list):
        return [s for value in node for s in _strings(value)]
    return []


def _corpus() -> list[str]:
    texts: set[str] = set()
    for path in sorted(DATA.rglob("*.json")):
        texts.update(s for s in _strings(json.loads(path.read_text(encoding="utf-8"))) if len(s) > 2)
    return sorted({v for t in texts for v in (t, t.lower(), normalize(t))})


CORPUS = _corpus()


def test_corpus_is_the_whole_data_folder() -> None:
    assert len(CORPUS) > 10_000  # questions, real questions of every round, paraphrases, field cases


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{len(t.readers())} readers")
def test_every_readers_cues_are_necessary(table: CueTable) -> None:
    """A reader that matched a text lacking all its cues would be skipped wrongly: none does."""
    wrong = []
    within = [fold(t) for t in CORPUS] if table.folded else CORPUS  # case-insensitive: cues on fold(text)
    for pattern, cues in table.readers():
        if cues is None:
            continue
        misses = [
            t
            for t, w in zip(CORPUS, within, strict=True)
            if not any(map(w.__contains__, cues)) and pattern.search(t)
        ]
        if misses:
            wrong.append((pattern.pattern[:60], sorted(cues), len(misses)))
    assert wrong == []


def test_tables_are_registered_and_have_cues() -> None:
    assert stack_words.TOOLS_INDEX in TABLES and stack_words.NOT_MODELLED_INDEX in TABLES
    readers = stack_words.TOOLS_INDEX.readers()
    assert all(cues for _, cues in readers)  # every tool has a cue: none runs on every message
    by_name = dict(zip((n for _, n in stack_words.TRAINING_TOOLS), (c for _, c in readers), strict=True))
    assert by_name["LLaMA-Factory"] == {
        "factory",
        "efficient",
        "llamafactory-cli",
        "train_bash.py",
        "finetuning_type",
    }
    assert by_name["Unsloth"] == {"unsloth"}
    assert by_name["ms-swift"] == {"modelscope", "swift", "framework", "library", "toolkit"}


def test_fold_writes_every_character_matched_to_an_ascii_letter_as_that_letter() -> None:
    """Every code point a case-insensitive pattern matches to an ASCII letter folds to that letter, so a
    folded table's ASCII cue is in ``fold(text)`` wherever its pattern matches ``text`` (s28)."""
    letter = re.compile(r"[a-z]", re.IGNORECASE)
    wrong = []
    for point in (*range(0xD800), *range(0xE000, 0x110000)):
        ch = chr(point)
        if letter.fullmatch(ch) and not (
            len(fold(ch)) == 1 and "a" <= fold(ch) <= "z" and re.fullmatch(fold(ch), ch, re.IGNORECASE)
        ):
            wrong.append(ch)
    assert wrong == []
    assert fold("İnference ON ſft") == "inference on sft" and fold("Fine-Tune 微调") == "fine-tune 微调"


def test_the_whole_message_steps_are_chosen_by_content() -> None:
    """bot.parse's five whole-message gates (case-insensitive, on the text as typed) are one folded
    table: the laptop gate's cues are its pattern's literals lower-cased, the two-stage gate's declared;
    a message holding none of a gate's cues skips its search, and each gate still finds what it did."""
    table = bot.parse.WHOLE_MESSAGE
    table.build()
    cues = dict(zip((n for _, n in table._items), table.cues, strict=True))
    assert cues["laptop"] == {"laptop", "notebook", "笔记本", "游戏本"}
    assert cues["stage_rigs"] == {"train", "预训练", "fine", "sft", "微调", "lora", "instruction"}
    assert [n for _, n in table.candidates("7B模型1万亿token要多少A100")] == []
    assert [n for _, n in table.candidates("Which GPU? 先SFT再部署")] == [
        "stage_rigs",
        "then_serve",
        "which_cards",
    ]
    assert [n for _, n in table.candidates("My LAPTOP")] == ["laptop"]
    assert derived_cues(r"\bLaptop\b|笔记本", re.IGNORECASE, folded=True) == {"laptop", "笔记本"}
    assert derived_cues(r"straße", re.IGNORECASE, folded=True) is None  # 'ß': not fold's to follow
    assert bot.parse.parse("Fine-tune Llama-3-8B on my laptop, then deploy it").notes  # the steps ran


@pytest.mark.parametrize(
    ("text", "readers", "hits"),
    [
        ("7B模型1万亿token要多少A100", ["asks_largest"], set()),  # '模型': the largest model's search only
        ("serve llama 3 8b on one h100 for 1 day", ["asks_gpu_days"], set()),  # 'day': searched, no match
        ("How many GPU-Days to train a 7B?", ["asks_gpu_days"], {"asks_gpu_days"}),
        ("llama 3 8b 的 TTFT 和 tokens/s 是多少", ["asks_ttft", "asks_speed"], {"asks_ttft", "asks_speed"}),
        ("双卡 4090 跑 qwen 7b", ["dual_card"], {"dual_card"}),
        ("how many h100 for 70b", [], set()),  # no search at all
    ],
)
def test_message_flags_are_chosen_by_content(text: str, readers: list[str], hits: set[str]) -> None:
    """The normalized message's yes/no readers (bot.parse.message_flags): only those whose cues it holds
    are searched, and the parse's flags are what searching every pattern gives."""
    from bot.parse import message_flags as mf

    mf.FLAGS.build()
    s = normalize(text)
    assert [n for _, n in mf.FLAGS.candidates(s)] == readers
    every = {n: p.search(s) is not None for p, n in mf.FLAGS._items}
    assert {n for n, hit in every.items() if hit} == hits
    parsed = bot.parse.parse(text)
    for name in ("asks_ttft", "asks_speed", "asks_gpu_days", "asks_largest", "out_of_scope"):
        assert getattr(parsed, name) is every[name]


def test_derived_cues() -> None:
    assert derived_cues(r"\baxolotl\b") == {"axolotl"}
    assert derived_cues(r"\btrl\b|sft[\s_]*trainer") == {"trl", "trainer"}
    assert derived_cues(r"ds|deepspeed") == {"ds", "deepspeed"}
    assert derived_cues(r"\d+\s*gb") == {"gb"}
    assert derived_cues(r"[a-z]+") is None  # no literal: always runs
    assert derived_cues(r"axolotl", re.IGNORECASE | re.ASCII) is None  # case-insensitive: no cue said


def test_candidates_keep_order_and_skip_only_absent_cues() -> None:
    items = [(rc(r"\bfoo\b"), "foo"), (rc(r"[a-z]+\d"), "any"), (rc(r"bar|baz"), "bar"), (rc(r"qux"), "q")]
    table = CueTable(items, declared={"q": ("qu",)})
    assert [n for _, n in table.candidates("baz and foo")] == ["foo", "any", "bar", "q"]  # not built: all
    table.build()
    assert table.cues == ({"foo"}, None, {"ba"}, {"qu"})  # "bar|baz" is parsed "ba" then [rz]
    assert [n for _, n in table.candidates("baz and foo")] == ["foo", "any", "bar"]
    assert [n for _, n in table.candidates("quiet")] == ["any", "q"]
    assert [n for _, n in table.candidates("")] == ["any"]
    TABLES.remove(table)


def test_an_unbuilt_table_offers_every_reader() -> None:
    """Before the parse's second message (a one-message ``ask``) the cues are not derived: all run."""
    table = CueTable([(rc(r"\bfoo\b"), "foo"), (rc(r"bar"), "bar")])
    assert [n for _, n in table.candidates("nothing")] == ["foo", "bar"]
    TABLES.remove(table)


TOOL_TEXTS = [
    "fine-tune qwen 7b with llama-factory", "axolotl vs unsloth", "serve with tensorrt-llm on 2 h100",
    "openrlhf grpo then verl ppo", "用 X-R1 训练 3B 模型，训练时 vllm 报显存不足", "ms-swift sft on 4 a100",
    "7b model, 1T tokens, how many A100", "deepspeed zero3 offload", "nothing here", "serve with xinference",
    "num_generations: 8, use_vllm: true", "cutoff_len: 2048 lora_target: all", "zero3 and fsdp full_shard",
    "--actor_num_gpus_per_node 4 --vllm_num_engines 2", "sft_type: lora", "ds_config.json zero_optimization",
]  # fmt: skip


@pytest.mark.parametrize("text", TOOL_TEXTS)
def test_tool_readers_answer_as_the_whole_table(text: str) -> None:
    """The functions over the index answer as the loops over every tool (the former code, here)."""
    s = normalize(text)
    stack_words.TOOLS_INDEX.build()
    stack_words.NOT_MODELLED_INDEX.build()
    every = [name for p, name in stack_words.TRAINING_TOOLS if p.search(s)]
    runtimes = [name for p, name in stack_words.RUNTIMES_NOT_MODELLED if p.search(s)]
    named = stack_words.named_tools(s)
    assert [t.split(": ", 1)[1] for t, _ in named if t.startswith("training_tool")] == every
    assert [t.split(": ", 1)[1] for t, why in named if why == "runtime_not_modelled"] == runtimes
    fine = any(name in stack_words.FINE_TUNING_TOOLS for name in every)
    assert stack_words.fine_tuning_tool_named(s) is fine
    assert stack_words.serving_engine_named(s) is bool(
        stack_words.SERVING_ENGINE_RE.search(s) or stack_words.NOT_MODELLED_RE.search(s)
    )
    stack_words.TOOL_CUES_INDEX.build()
    former = None
    if stack_words._CUE_RE.search(s):
        for p, tool in stack_words.TOOL_CUES:
            if (m := p.search(s)) and not (tool == "DeepSpeed" and stack_words.FSDP_RE.search(s)):
                former = (tool, m.group(0).strip(" -"))
                break
    assert stack_words.inferred_tool(s) == former


def test_per_message_memo_answers_the_same_string_of_one_message_only() -> None:
    """A :func:`per_message` reader runs once for the same string object within one parse; ``forget``
    (the start of each parse) empties it, and an equal but other string object is asked again."""
    asked: list[str] = []

    def reader(text: str) -> int:
        asked.append(text)
        return len(text)

    memoized = per_message(reader)
    text = "".join(["fine-tune ", "qwen 7b"])  # made at run time: not an interned constant
    assert (memoized(text), memoized(text)) == (17, 17) and len(asked) == 1
    other = "".join(["fine-tune ", "qwen 7b"])
    assert other == text and other is not text
    assert memoized(other) == 17 and len(asked) == 2  # by identity, never by value
    forget()
    assert memoized(other) == 17 and len(asked) == 3  # each parse starts empty
    assert memoized.__wrapped__ is reader and memoized.__name__ == "reader"  # type: ignore[attr-defined]
    MEMOS.remove(MEMOS[-1])


@pytest.mark.parametrize(
    "reader", [words.explicit_stage, words.serving_a_tuned_model], ids=lambda f: f.__name__
)
def test_memoized_readers_answer_as_the_reader(reader: object) -> None:
    """The readers asked by several steps of a parse answer, memoized, what they answer unmemoized, on
    every corpus text (each asked twice: the second from the memo)."""
    plain = reader.__wrapped__  # type: ignore[attr-defined]
    forget()
    wrong = [t for t in CORPUS[::3] if not (reader(t) == plain(t) == reader(t))]  # type: ignore[operator]
    assert wrong == []
    assert words.explicit_stage("fine-tune qwen 7b on 8 a100") == "finetune"


def _cued() -> list[CuedAlternation]:
    for module in ("bot.parse.structure", "bot.parse.tool_slots"):  # the modules that make them
        importlib.import_module(module)

    return list(CUED)


@pytest.mark.parametrize("alternation", _cued(), ids=lambda a: f"{len(a.branch_cues())} branches")
def test_every_branchs_cues_are_necessary(alternation: CuedAlternation) -> None:
    """A branch of a cued alternation that matched a text lacking all its cues (lower-cased when the
    pattern is case-insensitive) would be dropped wrongly: none does, on any corpus text."""
    lower = bool(alternation._flags & re.IGNORECASE)
    wrong = []
    for branch, cues in alternation.branch_cues():
        if cues is None:
            continue
        pattern = re.compile(branch, alternation._flags)
        lowered = (t.lower() for t in CORPUS) if lower else iter(CORPUS)
        misses = [t for t, low in zip(CORPUS, lowered, strict=True) if not any(map(low.__contains__, cues))]
        misses = [t for t in misses if pattern.search(t)]
        if misses:
            wrong.append((branch[:60], sorted(cues), misses[:2]))
    assert wrong == []


@pytest.mark.parametrize("alternation", _cued(), ids=lambda a: f"{len(a.branch_cues())} branches")
def test_cued_alternation_answers_as_the_whole_pattern(alternation: CuedAlternation) -> None:
    """Every match (span, ``lastgroup``, named groups) of the pruned alternation is the whole pattern's, on
    every corpus text and on each of its halves; the whole pattern as written before (an inline flag)."""
    alternation.build()
    inline = "(?i)" if alternation._flags & re.IGNORECASE else ""
    whole = re.compile(inline + alternation.pattern, alternation._flags & ~re.IGNORECASE)

    def matches(found: object) -> list[tuple[object, ...]]:
        return [  # the named groups that took part: the pruned pattern has fewer groups in all
            (m.span(), m.lastgroup, {k: v for k, v in m.groupdict().items() if v is not None})
            for m in found  # type: ignore[attr-defined]
        ]

    texts = [*CORPUS, *(t[len(t) // 2 :] for t in CORPUS)]
    wrong = [t for t in texts if matches(alternation.finditer(t)) != matches(whole.finditer(t))]
    assert wrong == []


def test_structure_cues_pick_few_branches() -> None:
    """A segment holds the cues of few of the structure scan's ~180 branches: the pruned alternation is
    small (what the index is for), and a segment with no cue of any branch searches nothing."""
    from bot.parse.structure import _CUE_RE

    _CUE_RE.build()
    assert len(_CUE_RE.branch_cues()) > 150 and all(cues for _, cues in _CUE_RE.branch_cues())
    assert _CUE_RE.finditer("8 张 a100") == ()  # no cue of any branch: nothing searched
    assert isinstance(_CUE_RE.finditer("i tried 8 a100s"), list)  # a few branches, each on its own
    assert [m.lastgroup for m in _CUE_RE.finditer("i tried 8 a100s, OOM. how many h100?")] == [
        "tried",
        "failed",
        "job",
        "job",
    ]


def test_module_pattern_gates_are_necessary() -> None:
    """Each module-level pattern given a presence gate (bot.parse.module_gates, a parse's second message
    on) never matches a corpus text that holds none of its gate's literals, so the gate drops no match;
    and the stand-in answers as the pattern."""
    from bot.parse import module_gates, parse

    parse("7B模型1万亿token要多少A100")
    parse("serve Llama-3-70B on 4 H100 with vLLM, 32 users")  # the second message: the gates are made
    assert len(module_gates.GATED) > 20
    wrong = []
    for pattern, lits in module_gates.GATED.values():
        misses = [t for t in CORPUS if not any(map(t.__contains__, lits)) and pattern.search(t)]
        if misses:
            wrong.append((pattern.pattern[:60], sorted(lits), misses[:2]))
    assert wrong == []
    some = re.compile(r"[a-z]+(?:foo|bar)\d")  # a wide start scan (a range): the gate pays
    stand_in = module_gates.gated(some)
    assert stand_in is not None and stand_in.pattern == some.pattern and stand_in.compiled is some
    for text in ("a xfoo1 b", "nothing", "abar22 zzfoo3", "foo1"):
        assert [m.span() for m in stand_in.finditer(text)] == [m.span() for m in some.finditer(text)]
        assert stand_in.sub("X", text) == some.sub("X", text)
