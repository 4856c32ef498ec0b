"""Whose setup each number is (session 13, part fixa), from the s12 fresh-user trial
(/work/notes/s12/trial_report.md A4, A13, B1, B5, B7 and A1's count question), each asserted through
``sizing-bot ask --format json`` on the values read, in both languages, with phrasings beside the trial's:

- A4: the user's own cards ('I have one Quadro RTX 8000', '我这边是', '我手上有') are the job's; the
  colleague's go to ``other_setup``; '4096 tokens' beside '50k samples of about 2,000 tokens each, 3
  epochs' is the sequence length (the data is 50k × 2,000 × 3 = 300M tokens, was 4,096 × 3 = 12.3K);
- A13: a PPO reward, critic or reference model named in the job is ``rl_reward_model_not_sized`` (was
  ``other_setup``), and a stated prompt length is the sequence's (was shown as TRL's 512 default);
- B7: a colleague's duration is named ``other_setup`` (was the job's deadline: 5 hours);
- B5: memory read off a run is ``observed`` (was ``unread``);
- B1: the load asked about ('想扩到 60 个用户', '增加到 60 并发') is sized, today's named ``observed``;
- a count question after a switch to another model sizes the fewest cards (the old count is named).
"""

from __future__ import annotations

import pytest

from tests.cli_run import ask_json_in_process, named

TRIAL_A4 = (
    "My colleague runs Qwen2.5-7B LoRA on 2x RTX 4090 at 1.8 s/it with batch 2. I have one Quadro RTX 8000 "
    "48GB. Can I LoRA Qwen2.5-14B on it, rank 64 on all linear layers, 4096 tokens, and how long for 50k "
    "samples of about 2,000 tokens each, 3 epochs?"
)


@pytest.mark.parametrize(
    ("text", "gpu", "count", "other"),
    [
        (TRIAL_A4, "Quadro-RTX-8000", 1, "2"),
        (
            "My colleague trains Llama-3.1-8B on 4 H100s. I've got two RTX 3090s. How long would LoRA on "
            "50M tokens take on mine?",
            "RTX-3090",
            2,
            "4",
        ),
        (
            "同事用 2 张 4090 LoRA 微调 Qwen2.5-7B，每步 1.8 秒。我这边是 1 张 A6000 48G，LoRA 微调 "
            "Qwen2.5-14B 1 亿 token 要多久？",
            "RTX-A6000",
            1,
            "2",
        ),
        (
            "同事在 8 张 A100 上跑 Qwen2.5-7B 全量微调。"
            "我手上有 2 张 4090，LoRA 微调 Qwen2.5-7B 1 亿 token 要多久？",
            "RTX-4090",
            2,
            "8",
        ),
    ],
)
def test_the_users_own_cards_are_the_jobs(text: str, gpu: str, count: int, other: str) -> None:
    d = ask_json_in_process(text)
    assert (d["request"]["gpu"], d["request"]["gpu_count"]) == (gpu, count)
    assert named(d)[other] == "other_setup"


@pytest.mark.parametrize(
    ("text", "tokens", "seq"),
    [
        (TRIAL_A4, 300e6, 4096),
        (
            "LoRA Qwen2.5-7B on 2 A100, 8192 tokens, 20k samples of 3,000 tokens each, 2 epochs. How long?",
            120e6,
            8192,
        ),
        (
            "Qwen2.5-7B 全量微调，8 张 A100，4096 token，10 万条样本，每条约 1500 token，训 2 轮要多久？",
            300e6,
            4096,
        ),
    ],
)
def test_a_token_count_below_samples_times_length_is_the_sequence(text: str, tokens: float, seq: int) -> None:
    """samples × tokens each × epochs is the data; the smaller token count is the sequence length."""
    r = ask_json_in_process(text)["request"]
    assert (r["tokens"], r["seq_len"]) == (tokens, seq)


def test_a4_reply_sizes_the_users_card_on_the_whole_data() -> None:
    d = ask_json_in_process(TRIAL_A4)
    assert "1 × Quadro RTX 8000" in d["reply"] and "300M tokens" in d["reply"]


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        (
            "我们想用 verl 做 PPO，Qwen2.5-14B 做 actor，7B 做 reward，2 机 8 卡 H100，"
            "数据 5 万条，每条 prompt 512 token，回复 2048，问要多久。",
            "model: 7B",
        ),
        (
            "PPO with actor 70B, reward model 7B on 32 H100, how long for "
            "10k prompts of 512 tokens, responses 1024?",
            "model: 7B",
        ),
        ("PPO 训练 Qwen2.5-32B，critic 用 Qwen2.5-7B，16 张 A100，要多久？", "model: Qwen2.5-7B"),
        (
            "RLHF with PPO: policy Llama-3.1-8B and a Llama-3.2-1B "
            "reward model, 8 H100s, 20k prompts. How long?",
            "model: Llama-3.2-1B",
        ),
        (
            "用 OpenRLHF 跑 PPO，actor 是 Qwen2.5-7B，奖励模型用 Qwen2.5-1.5B，8 张 A800，多久？",
            "model: Qwen2.5-1.5B",
        ),
    ],
)
def test_an_rl_jobs_reward_or_critic_model_is_part_of_the_job(text: str, typed: str) -> None:
    assert named(ask_json_in_process(text))[typed] == "rl_reward_model_not_sized"


def test_the_reward_model_reason_is_said_in_both_languages() -> None:
    zh = ask_json_in_process("PPO 训练 Qwen2.5-32B，critic 用 Qwen2.5-7B，16 张 A100，要多久？")["reply"]
    assert "奖励模型 / 价值模型（Critic）/ 参考模型" in zh and "另一套配置" not in zh
    en = ask_json_in_process("PPO with actor 70B, reward model 7B on 32 H100, 10k prompts. How long?")[
        "reply"
    ]
    assert "the reward, critic or reference model of this RL job" in en


@pytest.mark.parametrize(
    ("text", "seq"),
    [
        (
            "我们想用 verl 做 PPO，Qwen2.5-14B 做 actor，7B 做 reward，2 机 8 卡 H100，"
            "数据 5 万条，每条 prompt 512 token，回复 2048，问要多久。",
            2560,
        ),
        ("GRPO 训练 Qwen2.5-7B，8 张 H100，1 万条 prompt，prompt 长度 1024，回复最长 2048，要多久？", 3072),
        (
            "GRPO Qwen2.5-7B on 8 H100, 10k prompts, prompt length 768, completions up to 1024. How long?",
            1792,
        ),
    ],
)
def test_a_stated_prompt_length_is_no_default(text: str, seq: int) -> None:
    d = ask_json_in_process(text)
    assert d["request"]["seq_len"] == seq
    assert [a for a in d["assumptions"] if a["field"] == "prompt_tokens"] == []


@pytest.mark.parametrize(
    ("text", "typed", "reason"),
    [
        (
            "SFT Qwen2.5-7B, 2k samples, each a few thousand tokens, 3 "
            "epochs, on 1 H100; colleague did it on 1 "
            "A100 in 5 hours",
            "5",
            "other_setup",
        ),
        (
            "LoRA Llama-3.1-8B on 2 A100 with 100M tokens — how long? A "
            "colleague ran the same on 2 A100 in 10 hours.",
            "10",
            "other_setup",
        ),
        ("SFT Qwen2.5-7B 1亿 token 8 张 H100 要多久？同事 8 卡跑了 30 小时", "30", "observed"),
        (
            "My colleague fine-tuned Llama-3.1-8B on 4 A100s in 2 days. "
            "How long would it take us on 8 H100s with "
            "500M tokens?",
            "2 days",
            "other_setup",
        ),
        (
            "上次同事用 4 张 A100 训了 3 天，这次我用 8 张 H100 全量微调 Qwen2.5-7B 5 亿 token 要多久？",
            "3 天",
            "other_setup",
        ),
    ],
)
def test_a_colleagues_duration_is_named_not_the_deadline(text: str, typed: str, reason: str) -> None:
    d = ask_json_in_process(text)
    assert named(d)[typed] == reason
    assert d["request"]["hours"] is None
    assert d["request"]["deadline_days"] == 30.0  # the planning window assumed when none is given


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        (
            "Memory was at 39.5GB when fine-tuning Qwen2.5-7B LoRA on 1 A100. How long for 100M tokens?",
            "39.5",
        ),
        (
            "We serve Llama-3.1-70B on 4 A100 80GB, GPU memory shows 46GB used each. How many users at 8k?",
            "46",
        ),
        ("LoRA Qwen2.5-7B on one 4090, memory usage is 21.5GB. How long for 50M tokens?", "21.5"),
        (
            "Serving Qwen2.5-14B on 2 L40S with vLLM, nvidia-smi says "
            "41GB used per card. How many users at 8k?",
            "41",
        ),
        ("用 1 张 4090 LoRA 微调 7B，显存占了 22G，1 亿 token 要多久？", "22"),
        ("4 张 A100 部署 Qwen2.5-72B，每卡占 21G，能支持多少并发？", "21"),
        ("8 张 H100 跑 Qwen2.5-72B 推理，每卡显存占 44G，32k 上下文能撑多少用户？", "44"),
        ("2 张 A100 部署 Qwen2.5-32B，nvidia-smi 显示用了 70G，能撑多少并发？", "70"),
        ("4090 上 LoRA 7B，显存用了 20G，1 亿 token 要多久？", "20"),
    ],
)
def test_memory_read_off_a_run_is_observed(text: str, typed: str) -> None:
    assert named(ask_json_in_process(text))[typed] == "observed"


def test_a_cards_memory_is_no_observed_figure() -> None:
    r = ask_json_in_process("My GPU memory is 24GB, can I run Qwen2.5-14B?")
    assert r["request"]["gpu_memory_gib"] == 24.0 and "24" not in named(r)


@pytest.mark.parametrize(
    ("text", "load", "today"),
    [
        (
            "Our vLLM server with Qwen2.5-32B-Instruct on 2x L40S uses "
            "44GB per GPU and serves 30 users at 8k "
            "context. We want to double users to 60. How many more L40S?",
            60,
            "30",
        ),
        (
            "Serving Qwen2.5-14B on 1 A100 80GB for 30 users now; we "
            "need to scale to 60 users. How many A100?",
            60,
            "30",
        ),
        (
            "We currently serve 40 users with Llama-3.1-8B on one L40S; we "
            "expect 120 users next quarter. How many L40S?",
            120,
            "40",
        ),
        ("现在 2 张 L40S 跑 Qwen2.5-32B 服务 30 个用户，想扩到 60 个用户，要几张？", 60, "30"),
        ("vLLM 部署 Qwen2.5-7B，单卡 4090 现在 20 并发，想增加到 60 并发，要几张卡？", 60, "20"),
        ("目前 Qwen2.5-14B 在 2 张 A100 上支撑 50 并发，明年要提升到 200 并发，需要多少张卡？", 200, "50"),
    ],
)
def test_the_target_load_is_sized_todays_is_observed(text: str, load: int, today: str) -> None:
    """Session 14 (trial #1): today's load is named as the load now (``current_load``), not as a figure
    observed from a run."""
    d = ask_json_in_process(text)
    assert d["request"]["concurrency"] == load
    assert named(d)[today] == "current_load"


@pytest.mark.parametrize(
    ("text", "old"),
    [
        ("之前 2 张 4090 跑 7B，现在想上 14B，要几张？", "2"),
        ("We used 2 A100s for the 8B; now 70B — how many A100s?", "2"),
        ("4 张 4090 能跑 Qwen2.5-7B 推理，换成 Qwen2.5-32B 需要几张？", "4"),
        (
            "We serve Llama-3.1-8B on one L40S today. Moving to Llama-3.1-70B, how many L40S do we need?",
            "one",
        ),
    ],
)
def test_a_count_question_after_a_switch_sizes_the_fewest_cards(text: str, old: str) -> None:
    d = ask_json_in_process(text)
    assert d["request"]["gpu_count"] is None
    assert named(d)[old] == "other_setup"


@pytest.mark.parametrize(
    "text",
    [
        "之前 2 张 4090 跑 7B，现在想用 4 张 4090 跑 14B，够吗？",
        "We used 2 A100s for the 8B; now we want 4 A100s for the 70B. Enough?",
    ],
)
def test_a_count_stated_after_the_switch_stays(text: str) -> None:
    d = ask_json_in_process(text)
    assert d["request"]["gpu_count"] == 4
    assert named(d)["2"] == "other_setup"


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        (TRIAL_A4, "2"),
        (
            "同事用 batch 16 在 8 张 A100 上训 7B。我用 2 张 4090 LoRA 微调 Qwen2.5-7B，1 亿 token 要多久？",
            "16",
        ),
        (
            "My colleague used batch 32 on 8 H100s. I plan LoRA of Qwen2.5-7B on 2 L40S, 100M tokens. "
            "How long?",
            "32",
        ),
    ],
)
def test_a_colleagues_batch_is_not_the_jobs(text: str, typed: str) -> None:
    """A4: the colleague's 'batch 2' had made the user's card not fit (micro-batch 2 on 1 Quadro)."""
    d = ask_json_in_process(text)
    assert d["request"]["batch_size"] != float(typed)  # the plan's own micro-batch
    assert named(d)[typed] == "other_setup"


def test_a_batch_of_a_run_that_failed_is_still_the_jobs() -> None:
    r = ask_json_in_process(
        "I tried batch 8 on 2 A100 and it OOMs with Qwen2.5-32B full fine-tuning. What fits?"
    )
    assert r["request"]["batch_size"] == 8
