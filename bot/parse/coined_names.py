"""A model with no size named in a way no other pass reads (s33-gen2, issue 24 item 4: an unknown model
keeps its name): a Chinese name before 大模型 or glued to an English model word ('荀子大模型', '华佗GPT',
'扁鹊大模型'), a model that a message says is called something ('我们的模型叫 SuperBot', 'our model is
called SuperBot', 'a model named Foo'), and a dotted name read or served ('部署 dots.ocr', 'serve
foo.vl on one L4'). Each is named as typed; nothing is sized from it (the reply says the model is not
in the catalog, design.md §8). Only when no other model is named (the caller, bot.parse.verb_names).

Gated in C: every form needs its cue word in the text ('大模型', 'gpt' / 'llm' after a CJK character,
'叫' / 'called' / 'named', a dot between letters), so a message without one pays a substring test.
"""

from __future__ import annotations

import re

from bot.parse.bare_size import JOB_WORD, USING
from bot.parse.model_names import NOT_NAMES
from bot.parse.regex import rc
from bot.parse.stack_words import ANY_TOOL_RE
from bot.parse.verb_names import GLUED_CUES

_GENERIC = re.compile(
    r"开源|国产|中文|英文|多模态|语言|通用|行业|垂直|医疗|法律|金融|教育|本地|私有|视觉|对话|这|那|该|哪|什么"
    r"|一个|某|其他|其它|现在|目前|主流|常见|千亿|百亿|万亿|各|种|类|款|个|些|的|了|小|超|预训练|微调|推理|部署"
    r"|训练|量化|基座|底座|专用|领域|自研|自己|我们|你们|他们|公司|团队|项目|新|旧|好|最|所有|任何|整个"
)
"""Words of a kind of model, a pronoun or a quantity, never a name ('开源大模型', '这个大模型', '医疗大模型',
'千亿大模型'): a Chinese run before 大模型 holding one is no name."""
_LEAD = re.compile(
    r"^(?:请问|请教|问一?下|想问|我想|我们|想|用|把|给|跑|让|对|在|关于|部署|微调|训练|推理|运行)+"
)
"""Verbs and request words a Chinese run starts with before the name ('请问荀子大模型', '部署扁鹊大模型')."""
ZH_NAME_RE = rc(r"(?P<run>[\u4e00-\u9fff]{2,8})(?P<tail>大模型|大语言模型|(?:gpt|llm|glm)(?![a-z0-9]))")
"""A Chinese run before 大模型 or glued to GPT / LLM / GLM ('荀子大模型', '华佗gpt'): its last two to four
characters after the lead words (:data:`_LEAD`) are the name."""
CALLED_RE = rc(
    r"(?:模型|model)\s*(?:的名字|名字|名称)?\s*(?:叫做?|是|is\s+called|called|named|is\s+named)\s*"
    r"[\"'“‘「]?(?P<name>[a-z][a-z0-9_\-]*[a-z0-9])"
)
"""A model said to be called a name ('我们的模型叫 SuperBot', 'the model is called Foo-Bot', 'a model named
Zeta'); a lower-case word after 是 / is is a description, not a name, so the caller asks a capital."""
DOTTED_RE = rc(
    r"(?:部署|推理|微调|训练|跑|运行|用|serv(?:e|ing)|deploy(?:ing)?|run(?:ning)?|fine[\s\-]?tun(?:e|ing)|does)"
    r"\s*(?P<name>[a-z][a-z0-9\-]*\.[a-z][a-z0-9\-]+)(?![a-z0-9.\-_/])"
)
"""A dotted name after a job verb ('部署 dots.ocr', 'serve foo.vl', 'How much VRAM does dots.ocr need')."""
_NOT_DOTTED = frozenset(
    ("cpp", "py", "sh", "json", "yaml", "yml", "toml", "safetensors", "bin", "gguf", "pt", "pth", "onnx", "c",
     "cc", "rs", "js", "ts", "md", "txt", "log", "io", "ai", "com", "org", "net", "cn", "co", "dev", "app",
     "entrypoints", "cuda", "nn", "env", "ckpt", "engine", "plan", "mojo", "zip", "tar", "whl", "exe", "so",
     "ipynb", "csv", "jsonl", "parquet", "html", "cfg", "ini", "conf", "lock", "tensorrt", "utils", "x")
)  # fmt: skip
"""The last part of a dotted word that makes it a file, a domain or a module, not a model ('whisper.cpp',
'train.py', 'config.json', 'vllm.entrypoints', 'huggingface.co', 'torch.cuda')."""
_DOTTED_HEADS = frozenset(("torch", "vllm", "transformers", "deepspeed", "np", "os", "sys", "self", "model"))
"""The first part of a dotted word that makes it code ('torch.compile', 'model.generate')."""


def coined_name(s: str, typed: object, raw: str) -> tuple[int, int, str] | None:
    """(start, end, name as typed) in the normalized text ``s`` of a model named by one of the forms of
    the module docstring, or None; ``typed`` maps a name of ``s`` to how ``raw`` wrote it."""
    if "大模型" in s or "大语言模型" in s or "gpt" in s or "llm" in s or "glm" in s:
        found = _zh_name(s)
        if found is not None:
            return found
    if "叫" in s or "called" in s or "named" in s:
        for m in CALLED_RE.finditer(s):
            name = typed(m.group("name"))  # type: ignore[operator]
            if name[:1].isupper() or any(c.isdigit() for c in name[1:]):
                return m.start("name"), m.end("name"), name
    if any(map(s.__contains__, GLUED_CUES)):  # s35: 'TinyLLaVA', 'CCA-LLaVA'
        found = _glued_family(s, typed)
        if found is not None:
            return found
    if "." in s:
        for m in DOTTED_RE.finditer(s):
            head, _, tail = m.group("name").rpartition(".")
            if tail not in _NOT_DOTTED and head not in _DOTTED_HEADS and not tail.isdigit():
                return m.start("name"), m.end("name"), typed(m.group("name"))  # type: ignore[operator]
    return None


GLUED_FAMILY_RE = rc(
    r"(?<![\w.\-/])(?P<name>[a-z][a-z0-9]{1,11}-?(?:" + "|".join(GLUED_CUES) + r")(?:[\-.][a-z0-9]+)*)"
    r"(?![\w\-/.])"
)
"""A name glued to a family's word, the project's part first ('TinyLLaVA', 'CCA-LLaVA', 'Video-LLaMA'):
a model of its own, named as typed and not sized as the family (round 30 en, s35)."""


_KIND_TAIL_RE = re.compile(r"-(?:style|like|based|ish|type|ready|compatible)$")


def _glued_family(s: str, typed: object) -> tuple[int, int, str] | None:
    """The first name of :data:`GLUED_FAMILY_RE` typed with a capital (a proper name: 'TinyLLaVA', never
    a word in lower case) that no tool, runtime or format owns ('ExLlamaV2', 'llama.cpp' are software)."""
    sized = {m.span("name") for m in SIZED_JOB_RE.finditer(s)}  # '用 Chinese-Vicuna 推理 13B': sized there
    for m in GLUED_FAMILY_RE.finditer(s):
        name = typed(m.group("name"))  # type: ignore[operator]
        low = name.lower()
        if m.span("name") in sized:
            continue
        if name == low or low in NOT_NAMES or low.startswith("exl") or _KIND_TAIL_RE.search(low):
            continue  # 'LocalLlama-style': a kind of setup, not a name
        if ANY_TOOL_RE.search(low):
            continue
        return m.start("name"), m.end("name"), name
    return None


def _zh_name(s: str) -> tuple[int, int, str] | None:
    """The first Chinese name of :data:`ZH_NAME_RE` whose run is no kind word (:data:`_GENERIC`)."""
    for m in ZH_NAME_RE.finditer(s):
        run = m.group("run")
        name = _LEAD.sub("", run)
        if not 2 <= len(name) <= 4 or _GENERIC.search(name):
            continue
        start = m.start("run") + len(run) - len(name)
        return start, m.end(), raw_span(s, start, m.end())  # '荀子大模型', '华佗GPT': as the label writes it
    return None


def raw_span(s: str, start: int, end: int) -> str:
    """The name of ``s[start:end]``: a Chinese name keeps its 大模型 ('荀子大模型'), as the label writes it;
    a glued English word is upper-cased as these releases write it ('华佗gpt' → '华佗GPT')."""
    text = s[start:end]
    return re.sub(r"(gpt|llm|glm)$", lambda m: m.group(1).upper(), text)


SIZED_JOB_RE = rc(
    rf"{USING}\s*(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)+)\s*(?:模型\s*)?"
    rf"{JOB_WORD}\s*(?:一个\s*|the\s+|a\s+)?"
    r"\d+(?:\.\d+)?\s*[bm](?![a-z0-9])"
)
"""A joined name used to run a size ('用 Chinese-Vicuna 推理 13B', 'using Foo-Chat to serve 13B'): the name is
the model's family, the size its release; a tool runs a model it names ('用 LLaMA-Factory 微调 7B' is a
tool's name, told apart by :data:`_TOOL_HEADS`)."""
_TOOL_HEADS = re.compile(
    r"llama-factory|deepspeed|megatron|open-sora|fastchat|axolotl|text-generation|vllm|sglang|lm-deploy"
    r"|lmdeploy|llama-cpp|flash-attn|ms-swift|xtuner|colossal|hugging|trl-|peft-|lit-gpt|nemo-|torch|mindspeed"
)
"""Training and serving tools with joined names: never the model run ('用 LLaMA-Factory 微调 7B')."""


def name_beside_size(s: str, typed: object) -> tuple[int, int, str] | None:
    """(start, end, name as typed) of a joined name of :data:`SIZED_JOB_RE` in the masked text ``s`` that
    is no tool's (:data:`_TOOL_HEADS`), or None: the model's name, sized by the bare size after it."""
    for m in SIZED_JOB_RE.finditer(s):
        name = m.group("name")
        if _TOOL_HEADS.match(name) is None and ANY_TOOL_RE.search(name) is None:
            return m.start("name"), m.end("name"), typed(m.group("name"))  # type: ignore[operator]
    return None
