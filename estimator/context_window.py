"""A stated context beyond the model's native window (issue 24): the memory and time follow the length
asked, and the reply says what running it takes — the RoPE scaling the model card documents (YaRN, Peng
et al. 2023; Qwen2.5: 32,768 tokens native, factor 4 to 131,072) and how to turn it on in the runtime
named, or that the model was not trained for it (Llama 2: 4,096 tokens, no documented extension).
"""

from __future__ import annotations

import json
import re

from estimator.catalog import ModelSpec
from estimator.request import Runtime


def _rope_json(spec: ModelSpec, key: str | None = None) -> str:
    """The rope settings as the model card writes them into config.json (``rope_scaling``), under
    ``key`` when given."""
    native = spec.native_context or spec.max_context
    body = {"rope_type": spec.rope_scaling, "factor": spec.rope_scaling_factor}
    body["original_max_position_embeddings"] = native
    return json.dumps({key: body} if key else body, separators=(",", ":"))


def how_to_scale(spec: ModelSpec, runtime: Runtime | None, length: int) -> str:
    """The switch in ``runtime`` that turns the documented RoPE scaling on for ``length`` tokens (a
    command-line fragment, the same in every language: no words around it, trial s26 #20). Sources: vLLM
    docs 'Context Extension' (``--hf-overrides`` with rope_parameters; ``--rope-scaling`` in older vLLM);
    SGLang ``--json-model-override-args``; llama.cpp ``--rope-scaling yarn --rope-scale --yarn-orig-ctx``
    (llama.cpp PR #2268); otherwise the ``rope_scaling`` block of config.json (Qwen2.5 model card)."""
    native = spec.native_context or spec.max_context
    factor = f"{spec.rope_scaling_factor:g}"
    if runtime == Runtime.vllm:  # newest vLLM: "rope_parameters" (with the model's rope_theta)
        overrides = _rope_json(spec, "rope_scaling")
        return f"vLLM: --hf-overrides '{overrides}' --max-model-len {length}"  # no English aside (s26 #20)
    if runtime == Runtime.sglang:
        overrides = _rope_json(spec, "rope_scaling")
        return f"SGLang: --json-model-override-args '{overrides}' --context-length {length}"
    if runtime == Runtime.llama_cpp:
        scale = f"--rope-scale {factor} --yarn-orig-ctx {native}"
        return f"llama.cpp: --rope-scaling {spec.rope_scaling} {scale} -c {length}"
    return f'config.json: "rope_scaling": {_rope_json(spec)}'


def context_note(spec: ModelSpec, tokens: int, runtime: Runtime | None) -> tuple[str, dict] | None:
    """The note for ``tokens`` of context on ``spec``: None within its native window;
    'rope_scaling_needed' within its documented scaling; else 'beyond_context_window' (the longest it
    was released for). Raises nothing; a model without a known window gets None."""
    native = spec.native_context or spec.max_context
    if not native or tokens <= native or _within_config(spec, native, tokens):
        return None
    if spec.rope_scaling and spec.rope_scaling_factor and tokens <= native * spec.rope_scaling_factor:
        extended = int(native * spec.rope_scaling_factor)
        return "rope_scaling_set" if _set_by_user(spec) else "rope_scaling_needed", {
            "model": spec.name,
            "window": native,
            "length": tokens,
            "method": "YaRN",
            "factor": f"{spec.rope_scaling_factor:g}",
            "extended": extended,
            "how": how_to_scale(spec, runtime, tokens),
        }
    window = max(spec.max_context or 0, int(native * (spec.rope_scaling_factor or 1)))
    return "beyond_context_window", {"model": spec.name, "window": window, "length": tokens}


def _set_by_user(spec: ModelSpec) -> bool:
    """The scaling is the user's factor (``request.rope_scaling_factor``, estimator.resolve._user_scaling),
    not the one the model card documents: the catalog's entry has another factor or none (review s47 B4:
    'Serve Llama-3-8B with YaRN factor 4' — Llama 3's card documents 8,192 tokens and no scaling)."""
    from estimator.catalog import models

    documented = models().get(spec.id)
    return documented is None or documented.rope_scaling_factor != spec.rope_scaling_factor


def _within_config(spec: ModelSpec, native: int, tokens: int) -> bool:
    """``tokens`` within config.json's own ``max_position_embeddings`` (``max_context``) where that is past
    the card's native window but short of the scaled one: Qwen3 dense, 40,960 against 32,768 native and
    131,072 with YaRN (the card: 32,768 for the prompt + 8,192 output). vLLM takes its default and any
    --max-model-len up to it from that field with no override (vllm/config ``_get_and_verify_max_len``),
    so no scaling is needed there (trial s25 #7). A ``max_context`` equal to the scaled window (Qwen2.5
    entries recording 131,072) is not the config's unscaled length and keeps the note."""
    top = spec.max_context or 0
    return tokens <= top < native * (spec.rope_scaling_factor or 1)


def _window(spec: ModelSpec) -> int:
    """The longest context ``spec`` was released for: config.json's window or its documented scaling."""
    native = spec.native_context or spec.max_context or 0
    return max(spec.max_context or 0, int(native * (spec.rope_scaling_factor or 1)))


def _release_line(name: str) -> tuple[str, tuple[float, ...]]:
    """A model name's line and version: sizes ('70B', '3.8B', '8x7B') kept as one mark, every other number
    a version ('Meta Llama 3.1 70B' → ('Meta Llama v #', (3.1,)); 'Qwen2.5-Coder 7B' → ('Qwenv-Coder #',
    (2.5,))): two releases of one line differ by their versions only."""
    sized = re.sub(r"\d+(?:\.\d+)?(?:x\d+)?[BM]\b", "#", name)
    versions = tuple(float(v) for v in re.findall(r"\d+(?:\.\d+)?", sized))
    return re.sub(r"\d+(?:\.\d+)?", "v", sized), versions


def later_version(spec: ModelSpec, tokens: int) -> tuple[str, int] | None:
    """A later release of ``spec``'s line (the same name but a higher version: Llama 3 → 3.1, Qwen2 →
    Qwen2.5, Phi-3 → Phi-3.5; never a -Coder or -Math model, nor an earlier one) with the same size and
    shape (family, layers, width, heads, KV heads, FFN, vocabulary, parameters within 2 %) whose window
    holds ``tokens``: its name and window, the earliest such version first (s36 left #2: 'llama3 70b …
    128k ctx' names Meta Llama 3.1 70B, released for 131,072 tokens, where Llama 3 70B was for 8,192).
    Read from the catalog's names and its ``max_context`` / ``native_context`` / ``rope_scaling_factor``
    fields, never a listed pair; asked only for a length past the model's window. The same shape: the
    memory and time sized hold for it too."""
    from estimator.catalog import models

    shape = (spec.family, spec.layers, spec.hidden, spec.heads, spec.kv_heads, spec.ffn_hidden, spec.vocab)
    line, version = _release_line(spec.name)
    found = []
    for m in models().values():
        if (m.family, m.layers, m.hidden, m.heads, m.kv_heads, m.ffn_hidden, m.vocab) != shape:
            continue
        other_line, other = _release_line(m.name)
        same_size = (
            abs(m.params_total / spec.params_total - 1) <= 0.02 and m.params_active == spec.params_active
        )
        if other_line == line and other > version and same_size and _window(m) >= tokens:
            found.append((other, m.name, _window(m)))
    return (min(found)[1], min(found)[2]) if found else None
