"""A tool named in a tool's place, whatever its spelling (issue 24, s19-audit: the commonest first-contact
fault of rounds 9–12, tests/data/real_questions/README.md "First-contact fault kinds").

:mod:`bot.parse.unknown_tools` reads a name no table has when it is spelled like software (CamelCase,
'LLaMA2-Accessory') and stands after a preposition of means ('with X', '用 X'). Each round brought a tool
spelled otherwise ('lolcats', 'X-R1', 'Lvllm', 'ipex-llm', 'DB-GPT', 'OpenLLM') or standing elsewhere
('X 框架', 'X 的脚本', 'X deployment of …', 'My trainer is X'), and a round's readers added its names to a
table, so the next round's new tool failed again. This module reads the *places* a tool stands in, as a
grammar, and the *spellings* a tool's name has, as a shape:

- places (:data:`SLOT_RE`): before a tool's noun ('X framework', "X's trainer", 'X training scripts',
  'X 框架', 'X 的训练脚本'); at the head of a clause whose next words are the job ('X deployment of',
  'X pretraining run', 'X 里跑', 'X 部署', 'X on a single A10 serving …'); after a copula ('the trainer is
  X', '用的是 X'); as the subject of 'does X need'; the object of 'run'
  before a version, 'on' or a clause's end ('Running ds4 on an RTX 6000', 'to run ds4 v0.4.2', s21); the
  first of two compared ('compared ROLL with verl', '对比了 ROLL 和 verl', s21); after a preposition of
  means with a job word in its clause (:func:`bot.parse.unknown_tools.in_tool_place`: 'via X', '用 X 预训练');
- spellings (:func:`tool_shaped`): a word written as a name (capitals inside: 'OpenLLM', 'OLMo'; a digit
  between letters: 'h2o'; all capitals, five letters or more: 'BELLE'), or joined by a hyphen to a software
  word ('ipex-llm', 'DB-GPT'); in a Chinese message also a Latin word of four letters or more in lower
  case after its first letter ('fengshenbang', 'Lvllm': a Chinese sentence writes few English words, and
  the words of running code are listed: :data:`SLOT_WORDS`) — never a card ('A10G':
  :func:`bot.parse.gpus.is_gpu_name`), a method, format or tool word
  (:data:`bot.parse.model_names.NOT_NAMES`), a file, a model's release, nor a name another reader knows
  (``known``).

A plain English word that is also a tool's name ('candle', 'nanotron' in an English sentence) is not read:
without a dictionary no shape tells it from a word.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.parse.cued_alternation import CuedAlternation
from bot.parse.gpus import is_gpu_name
from bot.parse.model_names import NOT_NAMES

_TOKEN = r"[A-Za-z][A-Za-z0-9]*(?:[.\-][A-Za-z0-9]+)*"
"""A name as typed: letters and digits, parts joined by a hyphen or a dot ('ipex-llm', 'llama2.c')."""
_EN_NOUN = r"(?:launcher|trainer|framework|toolkit|codebase|repo|repository|library|scripts?|engine)"
_EN_JOB = r"(?:deployment|pre-?training|training|fine-?tuning|finetuning|serving|inference)"
_EN_NOUN_CUES = (
    "launcher",
    "trainer",
    "framework",
    "toolkit",
    "codebase",
    "repo",
    "library",
    "script",
    "engine",
)
_ZH_NOUN = r"(?:框架|脚本|工具|仓库|项目|代码|引擎|教程)"  # round 32: '按照 LongQLoRA 的教程'
_ZH_JOB = r"(?:部署|推理|训练|微调|预训练|跑|启动|起(?:个|一个)?服务)"  # round 18: '用 Lvllm 起服务'
_SLOT_TOKEN = r"[A-Za-z][A-Za-z0-9]*+(?:[.\-][A-Za-z0-9]++)*+"
""":data:`_TOKEN`, possessive: in :data:`SLOT_RE` what follows a name is never a letter, a digit, nor a
hyphen or dot before one (a space, a quote, CJK, punctuation, the end), so a shorter name never matches
where the whole one does not, and the engine need not try each (2-3 times faster; the same matches:
tests/test_s35_sppipe.py)."""
_PUNCT = "[,;:!?，。；：！？\\n]"
_HEAD = rf"(?:^|(?<={_PUNCT}))\s*"
_ZH_HEAD_REST = rf"(?P<zh>{_SLOT_TOKEN})\s*(?:里|中|上)?\s*{_ZH_JOB}"
_EN_HEAD_REST = (
    rf"(?P<eh>{_SLOT_TOKEN})\s+"
    rf"(?:{_EN_JOB}\b|on\s+(?:a|an|one|my|two|\d+)\b[^,;:!?\n]*?\b(?:serv|train|fine))"
)
_CO_NOUN = "|".join(
    f"{w}(?<!\\w{w})" for w in ("trainer", "framework", "engine", "runtime", "stack", "toolkit")
)
"""'trainer' … at a word's start (a look-behind after the word, so the search starts at its letters)."""
SLOT_RE = CuedAlternation(
    [
        (
            None,
            rf"(?<![A-Za-z0-9_\-.])(?P<zn>{_SLOT_TOKEN})(?=\s*(?:的\s*)?(?:{_ZH_JOB}\s*)?{_ZH_NOUN})"
            rf"|(?<![A-Za-z0-9_\-.])(?P<en>{_SLOT_TOKEN})(?=(?:['’]s)?\s+(?:{_EN_JOB}\s+)?{_EN_NOUN}\b)"
            rf"|{_HEAD}{_ZH_HEAD_REST}"
            rf"|{_HEAD}{_EN_HEAD_REST}"
            rf"|(?:{_CO_NOUN})\s+(?:is|was)\s+(?P<co>{_SLOT_TOKEN})"
            rf"|(?:用的是|框架是|工具是)\s*(?P<zc>{_SLOT_TOKEN})"
            rf"|在\s*(?P<zi>{_SLOT_TOKEN})\s*(?:里|中)"
            rf"|does(?<!\wdoes)\s+(?P<su>{_SLOT_TOKEN})\s+(?:need|support|fit|handle|take|use)\b"
            rf"|[Rr](?<!\w[Rr])u(?:n|ns|nning)\s+(?P<ru>{_SLOT_TOKEN})(?=\s+v?\d[\w.]*|\s+on\s|\s*[:?!;,]|\.(?:\s|$)|$)"
            rf"|[Cc](?<!\w[Cc])ompared?\s+(?P<cm>{_SLOT_TOKEN})\s+(?:with|to|against|and|vs\.?)\s"
            rf"|(?:对比|比较)了?\s*(?P<zb>{_SLOT_TOKEN})\s*(?:和|与|跟|同)"
            rf"|(?<![A-Za-z0-9_\-.])(?P<ob>{_SLOT_TOKEN})(?=['’]s\s+(?:[\w\-]+\s+){{0,2}}benchmarks?\b)",
        )
    ],
    0,  # as re.compile: Unicode \b and \s, case kept (the raw text)
    declared={
        "(?P<zn>": ("框架", "脚本", "工具", "仓库", "项目", "代码", "引擎", "教程"),
        "(?P<en>": _EN_NOUN_CUES,
        "(?P<ob>": ("benchmark",),  # round 28 en: "ipex-llm's all-in-one benchmark": its owner's
    },
    after={"(?P<zh>": rf"{_PUNCT}\s*{_ZH_HEAD_REST}", "(?P<eh>": rf"{_PUNCT}\s*{_EN_HEAD_REST}"},
)
"""The places a tool stands in, other than after a preposition (see the module docstring); searched with
only the places whose words the text holds (:mod:`bot.parse.cued_alternation`; the first two places'
words stand in their look-ahead: declared, :data:`_ZH_NOUN`'s and :data:`_EN_NOUN`'s)."""
_PREPS = "|".join(f"{w}(?<!\\w{w})" for w in ("with", "using", "via", "through", "in"))
PREP_RE = re.compile(
    rf"(?:(?:{_PREPS})\s+(?:the\s+)?|(?:用|使用|基于|通过|借助)\s*)(?P<name>{_TOKEN})(?![A-Za-z0-9_\-])"
)
"""A name after a preposition of means, any spelling (:func:`tool_shaped` decides), for ``in_tool_place``.
s42-tail: each English word's start is a look-behind after the word (``with(?<!\\wwith)`` is ``\\bwith``),
as in :data:`_CO_NOUN`, so the engine scans for the words' first characters in C instead of trying
``\\b`` at every position (a 12,000-character pasted sample: 0.39 ms CPU before)."""
SOFTWARE_PARTS = frozenset(
    ("llm", "gpt", "lm", "cpp", "rs", "ai", "serve", "server", "studio", "engine", "core")
)
"""The words software names are built of, as a part joined by a hyphen ('ipex-llm', 'OLMo-core')."""
CJK_RE = re.compile(r"[\u4e00-\u9fff]")
_NOT_TOOL_RE = re.compile(
    r"^(?:fp|bf|int|nf|mxfp|nvfp|w\d+a|bfloat|float)\d|^i?q[1-8](?!\d)"  # a number format ('bf16', 'q4_k_m')
    r"|\.(?:py|sh|json|ya?ml|txt|md|ipynb|cfg|toml)$"  # a file ('finetune.py', 'stage1.sh')
    r"|(?:^|[\-_.])\d+(?:\.\d+)?[bmk](?:$|[\-_.])"  # a model's size part ('QwenLong-CPRS-7B')
    r"|(?:^|[\-_.])(?:vl|v\d)|vl\d*$|\d\.\d+$"  # a model's version part ('qwen-vl', 'internvl2.5')
)
"""Names that are a number format, a file, or a model's release (a size or version part)."""
SHAPE_RE = re.compile(
    r"[a-z][A-Z]|[A-Z]{2}[a-z]|[A-Za-z]\d+[a-z]|^[A-Z]{4,}\d*$|^[a-z]{1,4}\d{1,3}$"
    r"|(?i:-(?:llm|gpt|lm|cpp|rs|ai|serve|server|studio|engine|core))$",
    re.ASCII,
)
"""How software is named and words never are: capitals inside a word ('OpenLLM', 'InternEvo', 'OLMo'), a
digit between letters ('h2o-llmstudio'), all capitals of four letters or more ('BELLE', s20: 'ROLL'), a
short lower-case name ending in digits (s20: 'q27', 'ds4'; never a GGUF format 'q4', a card 'a100', a
family 'gpt4': the checks below), or a software word after a hyphen, in any case ('ipex-llm', 'DB-GPT')."""
ZH_WORD_RE = re.compile(r"[A-Za-z][a-z]{3,}$")
"""In a Chinese message, a Latin word of four letters or more, lower case after its first ('Lvllm')."""
_STEM_RE = re.compile(r"[A-Za-z]+")
"""The letters a name starts with ('InternVL' of 'InternVL2'): a model family's name, when known."""
SLOT_WORDS = frozenset(
    (
        "launcher", "trainer", "framework", "toolkit", "codebase", "repo", "repository", "library", "script",
        "scripts", "engine", "server", "deployment", "training", "pretraining", "finetuning", "fine-tune",
        "finetune", "serving", "inference", "train", "demo", "example", "examples", "pipeline", "python",
        "bash", "shell", "colocate", "runtime", "stack",
    )
)  # fmt: skip
"""The words of a tool's place itself, and of running code (a script, a shell, Python): never its name."""


def tool_shaped(name: str, zh: bool, known: Callable[[str, bool], bool]) -> bool:
    """Whether ``name`` (as typed) is written as a tool's name: see the module docstring. ``zh``: the
    message is Chinese; ``known(name, tools_only)``: a name another reader has (a tool of a table, a model,
    a family) — a name ending in a software word is a tool even when it starts with a model family's
    ('OLMo-core'), so only a tool table rules it out; one starting with a known tool's name is that tool's
    build ('vllm-ascend', sized as vLLM), one with a model's size part a model ('QwenLong-CPRS-7B')."""
    if not (SHAPE_RE.search(name) or (zh and ZH_WORD_RE.match(name))):
        return False  # the common case, decided in C: a word, not a name
    low = name.lower()
    if _NOT_TOOL_RE.search(low) or low in NOT_NAMES or low in SLOT_WORDS or is_gpu_name(name):
        return False
    parts = low.split("-")
    if known(parts[0], True) or (len(parts) > 1 and not NOT_NAMES.isdisjoint(set(parts) - SOFTWARE_PARTS)):
        return False  # 'vllm-ascend', 'multi-gpu', 'zero-offload'
    if len(parts) > 1 and parts[-1] in SOFTWARE_PARTS:
        return not known(name, True)
    stem = _STEM_RE.match(name)
    stem_known = stem is not None and len(stem.group(0)) >= 3 and known(stem.group(0), False)
    return not known(name, False) and not stem_known


def slot_tools(
    raw: str, known: Callable[[str, bool], bool], in_place: Callable[[str, re.Match[str]], bool]
) -> list[str]:
    """The names of tools in ``raw`` (as typed) standing in a tool's place, in order, each once; ``known``
    as for :func:`tool_shaped`, ``in_place``: whether a prepositional match is the means of the job."""
    zh = CJK_RE.search(raw) is not None
    out: list[str] = []
    for m in SLOT_RE.finditer(raw):
        name = m.group(m.lastgroup or 0)
        if name not in out and tool_shaped(name, zh, known):
            out.append(name)
    for m in PREP_RE.finditer(raw):
        name = m.group("name")
        if name not in out and tool_shaped(name, zh, known) and in_place(raw, m):
            out.append(name)
    return out
