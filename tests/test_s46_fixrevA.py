"""Session 46, fixrevA: the s46 review's blocking findings B1, B4, B5 and N5, N8, N10.

B1 — an int8 KV cache is 1 byte a value, like fp8 (estimator/kv_types.py ``ONE_BYTE_KV``): the advice "use an
fp8 KV cache" would save nothing, and the launch command must set a 1-byte cache. vLLM's ``--kv-cache-dtype``
takes auto / fp8 / fp8_e4m3 / fp8_e5m2 (vllm/config/cache.py ``CacheDType``), SGLang's auto / fp8_e5m2 /
fp8_e4m3: neither has int8, so the reply says so and the command runs fp8, the same byte; LMDeploy's
``--quant-policy 8`` (lmdeploy/cli/utils.py) is the engine with an int8 cache.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


def _text(capsys, question: str) -> str:
    main(["ask", "--", question])
    return capsys.readouterr().out


def _codes(d: dict) -> list[str]:
    r = d["report"]
    return [n["code"] for n in r.get("warnings", []) + r.get("notes", [])]


# ---- B1: int8 KV cache ----------------------------------------------------------------------------------

INT8_CMD_EN = (
    "vllm serve Qwen3-32B with 32k context and an int8 KV cache on 2 L40S: give me the launch command"
)
INT8_EN = "Qwen3-32B 128k context int8 KV cache on 2 L40S"
INT8_ZH = "Qwen3-32B 128k 上下文 int8 KV 缓存 2 张 L40S"


@pytest.mark.parametrize("q", [INT8_EN, INT8_ZH])
def test_b1_int8_kv_gets_no_fp8_advice_and_is_named_on_vllm(capsys, q):
    out = _text(capsys, q)
    assert "use an fp8 KV cache" not in out and "改用 fp8 KV 缓存" not in out
    assert "128 KiB" in out  # Qwen3-32B: 64 layers × 8 KV heads × 128 × 2 (K, V) × 1 B
    d = _ask(capsys, q)
    assert "int8_kv_as_fp8" in _codes(d)
    assert d["report"]["inference"]["kv_precision"] == "int8"


def test_b1_int8_kv_note_words_both_languages(capsys):
    assert "vLLM has no int8 KV cache" in _text(capsys, INT8_EN)
    assert "vLLM 没有 int8 KV 缓存" in _text(capsys, INT8_ZH)


def test_b1_vllm_command_sets_a_one_byte_cache_for_int8(capsys):
    out = _text(capsys, INT8_CMD_EN)
    assert "--kv-cache-dtype fp8" in out
    assert "no int8 KV cache in this engine" in out


def test_b1_not_misread_fp8_cache_is_not_named_int8(capsys):
    d = _ask(capsys, "Qwen3-32B 128k context fp8 KV cache on 2 L40S")
    assert "int8_kv_as_fp8" not in _codes(d)
    assert d["report"]["inference"]["kv_precision"] == "fp8"


@pytest.mark.parametrize("q", ["Qwen3-32B 32k context on 2 L40S", "Qwen3-32B 32k 上下文 2 张 L40S"])
def test_b1_not_misread_bf16_cache_keeps_the_fp8_advice(capsys, q):
    out = _text(capsys, q)
    assert "use an fp8 KV cache" in out or "改用 fp8 KV 缓存" in out
    assert "int8_kv_as_fp8" not in _codes(_ask(capsys, q))


def test_b1_not_misread_lmdeploy_has_int8(capsys):
    d = _ask(capsys, "Qwen3-32B with lmdeploy, 32k context, int8 KV cache on 2 L40S")
    assert "int8_kv_as_fp8" not in _codes(d)


# ---- B4: a tax rate applied where a cost is shown, not 'not used' ----------------------------------------

TAX_EN = "Quote with 13% VAT: 8 H100 for one month"
TAX_ZH = "报价含税13% 8卡H100一个月"


@pytest.mark.parametrize(("q", "typed"), [(TAX_EN, "13% VAT"), (TAX_ZH, "含税13%")])
def test_b4_tax_applied_not_ignored_and_in_json(capsys, q, typed):
    d = _ask(capsys, q)
    assert "tax_rate" not in [i["reason"] for i in d["interpretation"]["ignored"]]
    cost, tax = d["report"]["cost"], d["report"]["cost"]["tax"]
    assert tax["rate"] == 0.13 and tax["text"] == typed  # the phrase as typed: '13% VAT', not '13% vat'
    assert tax["low"] == pytest.approx(cost["low"] * 1.13) and tax["high"] == pytest.approx(
        cost["high"] * 1.13
    )
    assert "Not used" not in d["reply"] and "未使用" not in d["reply"]


def test_b4_tax_sentence_both_languages(capsys):
    # 8 × 720 h × $1.50–3.50 = $8,640 – $20,160; × 1.13 = $9,763 – $22,781 (¥15–40: ¥86,400 – ¥230,400)
    assert "With 13% tax: $9,763 – $22,781 ($8,640 – $20,160 before tax × 1.13)." in _text(capsys, TAX_EN)
    assert "含 13% 税：¥97,632 – ¥260,352（税前 ¥86,400 – ¥230,400 × 1.13）。" in _text(capsys, TAX_ZH)


@pytest.mark.parametrize(
    "q",
    [
        "Llama 3.1 8B serving on 1 H100, 64 concurrent, incl. 6% VAT",
        "Llama 3.1 8B 部署 1 张 H100，64 并发，含税6%",
    ],
)
def test_b4_serving_month_carries_the_tax(capsys, q):
    d = _ask(capsys, q)
    month = d["report"]["inference"]["cost_per_month"]
    assert month["tax"]["rate"] == 0.06
    assert month["tax"]["high"] == pytest.approx(month["high"] * 1.06)
    assert "tax_rate" not in [i["reason"] for i in d["interpretation"]["ignored"]]


@pytest.mark.parametrize(
    "q", ["Quote: 8 H100 for one month", "报价 8卡H100一个月", "报价 8卡H100一个月，13台机器的发票能开吗"]
)
def test_b4_not_misread_no_rate_no_tax_object(capsys, q):
    d = _ask(capsys, q)
    assert d["report"]["cost"]["low"] == 8640 or d["report"]["cost"]["low"] == 86400
    assert "tax" not in d["report"]["cost"]


# ---- B5 + N5: a merge done is no merge asked; a merge asked after a past run is the merge -----------------

DONE = [
    "I merged my LoRA into Llama 3.1 8B; how much VRAM to serve it on an RTX 4090?",
    "After merging the adapter into Llama 3.1 8B, how much VRAM does serving need on one RTX 4090?",
    "LoRA 已经合并好了，Llama 3.1 8B 部署要多少显存，一张 4090",
    "合并后的 Llama 3.1 8B 模型部署需要多少显存？一张 4090",
]


@pytest.mark.parametrize("q", DONE)
def test_b5_merge_done_is_not_asked(capsys, q):
    d = _ask(capsys, q)
    assert not d["request"]["merge_asked"]
    assert d["report"]["merge"] is None
    assert "Merging a LoRA adapter" not in d["reply"] and "合并进这个" not in d["reply"]


PAST_RUN = [
    "how much RAM to merge the QLoRA adapter into Llama 3.1 8B after training on 50k samples",
    "训练完 5 万条数据后，把 QLoRA 合并回 Llama 3.1 8B 需要多少内存",
]


@pytest.mark.parametrize("q", PAST_RUN)
def test_b5_merge_after_a_past_run_is_the_merge(capsys, q):
    d = _ask(capsys, q)
    assert d["request"]["merge_asked"] is True
    assert d["report"]["merge"]["bytes"] == pytest.approx(2 * 8.03e9, rel=0.01)  # 2 B × Llama 3.1 8B's 8.03B
    assert "fine-tuning" not in d["reply"].splitlines()[0] and "微调" not in d["reply"].splitlines()[0]


@pytest.mark.parametrize(
    "q",
    [
        "LoRA fine-tune Llama 3.1 8B on 50k samples, then merge: how much memory?",
        "用 5 万条数据 LoRA 微调 Llama 3.1 8B，然后合并，需要多少显存？",
    ],
)
def test_b5_not_misread_a_training_asked_stays_the_training(capsys, q):
    d = _ask(capsys, q)
    assert not d["request"]["merge_asked"]
    assert d["report"]["merge"] is None


def test_n5_head_names_the_adapter_only_when_counted(capsys):
    en = _ask(capsys, "how much memory to merge a LoRA adapter into Llama 3.1 70B?")
    assert "plus the adapter" not in en["reply"]
    assert en["report"]["merge"]["adapter_bytes"] is None
    assert en["report"]["merge"]["bytes"] == pytest.approx(2 * 70.55e9, rel=0.01)  # Llama 3.1 70B: 70.55B


def test_n5_zh_adapter_sentence_joins_without_space_and_json_counts_it(capsys):
    d = _ask(capsys, "把 Qwen2.5-7B 的 rank 64 LoRA 合并回基座需要多少内存？")
    assert "。按你的 rank 64" in d["reply"]  # no ASCII space between zh sentences
    # Qwen2.5-7B rank 64, all linear layers: 28 layers × 90,112 (d_in + d_out summed) × 64 = 161.5M params
    assert d["report"]["merge"]["adapter_bytes"] == 2 * 28 * 90_112 * 64


# ---- N10: the batch cost on the fallback path (no serving setup) -----------------------------------------


def test_n10_batch_cost_without_the_serving_setup_uses_the_month_price():
    from bot.parse import parse
    from estimator.batch_work import batch_work
    from estimator.sizing import estimate

    report = estimate(parse("process 1B tokens with Llama 3.1 8B on 8 H100: how long and how much?").request)
    work = batch_work(report.request, report.inference, None)  # the estimate's priced figures, no setup
    assert work is not None and work.batch_cost is not None
    # the month's price back per GPU-hour: cost_per_month ÷ (8 GPUs × 730 h) = the catalog's ¥15–40 (no
    # language given: CNY)
    assert (work.batch_cost.price_low, work.batch_cost.price_high) == pytest.approx((15.0, 40.0))
    assert work.batch_cost.low == pytest.approx(work.batch_gpu_hours * 15.0)


# ---- N8: 'data parallel attention' in prose is used --------------------------------------------------------


@pytest.mark.parametrize(
    "q",
    [
        "DeepSeek-V3 on 16 H200 with vLLM data parallel attention, 256 concurrent",
        "DeepSeek-V3 on 16 H200 with vLLM, data-parallel attention, 256 concurrent",
        "DeepSeek-V3 用 vLLM 数据并行注意力，16 张 H200，256 并发",
        "DeepSeek-V3 用 vLLM 开数据并行 attention，16 张 H200，256 并发",
    ],
)
def test_n8_data_parallel_attention_in_words_is_used(capsys, q):
    d = _ask(capsys, q)
    assert d["request"]["dp_attention"] is True
    assert "DP=8" in d["reply"].splitlines()[0]  # vLLM --data-parallel-size 8 --enable-expert-parallel


@pytest.mark.parametrize(
    ("q", "said"),
    [
        ("DeepSeek-V3 on 16 H200 with vLLM, data parallel, 256 concurrent", None),  # no attention word
        ("DeepSeek-V3 on 16 H200 with vLLM without data parallel attention, 256 concurrent", False),
        ("DeepSeek-V3 用 vLLM，不开数据并行注意力，16 张 H200，256 并发", False),
    ],
)
def test_n8_not_misread_plain_data_parallel_or_turned_off(capsys, q, said):
    d = _ask(capsys, q)
    assert d["request"]["dp_attention"] is said
    assert "DP=8" not in d["reply"].splitlines()[0]
