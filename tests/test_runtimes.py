"""Serving runtimes as one class each (issue 23 item 1): each engine's budget, workspace, KV layout and
ledger wording come from its :class:`estimator.runtimes.ServingRuntime` object, never from comparing
its name; one ``ServingSetup`` value instead of ``size_inference``'s fifteen parameters.

Figures through the CLI (``sizing-bot ask --format json``) on an L40S (48 GiB; CUDA reports 0.99 of it,
:data:`estimator.runtimes.CUDA_VISIBLE_FRACTION`) and an RTX 4090 (24 GiB).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.cli import main
from estimator import catalog, inference
from estimator.models import Precision
from estimator.models import Runtime as RuntimeName
from estimator.runtimes import (
    EXLLAMA,
    LMDEPLOY,
    LOCAL,
    OLLAMA,
    RUNTIMES,
    SGLANG,
    TGI,
    TRANSFORMERS,
    VLLM,
    Aphrodite,
    ServingRuntime,
    SGLang,
    Vllm,
    runtime_for,
)
from estimator.runtimes.vllm import VLLM_BLOCK_TOKENS, either_engine_profile_bytes

GIB = 2**30
ESTIMATOR = Path(__file__).resolve().parents[1] / "estimator"


def _ask(capsys: pytest.CaptureFixture[str], question: str) -> dict:
    assert main(["ask", "--format", "json", question]) == 0
    return json.loads(capsys.readouterr().out)


def _memory_lines(data: dict) -> dict[str, tuple[object, str]]:
    return {
        a["field"]: (a["value"], a["why"])
        for a in data["assumptions"]
        if a["field"] in ("gpu_memory_utilization", "workspace_bytes")
    }


def test_sglang_on_an_l40s_takes_its_mem_fraction_static_and_no_kv_blocks(capsys) -> None:
    data = _ask(capsys, "serve Llama-3.1-8B with SGLang on 1 L40S, 8k context, 8 users")
    inf = data["report"]["inference"]
    # the L40S with ECC on exposes 46,068 MiB (nvidia-smi memory.total; s24, was 0.99 × 48 GiB, fraction
    # 0.79): 44.99 GiB, below 90 GiB → reserve 9.5 + 0.5 × 1 GPU (server_args.py v0.5.2)
    visible_gib = 46068 / 1024
    fraction = round((visible_gib - (9.5 + 0.5 * 1)) / visible_gib, 3)
    assert fraction == 0.778
    usable = visible_gib * GIB - GIB  # the memory free at start-up: visible − CUDA context
    assert inf["runtime"] == "SGLang"
    assert inf["usable_bytes_per_gpu"] == pytest.approx(usable, rel=1e-12)
    assert inf["workspace_bytes_per_gpu"] == pytest.approx((1 - fraction) * usable, rel=1e-12)
    assert _memory_lines(data) == {
        "gpu_memory_utilization": (0.778, "sglang_mem_fraction"),
        "workspace_bytes": (inf["workspace_bytes_per_gpu"], "sglang_workspace"),
    }
    assert inf["kv_capacity_tokens"] % VLLM_BLOCK_TOKENS != 0  # a token pool, not vLLM's blocks


def test_vllm_on_an_l40s_rounds_its_kv_cache_to_blocks_of_16(capsys) -> None:
    data = _ask(capsys, "serve Llama-3.1-8B with vLLM on 1 L40S, 8k context, 8 users")
    inf = data["report"]["inference"]
    assert inf["runtime"] == "vLLM"
    # × 0.9 default of the 46,068 MiB an L40S exposes with ECC on (s24: was 0.99 × 48 GiB, 217,536 tokens)
    assert inf["usable_bytes_per_gpu"] == pytest.approx(46068 * 2**20 * 0.9, rel=1e-12)
    # s26 trfix #3: V1's profile (28 × 256 × 128,256 sampler + 0.16 GiB), no longer V0's whole 8K
    # sequence + 0.35 GiB (198,864): (0.9 × 46,068 MiB − 1.09 GB − 16.06 GB) / 128 KiB → whole blocks
    assert inf["kv_capacity_tokens"] == 200_832 and 200_832 % 16 == 0
    assert _memory_lines(data) == {
        "gpu_memory_utilization": (0.9, "vllm_utilization"),
        "workspace_bytes": (inf["workspace_bytes_per_gpu"], "vllm_workspace"),
    }


def test_transformers_and_llama_cpp_take_all_memory(capsys) -> None:
    hf = _ask(capsys, "serve Llama-3.1-8B with transformers on 1 L40S, 8k context, 8 users")
    assert hf["report"]["inference"]["runtime"] == "transformers"
    assert hf["report"]["inference"]["usable_bytes_per_gpu"] == pytest.approx(
        46068 * 2**20 - GIB,
        rel=1e-12,  # the L40S's ECC-on memory.total (s24: was 0.99 × 48 GiB) − context
    )
    assert _memory_lines(hf)["gpu_memory_utilization"] == (1.0, "transformers_no_cap")
    assert _memory_lines(hf)["workspace_bytes"][1] == "transformers_workspace"
    local = _ask(capsys, "serve Llama-3.1-8B with llama.cpp on 1 RTX 4090, 8k context")
    assert local["report"]["inference"]["runtime"] == "llama.cpp"
    assert local["report"]["inference"]["usable_bytes_per_gpu"] == 24 * GIB - GIB  # all but 1 GiB
    assert _memory_lines(local)["gpu_memory_utilization"] == (1.0, "local_no_cap")
    assert _memory_lines(local)["workspace_bytes"][1] == "local_workspace"


def test_one_runtime_object_per_engine_name() -> None:
    assert set(RUNTIMES) == {r.value for r in RuntimeName}
    # issue 24 item 3 adds Ollama, lmdeploy, TGI and ExLlama beside the first four
    assert [RUNTIMES[r.value] for r in RuntimeName] == [
        VLLM,
        SGLANG,
        TRANSFORMERS,
        LOCAL,
        OLLAMA,
        LMDEPLOY,
        TGI,
        EXLLAMA,
        Aphrodite(),
    ]  # fmt: skip  (s38: Aphrodite Engine, vLLM's memory model: tests/test_s38_seam.py)
    assert not hasattr(inference, "Runtime")  # one name, one meaning: the request's engine (models.Runtime)
    assert all(isinstance(rt, ServingRuntime) for rt in RUNTIMES.values())
    h100 = catalog.gpu("H100-SXM5-80GB")
    assert runtime_for(h100, Precision.bf16) == VLLM
    assert runtime_for(h100, Precision.bf16, 0.8, "SGLang") == SGLang(0.8)
    assert runtime_for(h100, Precision.q4_k_m) is LOCAL  # GGUF weights: a local runtime
    assert runtime_for(h100, Precision.bf16, named="transformers") is TRANSFORMERS
    assert (VLLM.recipe, SGLANG.recipe, TRANSFORMERS.recipe, LOCAL.recipe) == (
        "vllm",
        "sglang",
        None,
        "llama.cpp",
    )
    assert (VLLM.splits_layers, TRANSFORMERS.splits_layers, LOCAL.splits_layers) == (False, True, True)
    assert Vllm(0.95).whole_blocks(100) == 96 and SGLANG.whole_blocks(100) == 100


def test_sglang_needs_the_activations_of_vllms_profile_not_its_reserve() -> None:
    spec, gpu = catalog.model("Llama-3.1-8B"), catalog.gpu("H100-SXM5-80GB")
    assert SGLANG.needed_workspace(spec, gpu, 2) == either_engine_profile_bytes(spec, gpu, 2)
    assert SGLANG.workspace_bytes(spec, gpu, 2) > SGLANG.needed_workspace(spec, gpu, 2)


def test_no_estimator_module_compares_runtime_names() -> None:
    names = "|".join(re.escape(r.value) for r in RuntimeName)
    pattern = re.compile(
        rf"""(==|!=|\bin\b)\s*\(?\s*["']({names})["']|\b(VLLM|SGLANG|TRANSFORMERS|LLAMA_CPP)_NAME\b"""
    )
    hits = [
        f"{path.name}:{n}"
        for path in ESTIMATOR.rglob("*.py")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert hits == []


def test_serving_setup_is_size_inferences_arguments() -> None:
    spec, gpu = catalog.model("Llama-3.1-70B"), catalog.gpu("H100-SXM5-80GB")
    setup = inference.ServingSetup(
        spec, spec.params_total, None, gpu, Precision.fp8, 8192, 32, 4, runtime="SGLang"
    )
    by_setup = inference.serve(setup)
    by_args = inference.size_inference(
        spec, spec.params_total, None, gpu, Precision.fp8, 8192, 32, 4, runtime="SGLang"
    )
    assert by_setup == by_args
    assert (by_setup.runtime, by_setup.serving_gpus) == ("SGLang", 4)
