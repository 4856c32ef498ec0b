"""Step 2a, after the settings words: settings written as a tool's own keys and words (issue 24, round 2).

- **dtype keys** (``--dtype bfloat16``, ``dtype=torch.float16``, ``torch_dtype="bfloat16"``): the
  weights' format, as vLLM, SGLang, TGI (``EngineArgs.dtype``; ``--dtype``) and HF ``from_pretrained``
  (``torch_dtype``) read it; ``auto`` names no format and is named as the tool's own choice.
- **Optimizer names** (``AdamW``, ``adamw_torch``, ``optim="adamw_torch_fused"``, ``Adam``): Adam and AdamW
  keep the same two FP32 moments per parameter (PyTorch ``torch.optim.Adam``/``AdamW``, Loshchilov &
  Hutter 2019), sized as ``adamw``; ``adamw_torch`` / ``adamw_torch_fused`` also name the step's
  implementation (foreach / fused: :data:`estimator.request_optimizer.ADAMW_IMPLEMENTATIONS`); SGD,
  Adafactor, Lion, Muon and GaLore keep other states, named as not sized. 8-bit AdamW is read before
  (:data:`bot.parse.settings.OPTIMIZER_RE`).
- **Where the layers are** in llama.cpp's words (its ``llm_load_tensors: offloaded 44/81 layers to GPU``
  log; Ollama and koboldcpp print the same): "44 of 81 layers on the GPU" keeps the rest in CPU memory
  (a partial offload, as ``-ngl 44``); "all layers on the GPU", "fully on the GPU", "without putting
  layers in RAM" is no CPU offload, and is the setup asked about when both are written.
- **Front-ends built on llama.cpp** (koboldcpp, llamafile, LM Studio, GPT4All: each README says it runs
  llama.cpp / GGML): sized with llama.cpp's memory model and named as such, never silently replaced.

Each match is masked so its digits are not read again. Every rule is gated on a cheap substring check.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot.parse.normalize import MODEL_MARK, mask
from bot.parse.regex import rc, words_gate
from estimator.request_optimizer import ADAMW_IMPLEMENTATIONS

if TYPE_CHECKING:
    from bot.parse.settings import Settings

DTYPE_RE = rc(
    r"(?<![a-z0-9_\-])-{0,2}(?:torch[_\s\-]*)?dtype\s*(?:=|:)?\s*(?:torch\.)?"
    r"(?P<v>bfloat16|bf16|float16|fp16|half|float32|fp32|float|auto)(?![a-z0-9])"
)
"""A dtype key and its value ('--dtype=bfloat16', 'torch_dtype=torch.float16', 'dtype: half'); not
'--kv-cache-dtype' (the KV cache's, read by :data:`bot.parse.vocab_patterns.KV_FP8_RE`)."""
DTYPES = {
    "bfloat16": "bf16", "bf16": "bf16", "float16": "fp16", "fp16": "fp16", "half": "fp16",
    "float32": "fp32", "fp32": "fp32", "float": "fp32",
}  # fmt: skip
"""dtype values → weight format (vLLM ``_STR_DTYPE_TO_TORCH_DTYPE``: half = float16, float = float32)."""

OPTIMIZER_NAME_RE = rc(
    r"(?<![a-z0-9])(?:optim(?:izer)?s?\s*(?:=|:|is)?\s*)?"
    r"(?P<o>adamw(?:[_\-](?:torch(?:[_\-]fused)?|hf|apex[_\-]fused))?|adam|sgd|adafactor|lion|muon|galore)"
    r"(?![a-z0-9_\-])"
)
"""An optimizer by name ('AdamW', 'adamw_torch', 'optim adafactor', 'Lion')."""
LOMO_RE = rc(r"(?<![a-z0-9])(?P<o>(?:ada)?lomo)(?![a-z0-9_\-])")
"""Round 33 zh: OpenLMLab's LOMO and AdaLomo, which fuse the update into the backward pass and keep no Adam
moments ('LOMO 说 8 张 3090 能全量微调 llama-65B'): named as not sized, as Lion is (its own pattern: a
branch more in :data:`OPTIMIZER_NAME_RE` costs the other questions searches)."""
SAME_AS_ADAMW = ("adamw", "adam")
PAGED_32 = "paged_adamw_32bit"
"""HF's PAGED_ADAMW (transformers OptimizerNames; bitsandbytes PagedAdamW32bit): AdamW's two fp32 moments in
paged memory, sized as AdamW (bot.parse.configs.training.OPTIMIZERS), in prose too ('optim paged_adamw_32bit';
s46 round 42: dropped in silence before; a branch of :data:`OPTIMIZER_NAME_RE` cost 7 searches a corpus)."""

LAYERS_ON_GPU_RE = rc(
    r"(?:all|every|entire)\s+(?:of\s+)?(?:the\s+|my\s+|its\s+)?(?:\d{1,3}\s*/\s*\d{1,3}\s+|\d{1,3}\s+)?layers?\s+"
    r"(?:\w+\s+){0,2}?(?:on|onto|to|into|in)\s+(?:(?:the\s+)?(?:gpus?|vram)(?![a-z])"
    r"|(?=(?:the\s+|my\s+)?(?:\d|two|three|four|eight)\s+gpus?(?![a-z])))"  # s43: 'on my two GPUs'
    r"|(?:fully|entirely|completely)\s+(?:\w+\s+)?(?:on|in|into|onto)\s+(?:the\s+)?(?:gpus?|vram)(?![a-z])"
    r"|without\s+(?:putting|keeping|leaving|offloading|moving)\s+(?:any\s+)?layers?\s+(?:in|to|into|on)\s+"
    r"(?:the\s+)?(?:system\s+|cpu\s+)?(?:ram|cpu|memory)(?![a-z])"
    r"|(?:全部|所有)(?:的)?\s*(?:\d{1,3}\s*)?层\s*(?:都)?\s*(?:放|加载|跑|卸载)\s*(?:到|在|进)?\s*(?:gpu|显存|显卡)"
)
"""Every layer on the GPU: no CPU offload ('get all layers onto the GPUs', 'all 43/43 layers on the GPU',
'fully on the GPU', 'without putting layers in RAM', '全部层都放到显存'; s29: '全部层放 GPU', as 'all layers
on the GPU' is)."""
LAYER_SPLIT_RE = rc(
    r"(?P<k>\d{1,3})\s*(?:/|of|out\s+of)\s*(?:(?:my|the|its|[a-z]+'s)\s+){0,2}(?P<n>\d{1,3})\s*(?:layers?|层)"
)
"""'44 of my model's 81 layers', '40/43 layers', '30/61 层': that many layers on the GPU, of all."""

LLAMA_CPP_FRONTENDS = (
    (rc(r"\bkobold[\s.\-_]*cpp\b"), "koboldcpp"),
    (rc(r"\bllamafile\b"), "llamafile"),
    (rc(r"\blm[\s\-_]*studio\b"), "LM Studio"),
    (rc(r"\bgpt4all\b"), "GPT4All"),
    (rc(r"\balpaca[\s.\-_]*cpp\b"), "alpaca.cpp"),  # s37 round 33: llama.cpp's fork for Alpaca (its README)
    # r35 en: LangChain's llama.cpp class ('the LangChain LlamaCpp tutorial', 'LlamaCpp from langchain')
    (
        rc(
            r"\blangchain(?:'s)?\s+llama[\s\-_]*cpp\b"
            r"|\bllama[\s\-_]*cpp\s+(?:class\s+)?(?:from|in|of)\s+langchain\b"
        ),
        "LangChain",
    ),
)
"""Serving front-ends that run llama.cpp (koboldcpp, llamafile, LM Studio and GPT4All READMEs; LangChain's
``LlamaCpp`` wraps llama-cpp-python: its docs' integrations/llms/llamacpp page)."""
_FRONTEND_WORDS = ("kobold", "llamafile", "studio", "gpt4all", "alpaca", "langchain")
_FRONTEND_RE = words_gate(_FRONTEND_WORDS)
_OPTIMIZER_RE = words_gate(("adam", "sgd", "adafactor", "lion", "muon", "galore", "lomo"))


def read_written_settings(out: Settings, training: bool) -> None:
    """dtype keys, optimizer names, where the layers are, llama.cpp front-ends (module docstring)."""
    s = out.s
    if "dtype" in s:
        _dtype(out)
    if _OPTIMIZER_RE.search(s):
        _optimizer(out)
    if "layer" in s or "层" in s or "fully" in s or "entirely" in s or "completely" in s:
        _layers(out, training)
    if not training and _FRONTEND_RE.search(s):
        _frontends(out)
    if "liger" in s:  # 'with the Liger kernel' (its config keys: bot.parse.inline_keys)
        from bot.parse.liger_words import read_liger  # here: rare, nothing more at start-up

        read_liger(out, training)


def _dtype(out: Settings) -> None:
    m = DTYPE_RE.search(out.s)
    if not m:
        return
    out.s = mask(out.s, m.start(), m.end(), " ")
    value = m.group("v")
    if value == "auto":  # the tool picks the checkpoint's own dtype at run time
        out.unused.append(("dtype: auto", "auto_value"))
    elif "precision" in out.fields:  # a quantized model's bit width was said: dtype is its compute type
        out.unused.append((f"dtype: {value}", "not_sized"))
    else:
        out.fields["precision"] = DTYPES[value]


def _optimizer(out: Settings) -> None:
    if PAGED_32 in out.s and "optimizer" not in out.fields:  # s46 round 42: a literal test, no search
        at = out.s.index(PAGED_32)
        out.s, out.fields["optimizer"] = mask(out.s, at, at + len(PAGED_32), " "), "adamw"
        return
    m = OPTIMIZER_NAME_RE.search(out.s) or (LOMO_RE.search(out.s) if "lomo" in out.s else None)
    if not m:
        return
    out.s = mask(out.s, m.start(), m.end(), " ")
    name = m.group("o")
    if "optimizer" in out.fields:  # an 8-bit AdamW was read: this is the same optimizer's family
        return
    if name.split("_")[0].split("-")[0] in SAME_AS_ADAMW:
        out.fields["optimizer"] = "adamw"
        impl = ADAMW_IMPLEMENTATIONS.get(name.lower().replace("-", "_"))
        if impl:  # 'adamw_torch': foreach; 'adamw_torch_fused': fused (estimator.adamw_step)
            out.fields["optimizer_impl"] = impl
    else:  # sized as AdamW, named as not used; no AdamW change offered over it (estimator.fit_change)
        out.unused.append((f"optimizer: {name}", "no_field"))
        out.fields["optimizer_other"] = name.lower()


def _layers(out: Settings, training: bool) -> None:
    if "层" in out.s:
        out.s = LAYERS_OF_CN_RE.sub(lambda m: f"{m.group(2)}/{m.group(1)} 层".ljust(len(m.group(0))), out.s)
    all_on_gpu = LAYERS_ON_GPU_RE.search(out.s)
    splits = [] if training else [m for m in LAYER_SPLIT_RE.finditer(out.s) if _on_gpu_near(out.s, m)]
    for m in splits:
        out.s = mask(out.s, m.start(), m.end(), " ")
    if all_on_gpu:
        out.s = mask(out.s, all_on_gpu.start(), all_on_gpu.end(), " ")
        out.fields["offload"] = False
        whole = LAYER_SPLIT_RE.search(all_on_gpu.group(0))  # s35: 'all 81/81 layers offloaded to the GPUs'
        if whole and whole.group("k") == whole.group("n"):  # as llama.cpp counts them: -ngl 81, every one
            out.fields.setdefault("gpu_layers", int(whole.group("k")))
        return
    if not splits:
        if out.fields.get("offload") is False and "/" in out.s:  # s35: 'all 81/81 layers offloaded to …'
            _every_layer(out)  # read before as every layer on the GPU; the count is -ngl
        return
    on_gpu, total = int(splits[0].group("k")), int(splits[0].group("n"))
    if out.fields.get("offload") is False:  # "all layers on the GPU" was read before: the setup asked about
        return
    if total > 0 and on_gpu < total:  # the rest of the layers stay in CPU memory, as -ngl N
        out.fields["offload"] = True
        out.fields.setdefault("gpu_layers", on_gpu)  # llama.cpp's 'offloaded 44/81 layers': -ngl 44
        out.notes.append("partial_gpu_layers")
    elif on_gpu == total:  # '43/43 layers on the GPU': every one, -ngl 43 (s35)
        out.fields["offload"] = False
        out.fields.setdefault("gpu_layers", on_gpu)


def _every_layer(out: Settings) -> None:
    """'all 81/81 layers offloaded to the GPUs' once its GPU words were read as no offload: 81 is the
    ``-ngl`` (llama.cpp counts the output layer, so every layer), kept as the user's count."""
    whole = LAYER_SPLIT_RE.search(out.s)
    if whole and whole.group("k") == whole.group("n"):
        out.s = mask(out.s, whole.start(), whole.end(), " ")
        out.fields.setdefault("gpu_layers", int(whole.group("k")))


_GPU_NEAR_RE = rc(
    r"gpu|vram|cuda|offload|显存|显卡|\bcpu\b|\bram\b|内存|\brtx\b|\bcards?\b|(?<![\d.])\d{4}(?:\s*ti)?\b"
)
"""Where layers run: a GPU, its memory or the CPU's, a card ('on a 16GB 4070 Ti; the rest on CPU')."""
LAYERS_OF_CN_RE = rc(r"(?<![\d.])(\d{1,3})\s*层\s*(?:里|中|当中|里面)\s*(?:的|有)?\s*(\d{1,3})\s*层")
"""'48 层里 40 层放在 GPU 上': written '40/48 层' (that many of all the layers)."""


def _on_gpu_near(s: str, m: re.Match[str]) -> bool:
    """Whether a GPU or offload word is written near a layer split ('offloaded 44/81 layers to GPU'),
    so it is not a count of frozen or trained layers."""
    return bool(_GPU_NEAR_RE.search(s[max(0, m.start() - 40) : m.end() + 40]))


def _frontends(out: Settings) -> None:
    for pattern, name in LLAMA_CPP_FRONTENDS:
        if pattern.search(out.s):
            out.fields.setdefault("runtime", "llama.cpp")
            out.unused.append((f"runtime: {name}", "llama_cpp_based"))


_WIDE_DTYPES = ("fp16", "bf16", "fp32", "float16", "bfloat16", "float32")


def name_suffix(s: str, start: int) -> bool:
    """Whether the precision word at ``start`` is a 16- or 32-bit dtype ending a model's name
    ('WizardLM-30B-fp16', 'foo-7b-bf16'): the checkpoint's dtype, read after a precision written on its own
    ('nf4 4-bit', '--dtype bfloat16'), which is the setting of the job (QLoRA quantizes a 16-bit checkpoint
    to 4 bits). A quantized name ('-AWQ', '-int4', '-FP8') is the format of the weights served: not this.
    s34-gen: a quantize call's format ('.quantize(4)', written 'quantize_int4' by bot.parse.written_names)
    is read after a format written as a word ('放得下 int8 吗'): how the model is loaded now, not the one
    asked."""
    if s.endswith("quantize_", 0, start):
        return True
    if start < 2 or s[start - 1] not in "-_" or not s.startswith(_WIDE_DTYPES, start):
        return False
    return s[start - 2].isalnum() or s[: start - 1].rstrip(" ").endswith(MODEL_MARK)  # a masked name
