"""Session 47 fixrev: what session 46's review and trial left (issue 24 items 3–4, issue 23's layering).

1. GGUF K-quant mixes (Q6_K, Q3_K_L/M/S, Q2_K) are sized as themselves under llama.cpp, never as a GPTQ
   int4/int3 on vLLM (review B6): their size from llama.cpp's quantize table (tools/quantize/quantize.cpp
   ``QUANT_OPTIONS``, Llama-3-8B: 'Q3_K_M 3.74G', 'Q6_K 6.14G', 'Q2_K 2.96G'; G is GiB).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main

GIB = 2**30


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


def _inference(capsys, question: str) -> tuple[dict, dict]:
    out = _ask(capsys, question)
    return out, out["report"]["inference"]


@pytest.mark.parametrize(
    ("question", "fmt", "gib"),
    [
        ("Can Llama-3-8B Q3_K_M run on one A100 40GB?", "q3_k_m", 3.74),
        ("Llama-3-8B 的 Q3_K_M 量化版，一张 A100 40GB 能跑吗？", "q3_k_m", 3.74),
        ("Llama-3-8B Q6_K on an H100, how fast?", "q6_k", 6.14),
        ("Llama-3-8B 用 Q6_K 在 H100 上推理多快？", "q6_k", 6.14),
        ("Llama-3-8B Q2_K on one L40S", "q2_k", 2.96),
        ("一张 L40S 跑 Llama-3-8B 的 Q2_K", "q2_k", 2.96),
        ("Llama-3-8B Q3_K_L on one A10", "q3_k_l", 4.03),
        ("Llama-3-8B Q3_K_S 放到一张 A10 上", "q3_k_s", 3.41),
    ],
)
def test_gguf_mix_is_sized_as_itself_on_llama_cpp(capsys, question, fmt, gib):
    """A GGUF type with no runtime, on a data-centre card: llama.cpp's memory model (the only engine that
    loads it), the weights at the quantize table's file size for Llama-3-8B (± 1 %), used, not named."""
    out, inf = _inference(capsys, question)
    assert inf["runtime"] == "llama.cpp"
    assert inf["weight_format"] == fmt
    assert inf["weights_bytes"] / GIB == pytest.approx(gib, rel=0.01)
    assert not any("precision" in i["text"] for i in out["interpretation"]["ignored"])


@pytest.mark.parametrize(
    ("question", "runtime"),
    [
        ("Run Qwen2.5-32B Q6_K with Ollama on two L40S", "Ollama"),
        ("用 Ollama 在两张 L40S 上跑 Qwen2.5-32B 的 Q6_K", "Ollama"),
        ("Qwen2.5-32B Q3_K_M in LM Studio on an RTX 4090", "llama.cpp"),
        ("LM Studio 里跑 Qwen2.5-32B 的 Q3_K_M，显卡是 4090", "llama.cpp"),
    ],
)
def test_gguf_mix_with_a_local_runtime_keeps_its_format(capsys, question, runtime):
    _, inf = _inference(capsys, question)
    assert inf["runtime"] == runtime
    assert inf["weight_format"] in ("q6_k", "q3_k_m")


@pytest.mark.parametrize(
    "question",
    [
        "Llama-3.3-70B IQ2_XXS on one H100",
        "Llama-3.3-70B 的 IQ2_XXS 量化，一张 H100 够吗",
    ],
)
def test_an_i_quant_is_sized_as_the_next_wider_gguf_type_and_named(capsys, question):
    """IQ2_XXS (2.06 bits, quantize.cpp) is sized as Q2_K (3.17 bits), an upper bound, on llama.cpp: named."""
    out, inf = _inference(capsys, question)
    assert (inf["runtime"], inf["weight_format"]) == ("llama.cpp", "q2_k")
    assert any("iq2_xxs" in i["text"] for i in out["interpretation"]["ignored"])


@pytest.mark.parametrize(
    ("question", "fmt"),
    [
        ("Llama-3-70B AWQ int4 on two A100 80GB", "int4"),
        ("Llama-3-70B 的 AWQ 4bit 版本，两张 A100 80GB", "int4"),
        ("Llama-3-70B GPTQ 3-bit on two A100 80GB", "int3"),
        ("两张 A100 80GB 跑 Llama-3-70B 的 3bit GPTQ", "int3"),
    ],
)
def test_gptq_and_awq_stay_on_vllm(capsys, question, fmt):
    """Neighbours that must not move: a GPTQ/AWQ width is a vLLM checkpoint, not a GGUF file."""
    _, inf = _inference(capsys, question)
    assert inf["runtime"] == "vLLM"
    assert inf["weight_format"] == fmt


def test_gguf_rows_are_each_at_their_own_size_on_one_engine(capsys):
    """Review B6: 'Q4_K_M or Q3_K_M' rows on one engine, the Q3_K_M row smaller and not 'sized as INT4'."""
    out = _ask(capsys, "Qwen2.5-72B: Q4_K_M or Q3_K_M, which one fits an A100 40GB?")
    rows = {r["value"]: r for r in out["report"]["per_value"]}
    assert out["report"]["inference"]["runtime"] == "llama.cpp"
    assert rows["q3_k_m"]["fits"] != "no" and rows["q4_k_m"]["fits"] == "no"
    assert "INT4" not in out["reply"]


# 2. A budget in a currency the sizing does not price in, in every order: named once, its label localized.
def _named(out: dict) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in out["interpretation"]["ignored"]]


def _text(capsys, question: str) -> str:
    main(["ask", "--", question])
    return capsys.readouterr().out


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("两万欧元的预算，能租多少张 H100 微调 Qwen2.5-7B？", "budget: 两万欧元 (20,000 EUR)"),
        ("3 万英镑的预算够不够用 A100 做 Llama-3-8B 的 LoRA 微调？", "budget: 3 万英镑 (30,000 GBP)"),
        ("预算 2 万欧元，用 A100 对 Llama-3-8B 做 LoRA 微调要多久", "budget: 2 万欧元 (20,000 EUR)"),
        ("€20k budget: how many H100 hours to fine-tune Llama-3-8B?", "budget: €20k (20,000 EUR)"),
        ("With a budget of 20,000 EUR, how long can I pretrain a 1B model on H100s?", "budget: 20,000 EUR"),
        (
            "20,000 euros of budget: how long can I pretrain a 1B model on H100s?",
            "budget: 20,000 euros (20,000 EUR)",
        ),
    ],
)
def test_a_foreign_budget_in_any_order_is_named_once(capsys, question, said):
    out = _ask(capsys, question)
    assert out["request"]["budget"] is None
    assert (said, "currency_unsupported") in _named(out)
    assert not any(r == "unread" for _, r in _named(out))
    reply = out["reply"]
    reason = "本工具只按人民币和美元计价" if out["lang"] == "zh" else "it prices in yuan and US dollars"
    assert reply.count(reason) == 1


def test_the_chinese_reply_labels_the_foreign_budget_in_chinese(capsys):
    reply = _text(capsys, "两万欧元的预算，能租多少张 H100 微调 Qwen2.5-7B？")
    assert "“预算：两万欧元 (20,000 EUR)”" in reply and "budget:" not in reply
    reply = _text(capsys, "租 H100 每小时 2.5 欧元，微调 Qwen2.5-7B 要花多少？")
    assert "“单价：2.5 欧元 (2.5 EUR)”" in reply and "price:" not in reply


@pytest.mark.parametrize(
    ("question", "budget", "currency"),
    [
        ("两万元的预算，能租多少张 H100 微调 Qwen2.5-7B？", 20000, "CNY"),
        ("两万美元的预算，能租多少张 H100 微调 Qwen2.5-7B？", 20000, "USD"),
        ("给欧洲团队两万元的预算，微调 Qwen2.5-7B 用几张 H100？", 20000, "CNY"),
        ("A $20k budget for our European team: fine-tune Llama-3-8B on H100s", 20000, "USD"),
    ],
)
def test_yuan_and_dollar_budgets_beside_a_euro_word_stay_priced(capsys, question, budget, currency):
    """Must not misread: a yuan or dollar budget stays used; 'European'/'欧洲' is no currency."""
    request = _ask(capsys, question)["request"]
    assert (request["budget"], request["currency"]) == (budget, currency)


def test_a_number_before_a_euro_word_with_no_budget_word_is_no_budget(capsys):
    out = _ask(capsys, "Fine-tune Llama-3-8B on 8 H100 for 3 days; we pay 2.5 euros an hour")
    assert out["request"]["budget"] is None
    assert not any(t.startswith("budget:") for t, _ in _named(out))


# 3. A long-context fine-tune's window carried into the estimate (review N4).
def _contexts(reply: str) -> list[str]:
    return [
        line.split("→")[0].strip() for line in reply.splitlines() if "→" in line and line.strip()[0].isdigit()
    ]


@pytest.mark.parametrize(
    ("question", "window", "last"),
    [
        ("vicuna-13b-v1.5-16k on 2 A10G with TGI, how many users?", 16384, "16K"),
        ("用 2 张 A10G 和 TGI 部署 vicuna-13b-v1.5-16k，能支持多少并发？", 16384, "16K"),
        ("Serve chatglm3-6b-32k on one RTX 4090: concurrency?", 32768, "32K"),
        ("chatglm3-6b-32k 用一张 4090 部署，并发多少？", 32768, "32K"),
    ],
)
def test_a_suffixed_release_window_reaches_the_context_table(capsys, question, window, last):
    """lmsys/vicuna-13b-v1.5-16k config.json: rope_scaling linear 4.0 × 4,096 = 16,384; THUDM/chatglm3-6b-32k:
    32,768. The table stopped at the base's 4K (Llama 2) / 8K (ChatGLM3-6B)."""
    out = _ask(capsys, question)
    assert out["request"]["release_context"] == window
    assert _contexts(out["reply"])[-1] == last
    assert not any(w["code"] == "beyond_context_window" for w in out["report"]["warnings"])


@pytest.mark.parametrize(
    "question",
    [
        "vicuna-13b-v1.5 on 2 A10G with TGI, how many users?",
        "用 2 张 A10G 和 TGI 部署 vicuna-13b-v1.5，能支持多少并发？",
    ],
)
def test_the_base_release_keeps_its_own_window(capsys, question):
    """Must not move: with no suffix the table stops at Llama 2's 4,096 (its config.json)."""
    out = _ask(capsys, question)
    assert out["request"].get("release_context") is None
    assert _contexts(out["reply"])[-1] == "4K"


def test_a_length_past_the_release_window_still_gets_its_note(capsys):
    out = _ask(capsys, "vicuna-13b-v1.5-16k on 2 A100 at 32k context")
    assert out["request"]["release_context"] == 16384
    assert any(
        w["code"] in ("beyond_context_window", "rope_scaling_needed") for w in out["report"]["warnings"]
    )


# 4. A LoRA merge question answers the merge only; the serving plan when serving is asked (review N5).
@pytest.mark.parametrize(
    "question",
    [
        "How much memory do I need to merge a LoRA adapter into Llama 3.1 70B?",
        "把 LoRA 合并回 Llama 3.1 70B 需要多少内存？",
        "merge_and_unload on Qwen2.5-7B-Instruct: is 32GB of RAM enough?",
        "Qwen2.5-7B-Instruct 做 merge_and_unload，32GB 内存够吗？",
    ],
)
def test_a_merge_question_gets_no_serving_plan(capsys, question):
    """PEFT merge_and_unload: the base's 16-bit weights, 2 B × N (Llama 3.1 70B 70,553,706,496 parameters:
    141 GB); no KV cache, decode speed or context table nobody asked for."""
    reply = _text(capsys, question)
    assert "merge_and_unload" in reply
    assert "→" not in reply and "KV" not in reply and "token/s" not in reply and "tokens/s" not in reply


@pytest.mark.parametrize(
    "question",
    [
        "How much memory to merge a LoRA into Llama 3.1 70B, and then serve it with vLLM for 20 users?",
        "把 LoRA 合并回 Llama 3.1 70B 要多少内存？然后用 vLLM 部署，20 个并发",
    ],
)
def test_a_merge_and_serving_question_gets_both(capsys, question):
    reply = _text(capsys, question)
    assert "merge_and_unload" in reply
    assert "KV" in reply and ("tokens/s" in reply or "token/s" in reply)


# 5. Tokens per unit of money and a tax rate: computed in estimator.money_rates, formatted in Babel.
def test_money_rates_are_the_inverse_and_the_gross():
    """10⁶ ÷ the price per million output tokens ($0.50–1.00 → 1,000,000–2,000,000 tokens per dollar), and a
    13 % tax on a net price: net × 1.13 (China's 增值税 含税价 = 不含税价 × (1 + 税率))."""
    from estimator.models import Currency, PriceBand
    from estimator.money_rates import tax_factor, tokens_per_money, with_tax

    band = PriceBand(low=0.5, high=1.0, currency=Currency.USD)
    assert tokens_per_money(band) == (1_000_000, 2_000_000)
    assert tokens_per_money(PriceBand(low=0.0, high=1.0, currency=Currency.USD)) is None
    assert tax_factor(0.13) == pytest.approx(1.13)
    assert with_tax(PriceBand(low=8640, high=20160, currency=Currency.USD), 0.13) == pytest.approx(
        (9763.2, 22780.8)
    )


@pytest.mark.parametrize(
    ("question", "pattern"),
    [
        (
            "How many tokens per dollar can I get serving Qwen3-8B on one L40S?",
            r"≈ \d+(?:\.\d{1,2})?K–\d+(?:\.\d{1,2})?M ",  # three significant digits (s47 review N3)
        ),
        (
            "Qwen3-8B 用一张 L40S 部署，每块钱能生成多少 token？",
            r"约 \d+(?:\.\d{1,2})?万–\d+(?:\.\d{1,2})?万 个",
        ),
    ],
)
def test_tokens_per_money_in_the_compact_form(capsys, question, pattern):
    """The count in Babel's compact form (万 in zh, K/M in en), not an f-string's '0.98–1.95M'."""
    import re

    line = next(x for x in _text(capsys, question).splitlines() if "Tokens per" in x or "能生成的 token" in x)
    assert re.search(pattern, line), line


# 6. A yearly budget said first in Chinese ('一年预算 50 万元'): a budget per year, not a deadline.
@pytest.mark.parametrize(
    ("question", "budget", "period"),
    [
        ("一年预算 50 万元，部署 Qwen2.5-32B 给 100 人用，够吗？", 500_000, "year"),
        ("我们一年的 GPU 预算 200万元，部署 Qwen2.5-32B 够吗？", 2_000_000, "year"),
        ("一个月的预算 3 万元，部署 Qwen2.5-32B 够吗？", 30_000, "month"),
        ("We have $200k a year to serve Llama 3.1 70B for 500 employees: enough?", 200_000, "year"),
        ("A monthly GPU budget of $5,000 to serve Qwen2.5-32B: enough?", 5_000, "month"),
    ],
)
def test_a_budget_per_period_in_either_order(capsys, question, budget, period):
    out = _ask(capsys, question)
    assert (out["request"]["budget"], out["request"]["budget_period"]) == (budget, period)
    assert not any(t.startswith("deadline_days") for t, _ in _named(out))


@pytest.mark.parametrize(
    ("question", "days"),
    [
        ("两年预算 50 万元，部署 Qwen2.5-32B 够吗？", 730),
        ("预算 50 万元，训练一年能训多大的模型？", 365),
        ("We have $200k and two years to pretrain a 1B model", 730),
    ],
)
def test_a_budget_for_several_periods_or_a_duration_is_no_rate(capsys, question, days):
    """Must not misread: '两年预算' is a sum for two years, '训练一年' a duration: no budget per year."""
    request = _ask(capsys, question)["request"]
    assert request["budget_period"] is None
    assert request["deadline_days"] == days
