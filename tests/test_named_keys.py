"""The scorer's honest credit (s20, issue 24): a value named as not used counts only for the stated key
whose meaning the item names (tests/named_keys.py)."""

from __future__ import annotations

from tests.real_questions import key_understood


def _answer(*items: tuple[str, str], **request: object) -> dict:
    return {"request": request, "interpretation": {"ignored": [{"text": t, "reason": r} for t, r in items]}}


def test_host_memory_named_is_not_the_cards_memory() -> None:
    # en13-016: '121.7 GiB unified memory each' named as host memory (all_on_gpu)
    answer = _answer(("host_memory: 121.7 GB", "all_on_gpu"))
    assert not key_understood("gpu_memory_gib", 121.7, answer)
    assert key_understood("host_memory_gib", 121.7, answer)


def test_a_precision_name_holds_no_count() -> None:
    answer = _answer(("precision: fp8", "repeated"), ("model: Baichuan2-13B", "other_setup"))
    assert not key_understood("gpu_count", 8, answer)
    assert not key_understood("zero_stage", 2, answer)
    assert key_understood("precision", "fp8", answer)


def test_a_tool_name_is_no_method_nor_model() -> None:
    answer = _answer(("training_tool: LongLoRA", "no_field"), ("training_tool: lit-llama", "no_field"))
    assert not key_understood("method", "lora", answer)
    assert not key_understood("model", "LLaMA", answer)
    assert key_understood("training_tool", "lit-llama", answer)
    assert key_understood("runtime", "LongLoRA", answer)  # a tool named as typed, either slot


def test_weight_precision_is_not_the_kv_cache() -> None:
    answer = _answer(("precision: q4_0", "repeated"), ("kv_precision: q4_1", "no_field"))
    assert not key_understood("kv_precision", "q4_0", answer)
    assert key_understood("kv_precision", "q4_1", answer)
    assert not key_understood("concurrency", 1, answer)


def test_config_flags_name_their_settings() -> None:
    answer = _answer(
        ("--tensor_parallel: 2", "unknown_key"),
        ("--max-num-seqs: 32", "cap_only"),
        ("actor_rollout_ref.actor.megatron.pipeline_model_parallel_size: 2", "not_sized"),
        ("batch_size: 16", "training_only"),
    )
    assert key_understood("tp", 2, answer) and key_understood("pp", 2, answer)
    assert key_understood("concurrency", 32, answer) and key_understood("max_num_seqs", 32, answer)
    assert not key_understood("concurrency", 16, answer)  # read as a training batch: not understood


def test_a_value_alone_counts_by_its_reason() -> None:
    answer = _answer(("192 GB", "cards_total"), ("22", "memory_room"), ("3", "repeated"), ("117", "observed"))
    assert key_understood("total_memory_gib", 192, answer)
    assert not key_understood("gpu_memory_gib", 192, answer)
    assert key_understood("gpu_memory_gib", 22, answer)
    assert key_understood("gpu_count", 3, answer)  # a second value of its setting, whatever the setting
    assert not key_understood("concurrency", 117, answer)  # a figure observed is no setting
