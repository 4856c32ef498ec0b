"""Known-wrong readings of issue 24 items 2 and 4 (session 21, part fixb): each kind in both languages,
asserting the parsed fields and the items named."""

from __future__ import annotations

import logging

import pytest

from bot.cli import ask
from bot.core.conversation import Conversation
from bot.core.pipeline import answer
from bot.parse import parse
from bot.render.renderer import render
from estimator import catalog
from estimator.models import Precision, Runtime, SizingRequest
from estimator.runtime_scope import RUNTIME_FIELDS, left_behind


def _unused(text: str) -> list[tuple[str, str]]:
    return parse(text).unused_numbers


# -- 1. a size apart from its release's name ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "model"),
    [
        ("how many H100 to serve the 120b of gpt-oss", "gpt-oss-120b"),
        ("serve the 20b version of gpt-oss on one RTX 4090", "gpt-oss-20b"),
        ("gpt-oss's 120b on H100s: how many?", "gpt-oss-120b"),
        ("LoRA the 8b one from llama 3 on a 4090", "Llama-3-8B"),
        ("gpt-oss 的 120b 推理要几张H100", "gpt-oss-120b"),
        ("120b 的 gpt-oss 部署需要几张 H200", "gpt-oss-120b"),
        ("gpt-oss 系列的 20b 用一张 4090 能跑吗", "gpt-oss-20b"),
    ],
)
def test_size_apart_from_its_name_is_the_release(text: str, model: str) -> None:
    req = parse(text).request
    assert req.model == model
    assert req.params_total == parse(f"serve {catalog.model(model).aliases[0]}").request.params_total


def test_size_apart_names_no_release_that_is_not_one() -> None:
    assert parse("the 7b of data we have, pretrain on 8 A100").request.model is None


# -- 2. a runtime's own settings do not survive a change of runtime ----------------------------------


def _chat(*texts: str) -> list[SizingRequest]:
    chat = Conversation(ttl_seconds=600, max_entries=10, clock=lambda: 0.0)
    return [chat.ask(1, 1, t).answer.request for t in texts]


@pytest.mark.parametrize(
    "followup", ["and on vLLM?", "what about SGLang?", "那用 vLLM 呢", "换成 SGLang 呢？"]
)
def test_llama_cpp_settings_left_behind_on_another_engine(followup: str) -> None:
    first, after = _chat("run llama 3 8b on an RTX 4090 with llama.cpp -ctk q8_0 -ngl 99 -c 32768", followup)
    assert (first.kv_precision, first.gpu_layers, first.runtime) == (Precision.q8_0, 99, Runtime.llama_cpp)
    assert after.runtime in (Runtime.vllm, Runtime.sglang)
    assert (after.kv_precision, after.gpu_layers, after.kv_precision_v) == (None, None, None)
    assert after.max_model_len == 32768  # the context is no engine's own: kept


def test_gguf_cache_type_carries_to_ollama_but_not_the_v_type() -> None:
    _, after = _chat("run llama 3 8b on an RTX 4090 with llama.cpp -ctk q4_0", "和用 Ollama 呢")
    assert after.runtime == Runtime.ollama
    assert after.kv_precision == Precision.q4_0  # OLLAMA_KV_CACHE_TYPE takes q4_0 (ollama docs/faq.md)
    assert after.kv_precision_v is None  # llama.cpp's -ctv alone


def test_runtime_scope_declared_on_the_fields() -> None:
    assert RUNTIME_FIELDS["gpu_layers"] == ("llama.cpp", "Ollama")
    assert RUNTIME_FIELDS["kv_precision_v"] == ("llama.cpp",)
    assert {"cpu_moe_layers", "kv_offload"} <= RUNTIME_FIELDS.keys()
    fp8 = SizingRequest(kv_precision=Precision.fp8, gpu_layers=20)
    assert left_behind(fp8, Runtime.sglang) == ("gpu_layers",)  # fp8 KV is SGLang's too: kept
    assert left_behind(fp8, None) == ()


# -- 3. a request rate with no output length ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("serve llama 3 70b at 50 requests/second, how many H100s?", "50 requests/second"),
        ("deploy qwen2.5 32b for 30 reqs/second on A100", "30 reqs/second"),
        ("部署70B模型，50个请求/秒，需要几张H100", "50个请求/秒"),
        ("每秒钟50次请求，Qwen2.5-72B，要几张H100", "每秒钟50次请求"),
    ],
)
def test_request_rate_forms_are_read_and_the_load_assumed_is_named(text: str, said: str) -> None:
    result = answer(text)
    assert (said, "qps_needs_output") in result.parsed.unused_numbers
    assert result.report.inference.concurrency == 16  # the default load (estimator defaults)
    reply = render(result, "plain")
    assert "16" in reply.split("\n")[1]  # the not-used line names the load it assumed
    assert ("assumes 16 concurrent" in reply) or ("按 16 条并发" in reply)


# -- 4. hours a day on a training run: calendar days -------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "pretrain a 7B model on 1T tokens with 64 A100s, but we can only run 8 hours a day. how many days?",
        "64 A100s, 7B, 1T tokens pretraining, only 8 hours a day: how long?",
        "64张A100预训练7B模型1万亿token，每天只能跑8小时，要多少天",
        "用64张A100预训练7B，1万亿token，一天只开8小时，多久能训完",
    ],
)
def test_daily_hours_turn_training_days_into_calendar_days(text: str) -> None:
    result = answer(text)
    days = result.report.days.days.likely
    assert days == pytest.approx(93_483 / 64 / 24, rel=1e-3)  # the seed's 93,483 A100-hours on 64 GPUs
    reasons = {i.reason for i in result.interpretation.ignored}
    assert "daily_schedule_calendar" in reasons and "daily_schedule" not in reasons
    assert "183" in render(result, "plain")  # 60.9 days × 24 ÷ 8 = 183 calendar days


def test_daily_hours_on_a_deadline_job_stay_named_as_not_used() -> None:
    result = answer("pretrain 7B on 1T tokens on A100 within 60 days, only 8 hours a day")
    assert "daily_schedule" in {i.reason for i in result.interpretation.ignored}


# -- 5. a deadline already past ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("pretrain 7B on 1T tokens, need it done by last quarter, how many H100", "by last quarter"),
        ("fine-tune qwen2.5 7b on 1B tokens before last month on 8 A100", "before last month"),
        ("we need the 70B fine-tune done before last week, 8 H100, 2B tokens", "before last week"),
        ("7B模型1万亿token预训练，要在上个季度完成，要多少张H100", "要在上个季度"),
        ("去年底前要训完一个7B模型，1万亿token，需要几张A100", "去年底前"),
        ("截止到上个月，用64张H800训练13B模型2T token够吗", "截止到上个月"),
    ],
)
def test_past_deadline_is_flagged(text: str, said: str) -> None:
    assert (said, "past_date") in _unused(text)


def test_a_past_run_is_no_past_deadline() -> None:
    assert all(why != "past_date" for _, why in _unused("last month we trained a 7B on 8 A100s for 3 days"))


# -- 6. a timed run moved to other cards in a follow-up ----------------------------------------------


@pytest.mark.parametrize(
    ("first", "followup"),
    [
        ("we fine-tuned llama 3 8b full on 8 A100s and it took 3 days", "How long on H100s?"),
        ("我们在8张A100上全参微调llama 3 8b用了3天", "换成H100要多久？"),
    ],
)
def test_followup_on_other_cards_scales_the_measured_run(first: str, followup: str) -> None:
    chat = Conversation(ttl_seconds=600, max_entries=10, clock=lambda: 0.0)
    chat.ask(1, 1, first)
    after = chat.ask(1, 1, followup).answer
    assert after.request.gpu == "H100-SXM5-80GB" and after.request.gpu_count == 8
    # 8 × 72 = 576 A100-hours × 312 ÷ 989 TFLOPS (dense BF16) ÷ 0.7 (H100-class MFU / A100-class) ÷ 8
    assert after.request.hours == pytest.approx(576 * 312 / 989 / 0.7 / 8, rel=0.01)
    assert "earlier_run_scaled" in [why for _, why in after.parsed.unused_numbers]


# -- 7. a parser exception ---------------------------------------------------------------------------


def _failing_reader(self: object) -> None:
    raise RuntimeError("a reader's bug")


@pytest.mark.parametrize(
    ("text", "shown", "fmt"),
    [
        (
            "7B <b>pretrain</b> & 1T tokens A100",
            "“7B &lt;b&gt;pretrain&lt;/b&gt; &amp; 1T tokens A100”",
            "html",
        ),
        ("7B <b>pretrain</b> & 1T tokens A100", "“7B <b>pretrain</b> & 1T tokens A100”", "text"),
        ("预训练 7B <i>模型</i>", "“预训练 7B &lt;i&gt;模型&lt;/i&gt;”", "html"),
    ],
)
def test_parser_exception_is_logged_and_named(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, text: str, shown: str, fmt: str
) -> None:
    import bot.parse.assemble as assemble

    monkeypatch.setattr(assemble._Parse, "run", _failing_reader)
    with caplog.at_level(logging.ERROR, logger="bot.parse"):
        out, code = ask(text, None, fmt)
    assert shown in out
    assert "Traceback" not in out and "a reader's bug" not in out
    assert code != 0
    assert any(r.exc_info and "a reader's bug" in str(r.exc_info[1]) for r in caplog.records)


def test_post_step_exception_is_caught_too(monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.parse as parse_module

    def boom(parsed: object) -> None:
        raise ValueError("post-step bug")

    monkeypatch.setattr(parse_module, "with_slot_count", boom)
    result = parse_module.parse("Llama 3 8B serving on a 4090")
    assert result.notes == ["parse_error"] and result.normalized == "Llama 3 8B serving on a 4090"


# -- 8. a rounded context beside a key's exact value ------------------------------------------------


@pytest.mark.parametrize(
    ("text", "exact", "rounded"),
    [
        (
            "GRPO on gpt-oss-120b with Unsloth on one B200: loading it with max_seq_length=4608 goes out of "
            "memory at only 4k context. Why?",
            4608,
            "4k",
        ),
        ("full fine-tune llama 3 8b with max_seq_length 7000, roughly 8k context, how many A100", 7000, "8k"),
        ("LoRA mistral 7b, cutoff_len=30000, about 32k context, on 2 A100", 30000, "32k"),
        ("LoRA qwen2.5 7b，cutoff_len: 3500，也就是大概 4k 的长度，4090 够吗", 3500, "4k"),
        ("qwen2.5 7b 全参微调 max_length=16000，大约16k上下文，要几张A100", 16000, "16k"),
        ("qwen2.5 14b lora，max_seq_length=7500，8k 左右的上下文，需要几张 4090", 7500, "8k"),
    ],
)
def test_exact_key_value_wins_over_a_rounded_context(text: str, exact: int, rounded: str) -> None:
    parsed = parse(text)
    assert parsed.request.seq_len == exact
    assert (rounded, "rounded_context") in parsed.unused_numbers
    assert (str(exact), "unread") not in parsed.unused_numbers


def test_a_later_context_far_from_the_key_is_no_rounding() -> None:
    parsed = parse("LoRA llama 3 8b, max_seq_length=2048, later we want about 8k context, on a 4090?")
    assert all(why != "rounded_context" for _, why in parsed.unused_numbers)


# -- 9. two stages, each on its own cards -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "stage", "gpu", "count", "other"),
    [
        (
            "We pretrain a 7B on 1T tokens on 64 H800, then SFT it on 8 A100 with 1B tokens. "
            "How long does the SFT take?",
            "finetune",
            "A100-SXM4-80GB",
            8,
            "We pretrain a 7B on 1T tokens on 64 H800",
        ),
        (
            "We pretrain a 7B on 1T tokens on 64 H800, then SFT it on 8 A100 with 1B tokens. "
            "How long does the pretraining take?",
            "pretrain",
            "H800-SXM5-80GB",
            64,
            "then SFT it on 8 A100 with 1B tokens",
        ),
        (
            "Can I do instruction fine-tuning of the model on my dataset with 4x 3090? Or how much GPU "
            "memory is necessary? And how much GPU memory does inference need: can I use one 3090?",
            "finetune",
            "RTX-3090",
            4,
            "And how much GPU memory does inference need: can I use one 3090?",
        ),
        (
            "先用64张H800预训练7B模型1万亿token，再在8张A100上SFT 10亿token，SFT要多久？",
            "finetune",
            "A100-SXM4-80GB",
            8,
            "先用64张H800预训练7B模型1万亿token",
        ),
        (
            "我们先在 4 张 A800 上全参微调 Qwen2.5-14B 5亿token，然后用 2 张 L20 部署给 50 人用，部署够吗？",
            "inference",
            "L20",
            2,
            "我们先在 4 张 A800 上全参微调 Qwen2.5-14B 5亿token",
        ),
        (
            "先在 256 张 H100 上预训练 13B 模型 2T token，之后在 16 张 A100 上微调，微调要几天？",
            "finetune",
            "A100-SXM4-80GB",
            16,
            "先在 256 张 H100 上预训练 13B 模型 2T token",
        ),
    ],
)
def test_each_stage_sized_on_its_own_rig(text: str, stage: str, gpu: str, count: int, other: str) -> None:
    parsed = parse(text)
    req = parsed.request
    assert (req.stage, req.gpu, req.gpu_count) == (stage, gpu, count)
    assert (other, "other_setup") in parsed.unused_numbers
    assert req.params_total is not None or req.model is not None or stage == "finetune"


def test_one_rig_for_two_stages_stays_one_setup() -> None:
    parsed = parse("On 8 A100: pretrain a 1B on 20B tokens, then fine-tune it on 1B tokens. How long in all?")
    assert all(why != "other_setup" or "A100" not in text for text, why in parsed.unused_numbers)


# -- 10. helper model paths are not the model --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "model", "unknown", "helper"),
    [
        (
            "用 OpenR 做 7B 推理模型结合 7B PRM 的 RL 训练需要多少显存？命令：python -u train_math.py "
            "--model_name_or_path ./deepseek-math-7b-instruct --prm_model_name_or_path "
            "./math-shepherd-mistral-7b-prm --algorithm_name APPO",
            None,
            "deepseek-math-7b-instruct",
            "model: mistral-7b",
        ),
        (
            "GRPO with reward_model.path: Skywork/Skywork-Reward-Llama-3.1-8B and model_name_or_path: "
            "Qwen/Qwen2.5-1.5B-Instruct, how much memory on one 4090?",
            "Qwen2.5-1.5B",
            None,
            "model: Skywork-Reward-Llama-3.1-8B",  # s46: the reward model named whole, not as its base
        ),
        (
            "PPO 需要几张 H100：--reward_model_path Qwen/Qwen2.5-72B-Instruct --model_name_or_path "
            "Qwen/Qwen2.5-7B-Instruct",
            "Qwen2.5-7B",
            None,
            "model: Qwen2.5-72B-Instruct",
        ),
        (
            "奖励模型 reward_model_path=Qwen/Qwen2.5-72B-Instruct，"
            "策略模型 policy_model_path=Qwen/Qwen2.5-7B-Instruct，GRPO 要几张 H800",
            "Qwen2.5-7B",
            None,
            "model: Qwen2.5-72B-Instruct",
        ),
        (
            "用 TRL 跑 PPO，--sft_model_path EleutherAI/pythia-1b "
            "--reward_model_path EleutherAI/pythia-6.9b，单卡 A100 够吗",
            "Pythia-1B",
            None,
            "model: pythia-6.9b",
        ),
    ],
)
def test_policy_path_is_the_model_helpers_named(
    text: str, model: str | None, unknown: str | None, helper: str
) -> None:
    parsed = parse(text)
    assert parsed.request.model == model
    assert parsed.unknown_model == unknown
    assert (helper, "rl_reward_model_not_sized") in parsed.unused_numbers
