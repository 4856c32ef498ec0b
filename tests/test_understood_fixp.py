"""Understanding defects of issue 24 (session 10, part fixp): every number and setting a question states is
used, or named as not used and why; an unknown card keeps its name and memory. Each fix in both languages,
through ``sizing-bot ask --format json`` or the pipeline. The sentences are written for these tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.core.yaml_aliases import MAX_EXPANDED_NODES, alias_expansion, excessive_aliases
from tests.cli_run import ask_in_process, ask_quietly, named


def ask(capsys: pytest.CaptureFixture[str], *args: str, want_code: int = 0) -> dict[str, Any]:
    return ask_in_process(capsys, *args, want_code=want_code)


# -- item 6: lmdeploy's --cache-max-entry-count is echoed under its own name

LMDEPLOY = [
    ("lmdeploy serve api_server internlm2-chat-7b --cache-max-entry-count 0.4 --session-len 4096", "en"),
    ("lmdeploy serve api_server Qwen/Qwen2.5-14B-Instruct --tp 2 --cache-max-entry-count 0.6", "zh"),
]


@pytest.mark.parametrize(("command", "lang"), LMDEPLOY)
def test_lmdeploy_cache_share_is_echoed_as_cache_max_entry_count(
    capsys: pytest.CaptureFixture[str], command: str, lang: str
) -> None:
    """The share lmdeploy gives the KV cache is of the memory FREE after the weights
    (lmdeploy/messages.py TurbomindEngineConfig): the reply names it as lmdeploy does, never as vLLM's
    gpu_memory_utilization (before: 'lmdeploy, gpu_memory_utilization 0.5'), and sizes it so."""
    share = float(command.split("--cache-max-entry-count ")[1].split()[0])
    data = ask(capsys, "--lang", lang, command)
    inf = data["report"]["inference"]
    assert data["request"]["runtime"] == "lmdeploy"
    assert data["request"]["gpu_memory_utilization"] == share  # the contract's field, unchanged
    first = data["reply"].splitlines()[0]
    assert f"cache_max_entry_count {share:g}" in first
    assert "gpu_memory_utilization" not in first
    free = inf["usable_bytes_per_gpu"] - inf["weights_bytes"] / inf["tp"]
    assert inf["workspace_bytes_per_gpu"] == pytest.approx((1 - share) * free)


@pytest.mark.parametrize(
    ("text", "share"),
    [
        ("Serving internlm2-chat-20b with lmdeploy, cache_max_entry_count=0.6, on two A100s", 0.6),
        ("用 lmdeploy 部署 InternLM2-20B，cache_max_entry_count 设为 0.3，两张 A100", 0.3),
    ],
)
def test_lmdeploy_cache_share_in_prose_is_sized(
    capsys: pytest.CaptureFixture[str], text: str, share: float
) -> None:
    """Said in a sentence with lmdeploy as the engine, the share is sized as a pasted flag is (before:
    named 'no_field')."""
    data = ask(capsys, text)
    inf = data["report"]["inference"]
    assert data["request"]["gpu_memory_utilization"] == share and not named(data)
    free = inf["usable_bytes_per_gpu"] - inf["weights_bytes"] / inf["tp"]
    assert inf["workspace_bytes_per_gpu"] == pytest.approx((1 - share) * free)


def test_vllm_share_keeps_its_name(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "vllm serve Qwen/Qwen2.5-7B-Instruct --gpu-memory-utilization 0.85")
    assert "gpu_memory_utilization 0.85" in data["reply"].splitlines()[0]


# -- item 7: a YAML alias bomb is refused as YAML, in the user's language


def _bomb(levels: int, width: int) -> str:
    lines = ["l0: &l0 [" + ", ".join(["lol"] * width) + "]"]
    for i in range(1, levels):
        lines.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def test_alias_expansion_counts_each_anchor_once() -> None:
    """Seven levels of nine: 54 aliases, adding 9² + … + 9⁷ = 5,380,830 values; a config's one
    ``<<: *defaults`` adds its two keys and values; a shell line's glob and ``2>&1`` are no aliases."""
    text = _bomb(7, 9)
    assert alias_expansion(text) == (54, sum(9**k for k in range(2, 8)))
    assert excessive_aliases(text) == ["54", "5380830"]
    plain = "defaults: &defaults\n  learning_rate: 1.0e-4\n  cutoff_len: 2048\ntrain:\n  <<: *defaults\n"
    assert alias_expansion(plain) == (1, 4)
    assert excessive_aliases(plain) is None
    assert alias_expansion("ls *.safetensors > log 2>&1\ncp * out/ 2>&1\n") == (0, 0)
    assert MAX_EXPANDED_NODES == 10_000


@pytest.mark.parametrize(
    ("lang", "question", "said"),
    [
        ("zh", "按这个配置部署要几张卡", "拒绝读取这个 YAML 文件：它的 72 个别名展开后约有"),
        ("en", "how many GPUs for this config", "I refused that YAML file: its 72 aliases would expand"),
    ],
)
def test_yaml_alias_bomb_is_refused_as_yaml(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, lang: str, question: str, said: str
) -> None:
    """Before: 'I could not read that as JSON … send the model's config.json'. Now the file is refused
    for what it is, with its alias count and expanded size."""
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(_bomb(9, 9), encoding="utf-8")
    data = ask(capsys, "--config", str(bomb), question, want_code=2)  # 2: nothing to size
    assert data["config"]["error"] == "yaml_aliases"
    assert data["config"]["fields"] == ["72", str(sum(9**k for k in range(2, 10)))]  # 435,848,040
    reply = ask_quietly("--lang", lang, "--config", str(bomb), question)
    assert said in reply
    assert "JSON" not in reply


# -- item 5: an unknown card keeps its vendor word, its model number and its memory

UNKNOWN_CARDS = [
    ("寒武纪 MLU370 48G 部署 Qwen2.5-7B，要几张", "寒武纪 MLU370", 48.0),
    ("寒武纪 MLU370-S4 24G 上跑 Qwen2.5-14B 推理需要几张", "寒武纪 MLU370-S4", 24.0),  # X8: a card since s47
    ("How many Cambricon MLU370 48GB cards to serve Qwen2.5-7B?", "Cambricon MLU370", 48.0),
    ("Serving Qwen2.5-14B on Cambricon MLU370-S4 with 24GB each, how many?", "Cambricon MLU370-S4", 24.0),
]


@pytest.mark.parametrize(("text", "typed", "gib"), UNKNOWN_CARDS)
def test_cambricon_card_keeps_its_full_name_and_memory(
    capsys: pytest.CaptureFixture[str], text: str, typed: str, gib: float
) -> None:
    """Before: named '寒武纪' (the model number dropped), sized on the A100 80G, its 48 unread."""
    data = ask(capsys, text)
    assert data["interpretation"]["unknown_gpu"] == typed
    assert data["request"]["gpu"] == typed
    assert data["request"]["gpu_memory_gib"] == gib
    assert (data["report"]["hardware"]["name"], data["report"]["hardware"]["memory_gib"]) == (typed, gib)
    assert not named(data)


# -- item 2: a card described by its memory in a requirement phrase is a memory-only card

MEMORY_CARDS = [
    ("需要 24G 显存的卡跑 Qwen2-7B 推理，几张？", 24.0, "RTX-4090", "按这个显存估算，速度按 RTX 4090"),
    ("部署 Qwen2.5-14B 要 48G 显存的卡，要几张", 48.0, "RTX-6000-Ada", "速度按 RTX 6000 Ada"),
]


@pytest.mark.parametrize(("text", "gib", "card", "said"), MEMORY_CARDS)
def test_card_of_a_needed_memory_is_sized_on_that_memory(
    capsys: pytest.CaptureFixture[str], text: str, gib: float, card: str, said: str
) -> None:
    """Before: '需要 24G 显存的卡' read the 24 as a stated need, named unread, sized on the A100 80G. The
    count is asked ('几张'): not assumed to be one card."""
    data = ask(capsys, text)
    assert data["request"]["gpu_memory_gib"] == gib
    assert data["request"]["gpu"] == card
    assert data["request"]["gpu_count"] is None and data["request"]["count_asked"] is True
    assert not named(data)
    assert said in data["reply"]


@pytest.mark.parametrize(
    "text",
    ["How many cards with 24GB of VRAM to serve Qwen2-7B?", "Serving Qwen2-7B needs cards with 24GB each"],
)
def test_english_card_of_a_memory_is_sized_on_it(capsys: pytest.CaptureFixture[str], text: str) -> None:
    data = ask(capsys, text)
    assert data["request"]["gpu_memory_gib"] == 24.0
    assert data["request"]["gpu"] == "RTX-4090"
    assert "sized as a card of that memory, timed at the speed of RTX 4090" in data["reply"]


def test_a_stated_need_stays_a_need(capsys: pytest.CaptureFixture[str]) -> None:
    """'需要 24G 显存' (no card word after it) is still what the job needs, named, not a card."""
    data = ask(capsys, "部署 Qwen2-7B 需要 24G 显存，A100 够吗")
    assert named(data) == {"24": "stated_need"}
    assert data["request"]["gpu_memory_gib"] is None


# -- item 4: the engine asked about first is sized; 'X 也行' / 'X is fine too' is an accepted alternative

ENGINES = [
    ("用 TGI 部署 Llama-3-70B，4张A100能跑吗，vLLM 也行", "TGI", "vLLM", "你说也可以用的另一个推理框架"),
    (
        "用 SGLang 部署 Qwen2.5-72B，8 张 H20 能撑多少并发？lmdeploy 也可以",
        "SGLang",
        "lmdeploy",
        "这次按你先问的那个估算",
    ),
    (
        "Serve Llama-3-70B with TGI on 4 A100s, can it run? Or vLLM is fine too",
        "TGI",
        "vLLM",
        "an engine you would",
    ),
    (
        "Deploy Qwen2.5-32B with lmdeploy on two L40S, vLLM also OK: how many users?",
        "lmdeploy",
        "vLLM",
        "also accept",
    ),
]


@pytest.mark.parametrize(("text", "sized", "other", "said"), ENGINES)
def test_accepted_alternative_engine_is_named_not_sized(
    capsys: pytest.CaptureFixture[str], text: str, sized: str, other: str, said: str
) -> None:
    """Before: 'vLLM 也行' made vLLM the engine sized and TGI 'another setup'."""
    data = ask(capsys, text)
    assert data["request"]["runtime"] == sized
    assert data["report"]["inference"]["runtime"] == sized
    assert named(data) == {f"runtime: {other}": "alternative_engine"}
    assert said in data["reply"]


def test_an_engine_said_as_another_setup_is_still_one(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "之前用 vllm 跑 Qwen2.5-7B，这次换成 SGLang，一张 A100 能撑多少并发？")
    assert data["request"]["runtime"] == "SGLang"
    assert named(data)["runtime: vLLM"] == "other_setup"


# -- item 3: the length of each sample is the sequence length, never the dataset

SAMPLE_LENGTHS = [
    ("7B 模型 LoRA 微调，几千 token 的样本，要几张 4090", 5000, "把“几千”按 5,000 token 计算"),
    ("Qwen2.5-7B 做 QLoRA，每条样本几千 token，一张 3090 够不够", 5000, "把“几千”按 5,000 token 计算"),
    ("全参微调 Qwen2.5-1.5B，3000 token 左右的对话，几张 A100", 3000, "序列长度 3,000"),
    (
        "LoRA on a 7B with samples of a few thousand tokens, how many 4090s?",
        5000,
        "Read “a few thousand” as 5K",
    ),
    ("QLoRA Qwen2.5-14B, samples of 3000 tokens, how many A10s", 3000, "3,000-token sequences"),
]


@pytest.mark.parametrize(("text", "seq", "said"), SAMPLE_LENGTHS)
def test_each_samples_length_is_the_sequence_length(
    capsys: pytest.CaptureFixture[str], text: str, seq: int, said: str
) -> None:
    """Before: '几千 token 的样本' was the dataset's 5,000 tokens in total ('1 分钟训完'). With no dataset
    size the answer sizes memory at that length and gives no time."""
    data = ask(capsys, text)
    req = data["request"]
    assert (req["seq_len"], req["tokens"], req["tokens_per_sample"]) == (seq, None, None)
    assert data["report"]["gpu_hours"] is None and data["report"]["memory"] is not None
    assert not named(data)
    assert said in data["reply"]


def test_samples_counted_keep_their_length_per_sample(capsys: pytest.CaptureFixture[str]) -> None:
    """With a sample count the length multiplies it (the data: 10,000 × 2,000 tokens)."""
    data = ask(capsys, "7B 模型 LoRA 微调，1万条数据，每条样本 2000 token，要几张 4090")
    assert (data["request"]["num_samples"], data["request"]["tokens_per_sample"]) == (10_000, 2000)
    assert data["request"]["tokens"] == 20_000_000


def test_tokens_of_data_stay_the_dataset(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "7B 模型用 1000 亿 token 的数据继续预训练，要多少 A100")
    assert data["request"]["tokens"] == 1e11 and data["request"]["tokens_per_sample"] is None


# -- item 1: a budget per period in a serving question is read as a budget and used


def _budget_note(data: dict[str, Any]) -> dict[str, Any]:
    notes = [
        w for w in data["report"]["warnings"] if w["code"].startswith("serving_") and "budget" in w["code"]
    ]
    assert len(notes) == 1, data["report"]["warnings"]
    return notes[0]


@pytest.mark.parametrize(
    "text",
    [
        "部署Qwen2.5-72B推理，100并发，预算每月5万，需要几张H20",
        "Qwen2.5-72B 上线推理，100 并发，月预算 5 万，H20 要几张",
        "Qwen2.5-72B 推理服务，100 路并发，预算 5万/月，用 H20 要几张",
    ],
)
def test_monthly_budget_in_chinese_is_compared_with_the_serving_cost(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """Before: '未使用：“5万”（没看出它指什么）'. The 4 × H20 answer costs ¥20,440 – ¥43,800 a month
    (4 × 730 h × ¥7–15); ¥50,000 a month rents ⌊50,000 / (730 × 15)⌋ = 4 to ⌊50,000 / (730 × 7)⌋ = 9 H20,
    1–2 copies of the TP 4 layout, 151 sequences each at 4K."""
    data = ask(capsys, "--lang", "zh", text)
    assert (data["request"]["budget"], data["request"]["budget_period"]) == (50_000, "month")
    note = _budget_note(data)
    assert note["code"] == "serving_within_budget"
    p = note["params"]
    assert (p["cost_low"], p["cost_high"], p["monthly"]) == (20_440, 43_800, 50_000)
    assert (p["gpus_low"], p["gpus_high"], p["copies_low"], p["copies_high"]) == (4, 9, 1, 2)
    assert (p["sequences_low"], p["sequences_high"]) == (151, 302)
    assert "在预算（每月 ¥50,000）之内：这个方案的 4 张卡每月 ¥20,440 – ¥43,800。" in data["reply"]
    assert "即这套 4 卡部署 1–2 份，这个上下文下约可同时跑 151–302 条序列" in data["reply"]
    assert not named(data)


def test_monthly_budget_in_english_over_and_borderline(capsys: pytest.CaptureFixture[str]) -> None:
    """$3k a month against 4 × H100 at $1.50–3.50: $4,380 – $10,220 a month, over; it rents 1–2 H100,
    not one copy of the 4-GPU layout. '$5000 monthly budget' on 4 × H100 for Llama-3-70B: borderline."""
    data = ask(capsys, "Serve Qwen2.5-72B for 100 concurrent users on H100s, budget $3k a month")
    assert (data["request"]["budget"], data["request"]["budget_period"], data["request"]["currency"]) == (
        3000,
        "month",
        "USD",
    )
    note = _budget_note(data)
    assert note["code"] == "serving_over_budget"
    assert (note["params"]["gpus_low"], note["params"]["gpus_high"], note["params"]["copies_high"]) == (
        1,
        2,
        0,
    )
    assert (
        "Over your budget of $3,000 a month: this answer's GPUs (4) cost $4,380 – $10,220 a month."
        in (data["reply"])
    )
    assert "not one copy of this 4-GPU layout" in data["reply"]
    assert not named(data)
    data = ask(capsys, "how many H100 to serve Llama 3 70B on a $5000 monthly budget?")
    assert _budget_note(data)["code"] == "serving_budget_borderline"
    assert data["request"]["budget_period"] == "month"


def test_hourly_budget_is_compared_per_month(capsys: pytest.CaptureFixture[str]) -> None:
    """$20 an hour = $14,600 a month (730 h): 8–16 A100 at $1.20–2.50, 2–4 copies of TP 4."""
    data = ask(capsys, "Deploy Llama-3-70B on A100s for 50 concurrent users with a budget of $20 per hour")
    assert (data["request"]["budget"], data["request"]["budget_period"]) == (20, "hour")
    p = _budget_note(data)["params"]
    assert (p["monthly"], p["gpus_low"], p["gpus_high"], p["copies_low"], p["copies_high"]) == (
        14_600,
        8,
        16,
        2,
        4,
    )
    assert "Within your budget of $20.00 an hour" in data["reply"]


def test_a_budget_without_period_is_the_months_it_pays(capsys: pytest.CaptureFixture[str]) -> None:
    """A sum: ¥50,000 ÷ ¥20,440 – ¥43,800 a month = 1.14–2.45 months (before: named as a training setting)."""
    data = ask(capsys, "部署Qwen2.5-72B推理，100并发，预算5万，需要几张H20")
    assert (data["request"]["budget"], data["request"]["budget_period"]) == (50_000, None)
    note = _budget_note(data)
    assert note["code"] == "serving_budget_months"
    assert note["params"]["months_low"] == pytest.approx(50_000 / 43_800)
    assert (
        "你的预算（¥50,000）够这个方案的 4 张卡用 1.14–2.45 个月（每月 ¥20,440 – ¥43,800）。" in data["reply"]
    )
    assert not named(data)
    data = ask(
        capsys, "Serving Llama-3-8B on L40S, 32 concurrent, total budget of $10,000: how long does it last?"
    )
    assert "Your budget of $10,000 pays this answer's GPUs (1) for 8.56–17.12 months" in data["reply"]


def test_a_card_without_price_gets_the_most_it_may_cost(capsys: pytest.CaptureFixture[str]) -> None:
    """No price for an unknown card: ¥20,000 a month ÷ (730 h × 2 cards) = ¥13.70 per GPU-hour at most."""
    data = ask(capsys, "寒武纪 MLU370 48G 部署 Qwen-7B，预算每月2万")
    note = _budget_note(data)
    assert note["code"] == "serving_budget_no_price"
    assert note["params"]["max_price"] == pytest.approx(20_000 / (730 * 2))
    assert "单价最高可到每卡·时 ¥13.70" in data["reply"]


def test_a_training_budget_per_month_is_named_as_read_in_all(capsys: pytest.CaptureFixture[str]) -> None:
    """A training budget per period is the period's sum × the run's months (trial report s10 B4, which
    replaced "compared as one sum, the period named as not used"): the 30-day planning window is 1.0
    month of 730 h, so ¥50,000 a month is ¥50,000 for this run, and the period is used."""
    data = ask(capsys, "7B模型1万亿token，预算每月5万")
    assert data["request"]["budget"] == 50_000
    assert named(data) == {}
    note = next(n for n in data["report"]["warnings"] if n["code"] == "over_budget")
    assert (note["params"]["per_month"], note["params"]["months"], note["params"]["budget"]) == (
        50_000,
        1.0,
        50_000,
    )
    assert "超过你每月 ¥50,000 在整个训练 1 个月里合计的 ¥50,000" in data["reply"]


@pytest.mark.parametrize(
    ("text", "days", "budget"),
    [
        ("预算两个月训完 7B 模型，1万亿 token，要几张 A100", 60, None),
        ("预算100万一个月训完7B 1万亿token", 30, 1e6),
    ],
)
def test_time_budgets_are_not_money_periods(
    capsys: pytest.CaptureFixture[str], text: str, days: int, budget: float | None
) -> None:
    data = ask(capsys, text)
    req = data["request"]
    assert (req["deadline_days"], req["budget"], req["budget_period"]) == (days, budget, None)
