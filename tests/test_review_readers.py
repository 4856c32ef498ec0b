"""A design review of the round-3 parser readers (memory_forms, time_forms, output_forms): each defect it
found, through the CLI (``sizing-bot ask --format json``) in both languages, with the review's inputs and new
phrasings written for these tests."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import ask_in_process, named


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    return ask_in_process(capsys, text)


HOST_MEMORY = [
    ("we have a server that has 256GB memory and 8 A100, can we LoRA a 70B model?", "256 GB", 8),
    ("Our box with 512 GB of unified memory: serve Llama 3 70B on 2 L40S", "512 GB", 2),
    ("服务器有256G内存，8张A100，能LoRA 70B吗", "256 GB", 8),
]
# A chip-less Mac's memory ('a Mac Studio that has 192GB') is its unified memory since session 9: see
# tests/test_mac_device_memory.py (the fresh-user trial asked for it)


@pytest.mark.parametrize(("text", "size", "count"), HOST_MEMORY)
def test_host_memory_is_never_a_cards(
    capsys: pytest.CaptureFixture[str], text: str, size: str, count: int | None
) -> None:
    """A server's or a Mac's memory is the host's, named as not used; before, 'a server that has 256GB memory
    and 8 A100' sized 8 × 'A100 256G' and 'a Mac Studio that has 192GB' 1 × MI300X (by the memory)."""
    data = ask(capsys, text)
    req = data["request"]
    assert req["gpu_memory_gib"] is None
    assert req["gpu"] != "MI300X"
    assert req["gpu_count"] == count
    serving = data["request"]["stage"] == "inference"  # s14-ngl: read, and unused with every weight on GPUs
    assert named(data).get(f"host_memory: {size}") == ("all_on_gpu" if serving else "no_field")
    assert not data["interpretation"]["substitutions"]


CARD_MEMORY = [
    ("two A10 cards, they have 24G, serve qwen 7b", "A10"),
    ("serve Llama 3 70B on 4 A6000s that come with 48 GB", "RTX-A6000"),
    ("serve Llama 3 8B on 2 A100s which have 40GB", "A100-SXM4-40GB"),
]


@pytest.mark.parametrize(("text", "gpu"), CARD_MEMORY)
def test_card_memory_after_a_card_word_still_read(
    capsys: pytest.CaptureFixture[str], text: str, gpu: str
) -> None:
    """'that/which has N GB' tied to a card word or name is still each card's memory."""
    data = ask(capsys, text)
    assert data["request"]["gpu"] == gpu
    assert not any(t.startswith("host_memory") for t in named(data))


SPEND_RATES = [
    (
        "I can spend $300 per 24 hours, how many H100 to pretrain 1B on 50B tokens",
        "spend_rate: $300 / 24 hours",
    ),
    ("$2 per 100 hours, serve llama 3 8b on A100", "spend_rate: $2 / 100 hours"),
    ("预训练 1B 模型 500 亿 token，2000 元每 24 小时，要几张 H100", "spend_rate: 2000 元 / 24 小时"),
]


@pytest.mark.parametrize(("text", "rate"), SPEND_RATES)
def test_money_per_hours_is_no_price_per_gpu_hour(
    capsys: pytest.CaptureFixture[str], text: str, rate: str
) -> None:
    """'$300 per 24 hours' names no card: before, it was $300 per GPU-hour (and 24 unread); now a spending
    rate named as not used, neither a price nor a budget."""
    data = ask(capsys, text)
    assert data["request"]["price_per_gpu_hour"] is None
    assert data["request"]["budget"] is None
    assert named(data).get(rate) == "no_field"


@pytest.mark.parametrize(
    ("text", "price"),
    [
        ("$1.99 per H100 hour, pretrain 1B on 50B tokens", 1.99),
        ("$0.4 per 4090 hr, LoRA 7B on 10k samples", 0.4),
    ],
)
def test_price_per_named_card_hour_still_read(
    capsys: pytest.CaptureFixture[str], text: str, price: float
) -> None:
    assert ask(capsys, text)["request"]["price_per_gpu_hour"] == price


PAST_NIGHTS = [
    "昨天跑了一晚上才训完一个epoch，7B LoRA 10万条数据 4张4090，正常要多久",
    "上次跑了一夜才训完，7B LoRA 10万条数据 4张4090，正常要多久",
    "It ran overnight for one epoch: LoRA 7B on 100k samples with 4 4090, how long normally?",
    "Last time it took overnight: LoRA 7B on 100k samples with 4 4090, how long should it take?",
]


@pytest.mark.parametrize("text", PAST_NIGHTS)
def test_a_past_night_is_no_deadline(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'跑了一晚上' is what happened, not a deadline: before, deadline_days was 0.5."""
    data = ask(capsys, text)
    assert data["request"]["deadline_days"] != 0.5
    assert data["request"]["gpu_count"] == 4


@pytest.mark.parametrize(
    "text",
    [
        "7B LoRA 10万条数据 4张4090，一晚上能跑完吗",
        "LoRA 7B on 100k samples with 4 4090, can it finish overnight?",
    ],
)
def test_a_night_ahead_is_still_a_deadline(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert ask(capsys, text)["request"]["deadline_days"] == 0.5


OUTPUT_ALONE = [
    ("serve llama 3 8b on one A100 with 256 output tokens", "output_tokens: 256"),
    ("serve llama 3 8b on one A100 with max_tokens 512", "output_tokens: 512"),
    ("serve llama 3 8b on one A100 for 20 users generating 256 tokens each", "output_tokens: 256"),
    ("DeepSeek-R1-Distill-Qwen-7B 推理，16 个并发，每个回答生成 2048 token，4090", "output_tokens: 2,048"),
    ("部署 llama 3 8b，一张 A100，每次输出 512 token", "output_tokens: 512"),
]


@pytest.mark.parametrize(("text", "said"), OUTPUT_ALONE)
def test_an_output_length_alone_is_named(capsys: pytest.CaptureFixture[str], text: str, said: str) -> None:
    """An output length with no prompt: the serving request has no output-length field, and the context
    sized holds it; before, it disappeared in silence. Now named, with the context sized unchanged."""
    data = ask(capsys, text)
    assert named(data).get(said) == "output_in_context"
    assert data["request"]["prompt_tokens"] is None


@pytest.mark.parametrize(
    ("text", "seq", "tps"),
    [
        ("部署 llama 3 8b，一张 A100，输入 2048、输出 512", 2560, None),
        ("serve llama 3 8b on one A100, 10 qps, 512 output tokens each", 4096, 5120.0),
    ],
)
def test_an_output_length_used_is_not_named(
    capsys: pytest.CaptureFixture[str], text: str, seq: int, tps: float | None
) -> None:
    """With a prompt (context = prompt + output) or a request rate (rate × output tokens/s), it is used."""
    data = ask(capsys, text)
    assert data["request"]["seq_len"] == seq
    assert data["request"]["target_tokens_per_s"] == tps
    assert not any(r == "output_in_context" for r in named(data).values())


def test_output_length_named_in_the_reply_in_both_languages() -> None:
    from tests.cli_run import ask_quietly

    assert "an output length with no prompt length" in ask_quietly(
        "--lang", "en", "serve llama 3 8b on one A100 with 256 output tokens"
    )
    assert "只有输出长度、没有输入长度" in ask_quietly(
        "--lang", "zh", "部署 llama 3 8b，一张 A100，每次输出 512 token"
    )


RL_LENGTHS = [
    "GRPO训练Qwen2.5-7B，8张H100，1万条prompt，每条生成8个回答，回答最长2048个token",
    "GRPO训练Qwen2.5-7B，8张H100，1万条prompt，每条生成8个回答，每条回答最长2048",
    "GRPO on Qwen2.5-7B with 8 H100, 10k prompts, 8 generations per prompt, responses up to 2048 tokens",
]


@pytest.mark.parametrize("text", RL_LENGTHS)
def test_rl_answer_length_is_the_completion_length(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'回答最长2048个token' is max_completion_length as 'responses up to 2048 tokens' is; before, it was
    tokens = 2,048 and the 10,000 prompts unused. Tokens = prompts × generations × (512 + 2,048)
    = 204,800,000 (TRL's 512-token prompt default)."""
    req = ask(capsys, text)["request"]
    assert req["max_completion_length"] == 2048
    assert req["num_samples"] == 10_000
    assert req["num_generations"] == 8
    assert req["tokens"] == 10_000 * 8 * (512 + 2048)  # TRL's 512-token prompt default (estimator.rollout)


def test_generation_length_word_and_answers_count(capsys: pytest.CaptureFixture[str]) -> None:
    """'生成长度1024' is the completion length; '回答 5000 条' (SFT) is a count, never a length."""
    req = ask(capsys, "GRPO训练Qwen2.5-7B，8张H100，1万条prompt，每个prompt采样8个，生成长度1024")["request"]
    assert req["max_completion_length"] == 1024
    req = ask(capsys, "Qwen2.5-7B LoRA 微调，数据集是问题和回答 5000 条，4张4090")["request"]
    assert req["max_completion_length"] is None
    assert req["num_samples"] == 5000


VARIANTS = [
    ("fine-tune Llama 3 8B with LoRA on 4 A100 40/80GB, 10k samples", "A100-SXM4-40GB", "A100 80G"),
    ("Llama 3 8B LoRA 微调，4 张 A100 40/80G，1 万条数据", "A100-SXM4-40GB", "A100 80G"),
    (
        "fine-tune Llama 3 8B with LoRA on 4 A100 40/80GB, 10k samples, how about the 80GB?",
        "A100-SXM4-80GB",
        "A100 40G",
    ),
    ("Llama 3 8B LoRA 微调，4 张 A100 40/80G，1 万条数据，用 80G 的要多久", "A100-SXM4-80GB", "A100 40G"),
]


@pytest.mark.parametrize(("text", "gpu", "other"), VARIANTS)
def test_two_variants_after_a_card_are_not_memory_in_use(
    capsys: pytest.CaptureFixture[str], text: str, gpu: str, other: str
) -> None:
    """'A100 40/80GB' is the card's two variants: the first (or the one asked later) sized, the other compared
    in the reply; before, '40/80GB' was 40 GB in use of 80 and only the A100 40G was answered."""
    data = ask(capsys, text)
    assert data["request"]["gpu"] == gpu
    assert data["request"]["gpu_count"] == 4
    assert other in data["reply"]
    assert not named(data)


@pytest.mark.parametrize(
    ("lang", "text", "words"),
    [
        ("en", "serve Llama 3 8B in bf16 on 2 V100", "V100 32G has no bf16: your “bf16” is sized in fp16"),
        ("zh", "用 2 张 V100 部署 Llama 3 8B，bf16", "V100 32G 不支持 bf16：你说的“bf16”按 fp16 计算"),
    ],
)
def test_stated_bf16_on_a_card_without_it_is_a_substitution(
    capsys: pytest.CaptureFixture[str], lang: str, text: str, words: str
) -> None:
    """bf16 said for a V100: sized in fp16 (the same 2 bytes), and said as a substitution right under the
    headline; before, the answer said 'fp16 inference' with no word of the switch."""
    data = ask(capsys, text)
    assert data["interpretation"]["substitutions"] == [
        {"typed": "bf16", "used": "fp16", "reason": "fp16_no_bf16"}
    ]
    sized = [a for a in data["assumptions"] if a["field"] == "precision"]
    assert [(a["value"], a["why"]) for a in sized] == [("fp16", "fp16_no_bf16")]
    from tests.cli_run import ask_quietly

    reply = ask_quietly("--lang", lang, text)
    assert reply.splitlines()[1].startswith(words)


def test_no_substitution_when_no_precision_said(capsys: pytest.CaptureFixture[str]) -> None:
    """Unstated, fp16 on a V100 is an assumption (in the sources), no substitution of anything said."""
    assert ask(capsys, "serve Llama 3 8B on 2 V100")["interpretation"]["substitutions"] == []


@pytest.mark.parametrize(
    "text",
    [
        "our team of 5 engineers wants to fine-tune Llama 3 8B with LoRA on 10k samples with 2 A100",
        "我们团队 5 个工程师想用 2 张 A100 LoRA 微调 Llama 3 8B，1 万条数据",
    ],
)
def test_a_team_in_a_training_question_is_no_serving_load(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """Before: 'Not used: concurrency: 5 (a serving setting)'; a team is named as a team, not a load."""
    data = ask(capsys, text)
    assert data["request"]["concurrency"] is None
    # s14-left (bot.parse.schedule_words) names 'our team of 5' as written with its reason 'team_size'; the
    # older reader (output_forms.team_size) still names '团队 5 个工程师' as 'team_size: 5'
    assert list(named(data).values()) in (["team_size"], ["not_sized"]) and "5" in next(iter(named(data)))


def test_a_team_served_is_still_the_load(capsys: pytest.CaptureFixture[str]) -> None:
    assert ask(capsys, "serve Llama 3 8B for a team of 15 on one A100")["request"]["concurrency"] == 15


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("pretrain 1B on 50B tokens with H100, between 2 and 4 weeks is fine", 28.0),
        ("预训练 1B 模型 500 亿 token，用 H100，2 到 4 周都可以", 28.0),
        ("pretrain 1B on 50B tokens with H100 in 2-3 weeks", 21.0),
        ("预训练 1B 模型 500 亿 token，用 H100，3 周也可以", 21.0),  # s19-fxe: 'also fine' is the user's own
    ],
)
def test_a_range_of_deadlines_is_sized_at_its_generous_end(
    capsys: pytest.CaptureFixture[str], text: str, days: float
) -> None:
    """Before: 14 days and '4' named 'repeated'; the range's longer end is the deadline the user accepts."""
    data = ask(capsys, text)
    assert data["request"]["deadline_days"] == days
    assert not named(data)


def test_guards_of_the_new_forms(capsys: pytest.CaptureFixture[str]) -> None:
    """What the new forms leave alone: a VRAM size is no host memory; '20/24GB' after a card is memory in
    use (no sizes sold as a pair), so no second card is compared."""
    data = ask(capsys, "my PC has 24GB VRAM, serve qwen 7b")
    assert not any(t.startswith("host_memory") for t in named(data))
    data = ask(capsys, "my 4090 shows 20/24GB used with qwen 7b inference")
    assert data["request"]["gpu"] == "RTX-4090"
    assert data["request"]["gpu_memory_gib"] == 24.0
    assert "Cheapest" not in data["reply"]


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("13B模型预训练2000亿token，预算50万，H800多少钱一天", None),
        ("13B模型预训练2000亿token，H800一天多少钱", None),
        ("pretrain 13B on 200B tokens, how much per day on H800?", None),
        ("13B模型预训练2000亿token，H800训一天要多少钱", 1.0),  # a day of training: a duration
        ("pretrain 13B on 200B tokens in one day on H800, how much?", 1.0),
    ],
)
def test_a_cost_per_day_is_no_one_day_deadline(
    capsys: pytest.CaptureFixture[str], text: str, deadline: float | None
) -> None:
    """'H800 多少钱一天' asks a daily cost; read as a one-day deadline it sized ~1,000 H800 for 0.99 days
    (the final self-review of session 8)."""
    req = ask(capsys, text)["request"]  # no deadline said: the estimate's default (30 days) or none
    assert (req["deadline_days"] == 1.0) == (deadline == 1.0), req["deadline_days"]
