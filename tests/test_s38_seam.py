"""s38-seam (issue 23 items 3/4, its "Done when"): a serving runtime declared once, on its class.

Each runtime's facts live on its class in :mod:`estimator.runtimes` (its words, its context and memory
settings, whether it pages its KV cache, whether TP × PP flags set its GPUs, whether it takes the user's
share); the parser's runtime table, the flags of the serving-OOM note, the advice's paged servers, the TP × PP
engines and the not-modelled check are read from :data:`estimator.runtimes.RUNTIMES`. Aphrodite Engine
(PygmalionAI/aphrodite-engine, a vLLM fork: ``aphrodite/engine/args_tools.py`` ``EngineArgs``,
``gpu_memory_utilization`` 0.90, ``-gmu``, ``--max-model-len``) is the first runtime added so: its class
file, one registry entry and the hand-written request enum (guarded here)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.core.runtime_keys import RUNTIME_KEYS, runtime_keys
from bot.parse import method_words, stack_words
from bot.parse.engine_world import SERVING_ENGINES
from bot.render.serving_text import PAGED_SERVERS
from estimator.catalog import gpu as catalog_gpu
from estimator.models import Precision
from estimator.request import Runtime
from estimator.runtimes import RUNTIMES, Aphrodite, Vllm, runtime_for
from estimator.units import GIB
from tests.cli_run import ask_quietly


def ask_text(question: str, lang: str | None = None) -> str:
    return ask_quietly("--format", "text", *(["--lang", lang] if lang else []), question)


def ask_json(question: str) -> dict[str, Any]:
    return json.loads(ask_quietly("--format", "json", question))


def not_used(data: dict[str, Any]) -> dict[str, str]:
    return {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}


# ---- the registry and what is derived from it ---------------------------------------------------------


def test_the_request_enum_holds_exactly_the_registry() -> None:
    """estimator.request.Runtime stays hand-written (estimator.runtimes imports the request: no derivation
    without a cycle); it names every runtime of the registry and no other."""
    assert {r.value for r in Runtime} == set(RUNTIMES)


def test_each_runtime_declares_its_own_words() -> None:
    """A subclass never inherits its parent's words (Ollama over llama.cpp, Aphrodite over vLLM): each
    runtime a user can name is read by its own pattern."""
    for rt in RUNTIMES.values():
        assert "words" in vars(type(rt)), rt.name
    words = [rt.words for rt in RUNTIMES.values()]
    assert len(set(words)) == len(words)


def test_the_parser_table_is_the_registry_in_its_order() -> None:
    assert [name for _, name in method_words.RUNTIMES] == list(RUNTIMES)
    assert set(method_words.PARSER_FORMS) <= set(RUNTIMES)
    assert set(stack_words.STAGE_READ_RUNTIMES) <= set(RUNTIMES)
    # the patterns as they were hand-written before (main 89289854), vLLM's and SGLang's affixed forms kept
    vllm = dict((n, p) for p, n in method_words.RUNTIMES)["vLLM"]
    for s in ("serve with vllm", "use_vllm true", "vllm_num_engines 2", "localvllm", "vllmwrapper"):
        assert vllm.search(s), s
    assert not vllm.search("lvllm")


def test_flags_paged_servers_and_tp_engines_read_the_classes() -> None:
    assert RUNTIME_KEYS["Aphrodite"] == ("--max-model-len", "--gpu-memory-utilization")
    assert RUNTIME_KEYS["SGLang"] == ("--context-length", "--mem-fraction-static")
    assert RUNTIME_KEYS["llama.cpp"] == ("-c", "-ngl")
    assert runtime_keys("Aphrodite") == {
        "runtime": "Aphrodite",
        "window_key": "--max-model-len",
        "share_key": "--gpu-memory-utilization",
    }
    assert {"vLLM", "SGLang", "lmdeploy", "TGI", "Aphrodite"} == PAGED_SERVERS == SERVING_ENGINES


def test_aphrodite_is_sized_with_vllms_memory_model() -> None:
    """Usable per GPU = gpu_memory_utilization × the memory CUDA reports: on an A100 80GB (80 GiB × 0.99)
    at -gmu 0.85, 80 × 0.99 × 0.85 = 67.32 GiB; unset, 0.90: 71.28 GiB (aphrodite EngineArgs default)."""
    gpu = catalog_gpu("A100-SXM4-80GB")
    rt = runtime_for(gpu, Precision.bf16, 0.85, named="Aphrodite")
    assert type(rt) is Aphrodite and isinstance(rt, Vllm) and rt.utilization == 0.85
    assert rt.usable_bytes(gpu) / GIB == pytest.approx(80 * 0.99 * 0.85)
    assert runtime_for(gpu, Precision.bf16, named="Aphrodite").usable_bytes(gpu) / GIB == pytest.approx(71.28)
    # the other runtimes as before: the user's share where they take one, their default instance otherwise
    assert type(runtime_for(gpu, Precision.bf16, 0.8, named="SGLang")).__name__ == "SGLang"
    assert runtime_for(gpu, Precision.bf16, 0.8, named="transformers") is RUNTIMES["transformers"]
    assert type(runtime_for(gpu, Precision.bf16, 0.8, named="Foo")) is Vllm


# ---- questions naming it --------------------------------------------------------------------------------

NAMED = [
    "Run Llama 3 8B with the Aphrodite engine for 30 users on 2 RTX 3090",
    "用 aphrodite 部署 Qwen2.5-14B，两张 RTX 4090 够吗",
    "用 Aphrodite Engine 部署 Llama 3 8B，30 个并发，两张 3090",
    "using aphrodite-engine to serve Llama 3 8B on 2 RTX 3090",
    "serve Qwen2.5-32B-Instruct with aphrodite-engine on 2 A100 80GB",
]


@pytest.mark.parametrize("question", NAMED)
def test_a_question_naming_it_is_sized_with_its_model(question: str) -> None:
    data = ask_json(question)
    assert data["request"]["runtime"] == "Aphrodite"
    assert data["request"]["stage"] == "inference"
    assert "runtime_not_modelled" not in not_used(data).values()
    # vLLM's memory model: the same KV capacity as the question naming vLLM
    twin = ask_json(
        question.replace("the Aphrodite engine", "vLLM")
        .replace("aphrodite-engine", "vllm")
        .replace("Aphrodite Engine", "vLLM")
        .replace("aphrodite", "vLLM")
    )
    assert twin["request"]["runtime"] == "vLLM"
    assert (
        data["report"]["inference"]["kv_capacity_tokens"] == twin["report"]["inference"]["kv_capacity_tokens"]
    )


def test_its_flags_echo_in_the_reply() -> None:
    text = ask_text(
        "serve Qwen2.5-32B-Instruct with aphrodite-engine on 2 A100 80GB, --max-model-len 16384 -gmu 0.85"
    )
    head = text.splitlines()[0]
    assert "(Aphrodite, gpu_memory_utilization 0.85, max_model_len 16,384)" in head
    assert "usable per GPU: 67.3 GiB" in text  # 80 GiB × 0.99 × 0.85
    zh = ask_text(
        "用 aphrodite 部署 Qwen2.5-32B-Instruct，两张 A100 80GB，"
        "--max-model-len 16384 --gpu-memory-utilization 0.85"
    )
    assert "Aphrodite" in zh.splitlines()[0] and "gpu_memory_utilization 0.85" in zh.splitlines()[0]


def test_tp_and_pp_flags_set_its_gpus() -> None:
    data = ask_json("serve Llama-3-70B-GPTQ with aphrodite -tp 2 -pp 2 on RTX 3090, 8k context")
    assert data["request"]["gpu_count"] == 4


@pytest.mark.parametrize(
    ("question", "lang", "paged_advice"),
    [
        (
            "Run Llama 3 8B with the Aphrodite engine for 30 users on 2 RTX 3090",
            None,
            "Use a server with paged KV cache",
        ),
        ("用 aphrodite 部署 Llama 3 8B，30 个并发，两张 RTX 3090", None, "支持分页 KV 缓存和连续批处理"),
    ],
)
def test_the_advice_never_tells_an_aphrodite_user_to_use_a_paged_server(
    question: str, lang: str | None, paged_advice: str
) -> None:
    assert paged_advice not in ask_text(question, lang)
    # the control: a runtime without a paged cache gets that advice
    other = question.replace("the Aphrodite engine", "transformers").replace("aphrodite", "transformers")
    assert paged_advice in ask_text(other, lang)


def test_engines_not_modelled_are_still_named() -> None:
    data = ask_json("Serve Qwen2.5 14B with DeepSpeed-MII on 2 L40S")
    assert not_used(data).get("runtime: DeepSpeed-MII") == "runtime_not_modelled"


def test_the_hand_written_runtime_names_left_are_registry_names() -> None:
    """Lists still written by hand that name modelled runtimes (their own wording, not the runtime's
    facts): every name in them is a registry name, so a renamed runtime cannot leave one behind."""
    from bot.render.advice import ADVISED_RUNTIMES
    from bot.render.stated import FLASH_ON, LIMIT_KEY, SHARE_KEY

    for names in (LIMIT_KEY, SHARE_KEY, FLASH_ON, ADVISED_RUNTIMES):
        assert set(names) <= set(RUNTIMES), names
