"""An unknown model named as the object of a job noun or of 'does … need' (round 28 en, issue 24: an
unknown model keeps its name): 'offline inference with InternVL-Chat-V1.5', 'the benchmark of Foo-Chat-7B',
'How much VRAM does MiniCPM-V-2.6 need?', '用 InternVL-Chat-V1.5 做离线推理', '对 Foo-VL-2.0 进行推理',
'Foo-Chat-V1.5 离线推理要多大显存'.

Before, a release name no catalog knows and without a size part ('-V1.5', '-2.6') was named only beside a
job verb ('fine-tune X', 'serving X': :mod:`bot.parse.verb_names`); after a job noun and a preposition, or
as the subject of 'does … need', nothing was named and a default model was sized. The forms here take only
a name joined by a hyphen with a digit in it, typed as a name (:func:`bot.parse.model_names.name_like`) —
the way releases are written — and never software: a tool's or an engine's name ('inference with
TensorRT-LLM', 'training with DeepSpeed-ZeRO3'), one ending in a software word ('BigDL-LLM', 'ipex-llm':
:data:`bot.parse.tool_slots.SOFTWARE_PARTS`), a library's or a system's ('FlashAttention-2', 'CUDA-12.1',
'Ubuntu-22.04'), a card ('RTX-4090'). The caller (:func:`bot.parse.verb_names.job_named_model`) runs these
last, when no other model is named, and only for a message with a hyphen and one of the cue words.
"""

from __future__ import annotations

import re

from bot.parse.model_names import _NAME
from bot.parse.verb_names import benchmark_name

_JOB_NOUN = (
    r"(?:inference|serving|deployment|benchmark(?:s|ing)?|quantization|(?:fine[\s\-]?tun|train)(?:ing|ed|e)"
    r"|evaluation)"
)
EN_OBJECT_RE = re.compile(
    rf"\b(?P<job>{_JOB_NOUN})\s+(?:with|using|of|for|on)\s+(?:the\s+|a\s+|my\s+|our\s+)?(?P<name>{_NAME})"
    rf"(?![a-z0-9\-_]|\.[a-z0-9])"
    rf"|\b(?:does|do|would|will|can)\s+(?:the\s+)?(?P<su>{_NAME})(?![a-z0-9\-_])\s+"
    r"(?:need|require|take|use|fit|run)\b"
    rf"|\bfor\s+(?:the\s+)?(?P<fo>{_NAME})(?![a-z0-9\-_])\s+on\s+(?:\d+|a|an|one|two|four|eight|single|my)\b"
)
"""'inference with X', 'the benchmark of X', 'fine-tuning of X'; 'does X need', 'will X fit' (normalized);
s36-gen2 (en32-029): the model a job is for, on the cards it runs on ('finetune_lora … for mPLUG-Owl2 on 4
A100 40G GPUs'; before, nothing was named)."""
ZH_OBJECT_RE = re.compile(
    rf"(?:用|对|拿|把)\s*(?P<name>{_NAME})(?![a-z0-9\-_])\s*(?:来|做|进行|跑)?\s*(?:离线|在线|本地|批量|模型)?\s*"
    r"(?:推理|部署|微调|训练|量化)"
    rf"|(?<![a-z0-9.\-_/])(?P<zs>{_NAME})(?![a-z0-9\-_])\s*(?:离线|在线|本地|批量)\s*(?:推理|部署)"
)
"""'用 X 做离线推理', '对 X 进行推理', 'X 离线推理' (a name, then a job qualified as offline, local …)."""
EN_CUES = ("inference", "serving", "deployment", "benchmark", "quantization", "tun", "train", "evaluation")
"""The English forms' words (the caller's gate: a message with none of them pays a substring test)."""
ZH_CUES = ("推理", "部署", "微调", "训练", "量化")
_ASK_CUES = ("does ", "will ", "would ", "can ", "do ")
"""The words of the 'does X need' form."""
_SOFTWARE_END = re.compile(r"[\-_](?:llm|gpt|lm|cpp|rs|ai|serve|server|studio|engine|core|kit|sdk)$")
"""A name ending in a software word ('BigDL-LLM', 'ipex-llm', 'Foo-Serve'): a tool, never the model."""
_NOT_HEADS = frozenset((
    "flashattention", "flash_attn", "xformers", "sdpa", "cuda", "cudnn", "nccl", "torch", "pytorch",
    "python", "ubuntu", "centos", "debian", "windows", "linux", "docker", "driver", "rocm", "jetpack",
    "tensorrt", "onnx", "openvino", "triton", "deepspeed", "megatron", "zero", "fsdp", "lora", "qlora",
    "bf16", "fp16", "fp8", "int4", "int8", "rtx", "gtx", "a100", "h100", "gpu", "cpu", "tp", "pp", "ep",
))  # fmt: skip
"""First parts of joined words that name software, a setting or hardware ('CUDA-12.1', 'FlashAttention-2')."""
_SIZE_RE = re.compile(r"(?<![a-z0-9.\-_])\d+(?:\.\d+)?\s*[bm](?![a-z0-9])")
"""A model size in figures ('7B', '1.5 b', '350M')."""


def job_object(s: str, zh: bool) -> list[re.Match[str]]:
    """The matches of this module's forms in the normalized text ``s`` (Chinese ones when ``zh``), in
    order; the caller checks each name (:func:`release_name`) and its neighbours."""
    out: list[re.Match[str]] = []
    if zh and any(map(s.__contains__, ZH_CUES)):
        out += ZH_OBJECT_RE.finditer(s)
    if any(map(s.__contains__, EN_CUES)) or any(map(s.__contains__, _ASK_CUES)):
        out += EN_OBJECT_RE.finditer(s)
    return out


def group(m: re.Match[str]) -> str:
    """The name group a match of this module's forms holds."""
    return next(g for g in ("name", "su", "zs", "fo") if m.groupdict().get(g))


def release_name(low: str) -> bool:
    """Whether ``low`` (a name, lower case) is written as a model's release: joined by a hyphen with a
    digit in it, and no software's, setting's or card's name (see the module docstring)."""
    return (
        "-" in low
        and any(map(str.isdigit, low))
        and re.split(r"[\-_]", low, maxsplit=1)[0] not in _NOT_HEADS
        and _SOFTWARE_END.search(low) is None
        and not benchmark_name(low)
    )


def evaluated_beside_a_size(s: str, m: re.Match[str]) -> bool:
    """Whether ``m`` names what an evaluation or a benchmark is run on ('evaluation of Foo-QA-2 with a 7B
    model') while a size is written outside the name: the size is the model's, the object a task's."""
    job = m.groupdict().get("job") or ""
    if not job.startswith(("evaluation", "benchmark")):
        return False
    start, end = m.span("name")
    return any(not start <= x.start() < end for x in _SIZE_RE.finditer(s))
