"""A model named only by the job done to it (round 2 of the real questions, issue 24 item 4: an unknown
model keeps its name): 'Monkey 全参数微调', '全参微调 Monkey', '部署 Monkey', 'fine-tune Monkey on 4
A800', 'serving Monkey'.

A word typed as a name (a capital letter: 'Monkey', 'InternVL', 'BLT'; or a digit) right before a
fine-tuning, training or serving word of Chinese, or right after a fine-tune / train / serve / deploy
verb in either language, is the model the job is about, named as typed with the closest catalog
names (the passes of :mod:`bot.parse.model_names` read names glued to a size or called a model).
Before a verb at the start of a sentence only in a Chinese message: English capitalizes its first word
('Efficient fine-tuning …'), Chinese prose does not. Only when no other model is named.
"""

from __future__ import annotations

import re

from bot.parse import lexicon as lx
from bot.parse.codebases import CODEBASE_RE, codebase_spans
from bot.parse.cue_words import ARCHITECTURE_CUES
from bot.parse.gpus import is_gpu_name
from bot.parse.model_names import _NAME, NOT_NAMES, NOT_PROPER, Typed, name_like, uncased_called
from bot.parse.regex import rc
from bot.parse.stack_words import ANY_TOOL_RE
from bot.parse.uncased_names import MORPHEME_RE as UNCASED_CUE

_ZH_JOB = (
    r"(?:全参数?微调|全量微调|微调|精调|训练|预训练|部署|推理|做\s*(?:lora|qlora|sft|dpo|全参|全量|微调|fine-?tun\w*)"
    r"|(?:grpo|dpo|ppo|sft|lora|qlora)(?=\s*(?:训练|微调|[,，。;；?？!！]|$)))"
)
"""A Chinese job word; an algorithm or method word ending a clause is one too ('跑 Rex-Omni GRPO，…',
'Foo lora 微调' as 'Foo 的 lora 微调')."""
_CAN = r"(?:(?:(?:是否|能否|能不能|可不可以|可否)\s*(?:支持\s*)?|支持\s*)(?:(?:多|单|双)\s*卡\s*)?)?"
"""Round 36 zh: whether the job can be done, between the name and its job word ('OCRFlux 是否支持多卡部署',
'Foo 能否单卡推理', 'Foo 支持部署吗'): the name is still the model the job is about."""
BEFORE_JOB_RE = rc(
    rf"(?<![a-z0-9.\-_/])(?P<name>{_NAME})\s*(?=(?:v?\d+\.\d+\s*)?(?:模型|model)?\s*{_CAN}(?:{_ZH_JOB}"
    r"|(?:默认\s*)?(?:一\s*)?跑(?!\s*[a-z0-9])|用\s*[a-z][a-z0-9.\-]*\s*加速))"
)
"""'Monkey 全参数微调', 'Foo 模型微调': a name, then a Chinese job word. Round 26 zh: a name before running it
('Foo-Kit 一跑就爆显存', 'FooOCR2.0 默认跑起来要多大显存') or before its acceleration ('FooVoice2 用 TensorRT
加速后显存增加了'): the model run; before, nothing was named and a default model was sized. A name after
'跑' is the model run and the one before it the means ('ComfyUI 跑 Flux'), so '跑' then a name is no form.
S34-gen2: a version typed apart between ('MiniCPM-Llama3-V 2.5 做 LoRA 微调': model_names.spaced_version)."""
_ALIAS_AFTER_RE = rc(r"(?<=[a-z0-9])\s*\((?=[a-z0-9._]*[a-z][a-z0-9._]*[\-_])[a-z][a-z0-9.\-_]{3,}[a-z0-9]\)")
"""A name's other name in brackets right after it ('minicpm-v-v2_5-chat(minicpm-llama3-v-2_5)'; the text is
normalized, full-width brackets half-width): blanked, so the name before it is the one beside the job word;
a size or precision in brackets ('qwen(7b)', 'llama(bf16)') holds no hyphen and stays."""
AFTER_JOB_RE = rc(
    rf"(?:{_ZH_JOB}|量化|\b(?:fine[\s\-]?tun(?:e|ed|ing)|(?:pre[\s\-]?)?train(?:ed|ing)?|serv(?:e|ed|ing)"
    r"|deploy(?:ed|ing)?|quantiz(?:e|ed|ing)|(?:throughput|numbers|benchmarks?|speed|inference)\s+(?:for|of))"
    r"(?:\s+(?:process|stage|phase|procedure|pipeline|recipe)\s+of)?"
    rf"(?:\s+(?:of|on))?)\s*(?:the\s+|a\s+|our\s+|my\s+)?(?P<name>{_NAME})(?![a-z0-9\-_]|\.[a-z0-9])"
)
"""'全参微调 Monkey', '部署 Monkey', 'fine-tune Monkey', 'fine-tuning of Monkey', 'serving the Monkey';
round 5: '量化 MiniCPM-V-2_6', 'quantize MiniCPM-V-2_6' (the model a quantization is about; never before
the word: 'AWQ 量化' names a format); round 7: a name ending a sentence ('fine-tuning of MiniCPM-V.'),
its full stop no part of it (a dot before a letter or digit still is: 'Foo.bar'); round 22: after a
pre-training verb ('pretrain GENA-LM', 'pre-train DNABERT') and after a measure ('tokens/s numbers for
olmOCR', 'the throughput of MolmoE'): before, such a name with no size was dropped and nothing was named.
S37-gen: after serving said as a noun ('run inference of LLaVA', 'inference for InternVL'). S48 r44en: a
process noun between the job and 'of' ('the fine-tuning process of LSceneLLM', 'the training stage of
FooNet'); before, no model was named."""
JOINED_SUBJECT_RE = rc(
    r"(?<![a-z0-9.\-_/])(?P<name>[a-z][a-z0-9.]*(?:-[a-z0-9.]*[a-z0-9])+(?:_[a-z0-9.]*[a-z0-9])*"
    r"(?:\s+v?\d{1,2}\.\d{1,2}(?![\d.]))?)(?![a-z0-9\-_])"  # round 37: its version typed apart ('… 2.5 的')
    r"(?=\s*(?:的|在|上|用|权重|这(?:个|款)\s*(?:大)?模型|'s\b"
    r"|\s+(?:inference|serving|fine[\s\-]?tun\w*|training|deployment|tts|asr)\b))"
)
"""s20 round 14: a hyphen-joined name as the subject of the question, before a possessive, a place or a
job noun ('Kimi-Audio 的 TTS 功能', 'MiniMax-Text-01 在 8 卡 A100 上', "Step-Audio's memory", 'Kimi-Audio
inference'): the model the job is about, named as typed when no other model is named; a tool's, a card's
or a setting's name stays theirs (the checks of :func:`job_named_model`). Round 21 zh: a last part joined by
an underscore is the name's too ('bce-reranker-base_v1 在 Xinference 下部署'; before, nothing was named).
Round 22 zh: before '这个模型' ('能跑动 Foo-LLM 这个模型吗'; before, nothing was named). Round 23 zh: before
'权重' (its weights: 'fp16 的 Foo-Chat-V-2_5 权重一共 17GB'), and after a run verb (:data:`RUN_JOINED_RE`).
S32: before '用' (the job's means follow: 'FooMax-M1 用 vLLM 部署要几张卡'; before, nothing was named)."""
RUN_JOINED_RE = rc(
    r"(?:跑|运行|\b(?:run(?:s|ning)?|ran)\s+(?:the\s+|a\s+)?)\s*(?P<name>[a-z][a-z0-9.]*(?:-[a-z0-9.]*[a-z0-9])+(?:_[a-z0-9.]*[a-z0-9])*)(?![a-z0-9\-_])"
)
"""Round 23 zh: a hyphen-joined name after '跑' / '运行' ('跑 foo-llama3-v-2_5(int4) 支持并发吗'): the model
run, named as typed, with the subject form's checks (no software, card, tool or codebase name). Round 25 en:
after an English run verb too ('Running Kimi-K2.5 INT4 benchmarks with vLLM'; before, nothing was named)."""
RUN_NAME_RE = rc(rf"运行\s*(?P<name>{_NAME})(?![a-z0-9\-_.])(?=\s*(?:的|需要|要|时|起来|模型|大模型))")
"""Round 27 zh: a name without a hyphen after '运行' before what running it takes ('运行 FooGLM 的最低硬件
要求', '运行 FooLM 需要多少显存'): the model run, named as typed when typed as a name; an engine or tool run
('运行 vLLM 的时候', '运行 ComfyUI 的') stays theirs."""
RUN_VERSIONED_RE = rc(
    r"(?:跑|运行|\b(?:run(?:s|ning)?|ran)\s+(?:the\s+|a\s+)?)\s*"
    r"(?P<name>[a-z]{2,}\d{1,2}(?:\.\d)?)(?![a-z0-9\-_.]|\.[a-z0-9])"
)
"""S43-workmiss (zh35-001): a name of letters and a version number after a run verb ('想在个人设备上跑 YAYI2：
4090 能运行吗', 'can I run Aquila2 on a 4090?'): the model run, named as typed, with the checks of
:data:`RUN_NAME_RE` (no engine, tool, software nor card: 'run CUDA12', '跑 RTX4090'); before, nothing was
named, or the name was taken for a runtime. Letters and digits alone: 'Python3' and the like are software
heads (:data:`_NOT_SUBJECT_HEADS`)."""
EN_BEFORE_JOB_RE = rc(
    rf"\b(?:for|of|do|doing|run|running|the|my|our|with)\s+(?P<name>{_NAME})"
    r"(?=\s+(?:inference|serving|fine[\s\-]?tun\w*|deployment)\b)"
)
"""S46 round 42: a name typed as a name before an English job noun, after the word that makes it the job's
object ('for HuatuoGPT inference', 'the FooChat fine-tuning', 'running QwenX2 inference'): the model, named
as typed, with the checks of :data:`RUN_NAME_RE` (no engine, tool, software nor card: 'for vLLM inference',
'for CPU inference'); before, nothing was named. Never the first word of a sentence (English capitalizes it);
a joined name there is :data:`JOINED_SUBJECT_RE`'s."""
_NOT_EN_JOB_HEADS = frozenset(
    ("cpu", "gpu", "npu", "tpu", "llm", "llms", "api", "rag", "onnx", "gguf", "awq", "gptq")
)
"""Words typed in capitals before a job noun that name a device, a kind or a format, never a model."""
_KIND_WORD = r"开源|多模态|视觉|语音|语言|对话|推理|中文|大|小|新"
"""What kind of model it is, between 'this' and 'model' ('这个开源模型', '这个多模态大模型')."""
_JOINED = r"[a-z][a-z0-9.]*(?:-[a-z0-9.]*[a-z0-9])+"
PREP_JOINED_RE = rc(
    rf"(?:^|[.!?;:。！？；：]\s*)(?:in|for|with)\s+(?:the\s+)?(?P<name>{_JOINED})(?![a-z0-9\-_])(?!\s*[(（]?\s*\d)"
    rf"|在\s*(?P<zn>{_JOINED})(?![a-z0-9\-_])\s*(?:模型)?\s*(?:中|里|里面)"
)
"""S34-gen2 (issue 24): a hyphen-joined name the message is about, after a preposition opening a sentence
('In Video-LLaVA one video is sampled as 8 images', 'For Foo-VL, how much VRAM …') or inside '在 … 中'
('在 Foo-VL 中'): named as typed, with the subject form's checks (no software, card, tool or codebase; as
a name:
'In Use-case …', 'With Flash-Attention 2 …', 'In DeepSpeed-Chat …' name no model)."""
THIS_MODEL_RE = rc(
    rf"(?<![a-z0-9.\-_/])(?P<name>{_NAME})\s*(?=(?:这|那)(?:个|款|一)\s*(?:{_KIND_WORD}){{0,2}}\s*(?:模型|llm\b)"
    r"(?![^，。,.;；?？!！\s]{0,3}(?:框架|工具|引擎|平台|库)))"
)
"""Round 28 zh: a name the asker calls 'this model' ('LongWriter 这个模型需要多大显存',
'FooChat 这款大模型部署要几张卡', 'Foo 这个开源模型', 'Foo 这个 LLM'), with or without a hyphen: the
model the question is about, named as typed; an engine or tool so called stays theirs ('vLLM
这个模型推理框架', 'Ollama 这个模型工具'). English says 'the Foo model', read by bot.parse.model_names."""
SIZE_CLAUSE_RE = rc(
    rf"(?<![a-z0-9.\-_/])(?P<name>{_NAME})\s*(?=(?:是|这个|这款|这一)\s*(?:一个|一款|个|款)?\s*"
    r"\d+(?:\.\d+)?\s*(?:[bm]|亿|千亿|万亿)(?![a-z0-9])\s*(?:参数(?:量)?)?\s*(?:的)?\s*(?:大?模型|model))"
)
"""Round 20 zh: a name before a clause giving its size ('HunyuanOCR 是 1b 的模型', 'Foo 这个 14B 的模型',
'Foo 是一个 140 亿参数的模型'): the model the question is about, named as typed (its size read apart)."""
_SBERT = (
    r"(?:[a-z0-9]+[\-_])*(?:minilm|mpnet|gtr[\-_]t5|e5[\-_](?:small|base|large))(?:[\-_][a-z0-9.]*[a-z0-9])*"
)
"""Round 26: sentence-transformers' embedding models by their series ('all-MiniLM-L6-v2', 'all-mpnet-base-v2',
'gtr-t5-large', 'multilingual-e5-large'), named as typed as the retrieval series are."""
RETRIEVAL_NAME_RE = rc(
    r"(?<![a-z0-9.\-_/])(?P<name>(?:bge|bce|gte|m3e|nomic)(?:[\-_][a-z0-9.]*[a-z0-9])+"
    r"|[a-z][a-z0-9.]*(?:[\-_][a-z0-9.]+)*[\-_](?:reranker|embedding)(?:[\-_][a-z0-9.]*[a-z0-9])*"
    rf"|{_SBERT})(?![a-z0-9\-_])"
)
"""Round 22 zh: an embedding or reranker model by its joined name anywhere in the message ('bge-reranker-v2-m3
是服务里用 FlagReranker 加载的', 'BEIR 评估 bge-m3'): the model, named as typed, when no other form named one
(before, only beside a job word; a model of BAAI's BGE, NetEase's BCE, Alibaba's GTE or Moka's M3E series, or
one with the kind word as a part)."""
HF_REPO_RE = rc(
    r"(?<![\w./\-])(?!(?:examples|scripts|src|configs?|recipes|tests|data|docs|tools|home|root|mnt)/)"
    r"[a-z][a-z0-9_.\-]{1,38}/(?P<name>[a-z][a-z0-9_.]*(?:-[a-z0-9_.]+)+)(?![\w/\-])(?<!\.py|\.sh|\.md)"
    r"(?<!\.json|\.yaml|\.toml)"
)
"""Round 26: a Hugging Face id, organization / name ('HuggingFaceH4/starchat-alpha'): the name is the model's,
named as typed though it has no digit (before, the organization 'HuggingFaceH4' was named the model); never a
path of a codebase's folders ('examples/…', 'scripts/…') nor a file."""
_MEANS_SLOT_RE = re.compile(r"(?:用|使用|通过|借助)\s*$")
"""The job's means slot before a name ('用 X 部署'): a tool's (bot.parse.lower_tools), never the model;
'基于 X' (based on) names the base model, not a means."""
_RETRIEVAL_HEAD = re.compile(rf"(?:bge|bce|gte|m3e|nomic)[\-_]|{_SBERT}")
"""A name of a retrieval series, typed though it has no digit nor capital ('bge-small-zh')."""
_RETRIEVAL_GATE = re.compile(r"bge|bce|gte|m3e|reranker|embedding|minilm|mpnet|gtr|e5-|nomic")
_NOT_SUBJECT_HEADS = frozenset((
    "cuda", "cudnn", "nccl", "torch", "pytorch", "python", "flash", "auto", "triton", "transformer",
    "transformers", "tensor", "pipeline", "data", "sequence", "context", "expert", "gpu", "cpu", "ubuntu",
    "centos", "linux", "windows", "docker", "nvidia", "driver", "ray", "x", "bf16", "fp16", "fp8", "int4",
    "int8", "zero", "lora", "qlora", "q4", "q8", "mixed", "full", "multi", "single", "pre", "post", "non",
    "self", "cross", "top", "max", "min", "rtx", "gtx", "nvlink", "pcie", "sxm", "hbm", "ddr4", "ddr5",
))  # fmt: skip
"""First parts of joined words that name software, hardware or a setting, not a model ('Flash-Attention
的显存', 'CUDA-12.4 的环境', 'multi-node 的训练'): never read as the subject model."""


def _is_codebase(s: str, start: int) -> bool:
    """Whether the joined name at ``start`` of ``s`` is a training codebase (:mod:`bot.parse.codebases`)."""
    joined = "-" in s or "_" in s  # every codebase name is joined by one (bot.parse.codebases)
    return joined and CODEBASE_RE.search(s) is not None and any(b == start for b, _e, _n in codebase_spans(s))


_PROPER = re.compile(r"[A-Z][a-z]{2,}")
_NOT_MODEL_WORDS = frozenset((
    "english", "chinese", "japanese", "korean", "french", "german", "spanish", "russian", "arabic",
    "multilingual", "python", "colab", "kaggle", "please", "then", "again", "locally", "online", "offline",
    "with", "using", "it", "them", "this", "that", "on", "in", "for", "from", "and",
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "today", "tomorrow",
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december", "monday's", "friday's", "weekend", "night", "morning",
    "dgx", "hgx", "superpod",
))  # fmt: skip
"""Capitalized words that follow or precede a job verb without naming a model (s38: '2台DGX 训练 7B': a
DGX/HGX system is 8 cards, bot.parse.roles.R_DGX, never a model's name)."""
_CJK_RE = re.compile(r"[\u4e00-\u9fff]")
_LOWER_NAME_GATE = re.compile(
    r"(?<![a-z0-9.\-_/])[a-z][a-z0-9]*(?:-[a-z0-9.]+)*[\-_][a-z0-9.]*\d|[a-z0-9]-(?:reranker|embedding)|(?:reranker|embedding)-"
    r"|(?<![a-z0-9])(?:bge|bce|gte|m3e|nomic)-"  # s33: Nomic's nomic-embed-text
)
"""Round 19: a name typed all in lower case is still one when joined by hyphens with a digit in it
('bge-base-zh-v1.5', 'm3e-base' is not: its digit leads no part); a message typed all in lower case
with none has no name for this step. Round 21 zh: the digit after an underscore ('bce-reranker-base_v1'), and
a retrieval model's kind word inside the joined name ('bge-reranker-large', 'foo-embedding-base')."""
_RETRIEVAL_PART_RE = re.compile(r"[\-_](?:reranker|embedding)(?:$|[\-_])|^(?:reranker|embedding)[\-_]")
"""A joined name with a retrieval model's kind word as one part ('bge-reranker-large', 'gte-embedding-zh'):
typed as a name though it has no digit nor capital (round 21 zh: such names were dropped); never the bare
word ('decoder_only reranker 微调 bge-…': the kind of model, not its name)."""
_VERSION_RE = re.compile(r"v\d+(?:_\d+)+[a-z0-9]*")
"""A software version as bot.parse.written_units writes it ('vllm 0.7.3' → 'v0_7_3'): never a model's name
(round 16 zh: 'vllm 0.7.3 部署 OCRFlux' named the version, not the model after the verb)."""


COINED_CUES = ("大模型", "大语言模型", "gpt", "llm", "glm", "叫", "called", "named")
"""The words of :mod:`bot.parse.coined_names`' forms other than a dotted name (:data:`DOTTED_CUE`)."""
GLUED_CUES = ("llava", "llama", "vicuna", "qwen", "mistral", "gemma", "minicpm", "internvl")
"""Model families whose derivatives keep the family's word after a project's own ('TinyLLaVA', s35):
:mod:`bot.parse.coined_names`."""
DOTTED_CUE = re.compile(r"[a-z]\.[a-z]{2}")
"""A dot between letters ('dots.ocr'): the cue of a dotted name, searched in C (no gate frame)."""

_BENCHMARK_RE = re.compile(
    r"(?:mmlu|cmmlu|c-?eval|gsm8k|gsm|humaneval|mbpp|alpaca-?eval|arena-?hard|longbench|needle|niah|ruler|math"
    r"|aime|gpqa|bbh|hellaswag|truthfulqa|arc|winogrande|squad|ifeval|mt-?bench|swe-?bench|livecodebench"
    r"|lm-?eval|helm|opencompass|agieval|mmmu|mmbench|mathvista|docvqa|textvqa|chartqa)(?:[\-_.]|$)"
    r"|(?:^|.*[\-_])(?:bench|eval|evals)(?:[\-_.]|$)"
)
"""A benchmark's or a data set's name ('MMLU-Pro-2', 'MT-Bench-101', 'LongBench-v2', 'GSM8K-Platinum',
'Needle-in-a-Haystack-128k'): what a job is run on, never the model (s34 review)."""


def benchmark_name(low: str) -> bool:
    """Whether ``low`` (a name, lower case) is a benchmark's or a data set's (:data:`_BENCHMARK_RE`): an
    unknown name of these is never sized as the model."""
    return _BENCHMARK_RE.match(low) is not None


def _model_shaped(low: str) -> bool:
    """S36-gen2 (zh32-021): a joined name typed in lower case among capitals ('用官方 hf 版的 cogvlm-chat-hf
    推理'): a model's when it carries a model's part ('cogvlm-chat-hf') or ends in a release suffix
    ('foo-chat-hf'); a tool's joined name carries neither ('llama-factory')."""
    from bot.parse.unknown_tools import model_shaped  # lazily: a lower-case name is rare

    return model_shaped(low)


def _other_name_blanked(s: str) -> str:
    """``s`` with a name's other name in brackets (:data:`_ALIAS_AFTER_RE`) blanked, offsets kept."""
    alias = _ALIAS_AFTER_RE.search(s)
    return s[: alias.start()] + " " * (alias.end() - alias.start()) + s[alias.end() :] if alias else s


def job_named_model(s: str, typed: Typed, raw: str) -> tuple[int, int, str] | None:
    """(start, end, name as typed) of a name beside a job word in the normalized ``s`` (module docstring)."""
    s = _other_name_blanked(s) if "(" in s and "-" in s else s  # r46 zh: 'foo-v2(foo-llama3-v-2)做 lora'
    lower = raw == raw.lower() and not _LOWER_NAME_GATE.search(s)  # round 19: 'bge-base-zh-v1.5'
    if lower and not (_CJK_RE.search(raw) or UNCASED_CUE.search(s)):  # s33: '微调 cogvlm' (uncased_names)
        return None
    chinese = bool(_CJK_RE.search(raw))
    patterns = (BEFORE_JOB_RE, AFTER_JOB_RE, SIZE_CLAUSE_RE) if chinese else (AFTER_JOB_RE,)
    patterns = (*patterns, RUN_NAME_RE) if chinese and "运行" in s else patterns  # round 27 zh
    if "跑" in s or "运行" in s or "run" in s or "ran " in s:  # s43-workmiss: '跑 YAYI2', 'run Aquila2'
        patterns = (*patterns, RUN_VERSIONED_RE)
    if not chinese and (" inference" in s or " serving" in s or " fine" in s or " deployment" in s):
        patterns = (*patterns, EN_BEFORE_JOB_RE)  # s46: 'for HuatuoGPT inference'
    if chinese and ("模型" in s or "llm" in s) and ("这" in s or "那" in s):  # round 28 zh: 'Foo 这个模型'
        patterns = (*patterns, THIS_MODEL_RE)
    if "/" in s and "-" in s:  # round 26: an 'org/name' id first: its name, never the organization
        patterns = (HF_REPO_RE, *patterns)
    if "-" in s:  # a joined name as the subject (round 14), after the job-word forms
        run = "跑" in s or "运行" in s or "run" in s or "ran " in s  # round 25 en: 'running Foo-K2.5'
        patterns = (*patterns, JOINED_SUBJECT_RE, *((RUN_JOINED_RE,) if run else ()))
        if _RETRIEVAL_GATE.search(s):  # round 22 zh: a retrieval model anywhere, last
            patterns = (*patterns, RETRIEVAL_NAME_RE)
    for pattern in patterns:
        for m in pattern.finditer(s):
            name = typed(m.group("name"))
            low = name.lower()
            if low in NOT_NAMES or low in NOT_PROPER or low in _NOT_MODEL_WORDS or _VERSION_RE.fullmatch(low):
                continue
            if _in_longer_name(s, m):
                continue
            soft = low.split("-", 1)[0] in _NOT_SUBJECT_HEADS  # software: "运行 cuda-12.4 的环境"
            soft = soft or low.rstrip("0123456789.") in _NOT_SUBJECT_HEADS  # s43: 'run Python3', '跑 cuda12'
            if pattern in (RUN_NAME_RE, THIS_MODEL_RE, RUN_VERSIONED_RE, EN_BEFORE_JOB_RE) and (
                soft or lx.INFERENCE_RE.search(low) or ANY_TOOL_RE.search(low) or is_gpu_name(low)
            ):
                continue  # round 27 zh: an engine, tool or software run, not a model ('运行 vLLM 的时候')
            if pattern is EN_BEFORE_JOB_RE and low in _NOT_EN_JOB_HEADS:
                continue  # s46: 'for CPU inference', 'for LLM inference': no model
            if pattern is BEFORE_JOB_RE and _MEANS_SLOT_RE.search(s, max(0, m.start() - 4), m.start()):
                from bot.parse.unknown_tools import model_shaped  # lazily: this case is rare

                # round 22 zh: '用 FlagEmbedding 部署 bge-m3': the job's means, a tool (lower_tools);
                if not model_shaped(low):  # s36-cin: '用 ChatGLM-Tuning 微调': a tool named after a family
                    continue  # r32: '用 cogvlm-chat-hf 推理'; s36-gen2: '用 CogVLM 推理': a model
            if (pattern is JOINED_SUBJECT_RE or pattern is RUN_JOINED_RE) and (
                low.split("-", 1)[0] in _NOT_SUBJECT_HEADS or _is_codebase(s, m.start("name"))
            ):
                continue  # software, or a training codebase ('复现 Logic-RL 的': bot.parse.codebases)
            if (
                pattern is HF_REPO_RE
                or name_like(name)
                or _PROPER.fullmatch(name)
                or _RETRIEVAL_PART_RE.search(low)
                or _RETRIEVAL_HEAD.match(low)
                or (getattr(typed, "uncased", False) and _uncased(name, low, raw))
                or ("-" in low and _model_shaped(low))
            ):
                return m.start("name"), m.end("name"), name
    if "-" in s:  # round 28 en: 'inference with Foo-Chat-V1.5', 'does Foo-VL-2.6 need' (job_objects)
        found = _job_object(s, typed, chinese)
        if (found := found or (_prep_joined(s, typed) if PREP_JOINED_RE.search(s) else None)) is not None:
            return found  # s34-gen2: a preposition before the joined name
    coined = any(map(s.__contains__, COINED_CUES)) or any(map(s.__contains__, GLUED_CUES))
    if coined or DOTTED_CUE.search(s):  # s33-gen2: '荀子大模型', 'dots.ocr'
        from bot.parse.coined_names import coined_name  # lazily: its cues are rare

        found = coined_name(s, typed, raw)
        if found is not None:
            return found
    if any(map(s.__contains__, ARCHITECTURE_CUES)):  # s48 names: 'does RWKV need', an architecture as model
        from bot.parse.architectures import architecture_named  # lazily: its cues are rare

        found = architecture_named(s, typed)
        if found is not None:
            return found
    if ".sh" in s or ".py" in s:  # s34-gen2: 'sh finetune_cogagent_lora.sh'
        from bot.parse.script_names import script_named_model  # lazily: a script's name is rare

        return script_named_model(s, typed)
    return None


def _job_object(s: str, typed: Typed, chinese: bool) -> tuple[int, int, str] | None:
    """The first release name of :mod:`bot.parse.job_objects`' forms in ``s`` that is no tool's, engine's,
    card's nor a catalog word's (the checks of :func:`job_named_model`), as (start, end, name as typed)."""
    from bot.parse import job_objects as jo  # lazily: only a message with a hyphen

    for m in jo.job_object(s, chinese):
        g = jo.group(m)
        name = typed(m.group(g))
        low = name.lower()
        if not jo.release_name(low) or not name_like(name) or low in NOT_NAMES or _VERSION_RE.fullmatch(low):
            continue
        if ANY_TOOL_RE.search(low) or lx.INFERENCE_RE.search(low) or _in_longer_name(s, m, g):
            continue  # 'inference with TensorRT-LLM', 'serving on RTX-4090'
        if jo.evaluated_beside_a_size(s, m):
            continue  # 'evaluation of Foo-QA-2 with a 7B model': the 7B is the model (s34 review)
        return m.start(g), m.end(g), name
    return None


def _prep_joined(s: str, typed: Typed) -> tuple[int, int, str] | None:
    """The first name of :data:`PREP_JOINED_RE` in ``s`` typed as a name (capitals inside it or a digit) that
    is no software's, card's, tool's or codebase's name, as (start, end, name as typed); s34-gen2."""
    for m in PREP_JOINED_RE.finditer(s):
        g = "zn" if m.group("zn") else "name"
        name = typed(m.group(g))
        low = name.lower()
        if not name_like(name) or low in NOT_NAMES or low.split("-", 1)[0] in _NOT_SUBJECT_HEADS:
            continue
        if ANY_TOOL_RE.search(low) or lx.INFERENCE_RE.search(low) or _in_longer_name(s, m, g):
            continue  # 'In DeepSpeed-Chat …', 'with TensorRT-LLM', 'in RTX-4090 …'
        if not _is_codebase(s, m.start(g)):
            return m.start(g), m.end(g), name
    return None


def _uncased(name: str, low: str, raw: str) -> bool:
    """A name in a message typed with no capital (bot.parse.uncased_names), not a tool's or method's
    own variant ('跑 vllm-ascend': the runtime's port, not a model)."""
    head = low.split("-", 1)[0]
    return head not in NOT_NAMES and head not in _NOT_SUBJECT_HEADS and uncased_called(name, raw)


_WORDS_BEFORE_RE = rc(r"(?:([a-z0-9][a-z0-9.\-]*)\s+)?([a-z0-9][a-z0-9.\-]*)\s+$")
_WORDS_AFTER_RE = rc(r"^\s+([a-z0-9][a-z0-9.\-]*)(?:\s+([a-z0-9][a-z0-9.\-]*))?")


def _in_longer_name(s: str, m: re.Match[str], g: str = "name") -> bool:
    """Whether the name matched (group ``g``) is part of a card's or a tool's name with up to two words
    beside it ('MTT S4000', 'Apple M1 Pro', 'LLaMA Factory'): the GPU and tool steps read those."""
    before = _WORDS_BEFORE_RE.search(s[max(0, m.start(g) - 40) : m.start(g)])
    after = _WORDS_AFTER_RE.match(s[m.end(g) : m.end(g) + 40])
    words = [w for w in (before.groups() if before else ()) if w]
    at = len(words)
    words += [m.group(g), *(w for w in (after.groups() if after else ()) if w)]
    if any(u.start() <= m.start(g) < u.end() for u in lx.UNKNOWN_GPU_RE.finditer(s)):  # '摩尔线程S4000'
        return True
    spans = [" ".join(words[i:j]) for i in range(at + 1) for j in range(at + 1, len(words) + 1)]
    return any(is_gpu_name(text) or ANY_TOOL_RE.fullmatch(text) for text in spans)
