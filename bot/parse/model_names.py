"""Step 2a, last passes: model names no catalog name or family + size explains, as people type them.

- **A name, a space, a size** ("InternVL 76B", "LLaVA-NEXT 8B", "FooBar 13B"): an unknown model of that
  size, named as typed. Only a word typed as a name (capitals inside it, all capitals, or a digit:
  "InternVL", "BLT", "foo2") counts, and never a method, tool or precision word ("LoRA 70B", "ZeRO-3
  13B", "FP16 7B").
- **A size, then the name** ("the 7B LLaVA", "8B 的 InternVL2.5"): the same model, named name first
  ("LLaVA 7B"); a catalog family with its version ("the 7B Qwen2.5") is that release.
- **A family named without a size** ("用 Bloom 做 LoRA", "fine-tune StarCoder"), when the message has
  no other model and no size: named as typed, with that family's releases as suggestions (never a
  size picked for the user).

The catalog names and ``family + version + size`` come first (:mod:`bot.parse.models`); these passes
read what is left, with a few small patterns (no per-name alternation)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

from bot.parse import fixed_patterns as fp
from bot.parse import lexicon as lx
from bot.parse import uncased_names as un
from bot.parse.gpus import is_gpu_name
from bot.parse.model_stopwords import FORUM_WORDS, KIND_WORDS
from bot.parse.normalize import MODEL_MARK
from bot.parse.regex import compile_pattern, rc
from bot.parse.written_units import moe_shape_sizes

_NAME = r"[a-z][a-z0-9.]*[a-z0-9](?:[\-_][a-z0-9.]*[a-z0-9])*"
SPACED_NAME_RE = rc(
    rf"(?<![a-z0-9.\-_/{MODEL_MARK}])(?P<name>{_NAME})(?:\s+(?P<ver>\d{{1,2}}\.\d{{1,2}}))?"
    r"(?:\s*(?:才|只有|仅有?|也就|就|的)\s*|\s+)(?P<size>\d+(?:\.\d+)?)b(?![a-z0-9.])"
)
"""'InternVL 76B': a name, a space, a size in billions; round 16 zh: a word saying how small between
('HunyuanOCR 才 1B 参数', 'Foo 只有 3B'): the model's name was dropped, only its size read. Round 26 zh: the
release of a name by its size ('FooBot 的 7B 模型'), named as typed as 'FooBot 7B'. s37 (issue 24): a release
number spaced between ('llava 1.5 13b', 'InternVL 2.5 8B') is part of the name, never a number left unread."""
SIZE_FIRST_RE = rc(
    rf"(?<![a-z0-9.\-_])(?P<size>\d+(?:\.\d+)?)(?P<unit>[bm])"
    rf"(?:\s*-?\s*param(?:eter)?s?\s+|\s*参数量?\s*|\s+)(?:的\s*)?(?P<name>{_NAME})(?![a-z0-9.\-_])"
)
"""'the 7B LLaVA', '8B 的 InternVL2.5', 'a 125M GPT-2' (trial s23 #1b): a size in billions or millions,
then the name; never a size glued to the name before it (s37-models: 'the vicuna-7b LLaVA model' is
LLaVA built on vicuna-7b, whose size the 7B is, never a 'LLaVA 7B'). s42 round 38 zh: a parameter word
between ('70B 参数的 DeepSeek-R1', 'the 70B-parameter DeepSeek-R1'): the size is still that release's."""
ANY_SIZE_RE = rc(
    r"(?<![a-z0-9.])\d+(?:\.\d+)?\s?[bm](?![a-z])(?!\s*(?:的\s*)?(?:上下文|context|ctx|tokens?))"
)
"""A model size anywhere ('7B', '500M'), not a context length ('1M 上下文', '1M context')."""
CONTEXT_BEFORE_RE = rc(
    r"(?:上下文|context|ctx|max[\s_\-]*model[\s_\-]*len|长度|窗口)[\s_]*(?:长度|length|len)?[\s=:：]*$"
)
"""A context word right before a number ('上下文 = 1m', 'ctx 1M'): that number is a length, not a size."""
MODEL_WORD_AFTER_RE = rc(r"\s*(?:的\s*)?(?:模型|models?\b)")
"""A model word right after a size ('6b 模型', 'the 70b model'): the size of a model the message names
apart, a family said alone before it ('ChatGLM 用 lora 微调，6B 模型…'; s29), which is still named."""

NOT_NAMES = frozenset((
    "localllama", "reddit", "subreddit",  # a forum people ask in (r/LocalLLaMA), never a model: s35-fixa #6
    # methods and training words
    "lora", "qlora", "dora", "sft", "dpo", "ppo", "grpo", "rlhf", "kto", "orpo", "simpo", "rl", "pt",
    "rlaif", "rlvr", "rlef", "rlcf", "rloo", "dapo", "gspo", "rrhf",
    "full", "moe", "dense", "peft", "freeze", "zero", "zero1", "zero2", "zero3", "fsdp", "ddp", "tp",
    "pp", "dp", "ep", "sp", "cp",
    # tools and runtimes
    "vllm", "sglang", "tgi", "ollama", "lmdeploy", "deepspeed", "megatron", "nemo", "axolotl",
    "unsloth", "trl", "xtuner", "swift", "ms-swift", "torchtune", "accelerate", "transformers",
    "llamafactory", "llama-factory", "exllama", "exllamav2", "tensorrt-llm", "trt-llm", "ktransformers",
    "colossalai", "verl", "openrlhf", "hf", "huggingface", "llama-cookbook", "llama-recipes",
    # formats, units and other words written in capitals
    "gguf", "awq", "gptq", "exl2", "gpu", "gpus", "vram", "llm", "llms", "api", "cpu", "ram", "ssd",
    "nvme", "oom", "ctx", "kv", "qps", "tps", "bs", "mfu", "nvidia", "amd", "intel", "ai", "ok", "us",
    "ram", "tb", "gb", "fp", "int", "the", "model", "models", "nccl", "cuda", "rocm", "xpu", "npu",
    "tpu", "mlx", "vlm", "vlms", "rag", "cpt", "galore", "reft", "ift", "rm", "prm", "orm", "openai",
    "deepmind",
    "anthropic", "microsoft", "google", "meta", "alibaba", "tencent", "baidu", "bytedance", "moonshot",
    "zhipu", "bigcode", "eleutherai", "mosaicml", "github", "pytorch", "jax", "flashattention", "xformers",
    "nvlink", "infiniband", "pcie", "sxm", "hbm", "tensorrt", "runpod", "autodl", "macbook", "imac",
    "macos", "linux", "ubuntu", "windows", "wsl", "docker", "kubernetes", "k8s", "aws", "gcp", "azure",
    # round 4: devices in the plural after a card's number ('8 x 910B NPUs'), tools with their suffix
    "npus", "tpus", "xpus", "cards", "chips", "accelerators", "devices", "megatron-lm", "megatron-core",
))  # fmt: skip
"""Words typed in capitals before or after a size that do not name a model."""
_PRECISION_WORD = compile_pattern(r"^(?:fp|bf|int|nf|q|mxfp|nvfp|w\d+a)\d")
BARE_FAMILY_MIN = 4
"""Shortest family word read alone ("qwen", "bloom"); shorter ones ("yi", "phi", "opt") need a size."""
_BARE_EXCLUDED = frozenset(("command", "whisper", "open_llama", "openllama", "open-llama"))
_TOOL_AFTER = rc(
    r"\s*(?:factory|board|index|recipes?|cookbook|efficient|cpp|agent|api|stack|hub|chat\s*ui|studio|app)\b"
)


def name_like(typed: str) -> bool:
    """Whether a word was typed as a name: capitals inside it ('InternVL', 'LLaDA'), all capitals of
    three letters or more ('BLT'), or a digit ('foo2'); and not a method, tool or precision word."""
    low = typed.lower()
    stem = fp.TRAILING_NUMBER.sub("", low)  # "ZeRO-3" is "zero"
    if low in NOT_NAMES or stem in NOT_NAMES or low in lx.SHORT_FAMILIES or _PRECISION_WORD.match(low):
        return False
    if low.rpartition("-")[2] in KIND_WORDS or low.partition("-")[0] in FORUM_WORDS:  # s35-fixa #6
        return False  # 'LocalLlama-style', 'GPT-4-class', 'LocalLlama': a kind or a forum, never a model
    letters = list(filter(str.isalpha, typed))  # C iterators: no frame per character
    inner_capital = any(map(str.isupper, typed[1:]))
    all_caps = len(letters) >= 3 and all(map(str.isupper, letters))
    return inner_capital or all_caps or any(map(str.isdigit, typed))


Typed = Callable[[str], str]
"""How a name in the normalized text was typed (the raw text's casing)."""


BRACKETED_NAME_RE = rc(
    rf"(?<![a-z0-9.\-_/{MODEL_MARK}])(?P<name>{_NAME})\s*[(（]\s*(?P<size>\d+(?:\.\d+)?)\s*(?P<u>[bm])\s*[)）]"
)
"""'FooLM (350M)', 'BarNet（13B）': a name, then its size in brackets."""


PLAIN_BEFORE_SIZE = frozenset((
    "custom", "own", "small", "smaller", "large", "larger", "big", "bigger", "huge", "tiny", "medium", "mini",
    "chinese", "english", "multilingual", "open", "opensource", "open-source", "local", "private",
    "internal", "pretrained", "pre-trained", "finetuned", "fine-tuned", "fine-tune", "tuned", "trained",
    "quantized", "quantised", "distilled", "sparse", "code", "coding", "math", "reasoning", "another",
    "other", "same", "whole", "entire", "single", "first", "second", "next", "current", "older", "newer",
    "latest", "typical", "generic", "standard", "similar", "such", "what", "which", "these", "those",
    "this", "that", "then", "than", "fits", "fit", "load", "loading", "host", "hosting", "inference",
    "infer", "deploy", "deployed", "test", "testing", "merge", "merged", "only", "even", "also", "still",
    "both", "either", "whether", "approximately", "roughly", "maybe", "like", "full", "params",
    "parameter", "parameters", "billion", "many", "much", "more", "less", "fewer", "most", "least",
    # a release's tier word, the end of a longer name ('Nemotron 3 Super 120B-A12B')
    "super", "ultra", "nano", "lite", "flash", "turbo", "plus", "instruct", "chat",
    # a question's verb before the size ('Does 70B fit without CPU offload?', trial s12 B8)
    "does", "did", "will", "would", "could", "should", "might", "must", "shall", "were", "have", "need",
    "needs", "when", "where", "about", "using", "with", "into", "onto", "from",
    # a turn's time word before the size ('this time 13B', 'next round 70B', issue 24)
    "time", "times", "round", "instead", "again", "later", "earlier", "today", "tomorrow", "week", "month",
    "year", "last", "previous", "before", "after", "once", "okay", "sure", "well", "please", "here", "there",
))  # fmt: skip
"""Plain words a size may follow ('a custom 13B', 'a distilled 7B'): never a model's name, whatever their
case. A word typed in lower case before a size ('internvl 76b') is otherwise a name, as it would be typed
with capitals ('InternVL 76B', docs/design.md §8: named as typed, in any letter case)."""


def plain_name(typed: str, plain: frozenset[str] = frozenset()) -> bool:
    """Whether a word of four letters or more is a name by what it is, not by its letter case: no
    :data:`PLAIN_BEFORE_SIZE`, :data:`NOT_PROPER` or ``plain`` word, nor one :func:`name_like` refuses
    in capitals (a method, tool or precision word)."""
    low = typed.lower()
    if len(low) < 4 or low in PLAIN_BEFORE_SIZE or low in NOT_PROPER or low in plain:
        return False
    if _VERB_FORM.search(low) or any(p.search(low) for p in _STAGE_WORDS):  # 'finetuning 70b', 'serve'
        return False
    return name_like(typed.upper())


_VERB_FORM = compile_pattern(r"^[a-z\-]{3,}(?:ing|ed)$")
"""A verb's -ing or -ed form ('benchmarking', 'merged'): what is done to a model, not its name."""
_STAGE_WORDS = (lx.FINETUNE_RE, lx.INFERENCE_RE, lx.PRETRAIN_RE, lx.TRAIN_RE)
"""The stage words of the parse (fine-tune, serve, pretrain, train …): never a model's name."""


def spaced_names(
    s: str, typed: Typed, plain: frozenset[str] = frozenset()
) -> list[tuple[int, int, str, float]]:
    """(start, end, name as typed, size) of each 'Name 13B' or 'Name (350M)' the earlier passes left; a
    word in any letter case names the model unless it is a plain word (:func:`plain_name`)."""
    out = []
    for m in SPACED_NAME_RE.finditer(s):
        name = typed(m.group("name"))
        if (
            (name_like(name) or plain_name(name, plain))
            and RUNTIME_NAME_RE.fullmatch(m.group("name")) is None
            and not _card_or_tokens(m, s)
            and not _owned_code(m, s)
        ):
            ver = f" {m.group('ver')}" if m.group("ver") else ""
            out.append((m.start(), m.end(), f"{name}{ver} {m.group('size')}B", float(m.group("size")) * 1e9))
    for m in BRACKETED_NAME_RE.finditer(s):
        name = typed(m.group("name"))
        if name_like(name) and not any(a <= m.start() < b for a, b, _, _ in out):
            out.append(
                (m.start(), m.end(), name, float(m.group("size")) * (1e9 if m.group("u") == "b" else 1e6))
            )
    return out


RUNTIME_NAME_RE = rc(
    r"llama[.\-_]?cpp|vllm|sglang|ollama|lmdeploy|tgi|exllama(?:v?[23])?|lm[\s\-_]?studio|llama-(?:server|cli)"
    r"|transformers|tensorrt[\-_]?llm|trt[\-_]?llm|mlc[\-_]?llm|koboldcpp"
)
"""A serving engine's name (bot.parse.method_words.RUNTIMES): never a model's, before a size too
('2 张 4090 和 1 张 3090 跑 llama.cpp 70B Q4' named 'llama.cpp 70B' an unknown model: s33 fix-b); in C."""


def _owned_code(m: re.Match[str], s: str) -> bool:
    """'复现 Logic-RL 的 7B 模型': a training codebase's model (bot.parse.codebases, a tool verb before
    the name), not a release named 'Logic-RL 7B' as 'FooBot 的 7B 模型' is (round 26 zh;
    tests/test_round13_zh_forms.py)."""
    if "的" not in s[m.end("name") : m.start("size")]:
        return False
    from bot.parse.codebases import CODEBASE_RE, codebase_spans

    joined = "-" in s or "_" in s  # every codebase name is joined by one (bot.parse.codebases)
    return (
        joined
        and CODEBASE_RE.search(s) is not None
        and any(a == m.start("name") for a, _, _ in codebase_spans(s))
    )


_TOKENS_AFTER_RE = rc(r"\s*(?:tokens?|toks?|词元)(?![a-z])")


def _card_or_tokens(m: re.Match[str], s: str) -> bool:
    """'H100 1B tokens', 'on 8 H100 70B': a card's name is never a model's, nor is a 'size' that is a
    card's name ('how many 910B'), and a size followed by 'tokens' is a data amount, not a model size."""
    size = s[m.start("size") : m.end()]
    return is_gpu_name(m.group("name")) or is_gpu_name(size) or bool(_TOKENS_AFTER_RE.match(s, m.end()))


_COUNT_AFTER_RE = rc(
    r"\s*(?:tokens?|toks?|词元|hours?|小时|users?|用户|requests?|请求|samples?|rows?|条|张|卡|个(?!\s*参数))"
)
_TRAFFIC_WORDS = frozenset(("dau", "mau", "qps", "rps", "tps", "pv", "uv"))


def _millions_name(m: re.Match[str], s: str) -> bool:
    """Whether '125M GPT-2' is a size in millions before a model's name: never a card ('5M A100 hours'),
    a traffic word ('2M DAU') or a count of tokens, hours, users or rows ('300M CC-100 tokens')."""
    name = m.group("name")
    return not (is_gpu_name(name) or name in _TRAFFIC_WORDS or _COUNT_AFTER_RE.match(s, m.end()))


_CJK_BEFORE_RE = rc(r"[\u4e00-\u9fff]\s*$")


def _family_after_size(m: re.Match[str], s: str) -> bool:
    """Round 37: a catalog family in lower case after a size in billions, with a Chinese word or an article
    before the size ('lora 的 7b bloom', '微调 13b llama', 'the 7b bloom' in a message with capitals
    elsewhere): that family's release, as 'bloom 7b' and '7b 的 bloom' are read, when the catalog has it
    ('a 3b llama' is no release: the family spelled plainly stays no new name, s34). The family alone,
    never a family's name inside another word ('llama.cpp', 'llamafactory': the pattern ends the name
    there)."""
    if m.group("unit") != "b" or m.group("name") not in lx.MODEL_FAMILIES:
        return False
    at = m.start()
    cjk = _CJK_BEFORE_RE.search(s, max(0, at - 4), at)
    if not (cjk or un.ARTICLE_BEFORE_RE.search(s, max(0, at - 8), at)):
        return False
    from bot.parse.models import _whole_catalog_name  # lazily: models imports this module

    return _whole_catalog_name(f"{m.group('name')} {m.group('size')}b") is not None


def _called(m: re.Match[str], s: str) -> bool:
    """s45-workmiss (en40-029): a plain name between a size in billions and a model word ('the new 33B
    vicuna model', 'a 7B foobar model', '33B 的 vicuna 模型'), typed in lower case in a message with capitals
    elsewhere: the model word calls it a model, so it is that release's name, named as typed when the
    catalog lacks it. Never an English word ('the 7B base model', 'a 13B language model'), a setting word
    ('the 7B gguf model', '7B lora 模型') nor a word :func:`plain_name` refuses."""
    name = m.group("name")
    if m.group("unit") != "b" or un.english_word(name) or not MODEL_WORD_AFTER_RE.match(s, m.end()):
        return False
    from bot.parse.lower_tools import SETTING_WORD_RE  # lazily: only a size, a name and a model word

    return not SETTING_WORD_RE.fullmatch(name) and plain_name(name)


_BARE_VERSION = compile_pattern(r"v\d+(?:\.\d+)*")
"""A version alone ('v2', 'v1.5'): after a size it is the version of the name before the size."""


def size_first_names(s: str, typed: Typed) -> list[tuple[int, int, str, float, str]]:
    """(start, end, name as typed then size, size, name) of each '7B LLaVA' the earlier passes left."""
    out = []
    for m in SIZE_FIRST_RE.finditer(s):
        name = typed(m.group("name"))
        uncased = getattr(typed, "uncased", False) and m.group("name") not in un.AFTER_SIZE_NOUNS
        if _BARE_VERSION.fullmatch(m.group("name")):
            continue  # 'OpenLLaMA 3B v2': the release's version after its size, never a name (s34-gen2)
        if (
            name_like(name)
            or (uncased and _uncased_after_size(name, s, m.start()))
            or _family_after_size(m, s)
            or (("model" in s[m.end() : m.end() + 9] or "模型" in s[m.end() : m.end() + 5]) and _called(m, s))
        ) and (m.group("unit") == "b" or _millions_name(m, s)):
            size, unit = m.group("size"), m.group("unit")
            scale = 1e9 if unit == "b" else 1e6
            out.append(
                (m.start(), m.end(), f"{name} {size}{unit.upper()}", float(size) * scale, m.group("name"))
            )
    return out


@cache
def _bare_pattern(families: tuple[str, ...]) -> re.Pattern[str]:
    words = sorted({f for f in families if len(f) >= BARE_FAMILY_MIN and f not in _BARE_EXCLUDED}, key=len)
    alternation = "|".join(re.escape(w) for w in reversed(words))
    return re.compile(rf"(?<![a-z0-9.\-_/])(?P<fam>{alternation})(?:[\-_][a-z]{{1,2}}\d*)?(?![a-z0-9.\-_/])")


def bare_family(s: str, families: tuple[str, ...]) -> re.Match[str] | None:
    """A catalog family named alone ('Bloom', 'StarCoder'), or with a short variant tag ('MiniCPM-V',
    'MiniMax-M1'), in a message with no size anywhere; not a tool named after one ('LLaMA-Factory',
    'llama.cpp', 'LLaMA Board')."""
    for m in ANY_SIZE_RE.finditer(s):  # a loop, not any(genexpr): no generator frame a parse
        context = CONTEXT_BEFORE_RE.search(s, max(0, m.start() - 24), m.start())
        if not context and not MODEL_WORD_AFTER_RE.match(s, m.end()):  # '6b 模型': its size apart (s29)
            return None
    for m in _bare_pattern(families).finditer(s):
        if not _TOOL_AFTER.match(s, m.end()):
            return m
    return None


def typed_in(raw: str) -> Typed:
    """How a name of the normalized text was typed in ``raw`` (itself when not found there)."""

    def typed(name: str) -> str:
        pattern = fp.typed_name(name) if raw else None  # compiled once per name: a C call
        m = pattern.search(raw) if pattern is not None else None
        return m.group(0).strip() if m else name

    typed.uncased = raw == raw.lower() and raw != raw.upper()  # type: ignore[attr-defined]  # s33: no capital
    return typed


def _uncased_after_size(name: str, s: str, at: int) -> bool:
    """'the 7b llava' typed with no capital: a plain-name word after a size that follows an article
    (bot.parse.uncased_names); a catalog family only as the catalog spells it ('a 3b llama (open-llama-3b)':
    not a name, as 'Llama'; 'the 7b starcoder': 'StarCoder', s34),
    nor an English word without a name's morpheme ('the 7b film model', 'the 8b alpha release': s33 fix-b)."""
    if un.ARTICLE_BEFORE_RE.search(s, max(0, at - 8), at) is None or not plain_name(name):
        return False
    if un.english_word(name) and not un.morpheme_name(name):
        return False
    from bot.parse.model_index import _model_index

    return name not in _model_index().families or name_like(un.family_spelling(name))  # s34: 'starcoder'


JOB_AFTER = (
    r"|的\s*(?:(?:grpo|dpo|ppo|sft|lora|qlora|全参数?|全量|强化学习|rl)\s*)?(?:训练|微调|推理|部署)"
    r"|(?:grpo|dpo|ppo|sft|lora|qlora)\s+(?:training|fine[\s\-]?tun\w*|runs?)\b"
)
"""'Rex-Omni 的 GRPO 训练', 'FooNet 的微调', 'Rex-Omni GRPO training': a name before its job (round 3)."""
CALLED_RE = rc(
    rf"(?<![a-z0-9.\-_/])(?P<name>{_NAME}(?:\s+v?\d+\.\d+)?)(?:'s)?\s*(?=(?:语音|大|多模态|视觉|图像|文生图|识别)?\s*模型|models?\b|(?:pre[\s\-]?)?training\b|fine[\s\-]?tun(?!ers?\b)|预训练"
    r"|(?:work|paper)\b|论文" + JOB_AFTER + ")"
)
"""'EmoLLM 模型', 'the FooNet models', 'BLIP3o pre-training', "LLaVA's training cost", 'the BLT work', 'the
FooLM paper': a word typed as a name right before a model, training or publication word (round 21: not a
tool's agent noun, "Jina's finetuner"); its version
typed apart goes with it ('LLaVA 1.5 fine-tuning', 'InternVL 2.5 全参微调': s17, en11-037 left '1.5' unread
and named no model). Round 26 zh: a kind word between the name and '模型' ('FooVoice 语音模型',
'FooDiT 大模型'): before, the name was dropped."""
PROPER_RE = compile_pattern(r"[A-Z][a-z]{2,}")
"""A capitalized word ('Liquid'): a name when it is not the first word of a sentence."""
NOT_PROPER = frozenset((
    "base", "large", "small", "big", "new", "language", "foundation", "reward", "teacher", "student",
    "draft", "target", "policy", "reference", "critic", "value", "embedding", "vision", "chat", "instruct",
    "our", "your", "their", "this", "that", "these", "those", "which", "what", "open", "local",
))  # fmt: skip
"""Words capitalized in a title or for emphasis that do not name a model ('the Base model')."""


def called_a_model(s: str, typed: Typed, raw: str = "") -> tuple[int, int, str] | None:
    """(start, end, name as typed) of the first name-like word called a model or trained; a capitalized
    word inside a sentence counts as a name ('train the Liquid models')."""
    for m in CALLED_RE.finditer(s):
        name = typed(m.group("name"))
        proper = PROPER_RE.fullmatch(name) and name.lower() not in NOT_PROPER and _inside_sentence(raw, name)
        uncased = not (name_like(name) or proper) and getattr(typed, "uncased", False)
        if uncased and not uncased_called(name, raw):
            continue
        if (name_like(name) or proper or uncased) and name.lower() not in NOT_NAMES and not is_gpu_name(name):
            if _ends_a_card_name(s, m.start(), name):  # 'titan rtx 预训练': the card's last word
                continue
            return m.start(), m.end("name"), name  # not a card ('A100 pretraining 13B')
    return None


def uncased_called(name: str, raw: str) -> bool:
    """'emollm 模型', 'xlarge 模型' typed with no capital: a name by its morpheme, or in a Chinese message
    a plain-name word that is no English word ('部署 final 版本的 7b 模型' names none: s33 fix-b;
    bot.parse.uncased_names)."""
    if un.MORPHEME_RE.search(name) is not None:
        return True
    return un.CJK_RE.search(raw) is not None and plain_name(name) and not un.english_word(name)


def _ends_a_card_name(s: str, start: int, name: str) -> bool:
    """Whether ``name`` is the last word of a card's name with the word before it ('titan rtx')."""
    before = re.search(r"(\S+)\s+$", s[:start])
    return bool(before) and is_gpu_name(f"{before.group(1)} {name}")


def _inside_sentence(raw: str, name: str) -> bool:
    """Whether ``name`` is typed after another word of its sentence (not capitalized as a first word)."""
    at = raw.find(name)
    before = raw[:at].rstrip()
    return at > 0 and bool(before) and before[-1] not in ".!?。！？:：\n\"'“(（"


TIERED_NAME_RE = rc(
    r"(?<![a-z0-9.\-_/])(?P<name>(?=[a-z0-9\-]*\d)[a-z][a-z0-9]*(?:-[a-z0-9]+)*-(?:small|base|large|xl|xxl)"
    r"(?:-v\d+(?:\.\d+)*)?)(?![a-z0-9\-_.])"
)
"""A name with a digit and a size tier ('flan-t5-xl', 'gpt2-large', 'mt5-base'): how encoder-decoder and
GPT-2-era releases name their sizes; a release version may follow the tier ('functionary-small-v2.4')."""


def tiered_name(s: str, typed: Typed) -> tuple[int, int, str] | None:
    """(start, end, name as typed) of the first name with a size tier (:data:`TIERED_NAME_RE`)."""
    m = TIERED_NAME_RE.search(s)
    if m is None or is_gpu_name(m.group("name")):
        return None
    return m.start(), m.end(), typed(m.group("name"))


CALLED_SIZED_RE = rc(
    rf"(?<![a-z0-9.\-_/])(?P<name>{_NAME})\s*(?:模型|model)\s*[(（]\s*(?P<size>\d+(?:\.\d+)?)\s*(?P<u>[bm])\s*[)）]"
)
"""'the L1 model (1.5B)', 'Foo 模型（7B）': a name called a model, with its size in brackets."""


def called_with_size(s: str, typed: Typed) -> tuple[int, int, str, float] | None:
    """(start, end, name as typed, size) of the first name called a model with its size in brackets."""
    for m in CALLED_SIZED_RE.finditer(s):
        name = typed(m.group("name"))
        if name_like(name) and name.lower() not in NOT_NAMES and not is_gpu_name(name):
            return m.start(), m.end(), name, float(m.group("size")) * (1e9 if m.group("u") == "b" else 1e6)
    return None


TIER_AFTER_VERSION_RE = rc(
    r"[\-_](?:flash|lite|air|mini|pro|max|turbo|plus|nano|super|ultra|exp|preview|thinking)(?![a-z0-9_])"
    r"(?:[\-_]\d{4}(?:\d{2}){0,2}(?![\d.a-z]))?"
)
"""A release's tier word glued after a family and version, with the release's date after it
('DeepSeek-V4-Flash-0731', 'GLM-5.3-Flash', 'Qwen3.5-Plus'): part of an unknown model's name as typed
(docs/design.md §8: named as typed, never a shorter name). Round 17 zh: 'DeepSeek-V4-Flash-0731' was
named 'DeepSeek-V4' and its '0731' left unread."""


def with_tier(mention: Any, s: str, end: int, suggestions: list[str]) -> None:
    """Give an unknown family mention (a ``ModelMention`` whose version ends at ``end`` of ``s``) its
    ``suggestions``, and extend it over a glued tier word after the version
    (:data:`TIER_AFTER_VERSION_RE`)."""
    mention.suggestions = suggestions
    m = TIER_AFTER_VERSION_RE.match(s, end)
    if m:
        mention.end = max(mention.end, m.end())
        mention.text = " ".join(s[mention.start : m.end()].split()).strip(" -_.")


ACTIVE_TAIL_RE = rc(r"[\-_]a(\d*)$")
"""A name's last word 'a' or 'a1' glued to the size: 'hunyuan-a13b' is an active count (13B) with no
total, never a 3B model (session 30)"""


def unknown_sizes(m: re.Match[str]) -> tuple[float | None, float | None]:
    """(total, active) of an unknown name (models.UNKNOWN_NAME_RE, pass 3): 'WizardLM2-8x22B' an MoE
    shape, not a 22B (round 6, written_units); 'FooLM-120B-A12B' 120B with 12B active; 'Hunyuan-A13B'
    13B active and no total, never a 3B model (session 30)."""
    if m.group("experts"):
        return moe_shape_sizes(m.group("experts"), m.group("size"))
    if (tag := ACTIVE_TAIL_RE.search(m.group("name"))) and m.end("name") == m.start("size"):
        return None, float(tag.group(1) + m.group("size")) * 1e9
    return float(m.group("size")) * 1e9, float(m.group("act")) * 1e9 if m.group("act") else None


SPACED_VERSION_RE = rc(
    r"\s+(?P<v>v?\d+\.\d+(?:\.\d+)?|v\d+)(?![\d.]?[a-z0-9%])"
    r"(?!\s*(?:万|亿|千|个|条|张|卡|台|小时|天|周|月|年|元|块|倍|次|轮|秒|分钟|(?:hours?|days?|weeks?|months?|"
    r"years?|epochs?|steps?|tokens?|gpus?|cards?|nodes?|times|gb|gib|mb|tb|billion|million|percent|[kmbt])\b))"
)
"""A release's version typed apart after its name ('MiniCPM-V 2.6', 'MiniCPM-Llama3-V 2.5', 'FooChat v2'):
a dotted number or a 'v' and a number, not a quantity (no unit after it: 'FooChat 2.5 小时', '2.5 GB')."""


def spaced_version(s: str, mention: Any) -> str:
    """``s`` with the version typed after the unknown name ``mention`` (no catalog id, no size) masked as
    part of it, and the version in its name ('MiniCPM-V 2.6'; s34-gen2, issue 24: before, the name was
    named without its version and '2.6' as a number not read). Unchanged when none follows."""
    m = SPACED_VERSION_RE.match(s, mention.end)
    if m is None:
        return s
    mention.text = f"{mention.text} {m.group('v')}"
    mention.end = m.end()
    return s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :]
