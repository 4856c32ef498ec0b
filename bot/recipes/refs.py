"""Names the tools need for a model: the Hugging Face repo id, a GGUF file name, the LLaMA-Factory chat
template, the torchtune config. Taken from the catalog entry the answer sized, never guessed for
another model; a model without one gets a path placeholder the user fills in.
"""

from __future__ import annotations

import re

from estimator import catalog
from estimator.catalog import ModelSpec


def catalogued(spec: ModelSpec | None) -> bool:
    """A published model of the catalog (not the generic shape the estimator interpolates for a size)."""
    return spec is not None and spec.id in catalog.models()


_REPO_RE = re.compile(r"(?<![\w./-])([A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*[A-Za-z0-9])")


def hf_repo(spec: ModelSpec | None, serving: bool = False) -> str | None:
    """The Hugging Face repo id of a catalog model, as its ``source`` spells it ("Qwen/Qwen2.5-72B
    config.json …") when it is also one of the model's aliases; else the first alias that is a repo id.
    Serving prefers the instruct release when the catalog lists it ("…-Instruct"). None for a generic
    shape or a model without a public repo (GPT-3)."""
    if spec is None or not catalogued(spec):
        return None
    aliases = {a.lower() for a in spec.aliases}
    repo = next((c for c in _REPO_RE.findall(spec.source) if c.lower() in aliases), None)
    if repo is None:
        repo = next((a for a in spec.aliases if "/" in a), None)
    if repo is None:
        return None
    if serving and not repo.lower().endswith("-instruct") and f"{repo.lower()}-instruct" in aliases:
        return f"{repo}-Instruct"
    return repo


def model_path(spec: ModelSpec | None, params: float | None, serving: bool = False) -> str:
    """What a command loads: the repo id, else a local path named after the model (to be filled in)."""
    repo = hf_repo(spec, serving)
    if repo:
        return repo
    name = spec.id if spec is not None and catalogued(spec) else from_config(spec)
    size = f"{params / 1e9:g}B" if params else "model"
    return f"/models/{_slug(name or size)}"


def from_config(spec: ModelSpec | None) -> str | None:
    """The name a config.json gave its model (its ``_name_or_path``), for a model sized from one."""
    if spec is None or not spec.id.startswith("config-") or not _slug(spec.name):
        return None
    return spec.name


def short_name(spec: ModelSpec | None, params: float | None, serving: bool = False) -> str:
    """The repo's last part ("Qwen2.5-14B-Instruct"), else the catalog id or the size ("13B")."""
    repo = hf_repo(spec, serving)
    if repo:
        return repo.rsplit("/", 1)[1]
    if spec is not None and catalogued(spec):
        return spec.id
    if (named := from_config(spec)) is not None:
        return _slug(named)
    return f"{params / 1e9:g}B" if params else "model"


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-")


GGUF_TYPES = {
    "bf16": "BF16",
    "fp16": "F16",
    "fp32": "F32",
    "fp8": "Q8_0",
    "int8": "Q8_0",
    "q8_0": "Q8_0",
    "q5_k_m": "Q5_K_M",
    "q4_k_m": "Q4_K_M",
    "q4_0": "Q4_0",
    **{f: f.upper() for f in ("q6_k", "q3_k_l", "q3_k_m", "q3_k_s", "q2_k")},  # s47: sized as themselves
    "int4": "Q4_0",
}
"""GGUF file type for the weight format the answer sized (llama.cpp ``llama-quantize`` type names).
8-bit formats → Q8_0 (8.5 bits); a generic 4-bit (4.25 bits) → Q4_0 (4.5 bits), the nearest size."""


def gguf_file(spec: ModelSpec | None, params: float | None, weight_format: str) -> str:
    """A GGUF file name in the common ``<model>-<TYPE>.gguf`` form."""
    kind = GGUF_TYPES.get(weight_format, weight_format.upper())
    return f"{short_name(spec, params, serving=True)}-{kind}.gguf"


def ollama_name(spec: ModelSpec | None, params: float | None, weight_format: str) -> str:
    """A local Ollama model name for that GGUF (lower case letters, digits, '.', '-', '_')."""
    kind = GGUF_TYPES.get(weight_format, weight_format).lower()
    return _slug(f"{short_name(spec, params, serving=True)}-{kind}".lower())


# LLaMA-Factory chat templates (names registered in v0.9.5 src/llamafactory/data/template.py), by the
# catalog id's prefix; the first match wins, so longer prefixes come first.
LLAMAFACTORY_TEMPLATES: tuple[tuple[str, str], ...] = (
    ("DeepSeek-R1-Distill", "deepseekr1"),
    ("DeepSeek-R1", "deepseekr1"),
    ("DeepSeek-V3", "deepseek3"),
    ("DeepSeek-V2", "deepseek"),
    ("DeepSeek-Coder", "deepseekcoder"),
    ("DeepSeek-LLM", "deepseek"),
    ("CodeLlama", "llama2"),
    ("Llama-4", "llama4"),
    ("Llama-3", "llama3"),
    ("Llama-2", "llama2"),
    ("QwQ", "qwen"),
    ("Qwen3", "qwen3"),
    ("Qwen", "qwen"),
    ("Mixtral", "mistral"),
    ("Mistral-Small", "mistral_small"),
    ("Mistral", "mistral"),
    ("Gemma-3", "gemma3"),
    ("Gemma-2", "gemma2"),
    ("Gemma", "gemma"),
    ("GLM-4", "glm4"),
    ("ChatGLM3", "chatglm3"),
    ("Yi", "yi"),
    ("InternLM2", "intern2"),
    ("InternLM3", "intern2"),
    ("Phi-4", "phi4"),
    ("Phi-3", "phi"),
    ("Falcon", "falcon"),
    ("Command-R", "cohere"),
    ("DBRX", "dbrx"),
    ("SmolLM2", "smollm2"),
    ("SmolLM", "smollm"),
    ("OLMo", "olmo"),
)


def llamafactory_template(spec: ModelSpec | None) -> str:
    """The chat template LLaMA-Factory formats this model's data with; 'default' otherwise."""
    if spec is None or not catalogued(spec):
        return "default"
    return next((t for prefix, t in LLAMAFACTORY_TEMPLATES if spec.id.startswith(prefix)), "default")


# torchtune v0.6.1 config families (recipes/configs/<dir>/<size>_…) for catalog ids.
TORCHTUNE_BASES: dict[str, str] = {
    "Llama-2-7B": "llama2/7B",
    "Llama-2-13B": "llama2/13B",
    "Llama-2-70B": "llama2/70B",
    "CodeLlama-7B": "code_llama2/7B",
    "Llama-3-8B": "llama3/8B",
    "Llama-3-70B": "llama3/70B",
    "Llama-3.1-8B": "llama3_1/8B",
    "Llama-3.1-70B": "llama3_1/70B",
    "Llama-3.1-405B": "llama3_1/405B",
    "Llama-3.2-1B": "llama3_2/1B",
    "Llama-3.2-3B": "llama3_2/3B",
    "Llama-3.3-70B": "llama3_3/70B",
    "Mistral-7B": "mistral/7B",
    "Gemma-2B": "gemma/2B",
    "Gemma-7B": "gemma/7B",
    "Gemma-2-2B": "gemma2/2B",
    "Gemma-2-9B": "gemma2/9B",
    "Gemma-2-27B": "gemma2/27B",
    "Phi-3-mini": "phi3/mini",
    "Phi-4": "phi4/14B",
    "Qwen2-0.5B": "qwen2/0.5B",
    "Qwen2-1.5B": "qwen2/1.5B",
    "Qwen2-7B": "qwen2/7B",
    "Qwen2.5-0.5B": "qwen2_5/0.5B",
    "Qwen2.5-1.5B": "qwen2_5/1.5B",
    "Qwen2.5-3B": "qwen2_5/3B",
    "Qwen2.5-7B": "qwen2_5/7B",
    "Qwen2.5-14B": "qwen2_5/14B",
    "Qwen2.5-32B": "qwen2_5/32B",
    "Qwen2.5-72B": "qwen2_5/72B",
}
"""The model each torchtune config builds (torchtune.models.<family>.<builder>), by catalog id."""
