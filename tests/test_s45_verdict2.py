"""Session 45, part verdict2 (issue 24 item 4): vLLM named in words with no length starts at the model's own.

``vllm serve`` with no ``--max-model-len`` takes the release's config.json ``max_position_embeddings``
(vllm/config.py ``_get_and_verify_max_len`` with ``max_model_len=None``) and refuses to start when one
sequence of that length does not fit its KV cache (vllm/v1/core/kv_cache_utils.py
``check_enough_kv_cache_memory``). Until now only a pasted command said so (``max_model_len_default``);
a question that names vLLM in words and no length was checked at the 4K default context.
Sources: meta-llama/Llama-3.1-8B config.json (max_position_embeddings 131072, 32 layers, 8 KV heads of
128: 128 KiB of bf16 KV a token); Qwen/Qwen2.5-14B-Instruct config.json (max_position_embeddings 32768, no
rope_scaling: vLLM derives 32,768, not the YaRN 131,072 of its card).
"""

from __future__ import annotations

from estimator.catalog import model
from estimator.ledger import derived_window
from tests.cli_run import ask_json_in_process


def _codes(data: dict) -> dict[str, dict]:
    return {w["code"]: w.get("params") or {} for w in data["report"].get("warnings") or []}


def _refused_at_model_length(question: str) -> dict:
    data = ask_json_in_process(question)
    report = data["report"]
    assert report["feasible"] == "no" and report["feasible_reason"] == "max_model_len", report["feasible"]
    note = _codes(data)["max_model_len_from_model"]
    assert note["max_model_len"] == 131072  # Llama 3.1's max_position_embeddings
    assert 0 < note["kv_tokens"] < 131072
    return data


def test_vllm_named_without_a_length_starts_at_the_models_own_en():
    _refused_at_model_length("Serve Llama 3.1 8B with vLLM on one RTX 4090: will it start?")


def test_vllm_named_without_a_length_starts_at_the_models_own_zh():
    _refused_at_model_length("用 vLLM 在一张 RTX 4090 上部署 Llama 3.1 8B，能启动吗？")


def _fits(question: str) -> None:
    data = ask_json_in_process(question)
    assert data["report"]["feasible"] == "yes", data["report"]["feasible"]
    assert "max_model_len_from_model" not in _codes(data)


def test_a_stated_length_or_no_engine_named_is_not_misread_en():
    _fits("Serve Llama 3.1 8B with vLLM on one RTX 4090 at 8k context")  # a length said: theirs
    _fits("Serve Llama 3.1 8B on one RTX 4090")  # no engine named: vLLM is the sizing's, not theirs


def test_a_stated_length_or_no_engine_named_is_not_misread_zh():
    _fits("用 vLLM 在一张 RTX 4090 上部署 Llama 3.1 8B，上下文 8k")
    _fits("在一张 RTX 4090 上部署 Llama 3.1 8B")


def test_the_instruct_releases_window_not_the_yarn_one():
    spec = model("Qwen2.5-14B")
    assert spec.max_context == 131072 and derived_window(spec, None) == 32768
    assert derived_window(spec, "base") == 131072  # Qwen/Qwen2.5-14B config.json


def test_qwen25_14b_on_two_3090s_starts_zh_and_en():
    # 48 layers × 8 KV heads × 128 × 2 × 2 B = 192 KiB a token: 32,768 tokens are 6 GiB, inside the
    # 2 × 24 GB × 0.9 that 29.4 GB of bf16 weights leave; 131,072 (24 GiB) would not be
    _fits("想用 vLLM 在两张 RTX 3090 上部署 Qwen2.5-14B-Instruct 的 BF16 全量模型，显存够用吗？")
    _fits("Serve Qwen2.5-14B-Instruct in BF16 with vLLM on two RTX 3090s: is the memory enough?")


def _not_held(question: str) -> None:
    data = ask_json_in_process(question)
    assert data["request"]["max_model_len_default"] is None
    assert data["report"]["feasible"] == "yes"
    assert "max_model_len_from_model" not in _codes(data)


def test_a_guessed_version_a_running_server_or_several_gpus_are_not_misread_en():
    # 'Llama 8B' is read as the latest release (a substitution said): its 131,072 window is a guess
    _not_held("Is one RTX 4090 enough for Llama 8B with vLLM?")
    # a figure of the running server (named "observed"): it started, whatever length they set
    _not_held("vLLM serves Llama 3.1 8B on one RTX 4090 at only 30 tok/s. Is that expected?")
    # two GPUs: the TP they launch is not said (TP 2 holds 131,072 tokens of 128 KiB)
    _not_held("Serve Llama 3.1 8B with vLLM on two RTX 4090s")


def test_a_guessed_version_a_running_server_or_several_gpus_are_not_misread_zh():
    _not_held("用 vLLM 在一张 4090 上跑 Llama 8B 够吗？")
    _not_held("vLLM 在一张 RTX 4090 上跑 Llama 3.1 8B，只有 30 tok/s，正常吗？")
    _not_held("用 vLLM 在两张 RTX 4090 上部署 Llama 3.1 8B")


def test_the_commands_own_length_wins_over_the_words():
    data = ask_json_in_process(
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192 on one RTX 4090"
    )
    assert data["request"]["max_model_len"] == 8192 and not data["request"]["max_model_len_default"]
    assert data["report"]["feasible"] == "yes"
    data = ask_json_in_process("Serve Llama 3.1 8B with vLLM on one RTX 4090")
    assert data["request"]["max_model_len_default"] is True  # the contract says why it refuses


def test_a_follow_up_with_a_length_or_a_count_drops_the_models_own_length():
    from bot.core.followup import merge
    from bot.parse import parse

    for first, then in (
        ("Serve Llama 3.1 8B with vLLM on one RTX 4090", {"seq_len": 8192}),
        ("用 vLLM 在一张 RTX 4090 上部署 Llama 3.1 8B", {"gpu_count": 2}),
    ):
        prev = parse(first).request
        assert prev.max_model_len_default is True
        merged, _ = merge(prev, then)
        assert merged.max_model_len_default is None
        assert merge(prev, {"concurrency": 4})[0].max_model_len_default is True  # a load alone keeps it
