"""The s24 review's findings on answers (wording, order, labels), each in both languages where the words
differ. Sources with each test."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process, ask_json, ask_quietly


def test_the_stated_zero_stage_is_said_once_in_the_headline() -> None:
    """#4: '(ZeRO-3) fits on 8 × A100 40G (ZeRO-3, ≈ 1/3 more compute …)' said the stage twice; the
    layout keeps only what the stage name does not say (full recompute's cost)."""
    en = ask_quietly("Can I full fine-tune Qwen2.5-14B with ZeRO-3 on 8 A100 40GB?").splitlines()[0]
    assert en.count("ZeRO-3") == 1
    assert "(≈ 1/3 more compute to save memory)" in en
    zh = ask_quietly("Qwen2.5-14B全参微调，ZeRO-3，8张A100 40G能跑吗").splitlines()[0]
    assert zh.count("ZeRO-3") == 1
    assert "（需要以约 1/3 的额外计算换显存）" in zh


def test_a_minimum_layout_leaves_out_the_stated_stage() -> None:
    line = ask_quietly("How many GPUs to full fine-tune llama 3 70B with ZeRO-3 on H100?").splitlines()[0]
    assert line.count("ZeRO-3") == 1


def test_llama_cpp_named_once_and_gguf_names_as_llama_cpp_writes_them() -> None:
    """#5: 'q4_k_m (llama.cpp) … fits (llama.cpp)': the type as llama.cpp's quantize tool names it
    (Q4_K_M) and the layer split (llama.cpp --split-mode layer, common/arg.cpp) where the runtime was
    already named."""
    en = ask_quietly("run qwen2.5 7b q4_k_m with llama.cpp on a 3060 12gb").splitlines()[0]
    assert en == "Qwen2.5 7B Q4_K_M (llama.cpp) inference on 1 × RTX 3060 12G: fits (all layers on one GPU)"
    two = ask_quietly("llama.cpp llama 3 70B Q4_K_M on 2x 3090").splitlines()[0]
    # s33: 42.5 GB over 2 × 3090 fits with flash attention; a build without it (unstated) also holds 8,192 ×
    # 512 × 64 heads × 4 B = 1.07 GB of KQ scores a GPU, past 90 %: "fits with flash attention … tight"
    assert "tight (layers split over 2 GPUs)" in two and two.count("llama.cpp") == 1
    zh = ask_quietly("用llama.cpp跑qwen2.5-32b q4_k_m，4090够吗").splitlines()[0]
    assert zh == "Qwen2.5 32B Q4_K_M（llama.cpp） 推理，1 张 RTX 4090：放得下（所有层放在一张卡上）"


def test_an_assumed_llama_cpp_is_still_named() -> None:
    """No runtime named: the layout names llama.cpp, the runtime assumed for GGUF weights."""
    line = ask_quietly("qwen2.5 7b q4_k_m on a 3060").splitlines()[0]
    assert line.endswith("fits (llama.cpp)")


@pytest.mark.parametrize(
    ("question", "per_token"),
    [
        # Qwen2.5-7B: 28 layers × 4 KV heads × 128 × 2 (K, V) × 2 B (f16) = 57,344 B = 56 KiB
        ("run qwen2.5 7b q4_k_m with llama.cpp on a 3060 12gb", 57344),
        # Qwen2.5-14B: 48 layers × 8 × 128 × 2 × 2 B = 196,608 B = 192 KiB (Ollama's default f16 too)
        ("ollama qwen2.5 14b on a 4060 ti 16gb", 196608),
    ],
)
def test_llama_cpp_kv_cache_is_f16_by_default(
    capsys: pytest.CaptureFixture[str], question: str, per_token: int
) -> None:
    """#2: llama.cpp's cache is f16 unless -ctk/-ctv say otherwise (common/arg.cpp --cache-type-k/-v
    default f16; Ollama OLLAMA_KV_CACHE_TYPE default f16): it was labelled bf16."""
    answer = ask_in_process(capsys, question)
    inf = answer["report"]["inference"]
    assert inf["kv_precision"] == "fp16"
    assert inf["kv_bytes_per_token"] == per_token
    assert "KV cache (fp16)" in answer["reply"]


def test_a_server_keeps_the_model_dtype_cache(capsys: pytest.CaptureFixture[str]) -> None:
    """vLLM's kv_cache_dtype auto = the model dtype (Llama 3: bf16, its config.json torch_dtype)."""
    answer = ask_in_process(capsys, "serve llama 3 8b with vllm on one A100")
    assert answer["report"]["inference"]["kv_precision"] == "bf16"


def test_the_english_used_line_is_worded_not_keyed_and_not_used_too() -> None:
    """#3 also for a second tool named and not used ('training framework: axolotl')."""
    text = ask_quietly("72B full fine-tune, ZeRO-3, 128 A100 80G, 10B tokens")
    assert "training framework: DeepSpeed" in text


def test_a_budget_comparison_heads_with_its_first_row() -> None:
    """#12: 'which GPUs … $20k budget' listed H100 first but the headline sized the reference A100. What a
    budget trains: $20,000 ÷ $1.50–3.50 buys more H100-hours' tokens (18.3B) than A100's (11.1B), so the
    H100 leads the table and the headline."""
    lines = ask_quietly("which GPUs … $20k budget: fine-tune qwen2.5 72b").splitlines()
    assert lines[0] == "Most training for the budget: H100 80G, about 18.3B tokens"
    assert lines[1].startswith("• H100 80G:") and lines[2].startswith("• A100 80G:")
    assert lines[4].startswith("$20,000 ≈ 8K H100-hours")
    zh = ask_quietly("预算2万美元，用什么GPU预训练13B模型").splitlines()
    assert zh[0].startswith("同样预算训练最多：H100 80G")
    assert zh[1].startswith("• H100 80G") and "H100·时" in zh[4]


def test_gpt2_is_the_catalog_release_with_its_1024_context() -> None:
    """#8: 'a 125M GPT-2' was 'Could not find the model … Did you mean OPT-125M', grouped-query attention
    and a 4K context. GPT-2 124M (openai-community/gpt2 config.json: n_layer 12, n_embd 768, n_head 12,
    n_positions 1024): 124,439,808 parameters, its sequences at most 1,024 tokens."""
    for question in (
        "How long to train a 125M GPT-2 on 10B tokens with one 3090?",
        "训练一个125M的GPT-2，100亿token，一张3090要多久",
    ):
        answer = ask_json(question)
        assert answer["request"]["model"] == "GPT-2-124M"
        assert answer["request"]["params_total"] == 124_439_808
        assert answer["request"]["seq_len"] == 1024
        assert "Could not find" not in answer["reply"] and "没找到模型" not in answer["reply"]


def test_a_default_sequence_never_exceeds_the_models_context() -> None:
    """OPT-1.3B's learned position table has 2,048 rows (config.json max_position_embeddings 2048): its
    pre-training is sized at 2,048, not the 4,096 default; a stated length is kept."""
    assert ask_json("pretrain OPT-1.3B on 10B tokens on 8 A100")["request"]["seq_len"] == 2048
    assert (
        ask_json("pretrain OPT-1.3B on 10B tokens on 8 A100 at 4096 sequence length")["request"]["seq_len"]
        == 4096
    )


def test_a_size_sized_model_gets_no_suggestion_list_and_mha_is_named() -> None:
    """#8: a name not in the catalog with a size typed is sized by the size and said once; a generic shape
    with one KV head per query head is multi-head attention, not grouped-query."""
    text = ask_quietly("How long to train a 125M FooLM on 10B tokens with one 3090?")
    assert "Sized “FooLM 125M” with a generic shape of its size (125M)" in text
    assert "Could not find" not in text and "Did you mean" not in text
    shape = ask_quietly("How long to train a 125M model on 10B tokens with one 3090?")
    assert "multi-head attention, a KV head for each of the 12 query heads" in shape
    assert "grouped-query attention with 12 KV heads for 12" not in shape


def test_a_mac_echoes_its_memory_and_keeps_bf16_when_it_fits_the_usable_share() -> None:
    """#6: 'mac studio m2 ultra 192G能跑qwen2.5-72b吗' said '1 台 M2 Ultra' and picked Q8_0 though bf16 fits:
    72.7B × 2 B = 145 GB (135 GiB) + 1.3 GB KV under 192 GiB × 75 % (Metal recommendedMaxWorkingSetSize)
    − 1 GiB = 143 GiB usable: bf16, tight."""
    zh = ask_quietly("mac studio m2 ultra 192G能跑qwen2.5-72b吗").splitlines()[0]
    assert zh.startswith("Qwen2.5 72B bf16 推理，1 台 M2 Ultra 192G：放得下，但很紧")
    en = ask_quietly("can a mac studio m2 ultra 192GB run qwen2.5-72b?")
    assert en.startswith("Qwen2.5 72B bf16 inference on 1 × M2 Ultra 192G: fits, but tight")
    assert "layers split over the cards" not in en  # no multi-GPU advice on one Mac


def test_over_the_usable_share_a_mac_says_why_q8() -> None:
    """Llama 3 70B bf16 (141 GB) is over an M3 Max 128G's 96 GB working set: Q8_0, and why."""
    text = ask_quietly("run llama 3 70b on my macbook pro m3 max 128gb")
    assert text.startswith("Meta Llama 3 70B Q8_0 inference on 1 × M3 Max 128G: fits")
    assert "the released weights are over the usable memory of the GPUs you named" in text


def test_one_mac_that_cannot_hold_the_model_gets_no_gpu_counts() -> None:
    """#6: 'at least 9 GPUs needed' on one Mac: the headline says what does not fit instead."""
    en = ask_quietly("can a mac studio m2 ultra 192GB run deepseek v3?")
    assert en.splitlines()[0].startswith(
        "DeepSeek-V3 (671B MoE) bf16 inference does not fit on one M2 Ultra 192G"
    )
    assert "GPUs needed" not in en and "Fewest GPUs with lighter weights" not in en and "On 9 GPUs" not in en
    zh = ask_quietly("mac mini m4 16gb能跑qwen2.5-32b吗").splitlines()[0]
    # s25 #1: 'mac mini m4' is the base M4 as typed (120 GB/s), no longer the M4 Pro
    assert "一台 Apple M4 16G 放不下" in zh and "至少要" not in zh


def test_the_indexer_cache_is_a_number_the_reply_words(capsys: pytest.CaptureFixture[str]) -> None:
    """#1: estimator.mla_layout wrote '8,052 B / token' in the estimator; it gives the bytes (61 layers ×
    (128 fp8 + 4 B scale) = 8,052, DeepSeek-V3.2-Exp inference/model.py Indexer) and render words them.
    The JSON keeps the text it published in s23 (bot.contract.PUBLISHED_AS_TEXT: a value's type is the
    contract's)."""
    answer = ask_in_process(capsys, "serve DeepSeek-V3.2 with SGLang on 8 H200 for 64 users at 8k context")
    row = next(a for a in answer["assumptions"] if a["field"] == "kv_indexer")
    assert row["value"] == "8,052 B / token"
    assert "Indexer key cache: 8,052 B / token" in answer["reply"]


def test_a_share_of_the_rig_is_not_called_cards_beside_it() -> None:
    """#9: '8张A100，其中2张做评测' named the 2 as cards 'beside the training rig'; they are part of it."""
    zh = ask_quietly("8张A100，其中2张做评测，训练llama 3 8B全参微调10亿token").splitlines()
    assert zh[0].startswith("Meta Llama 3 8B 全参微调 10亿 token，用 6 张 A100 80G")
    assert "训练机器里留出来做评测的卡" in zh[1] and "之外" not in zh[1]
    en = ask_quietly("fine-tune llama 3 8B on 8 A100, 2 of them for eval, 1B tokens")
    assert "“2 of them for eval” (cards of the rig kept for evaluation" in en


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("for eval we have 2 L40S, training on 8 A100: full fine-tune llama 3 8B on 1B tokens, how long?",
         "for eval we have 2 L40S"),
        ("评测用2张L40S，训练用8张A100，全参微调llama 3 8B，10亿token要多久", "评测用2张L40S"),
    ],
)  # fmt: skip
def test_purpose_first_eval_cards_are_named_not_compared(question: str, said: str) -> None:
    """#11: the purpose first ('for eval we have 2 L40S') made the L40S a comparison row and sized 2 A100;
    the 8 A100 train, the eval cards are named as not used."""
    answer = ask_json(question)
    assert answer["request"]["gpu_count"] == 8
    assert answer["request"]["gpu"].startswith("A100")
    ignored = {i["text"]: i["reason"] for i in answer["interpretation"]["ignored"]}
    assert ignored.get(said) == "eval_cards"
    assert "L40S:" not in answer["reply"] and "L40S：" not in answer["reply"]
