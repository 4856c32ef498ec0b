"""KTransformers named beside a CPU-expert offload (s39 fixs2 #3: 'ktransformers 跑 deepseek r1 671b
一张4090 + 512G内存' was headlined with llama.cpp's ``--cpu-moe``). KTransformers keeps a MoE model's
experts in CPU memory and its attention, shared layers and KV cache on the GPU by the YAML rules it is
launched with (``--optimize_config_path``; kvcache-ai/ktransformers doc/en/DeepseekR1_V3_tutorial.md,
doc/en/injection_tutorial.md): the same split :mod:`estimator.layer_offload` sizes with every layer's
experts in CPU memory. The answer says so: the setting in words, KTransformers' own launch, and no
llama.cpp flag (``-ngl``, ``--n-cpu-moe``) in its lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.i18n import N_, translate

if TYPE_CHECKING:
    from bot.render.contexts import SplitContext
    from bot.render.fmt import Fmt
    from estimator.models import SizingReport

NAMED = ("runtime: KTransformers", "runtime_not_modelled")
"""How bot.parse.stack_words names KTransformers (``parsed.unused_numbers``)."""
LAUNCH = N_(
    "python -m ktransformers.local_chat --model_path <HF repo> --gguf_path <GGUF folder> "
    "--optimize_config_path <optimize_rules/*.yaml>"
)
"""KTransformers' launch (doc/en/DeepseekR1_V3_tutorial.md): the config's and tokenizer's repository, the
GGUF weights' folder and the YAML rules that place each module."""
LAUNCH_LINE = N_(
    "KTransformers: %(cmd)s — its YAML rules keep the experts in CPU memory and the rest on the GPU "
    "(kvcache-ai/ktransformers doc/en/DeepseekR1_V3_tutorial.md); sized with that CPU-expert-offload "
    "model: experts in CPU memory, attention, shared layers and KV cache on the GPU"
)
LLAMA_FLAGS = ("-ngl", "--n-cpu-moe", "--cpu-moe", "-nkvo")
"""llama.cpp's flags: a line naming one is llama.cpp's advice, not said to a KTransformers user."""


def for_ktransformers(report: SizingReport, f: Fmt, lang: str, gpu: str) -> SplitContext | None:
    """``inf.split`` worded for KTransformers (module doc); None without a split."""
    from bot.render.split_text import split_section

    split = split_section(report, f, lang, gpu, flags=False)
    if split is None:
        return None
    lines = [line for line in split["lines"] if not any(flag in line for flag in LLAMA_FLAGS)]
    split["lines"] = [*lines, translate(lang, LAUNCH_LINE, cmd=translate(lang, LAUNCH))]
    return split
