"""Issue 25 item 1, "fits when it fits": serving and fine-tuning mechanisms behind real runs that ran out
of memory where the answer said "fits" (tests/test_verdict_outcomes.py counts them). Each mechanism is
asked through ``sizing-bot ask`` in both languages, in phrasings of this file's own."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", question])
    return json.loads(capsys.readouterr().out)


# -- vLLM / SGLang / lmdeploy with no tensor-parallel size: one GPU per copy (vLLM EngineArgs default 1)


@pytest.mark.parametrize(
    "question, head",
    [
        (
            "Four H100 80GB in the box; I start vllm serve meta-llama/Llama-3.1-70B-Instruct "
            "--max-model-len 8192 and it dies with CUDA OOM. Enough GPUs?",
            "no with TP 1 × PP 1",
        ),
        (
            "机器上有 4 张 H100 80G，执行 vllm serve meta-llama/Llama-3.1-70B-Instruct --max-model-len 8192 "
            "就显存溢出，4 张卡不够吗？",
            "按 TP 1 × PP 1",
        ),
    ],
)
def test_a_vllm_command_without_tp_runs_one_gpu_and_does_not_fit(capsys, question, head):
    """Llama-3.1-70B in bf16 is 141 GB: vLLM's default TP 1 puts it on one 80 GB card, which cannot hold
    it; the verdict is for the command as launched, and the reply offers TP 4 (the search's layout)."""
    out = ask(capsys, question)
    report = out["report"]
    assert out["request"]["tp"] == 1
    assert (report["feasible"], report["feasible_reason"]) == ("no", "stated_layout")
    assert report["inference"]["tp"] == 4
    first = out["reply"].splitlines()[0]
    assert head in first and "--tensor-parallel-size" in first and "TP=4" in first


def test_a_tp_in_the_words_wins_over_the_commands_default(capsys):
    """The same command with 'tensor parallel 4' said in the text: TP 4 is used, and it fits."""
    out = ask(
        capsys,
        "4 x H100 80GB, tensor parallel 4: vllm serve meta-llama/Llama-3.1-70B-Instruct --max-model-len 8192",
    )
    assert out["request"]["tp"] == 4
    assert out["report"]["feasible"] in ("yes", "borderline")


def test_a_vllm_command_with_tp_is_unchanged(capsys):
    """-tp 4 on the command line: used as given, fits; no 'stated_layout' verdict."""
    out = ask(
        capsys,
        "4 张 H100 80G，启动命令 vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 4 --max-model-len 8192 "
        "够吗",
    )
    assert out["request"]["tp"] == 4
    assert out["report"]["feasible"] in ("yes", "borderline")
    assert out["report"]["feasible_reason"] != "stated_layout"


def test_a_small_model_on_the_default_tp_still_fits(capsys):
    """An 8B model in bf16 (16 GB) on one of the four cards: TP 1 holds it, the verdict stays 'fits'."""
    out = ask(capsys, "4 x H100 80GB: vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192 fits?")
    assert out["request"]["tp"] == 1
    assert out["report"]["feasible"] == "yes"


@pytest.mark.parametrize(
    "question",
    [
        "My vLLM script does llm = LLM(model='meta-llama/Llama-3.1-70B-Instruct', max_model_len=16384) on a "
        "node with 4 A100 80GB and runs out of memory while loading. Why?",
        "vLLM 离线推理脚本：llm = LLM(model='meta-llama/Llama-3.1-70B-Instruct', max_model_len=16384)，"
        "机器有 4 张 A100 80G，加载时就 OOM，为什么？",
    ],
)
def test_a_pasted_vllm_llm_call_without_tp_runs_one_gpu(capsys, question):
    """vLLM's ``LLM(...)`` takes EngineArgs: no tensor_parallel_size means 1, so 141 GB of weights
    meet one 80 GB card; its max_model_len is read as the command line's would be."""
    out = ask(capsys, question)
    assert (out["request"]["tp"], out["request"]["max_model_len"]) == (1, 16384)
    assert (out["report"]["feasible"], out["report"]["feasible_reason"]) == ("no", "stated_layout")
    assert "--tensor-parallel-size" in out["reply"].splitlines()[0]


def test_a_pasted_vllm_llm_call_with_its_settings_is_used(capsys):
    """tensor_parallel_size, gpu_memory_utilization and max_model_len as keywords: each used."""
    out = ask(
        capsys,
        "vLLM: llm = LLM(model='meta-llama/Llama-3.1-70B-Instruct', tensor_parallel_size=4, "
        "gpu_memory_utilization=0.85, max_model_len=16384) on 4 A100 80GB — does it fit?",
    )
    req = out["request"]
    assert (req["tp"], req["gpu_memory_utilization"], req["max_model_len"]) == (4, 0.85, 16384)
    assert out["report"]["feasible"] == "yes"


# -- lmdeploy: --cache-max-entry-count of the FREE memory is the KV cache; the rest must hold a prefill


@pytest.mark.parametrize(
    "question, words",
    [
        (
            "Running lmdeploy serve api_server internlm/internlm2_5-7b-chat --cache-max-entry-count 0.99 "
            "on a single H100; long prompts crash with CUDA OOM. Is one H100 enough?",
            "lower lmdeploy's --cache-max-entry-count",
        ),
        (
            "单卡 H100 跑 lmdeploy serve api_server internlm/internlm2_5-7b-chat "
            "--cache-max-entry-count 0.99，一来长输入就爆显存，一张 H100 不够吗？",
            "调低 lmdeploy 的 --cache-max-entry-count",
        ),
    ],
)
def test_lmdeploy_with_nearly_all_free_memory_for_the_cache_has_no_room_to_prefill(capsys, question, words):
    """0.99 of the memory free after 15.5 GB of weights is KV cache: ≈ 0.7 GB is left per GPU, and one
    8,192-token prefill of InternLM2.5-7B needs ≈ 1.0 GB (lmdeploy's max_prefill_token_num)."""
    out = ask(capsys, question)
    report = out["report"]
    assert (report["feasible"], report["feasible_reason"]) == ("no", "engine_reserve")
    note = next(w for w in report["warnings"] if w["code"] == "engine_reserve_short")
    assert 0.6e9 < note["params"]["reserve_bytes"] < 0.8e9 < note["params"]["need_bytes"] < 1.2e9
    assert words in out["reply"].splitlines()[0]


def test_lmdeploy_at_its_default_share_fits(capsys):
    """The default 0.8 leaves ≈ 13.7 GB for activations: the same server fits."""
    out = ask(capsys, "lmdeploy serve api_server internlm/internlm2_5-7b-chat on one H100, fits?")
    assert out["report"]["feasible"] == "yes"
    assert not any(w["code"] == "engine_reserve_short" for w in out["report"]["warnings"])


# -- vLLM with no --max-model-len: the model's max_position_embeddings must fit the KV cache


@pytest.mark.parametrize(
    "question, words",
    [
        (
            "On a single RTX 4090 the server won't come up: vllm serve meta-llama/Llama-3.1-8B-Instruct "
            "--gpu-memory-utilization 0.9. What's wrong?",
            "set --max-model-len to at most",
        ),
        (
            "单张 RTX 4090，执行 vllm serve meta-llama/Llama-3.1-8B-Instruct --gpu-memory-utilization 0.9 "
            "服务起不来，哪里不对？",
            "把 --max-model-len 设为不超过",
        ),
    ],
)
def test_a_vllm_command_without_max_model_len_checks_the_models_own(capsys, question, words):
    """Llama 3.1's max_position_embeddings is 131,072; on a 24 GB card vLLM's KV cache holds ≈ 43K
    tokens after 16 GB of weights: vLLM refuses to start, and the reply names --max-model-len."""
    out = ask(capsys, question)
    report = out["report"]
    assert out["request"]["max_model_len_default"] is True and out["request"]["max_model_len"] is None
    assert (report["feasible"], report["feasible_reason"]) == ("no", "max_model_len")
    note = next(w for w in report["warnings"] if w["code"] == "max_model_len_from_model")
    assert note["params"]["max_model_len"] == 131072 and 30_000 < note["params"]["kv_tokens"] < 60_000
    assert "131,072" in out["reply"].splitlines()[0] and words in out["reply"]


def test_a_vllm_command_with_max_model_len_is_checked_at_that_length(capsys):
    """--max-model-len 16384 on the same card: within the ≈ 43K-token cache, it fits."""
    out = ask(
        capsys,
        "single RTX 4090: vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 16384 — will it start?",
    )
    assert out["request"]["max_model_len"] == 16384 and not out["request"]["max_model_len_default"]
    assert out["report"]["feasible"] == "yes"


def test_a_prose_vllm_question_keeps_the_context_asked(capsys):
    """No command pasted ('with vLLM' in words): the context of the question is sized, as before."""
    out = ask(capsys, "serve Llama 3.1 8B with vLLM on one RTX 4090, 8k context")
    assert out["request"].get("max_model_len_default") is None
    assert out["report"]["feasible"] == "yes"
