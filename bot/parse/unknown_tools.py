"""A tool named by a name no table has (issue 24, round 9: 'fine-tune Qwen2-72B … with EasyContext',
'fine-tune the Mixtral version of SPHINX with LLaMA2-Accessory'): named as typed, never dropped in silence.

The tool tables (:data:`bot.parse.stack_words.TRAINING_TOOLS`, ``RUNTIMES_NOT_MODELLED``) know the tools
people name most; a repository's own trainer or server is named as often and no table can list them all.
Such a name is read from the message as typed (case kept, so only the raw text can tell it): a word
after 'with', 'using', 'via', 'through', 'in' (用, 使用, 基于, 通过, 借助) that is written the way
software is named and words are not — CamelCase with a lower-case run between capitals ('EasyContext',
'OpenDiLoCo'), or a name and a capitalized word joined by a hyphen ('LLaMA2-Accessory') — in a tool's
place (:func:`in_tool_place`): the means of the job ('fine-tune … with X', '用 X 微调', 'via X', 'X
launcher'), never a place or a state ('in JupyterLab', 'ends in OutOfMemory'). Names another reader knows
are left to it: a tool of a table, a model of the catalog or its family ('DeepSeek', 'MiniCPM'), an
optimizer ('GaLore': :data:`bot.parse.written_settings.OPTIMIZER_NAME_RE`), a word the model reader knows
is no model's name ('PyTorch', 'FlashAttention': :data:`bot.parse.model_names.NOT_NAMES`), a library's
class ('DPOTrainer'). No list of names that are not tools is kept here. A training job names it as its
training tool, a serving job as its runtime; the sizing has a model of neither.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from bot.later_names import port_tools
from bot.parse.cue_words import ARCHITECTURE_CUES
from bot.parse.fine_tunes import STARTS as FINE_TUNE_STARTS
from bot.parse.fixed_patterns import NOT_KEY
from bot.parse.glued_names import GATE as GLUED_GATE
from bot.parse.glued_names import glued_tools
from bot.parse.kv_layers import KV_LAYER_RE
from bot.parse.launched_tools import CUE_TABLE as LAUNCH_CUES
from bot.parse.launched_tools import OWNER_CUES, bench_tools, engine_owners, launched_tools, served_tools
from bot.parse.lower_tools import LOWER_TOOL_RE, PEER_TOOL_RE, PLATFORM_RE, lower_tools, peer_tools, tool_item
from bot.parse.method_words import RUNTIMES
from bot.parse.model_names import NOT_NAMES
from bot.parse.regex import rc
from bot.parse.stack_words import ANY_TOOL_RE, SERVING_ENGINE_RE
from bot.parse.subject_tools import VERB_CUES, subject_tools
from bot.parse.written_settings import LLAMA_CPP_FRONTENDS, OPTIMIZER_NAME_RE
from estimator import catalog

_NAME = (
    r"[A-Z][a-z]+(?:[A-Z][a-z0-9]+)+|[A-Za-z][A-Za-z]*[A-Z][A-Za-z]*\d*(?:-[A-Z][a-z]{2,})+"
    r"|[a-z]{2,}[A-Z][A-Za-z0-9]*|[A-Z][a-z]{2,}[A-Z]{2,4}(?![A-Za-z])"
)
"""CamelCase ('EasyContext', 'EasyR1'), a name joined to a capitalized word ('LLaMA2-Accessory'), or —
round 10 (s15) — a lower-case run then capitals ('trlX', 'nanoGPT'); s38-r34en: a capitalized word then an
acronym ('ParlAI', 'LangGPT'): how projects write their names."""
UNKNOWN_TOOL_RE = re.compile(
    r"(?:\b(?:with|using|via|through|in)\s+(?:the\s+|its\s+|their\s+)?|(?:用|使用|基于|通过|借助)\s*)"
    rf"(?P<name>{_NAME})(?![\w\-])"
    rf"|\b(?P<owner>{_NAME})(?=['’]s\s)"
)
"""A software-like name after a preposition of means ('with', '用'), or — round 10 (s15) — as the owner of
what the asker runs ("replicate trlX's experiments", "EasyContext's script"), in the raw text (case kept)."""
NAMED_TOOL_RE = re.compile(
    rf"(?<![\w\-])(?P<name>{_NAME})"
    r"(?=\s*(?:launcher|trainer|framework|toolkit|codebase|repo|repository|library|scripts?|server)\b)"
)
"""A software-like name before a tool's noun, without a preposition ('the EasyContext launcher')."""
_GATE = rc(
    r"\b(?:with|using|via|through|in)\s+(?:the\s+|its\s+|their\s+)?[a-z]|(?:用|基于|通过|借助)\s*[a-z]"
    r"|[a-z0-9]['’]s\s"
)
"""The preposition before a word, or a possessive, at all (lower-cased text): most messages stop here."""
_SLOT_GATE = rc(
    r"框架|脚本|工具|仓库|项目|代码|引擎|教程|用|基于|通过|借助|部署|推理|训练|微调|跑|对比|比较|服务"
    r"|\b(?:with|using|via|through|launcher|trainer|framework|toolkit|codebase|repo|repository|library"
    r"|scripts?|engine|deployment|training|pretraining|serving|inference|is|was|does"
    r"|run|runs|running|compared?)\b"
)
"""Words of a tool's place (:data:`bot.parse.tool_slots.SLOT_RE`, lower-cased): a message without any of
them names no tool in one."""
JOB_WORD_RE = rc(
    r"(?:训练|微调|预训练|部署|推理|跑|启动|做|训|起(?:个|一个)?服务"
    r"|\b(?:train|fine[\s\-]?tun|finetun|pre[\s\-]?train|serv(?:e|es|ed|ing)\b|deploy|infer)"
    r"|\b(?:run|running|launch\w*|host|hosting|sft|lora|q?lora|dpo|grpo|rlhf)\b(?!\s+out\s+of\b)"
    r"|(?:开启|打开|启用|\benabl\w*)\s*(?:zero|deepspeed|fsdp))"
)
"""A word of the job ('微调', 'fine-tune', 'serve', 'training'): the means of the job is a tool. Words, not
letters inside one (review of session 15: 'run' in 'runs', 'dpo' in 'endpoint'); 'runs out of memory' is a
state, no job. Round 18: '起服务' (start a service: '用 Lvllm 起服务') is serving. Round 19: a training
layout switched on ('用 CoLLiE 开启 Zero3', 'enabling ZeRO with X'): the tool runs that training."""
SIDE_WORK_RE = rc(
    r"\b(?:track\w*|log|logs|logging|logged|monitor\w*|visuali[sz]\w*|plot\w*|dashboards?|notebooks?)\s*$"
)
"""The side work a name after 'via' / 'in' / 'with' serves ('tracking via TensorBoard', 'logging with
WandB'): a tracker or a notebook, no tool of the job — decided by the word before, no list of names."""
_NOTEBOOK_AFTER_RE = rc(r"\s*(?:notebooks?|ide|editor|dashboard)\b")
"""'in the X notebook': a place the code runs in, no tool."""
TOOL_NOUN_RE = rc(
    r"\s*(?:launcher|trainer|framework|toolkit|codebase|repo(?:sitory)?|library|scripts?|server)\b"
)
"""A tool's noun right after the name ('X launcher', 'the X framework')."""
OWNED_WORK_RE = rc(
    r"\b(?:experiments?|examples?|recipes?|configs?|setup|scripts?|launcher|trainer|framework|codebase|repo"
    r"|benchmarks?)\b"  # round 28 en: "ipex-llm's all-in-one benchmark"
)
"""What a tool's owner possessive is followed by when the owner is a tool ('trlX's experiments')."""
_BRACKETS = re.compile(r"[(（][^()（）]*[)）]")
_CLAUSE_END = re.compile(r"[,;:!?，。；：！？\n]|\.(?:\s|$)")


def in_tool_place(raw: str, m: re.Match[str]) -> bool:
    """Whether the name of ``m`` (:data:`UNKNOWN_TOOL_RE`) stands where a tool does: before a tool's noun
    ('X launcher'), or as the means of a job said in its clause (after 'via' / 'through' too, since the
    review of session 15; never after a side work's word, 'tracking via X': :data:`SIDE_WORK_RE`) — a job
    word after it ('用 X 微调', 'with X to fine-tune') or, after 'with' / 'using', before it in the same
    clause ('fine-tune Qwen2-72B … with EasyContext'). 'in X' is a tool's place only with a job word after
    it. An owner ("trlX's experiments") is one when a job word, a tool's noun or its work follows in the
    clause."""
    if m.groupdict().get("owner"):
        after = _CLAUSE_END.split(raw[m.end("owner") :], maxsplit=1)[0].lower()
        return bool(JOB_WORD_RE.search(after) or OWNED_WORK_RE.search(after))
    before, after = raw[: m.start("name")], raw[m.end("name") :]
    means = m.group(0)[: m.start("name") - m.start()].strip().lower()
    lead = raw[: m.start()].lower()
    if SIDE_WORK_RE.search(lead) or _NOTEBOOK_AFTER_RE.match(after.lower()):
        return False  # 'tracking via TensorBoard', 'in the JupyterLab notebook': side work, no job's tool
    if TOOL_NOUN_RE.match(after.lower()):
        return True
    clause_after = _CLAUSE_END.split(after, maxsplit=1)[0]
    if JOB_WORD_RE.search(clause_after.lower()):
        return True
    clause_before = _CLAUSE_END.split(_BRACKETS.sub("", before))[-1]  # an aside in brackets ends no clause
    return not means.startswith("in") and bool(JOB_WORD_RE.search(clause_before.lower()))


MODEL_SUFFIXES = frozenset(
    {
        "instruct", "chat", "base", "coder", "math", "vision", "guard", "large", "small", "medium", "mini",
        "preview", "thinking", "turbo", "pro", "plus", "max", "lite", "flash", "air", "next", "omni",
        "distill", "hf",
    }
)  # fmt: skip
"""A model's release suffixes ('Qwen2-Instruct', 'Mistral-Large'): a hyphenated model, not a tool. Round
32: '-hf', the Hugging Face conversion of a release ('cogvlm-chat-hf', 'Llama-2-7b-chat-hf')."""
MODEL_PART_RE = re.compile(r"vlm|glm|cpm|bert(?![a-z])", re.IGNORECASE)
"""S36-gen2: a part only a model's name carries ('CogVLM', 'ChatGLM', 'MiniCPM', 'ModernBERT'; the parts of
:data:`bot.parse.uncased_names.MORPHEME_RE` that no serving or training tool carries: 'llm' and 'gpt' do,
'OpenLLM', 'nanoGPT'; 'ocr' does, 'PaddleOCR'): such a name in a tool's place is the model the job is about,
left to the model readers ('用 CogVLM 推理' named an engine CogVLM)."""
TOOL_TAILS = frozenset(
    {"tuning", "finetune", "finetuning", "sft", "factory", "agent", "trainer", "train", "training", "deploy",
     "server", "serve", "webui", "board", "studio", "app", "recipes", "recipe", "hub", "api", "index", "cpp"}
)  # fmt: skip
"""A last part that makes a joined name a tool or a repository named after a family ('ChatGLM-Tuning',
'Qwen-Agent', 'LLaMA-Factory', 'ChatGLM-webui'), never the model, whatever part it carries (s36-cin)."""


def model_shaped(low: str) -> bool:
    """Whether the lower-cased joined name ``low`` is a model's: a model's part ('cogvlm-chat-hf') or a
    release suffix ('foo-chat-hf') and no tool's last part ('chatglm-tuning', :data:`TOOL_TAILS`)."""
    tail = low.rsplit("-", 1)[-1]
    return tail not in TOOL_TAILS and (tail in MODEL_SUFFIXES or MODEL_PART_RE.search(low) is not None)


CLASS_NAME_RE = re.compile(r"(?:Error|Exception|Warning|Config|Arguments|Args|Trainer|Engine|Model)$")
"""A class of a library ('RuntimeError', 'TurbomindEngineConfig', 'DPOTrainer'): code, not a tool."""


MLX_RE = rc(r"(?<![a-z0-9_])mlx(?![a-z0-9_])(?![\-_\s.]*lm\b)")
"""Apple's MLX named as a framework ('LoRA in MLX', '用 MLX 部署', a checkpoint converted for it:
'Qwen2.5-7B-MLX-4bit', 'mlx-community/…'), not as its tool ('mlx-lm', :mod:`bot.parse.more_tools`)."""


MLX_PROJECT_RE = rc(
    r"(?<![a-z0-9_/])mlx[\-_](?!lm(?![a-z0-9])|examples?(?![a-z0-9])|community(?![a-z0-9]))[a-z]+(?![a-z0-9])"
)
"""s48 r44en: a project built on MLX and named after it, one word joined by a hyphen ('mlx-llm',
github.com/riccardomusmeci/mlx-llm; 'mlx-vlm', github.com/Blaizzy/mlx-vlm; 'mlx-whisper'): another tool than
MLX, named as typed, never swapped for MLX (the understanding contract: an unknown runtime is named as typed).
Not mlx-lm (:mod:`bot.parse.more_tools`), ml-explore's own mlx-examples (MLX itself: en21-026), nor the
mlx-community checkpoints; a bit width glued after it ('MLX-4bit') starts with a digit, so it stays MLX."""


def mlx_named(s: str, training: bool) -> list[tuple[str, str]]:
    """Round 12: MLX named alone is the job's stack — a training job runs mlx-lm
    (github.com/ml-explore/mlx-lm: ``mlx_lm.lora``), a serving job MLX; neither has a model in the sizing,
    so it is named, never dropped. S48: a project named after MLX (:data:`MLX_PROJECT_RE`) is named as
    typed instead, and MLX only when it is also said apart."""
    out: list[tuple[str, str]] = []
    if "mlx-" in s or "mlx_" in s:
        for m in MLX_PROJECT_RE.finditer(s):
            out.append(tool_item(m.group(0), training))
            s = s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :]
    if not MLX_RE.search(s):
        return out
    stack = ("training_tool: mlx-lm", "no_field") if training else ("runtime: MLX", "runtime_not_modelled")
    return [*out, stack]


def unknown_tools(raw: str, s: str, training: bool) -> list[tuple[str, str]]:
    """('training_tool: X', 'no_field') — or ('runtime: X', 'runtime_not_modelled') when not ``training``
    — for each name in ``raw`` no table has (see the module docstring); ``s``: its normalized text."""
    out: list[tuple[str, str]] = mlx_named(s, training) if "mlx" in s else []  # round 12, gated here
    if ".c" in s or ".rs" in s or ".mojo" in s or ".zig" in s:  # 'llama2.c', 'gemma.cpp' (round 12)
        out += port_tools(raw, s, training)
    if GLUED_GATE.search(s):  # 'qwen-agent', 'gpt4all': a model family's name glued to a tool's (s20)
        out += [i for i in glued_tools(raw, training, _known) if i not in out]
    sized_with = "b with " in s or "b using " in s or "m with " in s or "m using " in s  # 'llama-7b with x'
    known = _known_here(raw, s) if sized_with else _known
    if raw and _SLOT_GATE.search(s):  # s19-audit: any spelling, more places (bot.parse.tool_slots)
        from bot.parse.tool_slots import slot_tools

        for name in slot_tools(raw, known, in_tool_place):
            item = tool_item(name, training)
            if item not in out and not _inside_known(raw, name):
                out += [item, *(i for i in _alias(raw, name, training) if i not in out)]
    if "[" in raw and "]" in raw:  # s49-workmiss: a package with its pip extras ('bigdl-llm[xpu]')
        from bot.parse.pip_extras import extras_tools

        out += [i for i in extras_tools(raw, training, known) if i not in out]
    if raw and LOWER_TOOL_RE.search(raw):  # a lower-case word in the job's means slot: 'opensloth' (s19)
        out += [i for i in lower_tools(raw, training, _known) if i not in out]
    if any(map(raw.__contains__, VERB_CUES)):  # in C: a tool as its clause's subject, 'optiml says' (s43)
        out += [i for i in subject_tools(raw, training, _known) if i not in out]
    if (
        raw
        and ("compar" in s or " vs" in s or "versus" in s or "对比" in s or "比较" in s)
        and PEER_TOOL_RE.search(raw)
    ):
        out += [i for i in peer_tools(raw, training, lambda n: _known(n, True), _known) if i not in out]
    launch = "-m" in raw or "'s" in raw or "’s" in raw or LAUNCH_CUES[1].search(raw)  # its literals first
    if launch and LAUNCH_CUES[0].search(raw):  # r20: '-m Pkg.x', 'with x-y v1.2', "x-y's examples"
        out += [i for i in launched_tools(raw, training, _known) if i not in out]
    for cue in (
        OWNER_CUES if not training else ()
    ):  # "IPEX-LLM's llama.cpp" (s45-workmiss): literals, no frame
        if cue in s:
            out += [i for i in engine_owners(raw, _known) if i not in out]
            break
    if " serve " in raw:  # s44 round 40: 'realizar serve --gpu', a program's serve subcommand
        out += [i for i in served_tools(raw, _known) if i not in out]
    if "-bench" in raw:  # s45 round 41: 'ran ds4-bench with …', a tool's own benchmark program: the tool
        for tool in bench_tools(raw, _known):  # in place of the program as another reader named it
            out = [tool if i == (f"{tool[0]}-bench", tool[1]) else i for i in out]
            out += [tool] if tool not in out else []
    if not raw or not (_GATE.search(s) or TOOL_NOUN_RE.search(s)):
        return _no_owners(raw, out) if out else out
    for m in (*UNKNOWN_TOOL_RE.finditer(raw), *NAMED_TOOL_RE.finditer(raw)):
        name = m.groupdict().get("name") or m.groupdict().get("owner")
        item = (f"training_tool: {name}", "no_field")
        item = item if training else (f"runtime: {name}", "runtime_not_modelled")
        if in_tool_place(raw, m) and not known(name) and item not in out:
            out += [item, *(i for i in _alias(raw, name, training) if i not in out)]
    return _no_owners(raw, out) if out else out


_REPO_MODEL_RE = re.compile(r"\d+(?:\.\d+)?[bmk](?![a-z])|\d+x\d+b", re.IGNORECASE)
"""A size in a repository's name ('opt-1.3b', 'Mixtral-8x7B'): the repository holds a model."""


def _no_owners(raw: str, items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``items`` less each name written as the owner of a model's repository ('用facebook/opt-1.3b微调',
    'meta-llama/Llama-3.1-8B'): an organisation in a Hugging Face ``org/model`` id is never a tool (trial
    s35 #5). The repository names a model when it holds a size or a catalog family."""
    out = []
    for item in items:
        name = item[0].split(": ", 1)[1]
        owner = re.search(rf"(?<![A-Za-z0-9_\-/]){re.escape(name)}/(?P<repo>[A-Za-z0-9][\w.\-]*)", raw)
        repo = owner.group("repo") if owner else ""
        if not owner or not (_REPO_MODEL_RE.search(repo) or _catalog_model(repo)):
            out.append(item)
    return out


def _catalog_model(repo: str) -> bool:
    """Whether a repository's name begins with a catalog model's name or alias ('DeepSeek-V3')."""
    key = re.sub(r"[^a-z0-9]", "", repo.lower())
    return any(key.startswith(name) for name in _model_keys())


@cache
def _model_keys() -> frozenset[str]:
    """The catalog models' ids and aliases (the part after an owner's '/'), letters and digits only."""
    names = (n.rsplit("/", 1)[-1] for m in catalog.models().values() for n in (m.id, *m.aliases))
    return frozenset(k for k in (re.sub(r"[^a-z0-9]", "", n.lower()) for n in names) if len(k) > 2)


_ALIAS_TAIL = r"\s*[(（]\s*(?:now\s+|formerly\s+|aka\s+)?([A-Za-z][\w.\-]*[A-Za-z0-9])\s*[)）]"
"""Round 28 en: a tool's other name in brackets right after it ('BigDL-LLM (ipex-llm)', 'X (formerly Y)')."""


def _alias(raw: str, name: str, training: bool) -> list[tuple[str, str]]:
    """The item of the other name a tool ``name`` is given in brackets right after it in ``raw``: the same
    tool, named by both names (the user may know it by either); none when the bracket holds no tool-shaped
    name (a version, a method: 'FooServe (v0.5)', 'FooTrain (LoRA)') or one another reader knows."""
    at = raw.find(name)
    if at < 0 or (raw.find("(", at) < 0 and raw.find("（", at) < 0):
        return []
    m = re.compile(re.escape(name) + _ALIAS_TAIL).search(raw, at)
    if m is None or _known(m.group(1)):
        return []
    from bot.parse.tool_slots import tool_shaped  # lazily: a bracket after a tool is rare

    return [tool_item(m.group(1), training)] if tool_shaped(m.group(1), False, _known) else []


def _inside_known(raw: str, name: str) -> bool:
    """Round 27: whether ``name`` is only the first word of a table's tool the message names in full
    ('用 Paddle Serving 推理': 'Paddle' of Paddle Serving, :data:`bot.parse.more_engines.MORE_RUNTIMES`)."""
    low, word = raw.lower(), name.lower()
    spans = [m.span() for m in ANY_TOOL_RE.finditer(low) if m.end() - m.start() > len(word)]
    return any(a <= m.start() and m.end() <= b for m in re.finditer(re.escape(word), low) for a, b in spans)


_ENGINE_AFFIXED = rc("|".join(p.pattern for p, name in RUNTIMES if name != "transformers"))
"""Every modelled runtime's names as the runtime reader reads them (bot.parse.method_words.RUNTIMES), the
affixed class names included: the runtime, never a tool no table has nor one not modelled (s38: 'with
aphrodite-engine to serve'). transformers' calls are no tool's name."""


_COMPARED = ("compar", " vs", "versus", "distil", "teacher", "than", "instead of", "rather")
_SIZED_WITH_RE = re.compile(
    r"[a-z][\w.\-]*\d+(?:\.\d+)?[bm](?![\w])\s+(?:with|using)\s+(?P<name>[a-z][a-z0-9]*)(?![\w\-])", re.I
)
"""A model with its size, 'with' or 'using', then a bare name ('llama-7B with LLaVA')."""


def _known_here(raw: str, s: str) -> Callable[..., bool]:
    """:func:`_known`, less a catalog family named bare after a model with its size and 'with' or 'using'
    ('pre-training llama-7B with LLaVA', 'train vicuna-13b using LLaVA'): the family's codebase trains the
    model named, so it is the job's tool (s37: LLaVA-1.5 entered the catalog); never in a comparison. One
    search a message with the words; the names it finds alone are asked again."""
    m = _SIZED_WITH_RE.search(raw)
    if m is None or any(map(s.__contains__, _COMPARED)):
        return _known
    bare = m.group("name")
    key = bare.lower()
    if _known(bare, True) or not (catalog.family_of(bare) or any(k.startswith(key) for k in _model_keys())):
        return _known  # a tool of the tables, or no catalog family's name

    def known(name: str, tools_only: bool = False) -> bool:
        return name != bare and _known(name, tools_only)

    return known


METRIC_WORDS = frozenset(
    ("ttft", "tpot", "itl", "e2el", "qps", "rps", "tps", "slo", "sla", "p50", "p90", "p95", "p99")
)
"""Serving metrics, never a tool's name (s38: 'with TTFT under 500 ms' was named 'runtime: TTFT')."""
SPEC_METHODS = frozenset(
    ("eagle", "eagle1", "eagle2", "eagle3", "medusa", "mtp", "nextn", "ngram", "lookahead")
)
"""Speculative-decoding methods (vLLM SpeculativeConfig ``method``: eagle, eagle3, medusa, mtp, ngram;
SGLang --speculative-algorithm EAGLE/EAGLE3/NEXTN/NGRAM; Lookahead decoding), never a runtime (s44
fixspec2: 'Qwen2.5-72B 用 EAGLE 做投机解码' named 'runtime: EAGLE'): bot.parse.serving_methods names them.
Not 'hydra' (also Meta's config framework, a tool a training question may name)."""


ROPE_METHODS = frozenset(("yarn", "longrope", "ntk", "dynamicntk", "ntkaware", "rope", "alibi", "selfextend"))
"""RoPE scaling and position methods (YaRN, Peng et al. 2023; LongRoPE; NTK-aware and dynamic NTK scaling;
ALiBi; Self-Extend): a model's context-extension setting (bot.parse.rope_factor), never a runtime (s47: 'with
YaRN' was named 'runtime: YaRN')."""


def _known(name: str, tools_only: bool = False) -> bool:
    """Whether another reader knows ``name``: a tool of a table, a model or family, an optimizer, a word
    the model reader knows is no model's name, a model's suffix or a library's class (``tools_only``: a
    tool of a table only)."""
    if tools_only:
        return bool(ANY_TOOL_RE.search(name.lower()) or SERVING_ENGINE_RE.search(name.lower()))
    key = NOT_KEY.sub("", name.lower())
    if any(map(key.__contains__, ARCHITECTURE_CUES)):  # s48 names: RWKV, Mamba: a model, never a tool
        from bot.parse.architectures import is_architecture  # lazily: its cues are rare

        if is_architecture(name):
            return True
    if PLATFORM_RE.fullmatch(name.lower()) or name.lower() in ("atlas", "torchrun", "hugging", "huggingface"):
        return True  # 'colab', 'kaggle': a platform (s19 review); s31 Atlas; a launcher; s42: Hugging Face,
        # the hub and company, its libraries named by their names ('用 Hugging Face 的实现' named 'Hugging')
    if name.rsplit("-", 1)[-1].lower() in MODEL_SUFFIXES or CLASS_NAME_RE.search(name):
        return True
    if MODEL_PART_RE.search(name):  # s36-gen2: 'CogVLM', 'ChatGLM', 'MiniCPM': a model's name, no tool's
        return True
    if (
        key in NOT_NAMES
        or key in METRIC_WORDS
        or key in SPEC_METHODS
        or key in ROPE_METHODS
        or OPTIMIZER_NAME_RE.fullmatch(name.lower())
    ):
        return True
    if ANY_TOOL_RE.search(name.lower()) or SERVING_ENGINE_RE.search(name.lower()):
        return True
    if _ENGINE_AFFIXED.search(name.lower()):  # s35: 'LocalVLLM', 'LMDeployPipeline': the engine, read as it
        return True
    if KV_LAYER_RE.search(name.lower()):  # 'NIXL', 'LMCache': a KV-cache layer, named as kv_cache_layer
        return True
    if any(p.search(name.lower()) for p, _ in LLAMA_CPP_FRONTENDS):  # koboldcpp: named llama_cpp_based
        return True
    if catalog.family_of(name) is not None or FINE_TUNE_STARTS(name.lower()):  # 'vicuna-7b': a model (s46)
        return True
    return key in _model_keys()  # a set: one C lookup a name


_MODEL_KEYS: tuple[object, frozenset[str]] = (None, frozenset())
_PART_RE = re.compile(r"[a-z]+|[0-9]+")
"""A whole part of a model id: a run of letters or a run of digits ('TinyLlama-1.1B' → tinyllama, 1, 1, b)."""


def _model_keys() -> frozenset[str]:
    """Each run of whole parts (:data:`_PART_RE`) of each catalog model id, joined as a key (lower-case
    letters and digits only: 'Qwen2.5-7B' gives qwen, qwen2, qwen25, 7b, …), made once per catalog (session
    29: no ``re.sub`` of every id per name asked). s46 leftovers #8: a name is a model's only when it is such
    a run, so 'tiny' (inside the one part 'tinyllama') is no model's name, as a word inside any key was."""
    global _MODEL_KEYS
    models = catalog.models()
    if _MODEL_KEYS[0] is not models:  # the cached catalog, or a test's own
        runs = set()
        for m in models:
            parts = _PART_RE.findall(m.lower())
            runs.update("".join(parts[i:j]) for i in range(len(parts)) for j in range(i + 1, len(parts) + 1))
        _MODEL_KEYS = (models, frozenset(runs))
    return _MODEL_KEYS[1]
