"""Session 13's fresh-user trial, part d (/work/notes/s13/trial_report.md N9, N3, N2, N7, S1–S3): each
through `sizing-bot ask` (the JSON answer and the reply's text), in both languages, with phrasings
that are not the trial's."""

from __future__ import annotations

import json

import pytest

from tests.real_questions import answer_json


def _ignored(answer: dict) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]]


# N9: a speed the user has today is named as observed, not sized as a required throughput.
@pytest.mark.parametrize(
    ("question", "typed"),
    [
        (  # the trial's
            "我们用 llama.cpp 在 Tesla P40 24G 上跑 Qwen2.5-14B Q4_K_M，-c 32768 -np 2，现在每秒 8 个 token。"
            "想支持 128k 上下文，一张 P40 还够吗？",
            "每秒 8 个 token",
        ),
        ("Llama-3.1-8B on 2 RTX 4090 with vLLM, currently 95 tok/s. How many GPUs for 50 users?", "95 tok/s"),
        (
            "We serve Qwen2.5-14B on one L40S with vLLM and we get 18 tokens/s today. Can it do 64k context?",
            "18 tokens/s",
        ),
        (
            "Qwen2.5-14B 用 vLLM 部署在 L40S 上，目前每秒 300 个 token，想扩到 50 并发，要几张？",
            "每秒 300 个 token",
        ),
        (
            "Serving Llama-3.1-70B on 4 H100 with vLLM, right now 600 tokens/s total. 40 users next month?",
            "600 tokens/s",
        ),
    ],
)
def test_a_speed_of_today_is_observed_not_a_target(question: str, typed: str) -> None:
    answer = answer_json(question)
    assert answer["request"]["target_tokens_per_s"] is None
    assert (typed, "observed") in _ignored(answer)
    assert not [w for w in answer["report"]["warnings"] if w["code"] == "throughput_short"]


@pytest.mark.parametrize(
    ("question", "rate"),
    [
        ("Llama-3.1-8B on 2 RTX 4090 with vLLM, we need at least 95 tok/s. How many GPUs for 50 users?", 95),
        ("Qwen2.5-14B 用 vLLM 部署在 L40S 上，目标每秒 800 个 token，50 并发，要几张？", 800),
        ("Qwen2.5-72B 部署在 4 张 A100 上，现在要求每秒 1000 个 token，要几张？", 1000),
    ],
)
def test_a_wanted_speed_stays_a_target(question: str, rate: float) -> None:
    """'need', 'at least', '目标', '要求' keep the rate a target, 'now' beside them or not."""
    assert answer_json(question)["request"]["target_tokens_per_s"] == rate


# N3: the concurrency word's number is the load; the user count is named.
@pytest.mark.parametrize(
    ("question", "load", "users"),
    [
        (  # the trial's
            "预算每月5万，部署 DeepSeek-R1-Distill-Qwen-32B 给 200 人用，"
            "大概同时 30 个并发，上下文 16k，用 vLLM。"
            "买 L20 还是 H20？各要几张？",
            30,
            "200",
        ),
        ("Serve Qwen2.5-32B for 200 users, about 30 concurrent, 16k context, on L20. How many?", 30, "200"),
        ("用户 500 人，峰值并发 50，部署 Qwen2.5-72B，用 H100，要几张？", 50, "500"),
        ("We have 1000 users, at peak 40 at once; serve Llama-3.1-70B on H100s, how many?", 40, "1000"),
        ("公司 300 名员工，同时在线大概 40 人，部署 Qwen2.5-32B，用 A100，要几张卡？", 40, "300"),
        ("Serve Llama-3.1-8B to 500 employees, peak concurrency 25, on L40S: how many GPUs?", 25, "500"),
    ],
)
def test_users_beside_a_concurrency_are_named_and_the_concurrency_sized(
    question: str, load: int, users: str
) -> None:
    answer = answer_json(question)
    assert answer["request"]["concurrency"] == load
    assert answer["report"]["inference"]["concurrency"] == load
    assert (users, "users_not_load") in _ignored(answer)


def test_users_alone_are_still_the_load() -> None:
    answer = answer_json("20个人用，部署 Qwen2.5-14B，4090 要几张？")
    assert answer["request"]["concurrency"] == 20 and not _ignored(answer)


def test_the_users_reason_is_worded_in_both_languages() -> None:
    zh = answer_json("用户 500 人，峰值并发 50，部署 Qwen2.5-72B，用 H100，要几张？")["reply"]
    en = answer_json("Serve Qwen2.5-32B for 200 users, about 30 concurrent, 16k context, on L20.")["reply"]
    assert "“500”（使用服务的人数，不是同时运行的请求数：按你给的并发估算）" in zh
    assert "“200” (the number of people who use the service, not the requests run at once" in en


# N2: a context length said not to be needed is not sized.
@pytest.mark.parametrize(
    ("question", "seq", "typed"),
    [
        (  # the trial's: prompt + 4,096-token responses, as without the clause
            "We want to GRPO Qwen2.5-Math-7B with verl on 16 H800 (2 nodes), 128k context is not needed, "
            "responses up to 4096, 8 rollouts per prompt, 12k prompts, 3 epochs. Budget $20k. Enough?",
            4608,
            "128k",
        ),
        ("部署 Qwen2.5-72B，不需要 128k 上下文，8k 就够，50 并发，要几张 H100？", 8192, "128k"),
        (
            "Serve Llama-3.1-70B on H100 for 20 users, no need for 32k context, 8k is enough. How many GPUs?",
            8192,
            "32k",
        ),
        ("部署 Qwen2.5-32B 给 20 人用，用不到 128k 上下文，要几张 A100？", 4096, "128k"),
        (
            "Fine-tune Llama-3.1-8B on 4 A100, we don't need 32k sequences, 4k is fine, "
            "100M tokens. How long?",
            4096,
            "32k",
        ),
        ("全量微调 Qwen2.5-7B，8 张 A100，没必要上 32k，序列长度 4096，1 亿 token，要多久？", 4096, "32k"),
    ],
)
def test_a_negated_context_is_named_not_sized(question: str, seq: int, typed: str) -> None:
    answer = answer_json(question)
    assert answer["request"]["seq_len"] == seq
    assert (typed, "negated") in _ignored(answer)


def test_the_grpo_run_without_the_negated_context_is_the_plain_one() -> None:
    """The trial's N2 question sized as the same question without the clause (≈ 133 H800-hours)."""
    tail = "responses up to 4096, 8 rollouts per prompt, 12k prompts, 3 epochs. Budget $20k. Enough?"
    head = "We want to GRPO Qwen2.5-Math-7B with verl on 16 H800 (2 nodes), "
    negated = answer_json(head + "128k context is not needed, " + tail)["report"]
    plain = answer_json(head + tail)["report"]
    assert negated["gpu_hours"]["likely"] == pytest.approx(plain["gpu_hours"]["likely"])
    assert plain["gpu_hours"]["likely"] < 200


def test_a_stated_context_is_still_sized() -> None:
    answer = answer_json("部署 Qwen2.5-72B，128k 上下文，50 并发，要几张 H100？")
    assert answer["request"]["seq_len"] == 131072 and not _ignored(answer)


def test_the_negated_reason_is_worded_in_both_languages() -> None:
    zh = answer_json("部署 Qwen2.5-32B 给 20 人用，用不到 128k 上下文，要几张 A100？")["reply"]
    en = answer_json("Serve Llama-3.1-70B on H100 for 20 users, no need for 32k context, 8k is enough.")[
        "reply"
    ]
    assert "“128k”（你说不需要的值：不按它估算" in zh
    assert "“32k” (a value your message says is not needed: not sized" in en


# S1: FP8 beside a stated MFU is named, never silent.
@pytest.mark.parametrize(
    "question",
    [
        "2机8卡 H800 预训练 13B，2 万亿 token，FP8，选择性激活重计算，之前实测 MFU 38%。要多少天？花多少钱？",
        "Pretrain a 13B model on 2T tokens on 16 H800, train in FP8, MFU 38%. How many days?",
        "用 FP8 训练，H100 64 张，预训练 7B，1 万亿 token，MFU 40%，要几天？",
    ],
)
def test_fp8_beside_an_mfu_is_named(question: str) -> None:
    answer = answer_json(question)
    assert answer["request"]["precision"] == "fp8"
    assert ("precision: fp8", "fp8_in_mfu") in _ignored(answer)
    # the time is the MFU of the 16-bit peak (H800/H100 BF16 dense: 989.4 TFLOPS)
    assert answer["report"]["peak_flops"] == pytest.approx(989.4e12)


def test_fp8_without_an_mfu_is_timed_on_the_fp8_peak() -> None:
    answer = answer_json("Pretrain a 13B model on 2T tokens on 16 H800, train in FP8. How many days?")
    assert answer["report"]["peak_flops"] == pytest.approx(1978.9e12)
    assert not [r for _, r in _ignored(answer) if r == "fp8_in_mfu"]


def test_the_fp8_reason_is_worded_in_both_languages() -> None:
    zh = answer_json("用 FP8 训练，H100 64 张，预训练 7B，1 万亿 token，MFU 40%，要几天？")["reply"]
    en = answer_json("Pretrain a 13B model on 2T tokens on 16 H800, train in FP8, MFU 38%.")["reply"]
    assert "FP8 和你给的 MFU 同时出现" in zh
    assert "FP8 beside your MFU: an MFU is read against the BF16 peak" in en


# S3: the numbers of an address (Ray's dashboard, a server) are no figures of the job.
@pytest.mark.parametrize(
    ("question", "numbers"),
    [
        (
            'ray job submit --address="http://127.0.0.1:8265" -- python3 -m openrlhf.cli.train_ppo_ray '
            "--pretrain Qwen/Qwen2.5-7B-Instruct --zero_stage 3 --bf16\n"
            "How long on 16 A800 for 100k prompts?",
            {"127.0", "8265", "127", "0.1"},
        ),
        (
            "Our vLLM server at http://10.0.0.5:8000/v1 serves Qwen2.5-72B on 4 H100; "
            "can it take 64 users at 8k?",
            {"10.0", "8000", "0.5", "10"},
        ),
        (
            "部署在 192.168.1.20:8000 上的 vLLM 跑 Qwen2.5-32B，2 张 A100，能撑 30 并发吗？",
            {"192.168", "8000", "1.20"},
        ),
    ],
)
def test_address_numbers_are_not_listed(question: str, numbers: set[str]) -> None:
    answer = answer_json(question)
    assert not {t for t, _ in _ignored(answer)} & numbers


def test_a_model_in_a_url_path_is_still_read() -> None:
    answer = answer_json("Serve https://huggingface.co/Qwen/Qwen2.5-7B-Instruct on one L4 for 10 users")
    assert answer["request"]["model"] == "Qwen2.5-7B" and answer["request"]["concurrency"] == 10


# N7: the method table's LoRA row is bf16 LoRA, not QLoRA's 4-bit base (estimator/methods.py).
@pytest.mark.parametrize(
    ("table", "alone"),
    [
        (  # s14: a colleague's LoRA beside the user's QLoRA is an aside, no table row: both asked here
            "Qwen2.5-7B 在 1 张 RTX A4000 16G 上，QLoRA 和 LoRA 能跑吗？cutoff_len 4096，rank 8",
            "Qwen2.5-7B LoRA，1 张 RTX A4000 16G，cutoff_len 4096，rank 8，能跑吗？",
        ),
        (
            "QLoRA vs LoRA for Qwen2.5-7B on one RTX A4000 16GB, cutoff_len 4096, rank 8?",
            "LoRA Qwen2.5-7B on one RTX A4000 16GB, cutoff_len 4096, rank 8: does it fit?",
        ),
    ],
)
def test_the_method_tables_lora_row_is_lora_alone(table: str, alone: str) -> None:
    rows = {r["method"]: r for r in answer_json(table)["report"]["method_comparison"]}
    lora = answer_json(alone)["report"]["memory"]
    assert rows["lora"]["feasible"] == "no" and rows["lora"]["min_gpus"] == lora["min_gpus"]
    assert rows["lora"]["per_gpu_bytes"] > rows["qlora"]["per_gpu_bytes"]


# N4: an unknown card typed with its memory is not replaced by a card of another setup.
@pytest.mark.parametrize(
    ("question", "card", "other"),
    [
        (  # the trial's, with the bare MLU370 (the X8 is a catalog card since s47: tests/test_s47_cat.py)
            "We have 8 Cambricon MLU370 48GB cards. Our colleague trained a 7B LoRA on 8 A800 "
            "in 6 hours on 100M tokens. How long for us on the MLU370 with the same data, "
            "and does 14B full fine-tuning fit?",
            "Cambricon MLU370",
            "A800",
        ),
        (
            "我们有 8 张寒武纪 MLU370 48G。同事在 8 张 A800 上训 7B LoRA 用了 6 小时。14B 全量微调放得下吗？",
            "寒武纪 MLU370",
            "A800",
        ),
        (
            "My colleague fine-tuned Qwen2.5-7B with LoRA on 4 H100 in 3 hours. "
            "We only have 4 Biren BR104 48GB. Does 14B LoRA fit?",
            "Biren BR104",
            "H100",
        ),
    ],
)
def test_an_unknown_card_with_memory_is_not_replaced_by_another_setups_card(
    question: str, card: str, other: str
) -> None:
    answer = answer_json(question)
    assert answer["request"]["gpu"] == card and answer["interpretation"]["unknown_gpu"] == card
    assert answer["request"]["gpu_memory_gib"] == 48
    assert (other, "other_setup") in _ignored(answer)
    assert card in answer["reply"]


def test_a_catalog_card_of_the_job_is_kept_beside_an_unknown_one() -> None:
    """The rule moves only a card of another run: 'I have 2 A100; a friend has MTT S4000 48GB' keeps A100."""
    answer = answer_json("我有 2 张 A100 80G，想全量微调 7B。朋友用 MTT S4000 48GB 跑过 LoRA。放得下吗？")
    assert answer["request"]["gpu"].startswith("A100")


# N12: OpenRLHF always runs on DeepSpeed (its --zero_stage defaults to 2, openrlhf/cli/train_ppo.py):
# never "runs plain DDP without a DeepSpeed or FSDP setting".
@pytest.mark.parametrize(
    "question",
    [
        "用 OpenRLHF 做 PPO，Qwen2.5-7B actor，8 张 A100，数据 2 万条 prompt，回复 1024",
        "OpenRLHF GRPO on Qwen2.5-7B with 8 A100 80GB, 20k prompts, completions of 1024 tokens",
    ],
)
def test_openrlhf_is_never_said_to_run_plain_ddp(question: str) -> None:
    answer = answer_json(question)
    assert answer["request"]["training_tool"] == "OpenRLHF"
    said = json.dumps(answer, ensure_ascii=False)
    assert "tool_default_ddp" not in said and "plain DDP" not in said
