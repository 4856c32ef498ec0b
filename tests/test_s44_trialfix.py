"""Session 44 fresh-user trial (/work/notes/s44/trial_report.md), fixed findings.

#2 — a request volume said per person ('1,000 users, each sends about 10 requests an hour',
'500个员工，每人每天大概问30次'): the service's volume is people × count (10,000 an hour; 15,000 a
day), sized by the request-volume rule (Little's law, estimator.request_volume: an hourly count
÷ 3,600 s, a daily one ÷ 86,400 s × 3 at the busiest hour, × the tokens of each request), never
the head count as sequences at once and never the count named as not used. A volume of the
service's own ('10k requests a day, each ~2k tokens') stays as typed.
"""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json


def _ignored(data: dict) -> dict[str, str]:
    return {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}


@pytest.mark.parametrize(
    ("question", "field", "volume", "target"),
    [
        (  # the trial's exact sentence (q11_en): 10,000 an hour ÷ 3,600 × 500 default tokens
            "We're building an agent product: 1,000 users, each sends about 10 requests an hour, "
            "each request ~3k prompt tokens and 500 output. Serving Qwen2.5-32B-Instruct. How many H100?",
            "requests_per_hour",
            10_000,
            10_000 / 3600 * 500,
        ),
        (  # q11_zh
            "做一个智能体应用，1000个用户，每人每小时大概10次请求，"
            "每次输入3000 token 输出500 token，用 Qwen2.5-32B，需要几张 H100？",
            "requests_per_hour",
            10_000,
            10_000 / 3600 * 500,
        ),
        (  # q25_zh: 500 × 30 a day, the busiest hour 3× the average, 2,000 tokens each
            "500个员工，每人每天大概问30次，每次2000 token，部署 Qwen2.5-14B 要几张 4090？",
            "requests_per_day",
            15_000,
            15_000 / 86400 * 3 * 2000,
        ),
        (  # q25_en
            "200 users, each making about 20 requests per day, ~1500 tokens per request. "
            "Llama 3.1 8B on A10G, how many?",
            "requests_per_day",
            4_000,
            4_000 / 86400 * 3 * 1500,
        ),
        (  # q31_zh
            "部署 Qwen2.5-72B 给 2000 个员工用，每人每天大概提问 20 次，需要几张 H100？",
            "requests_per_day",
            40_000,
            40_000 / 86400 * 3 * 500,
        ),
        (  # 'per user' after the volume
            "Serve Llama 3.1 8B on L40S for 300 employees, 15 requests a day per user",
            "requests_per_day",
            4_500,
            4_500 / 86400 * 3 * 500,
        ),
    ],
)
def test_a_volume_said_per_person_is_people_times_count(
    question: str, field: str, volume: int, target: float
) -> None:
    data = answer_json(question)
    req = data["request"]
    assert req[field] == volume
    assert req["users"] is None  # the head count is part of the volume, not a head-count load
    assert req["target_tokens_per_s"] == pytest.approx(target, rel=1e-6)
    assert req["concurrency"] < volume / 10  # Little's law's sequences, never the head count at once
    assert set(_ignored(data).values()) <= {"rate_times_output"}  # every figure used (a rate said as used)


@pytest.mark.parametrize(
    ("question", "field", "volume"),
    [
        ("10k requests a day, each ~2k tokens, Qwen2.5-7B on L4, how many?", "requests_per_day", 10_000),
        ("部署qwen3-8b给客服用，每天大概1万次对话，平均每次2000 token", "requests_per_day", 10_000),
        ("Serve Qwen2.5-7B on L4 for 500 requests per hour", "requests_per_hour", 500),
        ("部署 Qwen2.5-7B，每小时500个请求，用 L4 要几张", "requests_per_hour", 500),
    ],
)
def test_a_volume_of_the_service_stays_as_typed(question: str, field: str, volume: int) -> None:
    """Must not misread: 'each' after the volume's clause qualifies the requests, not people."""
    req = answer_json(question)["request"]
    assert req[field] == volume


@pytest.mark.parametrize(
    "question",
    [
        "100 users, 20 concurrent, each sends 10 requests an hour, Llama 3.1 8B on L4",
        "100个用户，20并发，每人每小时10次请求，Llama 3.1 8B 用 L4",
    ],
)
def test_a_stated_concurrency_still_wins(question: str) -> None:
    req = answer_json(question)["request"]
    assert req["concurrency"] == 20
    assert req["requests_per_hour"] is None


@pytest.mark.parametrize(
    ("question", "users"),
    [
        ("Serve Llama 3.1 8B to 500 employees on L40S, how many?", 500),
        ("给 500 名员工用，部署 Qwen2.5-14B，要几张 4090？", 500),
    ],
)
def test_a_head_count_alone_stays_a_head_count(question: str, users: int) -> None:
    req = answer_json(question)["request"]
    assert req["users"] == users
    assert req["requests_per_day"] is None and req["requests_per_hour"] is None


@pytest.mark.parametrize(
    "question",
    ["每天训练 3 次，每次 100 万 token，7B LoRA 要几张 A100", "每天跑 3 次评测，7B 模型在 A100 上要多久"],
)
def test_a_schedule_is_no_request_volume(question: str) -> None:
    """'次' alone is a volume only after an asking verb ('问30次', '提问 20 次'), never a run's schedule."""
    req = answer_json(question)["request"]
    assert req["requests_per_day"] is None


# #1 — a token volume through a model with no training word ('We process 50 million tokens per day
# through Llama 3.1 70B', '每天要处理 1 亿 token 的文本摘要') is a service's throughput: the day's
# tokens ÷ 86,400 s × 3 (the busiest hour, estimator.request_volume.PEAK_FACTOR, as a daily request
# count), never a pre-training on that data (the trial's: 'pre-training on 50M tokens ≈ 31 H100-hours').


@pytest.mark.parametrize(
    ("question", "field", "tokens", "target"),
    [
        (  # q29_en, the trial's exact sentence
            "We process 50 million tokens per day through Llama 3.1 70B. How many H100 do we need?",
            "tokens_per_day",
            50e6,
            50e6 / 86400 * 3,
        ),
        (  # q30_zh
            "每天要处理 1 亿 token 的文本摘要，用 Qwen2.5-7B，需要几张 4090？",
            "tokens_per_day",
            1e8,
            1e8 / 86400 * 3,
        ),
        ("Serve Qwen2.5-7B on L40S, about 2M tokens an hour", "tokens_per_hour", 2e6, 2e6 / 3600),
        ("部署 Qwen2.5-7B，每小时大概 500万 token，用 L40S 要几张", "tokens_per_hour", 5e6, 5e6 / 3600),
    ],
)
def test_a_token_volume_is_a_serving_throughput(
    question: str, field: str, tokens: float, target: float
) -> None:
    data = answer_json(question)
    req = data["request"]
    assert req["stage"] == "inference"
    assert req[field] == tokens
    assert req["tokens"] is None
    assert req["target_tokens_per_s"] == pytest.approx(target, rel=1e-6)
    assert not _ignored(data)  # the figure is used, not named unread


@pytest.mark.parametrize(
    ("question", "tokens"),
    [  # must not misread: a training word makes the tokens the run's data
        (
            "Pre-train a 7B model on 50 billion tokens per day of data on 64 H100, how long for 1T tokens?",
            1e12,
        ),
        ("每天新增 1 亿 token 的数据，用来微调 Qwen2.5-7B，8 张 A100 要多久", 1e8),
        ("7B模型1万亿token要多少A100", 1e12),
    ],
)
def test_a_token_volume_beside_training_stays_data(question: str, tokens: float) -> None:
    req = answer_json(question)["request"]
    assert req["stage"] in ("pretrain", "finetune")
    assert req["tokens"] == tokens
    assert req["tokens_per_day"] is None and req["tokens_per_hour"] is None


# #1 (b) — a batch of prompts run through a model ('offline batch job: 2M prompts of 1k tokens, 300 output
# tokens each') is inference, never a pre-training on prompts × tokens (the trial: 'pre-training … on 2.6B
# tokens does not fit').


@pytest.mark.parametrize(
    "question",
    [
        "Qwen2.5-72B on 8x H100, offline batch job: 2M prompts of 1k tokens, 300 output tokens each. "
        "How long will it take?",
        "Llama 3.1 8B batch inference over 100k documents on 4 A100, how long?",
        "用 Qwen2.5-7B 在 4 张 A100 上离线批量生成 10 万条摘要，要多久？",
        "Qwen2.5-14B 批量生成，输入 2000 token，8 张 L40S 够吗",
    ],
)
def test_a_batch_of_prompts_is_inference(question: str) -> None:
    req = answer_json(question)["request"]
    assert req["stage"] == "inference"


@pytest.mark.parametrize(
    ("question", "stage"),
    [  # must not misread: training words and RL decoding keep the training stage
        ("GRPO on Qwen2.5-7B with 1024 output tokens per completion on 8 H100", "finetune"),
        ("用 GRPO 训练 Qwen2.5-7B，每条输出 token 1024，8 张 H100", "finetune"),
        ("Pre-train a 1B model on 100B tokens, offline batch data pipeline, 64 A100", "pretrain"),
        ("批量生成的数据拿来微调 Qwen2.5-7B，1 亿 token，8 张 A100 要多久", "finetune"),
    ],
)
def test_training_beside_batch_words_stays_training(question: str, stage: str) -> None:
    assert answer_json(question)["request"]["stage"] == stage


@pytest.mark.parametrize(
    ("question", "target", "qps"),
    [  # the output each request states is the tokens of the volume (not the 500 assumed)
        (
            "1,000 users, each sends about 10 requests an hour, each request ~3k prompt tokens and 800 "
            "output. Serving Qwen2.5-32B-Instruct on H100, how many?",
            10_000 / 3600 * 800,
            10_000 / 3600,
        ),
        (  # people × count a day at the busiest hour (× 3), × 300 output tokens
            "500个员工，每人每天30次请求，每次输入2000 token 输出300 token，Qwen2.5-7B 用 L4 要几张",
            15_000 / 86400 * 3 * 300,
            15_000 / 86400 * 3,
        ),
        (
            "500 employees, each sends 30 requests a day, 2k input and 300 output tokens each, "
            "Qwen2.5-7B on L4",
            15_000 / 86400 * 3 * 300,
            15_000 / 86400 * 3,
        ),
        (  # a service's own volume with its output: the output stated, not the 500 assumed
            "每天1万次对话，每次输入2000 token 输出300 token，Qwen2.5-7B 用 L4",
            10_000 / 86400 * 3 * 300,
            10_000 / 86400 * 3,
        ),
    ],
)
def test_a_volume_with_its_output_is_sized_at_that_output(question: str, target: float, qps: float) -> None:
    data = answer_json(question)
    req = data["request"]
    assert req["target_tokens_per_s"] == pytest.approx(target, rel=1e-6)
    assert req["qps"] == pytest.approx(qps, rel=1e-6)
    assert req["users"] is None
    assert [i["reason"] for i in data["interpretation"]["ignored"]] == ["rate_times_output"]
