"""s43 fixtrial2: this session's fresh-user trial (/work/notes/s43/t43o), reading and answer findings.

1. 'reward model' glued to a Chinese sentence ('想训一个reward model，…20万条对比数据') is reward-model
   training, as '训练奖励模型' and 'train a reward model' are: each record a comparison pair
   (InstructGPT, Ouyang et al. 2022 §3.5; TRL ``RewardTrainer``: chosen + rejected, two sequences per record).
2. '4k prompts and 1k outputs' are the request's input and output lengths (the OpenAI API's
   ``prompt_tokens`` / ``completion_tokens``), as '4k input and 1k output tokens' and '输入4k输出1k' are.
"""

from __future__ import annotations

import json

import pytest

from tests.cli_run import ask_quietly


def _json(q: str) -> dict:
    return json.loads(ask_quietly("--format", "json", q))


# --- 1. 'reward model' inside a Chinese sentence -----------------------------------------------------------


@pytest.mark.parametrize(
    "q",
    [
        "想训一个reward model，基座是Llama-3.1-8B，20万条对比数据，每条1024 token，4张4090够不够？",
        "train a reward model on Llama-3.1-8B, 200k comparison pairs, 1024 tokens each, 4 RTX 4090 enough?",
        "reward model训练，基座Llama-3.1-8B，20万条对比数据，每条1024 token，4张4090",
    ],
)
def test_reward_model_glued_to_chinese(q):
    """Trial q03_zh: sized as plain full FT on 2亿 tokens (20万 × 1024), no pairs. A reward model forwards
    the chosen and the rejected response: 200,000 × 2 × 1024 = 409,600,000 tokens, in either language."""
    r = _json(q)["request"]
    assert r["reward_model"] is True
    assert r["samples_are_pairs"] is True
    assert r["algorithm"] is None  # no reference model: not DPO
    assert r["tokens"] == pytest.approx(200_000 * 2 * 1024)


@pytest.mark.parametrize(
    "q",
    [
        "用已经训好的reward model做PPO，Qwen2.5-7B，8张A100",
        "用训好的reward model给数据打分，然后SFT Qwen2.5-7B 10万条，8张A100要多久",
        "use an already trained reward model to score data, then SFT Qwen2.5-7B on 100k samples, 8 A100",
    ],
)
def test_trained_reward_model_is_not_the_job(q):
    """A reward model already trained ('训好的', 'already trained') scores data or an RL job: not the job."""
    r = _json(q)["request"]
    assert not r.get("reward_model")
    assert not r.get("samples_are_pairs")


@pytest.mark.parametrize(
    "q",
    [
        "训一个RM，基座Qwen2.5-7B，10万条对比数据，每条1024 token，8张A100",
        "RM训练，基座Qwen2.5-7B，10万对偏好数据，每条1024 token，8张A100",
        "train an RM on Qwen2.5-7B, 100k comparison pairs, 1024 tokens each, 8 A100",
    ],
)
def test_rm_abbreviation_trains_a_reward_model(q):
    """'RM' (reward model) as the thing trained, glued to Chinese or in English: 100,000 × 2 × 1024 tokens."""
    r = _json(q)["request"]
    assert r["reward_model"] is True
    assert r["tokens"] == pytest.approx(100_000 * 2 * 1024)


@pytest.mark.parametrize(
    "q",
    [
        "在我们的platform上微调Qwen2.5-7B，10万条数据，每条1024 token，8张A100",
        "fine-tune Qwen2.5-7B on our platform, 100k samples, 1024 tokens each, 8 A100",
    ],
)
def test_rm_inside_a_word_is_not_a_reward_model(q):
    """'rm' ending 'platform' is no RM: plain SFT on 100,000 × 1024 tokens."""
    r = _json(q)["request"]
    assert not r.get("reward_model")
    assert r["tokens"] == pytest.approx(100_000 * 1024)


# --- 2. '4k prompts and 1k outputs' ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "q",
    [
        "Llama-3.1-8B on one H100 with vLLM, 2k prompts and 512 completions, 20 concurrent users, how fast?",
        "Llama-3.1-8B on one H100 with vLLM, 2k input and 512 output tokens per request, 20 concurrent users",
        "Llama-3.1-8B 用vLLM部署在一张H100上，输入2k输出512，20并发，速度多少？",
        "Llama-3.1-8B 用vLLM部署在一张H100上，提示 2k、生成 512，20并发",
    ],
)
def test_prompts_and_outputs_are_lengths(q):
    """Trial q09_en: '1k outputs' was 'Not used' and the output length dropped. Each form reads 2k in and
    512 out: the sized sequence is 2,000 + 512 tokens (the reader's '2k' = 2,000, as for 'input 2k')."""
    d = _json(q)
    assert d["request"]["seq_len"] == 2000 + 512
    assert d["request"]["concurrency"] == 20
    assert not [i for i in d["interpretation"]["ignored"] if i["text"] in ("512", "2k")]


def test_prompts_and_outputs_in_a_trial_question():
    """The trial's own question: 4k prompts + 1k outputs, nothing left unread (was 'Not used: “1k”'); 4k
    and 1k as the input/output forms read them, 4,000 and 1,000 (s43 review: 4,096 + 1,000 was a context
    nobody stated)."""
    q = (
        "DeepSeek-R1 on one node of 8x H200 with SGLang, we need 2,000 output tokens/s total with 4k prompts "
        "and 1k outputs. Does one node do it?"
    )
    d = _json(q)
    assert d["request"]["prompt_tokens"] == 4000
    assert d["request"]["seq_len"] == 4000 + 1000
    assert d["interpretation"]["ignored"] == []


@pytest.mark.parametrize(
    "q",
    [
        "GRPO Qwen2.5-7B on 8 H100, 512 prompts and 8 completions per prompt",
        "用GRPO训练Qwen2.5-7B，8张H100，512 prompts and 8 completions",
    ],
)
def test_prompts_and_completions_in_rl_are_counts(q):
    """In an RL job 'N prompts and M completions' count prompts and the group size, never lengths: the
    pair is left as written (a serving question's is rewritten as lengths)."""
    from bot.parse.output_forms import output_forms

    assert "512 prompts and 8 completions" in output_forms(q.lower())
    assert output_forms("llama 8b on vllm, 4k prompts and 1k outputs") == (
        "llama 8b on vllm, input 4k tokens and output 1k tokens"
    )


# --- 6. one GPU-hours figure per reply ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "q, words",
    [
        (
            "帮我算一下 fine-tune Qwen2.5-7B with LoRA on 一张 4090，10k samples，要多久",
            "小任务（约 1.3 卡·时）",
        ),
        (
            "fine-tune Qwen2.5-7B with LoRA on one RTX 4090, 10k samples, how long?",
            "small job (≈ 1.3 GPU-hours)",
        ),
    ],
)
def test_tiny_job_note_at_the_headline_gpu_hours(q, words):
    """Trial q17_en: headline 1.3 GPU-hours, the tiny-job warning '约 0.87 卡·时' (the hours before full
    recomputation). The note carries the shown figure: C = 4ND = 4 × 7.61e9 × 5.12e6 (Qwen2.5-7B config,
    10k × 512 tokens) × 1.5 (one recomputed forward, (k + 2) / k, Korthikanti et al. 2022 §5) at 30 % of the
    RTX 4090's 165.2 dense bf16 TFLOPS (Ada whitepaper): 1.56e17 × 1.5 / (165.2e12 × 0.3 × 3600) ≈ 1.31."""
    d = _json(q)
    likely = d["report"]["gpu_hours"]["likely"]
    assert likely == pytest.approx(4 * 7.61e9 * 5.12e6 * 1.5 / (165.2e12 * 0.3 * 3600), rel=0.01)
    tiny = [w for w in d["report"]["warnings"] if w["code"] == "tiny_job"]
    assert tiny and tiny[0]["params"]["gpu_hours"] == pytest.approx(likely)
    assert words in ask_quietly(q)
