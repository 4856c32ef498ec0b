"""Xinference's ``xinference launch`` command (xorbitsai/inference ``xinference/deploy/cmdline.py``): the
model is ``--model-name`` at ``--size-in-billions``, the weights' precision comes from ``--model-format``
and ``--quantization``, the runtime from ``--model-engine``, and the GPUs from ``--n-gpu`` (per copy; the
vLLM engine's tensor-parallel size, ``xinference/model/llm/vllm/core.py``), ``--replica`` and
``--gpu-idx``. The rows are :data:`bot.parse.configs.meaning.MEANING` ``["xinference"]``; the rest of its
flags (and the engine keys ``launch`` forwards, ``--gpu_memory_utilization 0.9``) go through the serving
reader like any engine's.
"""

from __future__ import annotations

import re
from typing import Any

from bot.parse.configs.model import StackConfig

ENGINES = {"vllm": "vLLM", "sglang": "SGLang", "transformers": "transformers", "llama.cpp": "llama.cpp"}
"""``--model-engine`` values the estimator models (``estimator.models.Runtime``); others (MLX) are named."""
FORMATS = {"awq": "int4", "gptq": "int4", "fp8": "fp8"}
"""``--model-format`` → precision; ``pytorch`` is the weights as released, GGUF and MLX say their bits in
``--quantization``."""
QUANTIZATIONS = {"int4": "int4", "4-bit": "int4", "4bit": "int4", "int8": "int8", "8-bit": "int8",
                 "8bit": "int8", "fp8": "fp8"}  # fmt: skip
"""``--quantization`` → precision (Xinference's spellings: 'Int4', '4-bit', 'Int8', '8-bit', 'fp8')."""
SPECIAL = frozenset({"-n", "--model-name", "-s", "--size-in-billions", "-f", "--model-format", "-q",
                     "--quantization", "-en", "--model-engine", "-r", "--replica", "--gpu-idx"})  # fmt: skip
"""Flags read here; the others go through :func:`bot.parse.configs.launchers._serve_flag`."""
SIZE_RE = re.compile(r"\d+(?:[_.]\d+)?")


def size_in_billions(value: Any) -> str | None:
    """'72' → '72B', '1_5' → '1.5B' ('_' is Xinference's decimal point, llm_family.py); None otherwise."""
    text = str(value).strip()
    return text.replace("_", ".") + "B" if SIZE_RE.fullmatch(text) else None


SUFFIX_RE = re.compile(r"(?P<base>.+?)(?P<suffix>(?:-(?:instruct|chat|it|base))+)(?P<tail>-v\d[\w.]*)?", re.I)
"""A registry name's trailing '-instruct' / '-chat' (and a version after it: 'mistral-instruct-v0.3')."""


def sized_name(name: str, size: str) -> str:
    """Xinference's registry name at a size, written as the model's own name is: 'qwen2.5-instruct' at
    72B → 'qwen2.5-72B-instruct', 'deepseek-r1-distill-qwen' at 1.5B → 'deepseek-r1-distill-qwen-1.5B'."""
    m = SUFFIX_RE.fullmatch(name)
    if m is None:
        return f"{name}-{size}"
    return f"{m['base']}-{size}{m['suffix']}{m['tail'] or ''}"


def precision_of(flag: str, value: Any) -> str | None:
    """The precision a ``--model-format`` or ``--quantization`` value names (GGUF types as the prose
    reads them: 'Q4_K_M' → q4_k_m), or None."""
    text = str(value).strip().lower()
    if flag in ("-f", "--model-format"):
        return FORMATS.get(text)
    if text in QUANTIZATIONS:
        return QUANTIZATIONS[text]
    from bot.parse import precision_words as pw

    m = pw.PRECISION_RE.search(text)
    if m is None:
        return None
    p = m.group("p").replace(" ", "").replace("-", "")
    return pw.PRECISION_MAP.get(p, pw.BIT_WIDTHS.get(p))


def raw_value(argv: list[str], flag: str) -> str | None:
    """A flag's value as written ('-s 1_5': the scalar reader makes int('1_5') = 15 of it)."""
    for i, word in enumerate(argv):
        if word.startswith(flag + "="):
            return word.partition("=")[2]
        if word == flag and i + 1 < len(argv):
            return argv[i + 1]
    return None


def read_special(pairs: list[tuple[str, Any]], cfg: StackConfig, argv: list[str]) -> list[tuple[str, Any]]:
    """Read the flags of :data:`SPECIAL` into ``cfg`` (``argv``: the command's words, for the values as
    written); return the other pairs, in order."""
    rest, size, replicas, listed = [], None, None, None
    for flag, value in pairs:
        if flag not in SPECIAL:
            rest.append((flag, value))
        elif flag in ("-n", "--model-name"):
            cfg.model_name, cfg.used[flag] = str(value), "model"
        elif flag in ("-s", "--size-in-billions"):
            size = size_in_billions(raw_value(argv, flag) or value)
            if size is None:
                cfg.skip(flag, value, "bad_value")
            else:
                cfg.used[flag] = "model"
        elif flag in ("-f", "--model-format", "-q", "--quantization"):
            _precision(cfg, flag, value)
        elif flag in ("-en", "--model-engine"):
            _engine(cfg, flag, value)
        elif flag in ("-r", "--replica"):
            replicas = _count(cfg, flag, value)
        else:
            listed = _gpu_list(cfg, flag, value)
    if cfg.model_name and size:
        cfg.model_name = sized_name(cfg.model_name, size)
    _finish(cfg, rest, replicas, listed)
    return rest


def _precision(cfg: StackConfig, flag: str, value: Any) -> None:
    value = "none" if value is None else value  # '-q none': the YAML-ish scalar reader's None
    precision = precision_of(flag, value)
    if precision is not None:
        if flag in ("-q", "--quantization") or "precision" not in cfg.values:
            cfg.set(flag, "precision", precision)  # the quantization says the bits over the format
        else:
            cfg.used[flag] = "precision"
    elif str(value).strip().lower() in ("none", "pytorch", "ggufv2", "mlx"):
        cfg.skip(flag, value, "not_sized")  # the release precision, or the bits given by --quantization
    else:
        cfg.skip(flag, value, "bad_value")


def _engine(cfg: StackConfig, flag: str, value: Any) -> None:
    runtime = ENGINES.get(str(value).strip().lower())
    if runtime is None:
        cfg.skip("runtime", str(value), "runtime_not_modelled")
    else:
        cfg.set(flag, "runtime", runtime)


def _count(cfg: StackConfig, flag: str, value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        cfg.used[flag] = "gpu_count"
        return value
    cfg.skip(flag, value, "bad_value")
    return None


def _gpu_list(cfg: StackConfig, flag: str, value: Any) -> int | None:
    text = ",".join(map(str, value)) if isinstance(value, list) else str(value)
    if re.fullmatch(r"\d+(?:\s*,\s*\d+)*", text):
        cfg.used[flag] = "gpu_count"
        return len(text.split(","))
    cfg.skip(flag, value, "bad_value")
    return None


def _finish(cfg: StackConfig, rest: list[tuple[str, Any]], replicas: int | None, listed: int | None) -> None:
    """The runtime when no engine was named, and the GPUs: --n-gpu per copy (the listed GPUs ÷ copies
    when it is not given) × copies."""
    cfg.skip("runtime", "Xinference", "runtime_not_modelled")  # its own memory; sized as the engine it runs
    per_copy = next((v for f, v in rest if f == "--n-gpu" and isinstance(v, int) and v > 0), None)
    copies = replicas or 1
    if per_copy is None and listed and listed % copies == 0:
        per_copy = listed // copies
        cfg.set("--gpu-idx", "tp", per_copy)
    if per_copy is not None and (replicas or listed):
        cfg.values["gpu_count"] = per_copy * copies
    elif per_copy is not None:
        cfg.values.setdefault("gpu_count", per_copy)
