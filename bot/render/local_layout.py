"""How a local (llama.cpp-family) serving answer names its weights and layout (s24 review #5)."""

from __future__ import annotations

from bot.render.describe import is_unified
from bot.render.fmt import Fmt
from bot.render.i18n import N_, translate
from estimator.models import Inference, Runtime, SizingReport
from estimator.runtimes import GGUF_FORMATS

GGUF_NAMES = {f.value: f.value.upper() for f in GGUF_FORMATS}
"""GGUF weight types as llama.cpp writes them (tools/quantize/quantize.cpp ``QUANT_OPTIONS``: "Q4_K_M",
"Q8_0"; the model files' names on the Hub): the request's lowercase enum values are JSON names only. The
types are estimator.runtimes.GGUF_FORMATS (s49: was a copy of its list)."""

ALL_LAYERS = N_("all layers on one GPU")
LAYER_SPLIT = N_("layers split over %(n)s GPUs")
UNIFIED = N_("all layers in unified memory")


def local_layout(report: SizingReport, inf: Inference, f: Fmt, lang: str) -> str:
    """The layout of a llama.cpp answer: 'llama.cpp' (the runtime assumed; Apple silicon: 'llama.cpp /
    MLX') unless the user named llama.cpp or Ollama (then the headline's weight format already says
    '(llama.cpp)' / '(Ollama)': the layer split instead, llama.cpp ``--split-mode layer`` by default,
    common/arg.cpp; Ollama runs GGUF models with llama.cpp's layer offload, not MLX — s24 trial 2 #20:
    "(Ollama) … fits (llama.cpp / MLX)")."""
    unified = is_unified(report) and inf.tp * inf.pp == 1
    if report.request.runtime not in (Runtime.llama_cpp, Runtime.ollama):  # assumed
        spec = report.gpu_spec  # Apple only: a DGX Spark is unified memory without MLX (s31)
        return "llama.cpp / MLX" if unified and (spec is None or spec.vendor == "Apple") else "llama.cpp"
    gpus = inf.tp * inf.pp
    if unified:
        return translate(lang, UNIFIED)
    return translate(lang, ALL_LAYERS) if gpus == 1 else translate(lang, LAYER_SPLIT, n=f.int(gpus))
