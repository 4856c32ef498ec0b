"""The parse's fast paths of session 10 (issue 23 item 7) answer as the code they replace: a gate of two
or more literals is one search of their alternation, not ``any(map(text.__contains__, …))``; a pattern
whose every match needs one of 49-100 literals (the tool names' alternation) is gated too; a class of up
to 16 non-alphanumeric characters ('[(（]') gives gate literals; a literal run before an alternation is
joined to each branch's leading literals ('ds|deepspeed', parsed as 'd' then 's|eepspeed'); the typo
pass's word test is one search. Each is compared with the former code, written out here, on the corpus
questions and on texts made to sit on each shortcut's edge."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.parse import gpus, stack_words
from bot.parse import lexicon as lx
from bot.parse import spelling_tables as sp
from bot.parse.model_names import BRACKETED_NAME_RE
from bot.parse.normalize import _MARKUP_RE, _TYPO_WORD_RE, _typo_word_in, normalize
from bot.parse.regex import LazyPattern
from bot.parse.regex_gate import MAX_GATE_LITERALS, gate, gate_literals

QUESTIONS = [q["text"] for q in json.loads((Path(__file__).parent / "data" / "questions.json").read_text())]

TOOL_TEXTS = [
    "fine-tune qwen 7b with llama-factory", "llamafactory-cli train x.yaml", "用 LLaMA Efficient Tuning 微调",
    "ms-swift sft on 4 a100", "using swift to fine-tune", "axolotl vs unsloth", "use_unsloth: true",
    "serve with tensorrt-llm", "trt llm or xinference", "megatron-lm pretraining", "mistral nemo 12b",
    "nemo framework", "deepspeed zero3", "hf trainer", "sft_trainer", "lit-gpt", "openrlhf grpo", "verl ppo",
    "llama recipes", "alpaca-lora", "mlc-llm", "airllm", "ktransformers", "torchtune", "xtuner", "fastchat",
    "colossal-ai", "paddlenlp", "lmflow", "medicalgpt", "longlora", "llm-foundry", "train_bash.py",
    "finetuning_type: lora", "chatglm efficient tuning", "deepspeed-chat", "megatron-llm", "nothing here",
]  # fmt: skip
BRACKET_TEXTS = [
    "**7b** on `a100`", "[x] {y} “q” ‘r’ 【a】 a|b #h", "__init__ _u_ a_b", "\"k\": 1",
    "foolm (350m)", "barnet（13b）", "foolm(1.3b) on a100", "(", "（", "a ( b", "name ( 7 b )", "x-y-z (2b)",
]  # fmt: skip
TYPO_EDGES = [
    "lama 3 ful fine-tuen", "fine-tuen.", "x-lama", "lama3", "ful-", "-ful", "deepseak-v3", "ollama",
    "qwne-coder 7b", "tokns", "a full trilion tokns", "fine-tuen-x", "xfine-tuen", "7b-lama", "lama_3",
    "über-lama", "trilionx", "xtrilion", "trilion", "1trilion", "bilion.", "millon,", "",
]  # fmt: skip


def _texts() -> list[str]:
    base = [*QUESTIONS, *TOOL_TEXTS, *BRACKET_TEXTS, *TYPO_EDGES]
    return [t for q in base for t in (q, q.lower(), normalize(q))]


def _found(result: object) -> object:
    if isinstance(result, re.Match):
        return (result.span(), result.groups())
    if result is not None and not isinstance(result, str | list):
        return [_found(m) for m in result]  # type: ignore[attr-defined]
    return result


def _former_gate(compiled: re.Pattern[str], name: str, lits: frozenset[str]):
    """The gate as it was (session 9): a substring test per literal."""
    method = getattr(compiled, name)
    options = tuple(sorted(lits, key=len, reverse=True))

    def gated(*args):
        string = args[1] if name == "sub" else args[0]
        if any(map(string.__contains__, options)):
            return method(*args)
        return {"sub": string, "finditer": iter(()), "findall": [], "split": [string]}.get(name)

    return gated


PATTERNS = [
    stack_words.ANY_TOOL_RE,
    BRACKETED_NAME_RE,
    _MARKUP_RE,
    lx.OUT_OF_SCOPE_RE,
    *(p for p, _ in stack_words.TRAINING_TOOLS),
    *(p for p, _ in stack_words.RUNTIMES_NOT_MODELLED),
]


@pytest.mark.parametrize("pattern", PATTERNS, ids=lambda p: p.pattern[:40])
def test_gate_by_search_answers_as_the_former_gate_and_the_pattern(pattern: LazyPattern) -> None:
    lits = gate_literals(pattern.pattern, pattern._flags)
    if lits is None:
        pytest.skip("no gate: the engine scans a prefix itself")
    compiled = re.compile(pattern.pattern, pattern._flags)
    for name in ("search", "finditer", "findall", "split", "sub"):
        new, old = gate(compiled, name, lits), _former_gate(compiled, name, lits)
        for text in _texts():
            args = ("~", text) if name == "sub" else (text,)
            want = _found(getattr(compiled, name)(*args))
            assert _found(new(*args)) == want == _found(old(*args)), (pattern.pattern[:60], name, text)


def test_the_tool_names_are_gated_by_one_search() -> None:
    """The tool names' alternation (52 literals, ~19 µs a search on a corpus message) has a gate now;
    the GPU names' (140: most messages name a GPU) has none."""
    lits = gate_literals(stack_words.ANY_TOOL_RE.pattern)
    assert lits is not None and 48 < len(lits) <= MAX_GATE_LITERALS
    assert {"xinference", "axolotl", "lmflow"} <= lits
    assert gate_literals(gpus._gpu_index().regex.pattern) is None


@pytest.mark.parametrize(
    ("pattern", "literals"),
    [
        (r"\w+\s*[(（]\s*\d", {"(", "（"}),
        (r"(?<![a-z])[\ue000\ue002]\s*\d", {"\ue000", "\ue002"}),
        (r"\d+\s?[bm](?![a-z])", None),  # letters: in most messages, no gate
        (r"(?<=\s)[x×*](\d)", None),  # 'x' is a letter
        (r"\b\w+[(（{\[a-z]", None),  # a range: no literal
        (r"\bfoo\b|[(（]", {"foo", "(", "（"}),
        (r"(?<![a-z0-9])(?:ds|deepspeed)[_\-\s]*z", {"ds", "deepspeed"}),  # parsed as 'd' then 's|eepspeed'
        (r"\bserv(?:e|es|ing)\b", {"serve", "serves", "serving"}),
        (r"\bab(?:c|d*)", {"ab"}),  # a branch without a leading literal: the run alone
        (r"\bab(?:c|d)?", {"ab"}),  # an optional alternation: the run alone
        (r"\bab(?P<x>cd|ef)", {"abcd", "abef"}),  # inside a group
        (r"\b(?:rank|秩)\s*\d|(?<![a-z])r\s*=\s*\d", {"rank", "秩", "="}),  # '=', not 'r': in most messages
    ],
)
def test_gate_literals_s10(pattern: str, literals: set[str] | None) -> None:
    assert gate_literals(pattern) == (frozenset(literals) if literals is not None else None)


@pytest.mark.parametrize("text", [*TYPO_EDGES, *(q.lower() for q in QUESTIONS)])
def test_typo_word_search_is_the_former_loop(text: str) -> None:
    assert (_TYPO_WORD_RE.search(text) is not None) == _typo_word_in(text)
    for typo in sp.TYPOS:  # each typo alone, glued on either side, and between separators
        for t in (typo, f"a{typo}", f"{typo}a", f" {typo}.", f"-{typo}-", f"1{typo}1", f"é{typo}"):
            assert (_TYPO_WORD_RE.search(t) is not None) == _typo_word_in(t), t
