"""A tool named by how it is run, not by a preposition of means (issue 24, round 20 English).

:mod:`bot.parse.unknown_tools` reads a name no table has where it is written the way software is named and
stands in a tool's place ('with EasyContext', "trlX's experiments"); three places it did not read, each a
way of writing a program's name people use for any tool:

- the package a command line launches with ``-m`` ('torchrun … -m FlagEmbedding.llm_reranker.run', 'python
  -m Pkg.train'): Python's ``-m`` runs a module of that package (docs.python.org/3/using/cmdline.html
  ``-m <module-name>``), so the package is the tool — read where it is written as software is (CamelCase,
  :data:`bot.parse.unknown_tools` ``_NAME``), since ``-m src.train`` names a directory, not a tool;
- a hyphenated lower-case name after 'with / using / via / through' followed by a version ('with
  optimum-habana v1.15.0'): a version number is what packages have, settings and adjectives do not;
- a hyphenated lower-case name as the owner of a tool's work ("caikit-nlp's examples/run_fine_tuning.py",
  "foo-bar's scripts").

Each is named as typed ('training_tool: X' or 'runtime: X', :func:`bot.parse.lower_tools.tool_item`) unless
another reader knows the name (``known``: a tool of the tables, a model, a setting word). Gated on the
text as typed: most messages have no ' -m ', no version after a name and no possessive.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.parse.lower_tools import ADJECTIVE_RE, SETTING_WORD_RE, tool_item

_CAMEL = r"[A-Z][a-z]+(?:[A-Z][a-z0-9]+)+|[A-Za-z][A-Za-z]*[A-Z][A-Za-z]*\d*(?:-[A-Z][a-z]{2,})+"
MODULE_RE = re.compile(rf"(?:^|\s)-m\s+(?P<name>{_CAMEL})\.[A-Za-z_]")
"""'-m FlagEmbedding.llm_reranker…': the package Python's -m runs a module of (software-shaped names only)."""
_ENTRY = r"(?:chat|serve|server|generate|cli|launch\w*|train\w*|finetune\w*|infer\w*)"
_DIRECTORY_WORDS = frozenset(
    ("src", "scripts", "script", "examples", "example", "recipe", "recipes", "tools", "tests", "app", "lib")
)
MODULE_LOWER_RE = re.compile(
    rf"\bpython3?\s+-m\s+(?P<name>[a-z][a-z0-9]{{2,}}(?:_[a-z0-9]+)*)\.{_ENTRY}(?![\w])"
)
"""s27 (round 21): 'python -m sillm.chat', a lower-case package Python runs an entry module of (chat, serve,
generate, train …): the package's entry point, where '-m src.train' names a directory
(:data:`_DIRECTORY_WORDS`)."""
_HYPHENATED = r"[a-z][a-z0-9]*(?:[\-_][a-z][a-z0-9]*)+"
VERSIONED_RE = re.compile(
    rf"\b(?:with|using|via|through)\s+(?P<name>{_HYPHENATED})\s+v?\d+\.\d+(?:\.\d+)?(?![\w.])"
)
"""'with optimum-habana v1.15.0': a hyphenated lower-case name followed by its version."""
_RELEASE = r"v?\d+\.\d+\.\d+(?![\w.])"
RELEASED_RE = re.compile(
    rf"\b(?:with|using|via|through)\s+(?P<name>[A-Za-z][A-Za-z0-9_]{{2,30}})\s+{_RELEASE}"
    rf"|(?<![\w\-./])(?P<zh>[A-Za-z][A-Za-z0-9_\-]{{2,30}})\s*(?:用的是|使用的是|是|的)?\s*(?:版本(?:号)?\s*(?:是|为|:|：)?\s*)?"
    rf"{_RELEASE}\s*(?:的)?\s*版"
    rf"|(?<![\w\-./])(?P<zhv>[A-Za-z][A-Za-z0-9_\-]{{2,30}})\s*(?:的)?\s*版本(?:号)?\s*(?:是|为|用的是|:|：)?\s*{_RELEASE}"
)
"""s45-workmiss (en40-007, zh22-025): a one-word name with a release number of three parts ('with sparkinfer
0.5.10', 'FlagEmbedding 用的是 1.2.3 版本', 'X 的版本是 0.4.1'): a version of that shape is what released
software carries (semver.org: MAJOR.MINOR.PATCH), settings and words do not; in English in a preposition of
means, in Chinese beside the word 版本 (version). The environment's own software is no tool of the job
(:data:`_ENVIRONMENT`: 'with CUDA 12.1.1', 'Ubuntu 22.04.3')."""
_ENVIRONMENT = frozenset((
    "ubuntu", "centos", "debian", "windows", "macos", "linux", "kernel", "jetpack", "cudnn", "nccl", "gcc",
    "cmake", "numpy", "nvcc", "driver", "drivers", "triton", "version", "release", "build", "firmware",
    "bios", "nvidia", "android", "ios", "node", "nodejs", "java", "rust", "go", "golang", "conda", "pip",
    "transformers", "flash_attn", "safetensors", "tokenizers", "datasets", "einops", "protobuf", "openai",
))  # fmt: skip
OWNER_RE = re.compile(
    rf"(?<![\w\-./])(?P<name>{_HYPHENATED})['’]s\s+"
    r"(?=(?:examples?|scripts?|recipes?|configs?|launcher|trainer|codebase|repo(?:sitory)?)\b)"
)
""""caikit-nlp's examples/…": a hyphenated lower-case name owning a tool's work."""
POSSESSED_RE = re.compile(
    r"\b(?:with|using|via|through)\s+[A-Z][A-Za-z0-9\-]*['’]s\s+(?P<name>[a-z][a-z0-9]*(?:er|or))(?![\w\-])"
)
"""s27 (round 21): "with Jina's finetuner": a lower-case agent noun (-er, -or) a maker owns, in a preposition
of means — the maker's tool (common nouns of that form are :data:`_NOT_TOOLS`)."""
_NOT_TOOLS = frozenset((
    "paper", "computer", "server", "cluster", "layer", "tokenizer", "optimizer", "adapter", "scheduler",
    "container", "folder", "other", "order", "answer", "user", "partner", "provider", "researcher", "trainer",
    # s27 fix3 (design review #5): "NVIDIA's profiler", "Google's accelerator" — kinds of thing, not names
    "profiler", "accelerator", "compiler", "simulator", "emulator", "monitor", "debugger", "processor",
    "controller", "driver", "router", "operator", "connector", "loader", "launcher", "manager", "runner",
    "worker", "builder", "parser", "converter", "exporter", "importer", "generator", "evaluator", "estimator",
    "calculator", "analyzer", "analyser", "visualizer", "viewer", "editor", "browser", "explorer", "tracker",
    "logger", "checker", "interpreter", "translator", "helper", "wrapper", "tensor", "vector", "engineer",
    "developer", "customer", "vendor", "supplier", "manufacturer", "supercomputer", "offer", "number",
))  # fmt: skip
CUE_TABLE = (
    re.compile(
        r"\s-m\s|[a-z0-9][\-_][a-z][a-z0-9]*(?:['’]s\s|\s+v?\d+\.\d)|[A-Z]\w*['’]s\s+[a-z]\w*(?:er|or)\b"
        r"|\d\.\d+\.\d"  # s45-workmiss: a release of three parts (RELEASED_RE)
    ),
    re.compile(r"[\-_](?<=[a-z0-9][\-_])[a-z][a-z0-9]*\s+v?\d+\.\d|\d\.\d+\.\d"),
)
"""The cue of any of the three, on the text as typed (the parser masks versions in its own): '-m', a
hyphenated name before a version or a possessive. Held in a table, so the start-scan rebinding of module
patterns (bot.parse.first_chars.scan_module_patterns) leaves it a C search: no Python frame a parse.
Second, the cue's version branch alone, from its hyphen: a match of the first holds '-m', "'s", '’s' or
one of the second, asked in C first (the first has no start scan: its three branches are tried at every
position; the second's class at its head is the engine's start scan): ~3.1 → ~0.9 µs a corpus question,
~0.56 → ~0.13 ms on the 12,473-character paste (one run, s31)."""


_READERS = (
    MODULE_RE,
    MODULE_LOWER_RE,
    VERSIONED_RE,
    RELEASED_RE,
    OWNER_RE,
    POSSESSED_RE,
)  # the objects as compiled (see CUE_TABLE)


_ENGINES = (
    r"(?:llama\.cpp|llama-cpp|vllm|ollama|sglang|lmdeploy|tgi|exllama(?:v[23])?|tensorrt-llm|transformers)"
)
ENGINE_OWNER_RE = re.compile(
    rf"(?<![\w\-./])(?P<name>[A-Za-z][A-Za-z0-9]*(?:[\-_.][A-Za-z0-9]+)*)\s*(?:['’]s|的|版的?|版本的|提供的|自带的)\s*"
    rf"{_ENGINES}(?![\w\-])",
    re.IGNORECASE,
)
"""s45-workmiss (en39-007): a tool owning a modelled engine ("IPEX-LLM's llama.cpp", 'IPEX-LLM 的 llama.cpp',
'FooStack 提供的 vLLM'): a build or package of that engine, which is sized, its maker named as typed — the
reply then says which build the numbers are not of (docs/design.md §8: never dropped in silence). A
possessive is what a maker's product takes; a plain word there ('the team's vLLM', "Meta's llama.cpp" of
a company) is no software name and is left alone (:func:`engine_owners`)."""
OWNER_CUES = tuple(
    f"{owned}{gap}{engine}"
    for owned in ("'s", "’s", "的", "版")
    for gap in (" ", "")
    for engine in (
        "llama",
        "vllm",
        "sglang",
        "lmdeploy",
        "tgi",
        "tensorrt",
        "exllama",
        "ollama",
        "transformers",
    )
)
"""The cue of :data:`ENGINE_OWNER_RE` on the normalized text: a possessive, then an engine's name ('的
llama', "'s vllm"); literals only, tested with ``in`` at the call site (no frame, no search without one)."""


def engine_owners(raw: str, known: Callable[[str], bool]) -> list[tuple[str, str]]:
    """('runtime: X', 'runtime_not_modelled') for each software-shaped name of ``raw`` owning a modelled
    engine (:data:`ENGINE_OWNER_RE`): a hyphen, a digit or a capital after its first letter ('IPEX-LLM',
    'BigDL2', 'FooStack'); never a known name (a model, a tool of the tables, a company)."""
    out: list[tuple[str, str]] = []
    for m in ENGINE_OWNER_RE.finditer(raw):
        name = m.group("name")
        shaped = "-" in name or any(c.isdigit() for c in name) or any(c.isupper() for c in name[1:])
        if not shaped or name.lower() in _NOT_TOOLS or name.lower() in _MAKERS or known(name):
            continue
        item = tool_item(name, False)
        if item not in out:
            out.append(item)
    return out


_MAKERS = frozenset(("nvidia", "intel", "amd", "meta", "google", "microsoft", "apple", "huawei", "alibaba"))
"""Companies, not products: 'NVIDIA's TensorRT-LLM' names the engine's maker."""


SERVE_COMMAND_RE = re.compile(
    r"(?<![\w\-./])(?P<name>[a-z][a-z0-9]{2,}(?:[\-_][a-z0-9]+)*)\s+serve\s+(?=-{1,2}[a-z]|[\w./:\-]+\s+-{1,2}[a-z])"
)
"""s44 round 40 (en40-020): a program's ``serve`` subcommand with its flags ('realizar serve --gpu',
'tokenspeed serve --model …'), the way serving engines are started (``vllm serve``, ``ollama serve``,
``sglang serve``): the program is the runtime, named as typed when no table knows it. Read on the text as
typed after a cheap test of ' serve ' in it; a word of a sentence before it ('they serve --') is no program
(:data:`_NOT_PROGRAMS`), nor a subcommand of a known one ('vllm bench serve --model …')."""
_NOT_PROGRAMS = frozenset(("and", "can", "then", "also", "they", "you", "will", "just", "that", "run", "who"))


def served_tools(raw: str, known: Callable[[str], bool]) -> list[tuple[str, str]]:
    """('runtime: X', 'runtime_not_modelled') for each program of ``raw`` started by its ``serve`` subcommand
    (:data:`SERVE_COMMAND_RE`) that ``known`` does not know."""
    out: list[tuple[str, str]] = []
    for m in SERVE_COMMAND_RE.finditer(raw):
        name = m.group("name")
        if name in _NOT_PROGRAMS or SETTING_WORD_RE.fullmatch(name) or known(name):
            continue
        if any(known(part) for part in re.split(r"[\-_]", name)) or tool_item(name, False) in out:
            continue
        before = raw[max(0, m.start() - 24) : m.start()].split()
        if before and known(before[-1]):  # 'vllm bench serve --…': a subcommand of a known program
            continue
        out.append(tool_item(name, False))
    return out


BENCH_PROGRAM_RE = re.compile(
    r"(?:(?:\b(?:ran|run|runs|running|using|with|via)|用|跑了?|运行)\s*(?:the\s+)?)?(?<![\w\-./])"
    r"(?P<name>[a-z][a-z0-9]*(?:[._][a-z0-9]+)*)-bench(?![\w\-])(?P<flags>\s+-{1,2}[a-z])?"
)
"""s45 round 41 (en41-016, en41-017): a tool's own benchmark program, run ('ran ds4-bench with …',
'ds4-bench --ctx-start 2048 …', '用 ds4-bench 跑'), as llama.cpp ships ``llama-bench`` and mistral.rs
``mistralrs-bench``: the tool before '-bench' is the runtime, named as typed when no table knows it. Read
only when run (a verb or preposition before it) or given flags; an evaluation suite is no program
('SWE-bench', 'MT-Bench': capitals; :data:`_SUITES`)."""
_SUITES = frozenset(("tau", "mt", "swe", "terminal", "live", "big", "long", "lm", "arena", "web", "math"))


def bench_tools(raw: str, known: Callable[[str], bool]) -> list[tuple[str, str]]:
    """('runtime: X', 'runtime_not_modelled') for each tool X of ``raw`` run as its ``X-bench`` program
    (:data:`BENCH_PROGRAM_RE`) that ``known`` does not know."""
    out: list[tuple[str, str]] = []
    for m in BENCH_PROGRAM_RE.finditer(raw):
        name = m.group("name")
        if not (m.group(0) != m.group("name") + "-bench" or m.group("flags")):  # neither run nor flagged
            continue
        if name in _SUITES or SETTING_WORD_RE.fullmatch(name) or known(name) or known(f"{name}-bench"):
            continue
        if tool_item(name, False) not in out:
            out.append(tool_item(name, False))
    return out


def launched_tools(raw: str, training: bool, known: Callable[[str], bool]) -> list[tuple[str, str]]:
    """('training_tool: X', 'no_field') — ('runtime: X', 'runtime_not_modelled') when not ``training`` — for
    each name of ``raw`` in one of the three places of the module docstring that ``known`` does not know."""
    out: list[tuple[str, str]] = []
    for pattern in _READERS:
        for m in pattern.finditer(raw):
            name = m.group("name") or m.group(m.lastgroup or "name")  # RELEASED_RE: 'zh' or 'zhv'
            if not name:
                continue
            low = name.lower()
            lower_case = name == low  # a CamelCase name is no adjective ('FlagEmbedding' ends in 'ing')
            if low in _DIRECTORY_WORDS or low in _NOT_TOOLS or low in _ENVIRONMENT or known(name):
                continue
            if SETTING_WORD_RE.fullmatch(low):
                continue
            if lower_case and ADJECTIVE_RE.fullmatch(low):
                continue
            if any(known(part) for part in re.split(r"[\-_]", name)):  # 'vllm-ascend': a known engine's port
                continue
            item = tool_item(name, training)
            if item not in out:
                out.append(item)
    return out
