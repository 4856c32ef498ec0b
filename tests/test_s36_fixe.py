"""Session 36 fix e: the user's setting first, absurd sizes, docker's address form of a port (a fresh-user
trial on main 3681b8c0).

Item 1: a training job whose own setting does not fit the user's cards, where the fewest cards for that
setting is far more than a changed setting needs (the fp32 logits, 3 × vocab × seq × micro-batch × 4 B, do not
shrink with ZeRO-3), or where no count fits at all, leads with the change that fits (on their cards, else on
a few), and the count for their setting comes last, with its machines (bot.render.fit_change_text.
headline_fix).

Item 3: docker's '-p 127.0.0.1:8000:8000' (address:host:container) is a network port, never 'no word said
what it is' (bot.parse.network_ports)."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from typing import Any

import pytest

from bot.cli import main
from bot.parse.network_ports import network_ports


def ask_text(question: str, lang: str | None = None) -> str:
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main(["ask", "--format", "text", *(["--lang", lang] if lang else []), question]) == 0
    return buf.getvalue()


def ask_json(question: str) -> dict[str, Any]:
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main(["ask", "--format", "json", question]) == 0
    return json.loads(buf.getvalue())


# ---- #1: the user's setting first, then the change that fits, the count last ---------------------------

QLORA_32B = "deepseek-r1-distill-qwen-32b qlora 单卡4090 微调，上下文8k，需要几张卡"
LF_YAML = """4张3090能跑吗？
model_name_or_path: Qwen/Qwen2.5-14B-Instruct
stage: sft
finetuning_type: lora
lora_rank: 64
lora_target: all
per_device_train_batch_size: 2
gradient_accumulation_steps: 8
cutoff_len: 8192
bf16: true"""


def test_qlora_32b_on_one_4090_leads_with_the_change_not_40_cards() -> None:
    """The logits of Qwen's 152,064-token vocabulary at 8,192 tokens: 3 × 152,064 × 8,192 × 4 B = 14.95 GB
    = 13.9 GiB on every card whatever the count (ZeRO-3 shards only the weights); the user's setting takes
    40 cards (five machines of 8), Liger's chunked loss fits on 4. The headline says their 1 card does not
    hold their setting and names Liger on 4; the 40 comes after, with its machines."""
    reply = ask_text(QLORA_32B)
    head, rest = reply.split("\n", 1)
    assert "按现在的设置 1 张 RTX 4090 放不下" in head
    assert "Liger" in head and "4 张卡" in head
    assert "40 张" not in head and "至少要" not in head
    assert "13.9 GiB" in rest  # the logits bar, worked above
    assert "这需要 40 张卡，超过一台机器能装的数量（8 张）" in rest
    m = ask_json(QLORA_32B)["report"]["memory"]
    assert m["min_gpus"] == 40 and m["fits_requested"] is False


def test_llamafactory_yaml_on_4_3090_leads_with_micro_batch_1_and_liger() -> None:
    """Micro-batch 2 doubles the logits: 2 × 13.9 = 27.8 GiB per card, above the 24 GiB of one RTX 3090 at
    any count (min_gpus None); micro-batch 1 with Liger fits on the user's 4 (high end 22.0 GiB). The
    headline names it, never a bare 'does not fit'."""
    reply = ask_text(LF_YAML)
    head, rest = reply.split("\n", 1)
    assert "按现在的设置 4 张 RTX 3090 放不下；在你的 4 张卡上：微批次设为 1" in head
    assert "Liger" in head and "22.0 GiB" in head
    assert "27.8 GiB" in rest
    assert ask_json(LF_YAML)["report"]["memory"]["min_gpus"] is None


def test_the_yaml_in_english_too() -> None:
    head = ask_text(LF_YAML, "en").split("\n", 1)[0]
    assert "does not fit on 4 × RTX 3090 as set; on your 4 GPUs: micro-batch 1" in head


def test_a_count_that_genuinely_needs_more_cards_stays() -> None:
    """70B full fine-tune on one H100: the only change near one card is CPU offload of ~789 GiB of optimizer
    states (host RAM, slower steps): no headline change; the count stays (16 at least)."""
    head = ask_text("Full fine-tune Llama-3.1-70B on one H100, memory?", "en").split("\n", 1)[0]
    assert "does not fit on 1 × H100 80G: at least 16 GPUs needed" in head


# ---- #3: docker's address:host:container -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "ports"),
    [
        ("docker run -p 8080:80 x", {"8080", "80"}),
        ("docker run -p  :8000 x", {"8000"}),  # '127.0.0.1:8000:8000' after the normalizer
        ("docker run -p 127.0.0.1:8000:8000 x", {"8000"}),
        ("docker run -p localhost:9000:8000 x", {"9000", "8000"}),
        ("--publish 8000:8000", {"8000"}),
    ],
)
def test_docker_publish_forms(text: str, ports: set[str]) -> None:
    assert set(network_ports(text)) == ports


@pytest.mark.parametrize("text", ["ls -p 7b", "-p 2 张卡", "top-p 0.9"])
def test_not_a_port(text: str) -> None:
    assert network_ports(text) == {}


@pytest.mark.parametrize(
    ("question", "lang", "said"),
    [
        (
            "docker run --gpus all -p 127.0.0.1:8000:8000 vllm/vllm-openai --model Qwen/Qwen2.5-7B-Instruct"
            " on 1 A100, how many users",
            "en",
            "“8000” (a network port",
        ),
        (
            "docker run --gpus all -p 0.0.0.0:8080:80 vllm/vllm-openai --model Qwen/Qwen2.5-7B-Instruct"
            " 1张A100 能撑多少并发",
            None,
            "“80”（网络端口",
        ),
    ],
)
def test_address_form_is_a_port_in_the_reply(question: str, lang: str | None, said: str) -> None:
    reply = ask_text(question, lang)
    assert said in reply
    assert "no word said" not in reply and "没看出它指什么" not in reply


# ---- #2: a time over a century ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "lang", "said"),
    [
        # 6 × 70e9 × 9e15 = 3.78e27 FLOPs: 3.8B H100-hours on 512 cards ≈ 7.4M hours ≈ 845 years
        ("pretrain a 70B model on 9e15 tokens with 512 H100, how long", "en", "512 × H100 80G: > 100 years"),
        ("用 512 张 H100 预训练 70B 模型，9e15 token，要多久", None, "512 张 H100 80G 超过 100 年"),
    ],
)
def test_over_a_century_is_said_so(question: str, lang: str | None, said: str) -> None:
    head = ask_text(question, lang).split("\n", 1)[0]
    assert said in head
    assert "days" not in head and "天" not in head


def test_under_a_century_keeps_its_days() -> None:
    """1e15 tokens: 6 × 70e9 × 1e15 = 4.2e26 FLOPs, 421M H100-hours ÷ 512 ≈ 34,272 days (93.8 years)."""
    head = ask_text("pretrain a 70B model on 1e15 tokens with 512 H100, how long", "en").split("\n", 1)[0]
    assert "≈ 34,272 days" in head


# ---- #2: an absurd context, in the user's units, named as beyond any window ------------------------------


@pytest.mark.parametrize(
    ("question", "lang", "said"),
    [
        (
            "Qwen2.5-7B 推理，上下文 10000000k，1 张 A100，能跑吗",
            None,
            "“上下文 10,000,000K”（超出任何模型的上下文窗口：已发布最长的 Llama 4 Scout 约 1000 万 token）",
        ),
        (
            "serve Llama-3.1-8B with 10000000k context on 1 H100",
            "en",
            "“context 10,000,000K” (beyond any model's context window: the longest published, Llama 4"
            " Scout's, holds about 10M tokens)",
        ),
    ],
)
def test_absurd_context_as_typed_and_beyond_any_window(question: str, lang: str | None, said: str) -> None:
    """10000000k = 10,000,000 × 1,000 = 10¹⁰ tokens, above the 10⁸ a context may take; shown in thousands."""
    reply = ask_text(question, lang)
    assert said in reply
    assert "10000000000" not in reply and "9765625" not in reply


def test_window_bound_is_the_requests() -> None:
    from bot.render.ignored_texts import SEQ_MAX
    from estimator.request import bounds

    assert bounds("seq_len")[1] == SEQ_MAX


def test_a_sane_context_keeps_its_words() -> None:
    """A real context (128k) is used, never named beyond any window."""
    reply = ask_text("serve Llama-3.1-8B with 128k context on 1 H100", "en")
    assert "beyond any model's context window" not in reply
    assert "128K context" in reply


# ---- #2: the sane-range sentence on line one ---------------------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "markdown", "html"])
def test_beyond_any_real_job_on_the_headlines_line(fmt: str) -> None:
    """100T parameters (> 10¹³) and 10¹⁸ tokens (> 10¹⁵): both sentences end line one, in every dialect."""
    buf = io.StringIO()
    q = "pretrain a 100T model on 1e18 tokens with 1000 H100, how long"
    with redirect_stdout(buf):
        assert main(["ask", "--format", fmt, "--lang", "en", q]) == 0
    first, second = buf.getvalue().splitlines()[:2]
    assert "does not fit in the memory of 1,000 × H100 80G" in first
    assert first.rstrip("\\").endswith(
        "1×10¹⁸ tokens is far beyond any real dataset (the largest published runs trained on about 36T,"
        " Qwen3): every figure below is an extrapolation."
    )
    assert "A model of 100T parameters is far beyond any real one" in first
    assert "far beyond" not in second


def test_beyond_in_chinese_joins_without_a_space() -> None:
    first = ask_text("用 1000 张 H100 预训练 100T 模型，1e18 token，要多久").splitlines()[0]
    assert "H100·时）100T 参数的模型远超任何真实模型" in first
    assert first.endswith("下面的数字都只是外推。")
