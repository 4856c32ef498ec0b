"""Session 22 (issue 24 item 2): a negated sharding tool is its absence, and a serving retry's plan stays
out of the JSON request.

'no deepspeed', 'plain DDP (no DeepSpeed)', '不用 deepspeed', 'without FSDP': plain data parallelism, ZeRO
stage 0 (PyTorch DDP; FSDP NO_SHARD is the same layout, PyTorch FSDP docs, ShardingStrategy), sized so: every
GPU holds the weights, gradients and AdamW states, 16 bytes per parameter (ZeRO, Rajbhandari et al. 2020 §3),
so Llama-3-8B's 8.03B parameters (128 GB) cannot fit on one 80 GB card and a 0.49B Qwen2.5 (7.8 GB) fits on a
24 GB A10. Before, the negated name was echoed as "not used" and the plan sharded anyway (ZeRO-1), and
'without FSDP' read as FSDP (ZeRO-3).
"""

import json

import pytest

from bot.cli import main


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", question])
    return json.loads(capsys.readouterr().out)


def _ignored(data: dict) -> list[str]:
    return [item["text"] for item in data["interpretation"]["ignored"]]


@pytest.mark.parametrize(
    "question",
    [
        "full fine-tune llama 3 8B on 8 A100, no deepspeed",
        "full fine-tune llama 3 8B on 8 A100 with plain DDP (no DeepSpeed)",
        "full fine-tune llama 3 8B on 8 A100 without FSDP",
        "全参微调 llama3 8B 8张A100 不用 deepspeed",
        "全参微调 llama3 8B，8 张 A100，纯 DDP 不开 zero",
        "全参微调llama3 8B，8张A100，不用DeepSpeed，只用数据并行",
    ],
)
def test_a_negated_sharding_tool_is_plain_ddp_and_does_not_fit(capsys, question):
    data = _ask(capsys, question)
    assert data["request"]["zero_stage"] == 0
    assert data["request"]["gpu_count"] == 8
    assert not any("DeepSpeed" in t or "FSDP" in t for t in _ignored(data))
    assert data["report"]["feasible"] == "no"  # 16 B × 8.03B = 128 GB of states on each 80 GB card


@pytest.mark.parametrize(
    "question",
    [
        "we won't use deepspeed, full finetune qwen2.5 0.5B on 4 A10",
        "full fine-tune qwen2.5 0.5B on 4 A10, no ZeRO, just DDP",
        "全参微调 qwen2.5 0.5B，4张 A10，没开FSDP",
    ],
)
def test_plain_ddp_fits_a_small_model(capsys, question):
    data = _ask(capsys, question)
    assert data["request"]["zero_stage"] == 0
    assert data["report"]["feasible"] != "no"  # 16 B × 0.49B = 7.8 GB on a 24 GB A10


@pytest.mark.parametrize(
    ("question", "stage"),
    [
        ("不用 deepspeed 改用 FSDP，全参微调 qwen2.5 7B 8张 A100", 3),  # the tool switched to is run
        ("full fine-tune qwen2.5 7B on 8 A100 with deepspeed zero2", 2),
        ("train with zero-shot prompts, full fine-tune qwen2.5 7B on 8 A100, no zero-shot eval", None),
    ],
)
def test_a_tool_not_negated_keeps_its_reading(capsys, question, stage):
    assert _ask(capsys, question)["request"]["zero_stage"] == stage


@pytest.mark.parametrize(
    "question",
    [
        "全参微调 qwen2.5 7B 4张 A100 不开 flash attention",
        "full fine-tune qwen2.5 7B on 4 H100 without flash_attn, zero3",
        "full fine-tune qwen2.5 7B on 4 H100, flash attention disabled? no FA2 on these cards",
    ],
)
def test_negated_flash_attention_is_transformers_sdpa(capsys, question):
    """s22 named it as not used ('flash_attention: off', no_field); s42 (part eager) read it as eager
    attention; since s42 eagerfix it is named with its reason: with no attn_implementation transformers
    ≥ 4.36 runs SDPA (modeling_utils ``_autoset_attn_implementation``), which keeps no s×s scores — so
    nothing is added to the sizing (eager only where eager runs: tests/test_s42_eagerfix.py)."""
    out = _ask(capsys, question)
    assert out["request"]["attention_implementation"] is None
    assert "flash_attention: off" in _ignored(out)
    assert out["report"]["memory"]["attention_scores_bytes"] is None


@pytest.mark.parametrize(
    ("question", "field", "value"),
    [
        ("full fine-tune qwen2.5 7B on 4 A100 40G with zero3, no offload", "offload", False),
        ("全参微调 qwen2.5 7B 4张 A100 zero3 不开 offload", "offload", False),
        ("full fine-tune qwen2.5 7B on 4 A100 without gradient checkpointing", "recompute", "none"),
        ("fine-tune qwen2.5 7B on 2 4090, no LoRA", "method", "full"),
    ],
)
def test_other_negated_settings_read_as_off(capsys, question, field, value):
    assert _ask(capsys, question)["request"][field] == value


def test_a_serving_retry_keeps_its_tp_out_of_the_request(capsys):
    """en15-006's kind: serving ran out of memory on 8 cards; the answer sizes 16 with TP 16 (the plan,
    report.inference.tp), while the request echoes what the user stated: 8 cards and no TP."""
    data = _ask(
        capsys,
        "What's the minimum GPU configuration for Qwen3-VL-8B? I used the default configuration and ran out "
        "of memory on 8*A100 (80G). What should I change?",
    )
    assert data["request"]["gpu_count"] == 8
    assert data["request"]["tp"] is None
    assert data["report"]["inference"]["tp"] == data["report"]["inference"]["recommended_gpus"] == 16


def test_a_stated_tp_stays_in_the_request_after_a_serving_retry(capsys):
    data = _ask(capsys, "vLLM OOMs on 2 A100 40G serving Llama-3.1-70B with tensor parallel 2")
    assert data["request"]["tp"] == 2
    assert data["request"]["gpu_count"] == 2


@pytest.mark.parametrize(
    ("question", "field", "value", "earlier"),
    [
        (
            "full fine-tune qwen2.5 7B on 4 A100 40G: tried zero2, OOM, switched to zero3",
            "zero_stage",
            3,
            "zero_stage: 2",
        ),
        (
            "全参微调 qwen2.5 7B 4张A100 40G，zero2 爆显存，换成 zero3 还会爆吗",
            "zero_stage",
            3,
            "zero_stage: 2",
        ),
        (
            "lora qwen2.5 7B on a 4090, I first used batch size 8 and it OOMed, now batch size 2",
            "batch_size",
            2,
            "batch_size: 8",
        ),
        (
            "lora qwen2.5 14B on 2 4090: started with rank 64, went OOM, dropped to rank 16",
            "lora_rank",
            16,
            "lora_rank: 64",
        ),
        ("全参微调 qwen2.5 7B，seq 8192 oom 了，后来改成 4096", "seq_len", 4096, "seq_len: 8192"),
        (
            "全参微调 qwen2.5 7B 8 张 A100，一开始 zero3 太慢，后来改成 zero2",
            "zero_stage",
            2,
            "zero_stage: 3",
        ),
    ],
)
def test_a_setting_tried_then_changed_sizes_the_later_one(capsys, question, field, value, earlier):
    """Issue 24 item 2 (4): the last setting is the one run; the first is named as the earlier value."""
    data = _ask(capsys, question)
    assert data["request"][field] == value
    reasons = {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}
    assert reasons.get(earlier) == "replaced_by_later_value"


def test_the_failure_of_a_setting_tried_first_is_not_the_counts(capsys):
    """'zero2 OOMs on 4 cards, switched to zero3': the 4 cards are sized with ZeRO-3 (7.61B × 16 B / 4 =
    30.4 GB of states a card, within 40 GB), not taken as a count that failed and sized above it."""
    data = _ask(capsys, "full fine-tune qwen2.5 7B on 4 A100 40G: tried zero2, OOM, switched to zero3")
    assert data["request"]["gpu_count"] == 4
    assert data["report"]["memory"]["plan_gpus"] == 4
    assert data["report"]["feasible"] != "no"


@pytest.mark.parametrize(
    ("question", "seq", "batch"),
    [
        ("full fine-tune qwen2.5 7B on 8 A100, seq1024, bs16", 1024, 16),
        ("全参微调 qwen2.5 7B 8张A100 seqlen2048 bs4", 2048, 4),
        ("lora qwen2.5 7B on 8 A100, maxlen8192", 8192, None),
        ("全参微调 qwen2.5 7B，8张 A100，seq-len4096", 4096, None),
    ],
)
def test_a_length_glued_to_its_key_is_read(capsys, question, seq, batch):
    data = _ask(capsys, question)
    assert (data["request"]["seq_len"], data["request"]["gpu_count"]) == (seq, 8)
    if batch is not None:
        assert data["request"]["batch_size"] == batch


def test_seq2seq_is_no_length(capsys):
    assert _ask(capsys, "fine-tune a seq2seq t5 11B model on 8 A100")["request"]["seq_len"] != 2


@pytest.mark.parametrize(
    ("question", "gpu", "count", "memory"),
    [
        ("qwen2.5 7B 全参微调 A800*8 80G", "A800-80GB", 8, 80),
        ("qwen2.5 7B 全参微调 A800 x8 80G", "A800-80GB", 8, 80),
        ("full fine-tune qwen2.5 7B on A800*8 (80G)", "A800-80GB", 8, 80),
        ("lora qwen2.5 7B on A100x8x80G", "A100-SXM4-80GB", 8, 80),
        ("lora qwen2.5 7B on 8xA100-80G", "A100-SXM4-80GB", 8, 80),
        ("全参微调 qwen2.5 7B, A100*8 40G", "A100-SXM4-40GB", 8, 40),
    ],
)
def test_card_count_and_memory_stacked(capsys, question, gpu, count, memory):
    request = _ask(capsys, question)["request"]
    assert (request["gpu"], request["gpu_count"], request["gpu_memory_gib"]) == (gpu, count, memory)


@pytest.mark.parametrize(
    ("question", "typed"),
    [
        ("qwen2.5 7B 推理，用 BM1684X 能跑吗", "BM1684X"),
        ("算能 1684X 部署 qwen2.5 1.5B", "算能 1684X"),
        ("can I serve qwen2.5 1.5B on an SG2042 board?", "SG2042"),
    ],
)
def test_a_sophgo_accelerator_is_named_as_typed(capsys, question, typed):
    """Issue 24 item 2 (5): Sophgo's TPUs (BM1684X, 算能) are no catalog card: named as typed, never
    replaced by the default card in silence."""
    data = _ask(capsys, question)
    assert data["interpretation"]["unknown_gpu"] == typed
    assert typed in data["reply"]


def test_a_sophgo_card_with_its_memory_keeps_both(capsys):
    request = _ask(capsys, "deploy qwen2.5 7B on a Sophgo BM1688 16GB")["request"]
    assert (request["gpu"], request["gpu_memory_gib"]) == ("Sophgo BM1688", 16)


@pytest.mark.parametrize(
    ("question", "rate"),
    [
        ("serving llama 3 70B on 4 A100: 2 s per output token, is that expected?", "0.5 tok/s"),
        ("llama 3 8B on one 3090, each token takes 500 ms, why so slow?", "2 tok/s"),
        ("qwen2.5 7B 推理，每输出一个 token 要 2 秒，用 2 张 4090，正常吗", "0.5 tok/s"),
        ("qwen2.5 14B 单张 3090 推理，2 秒一个 token，太慢了", "0.5 tok/s"),
        ("qwen2.5 7B 部署在 2 张 4090 上，50ms/token，要支持 20 并发够吗", "20 tok/s"),
    ],
)
def test_a_time_per_output_token_is_a_measured_speed(capsys, question, rate):
    """Issue 24 item 2 (6): the time per output token is the inverse of the decode rate (TPOT; vLLM
    benchmark_serving.py: output tokens/s = 1000 / TPOT in ms), observed, never a duration nor unread."""
    data = _ask(capsys, question)
    reasons = {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}
    assert reasons.get(rate) == "observed"
    assert data["request"]["hours"] is None and data["request"]["deadline_days"] is None
    assert data["request"]["target_tokens_per_s"] is None
