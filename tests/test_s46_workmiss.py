"""Session 46, part workmiss: the working splits' misses of rounds 1–41 (issue 24 items 2 and 4).

1. Reader (bot.parse.measured_loads): a sweep of loads measured in one message ('96 tok/s at concurrency 1 to
   772 tok/s at 16', 'a single request gets 44.3 tok/s, 10 concurrent requests 222.4 tok/s', '并发 1 时 35
   token/s，并发 16 时 400 token/s'): one load sized, each other named ``measured_load`` (a row each when a
   model is sized, bot.core.per_value); a rate's figure an older reader took as a load is named ``observed``.
   Scorer (tests/real_questions.py NOT_THE_LOAD_REASONS): a load named ``measured_load`` is named as not
   the load, as ``current_load`` is.
2. Table (bot.parse.more_tools.ZH_TRAINING_TOOLS): training codebases of rounds 34 and 38 named as typed and
   as not used (``no_field``): paxml (google/paxml), T5X (google-research/t5x), ParlAI
   (facebookresearch/ParlAI).
3. Reader (bot.parse.memory_target): a memory per GPU the user wants to reach ('bring it down to 48GB or less
   per GPU', '降到 48G 以下', '控制在 40G 以内'), left unread before, is named ``memory_target``; scorer
   (tests/named_keys.py): that reason names a card-memory key.
4. Reader (bot.parse.one_card_named.NOTEBOOK_CARD_RE): a notebook service's card said as its instance ('Google
   Colab … on a T4 instance') is one card; a cloud instance elsewhere ('on an A100 instance' on AWS) stays
   uncounted.
"""

from __future__ import annotations

from tests.cli_run import ask_json_in_process as _answer
from tests.cli_run import ignored_pairs as _named
from tests.real_questions import key_understood


def _rows(a: dict) -> list[tuple[str, float]]:
    return [(r["setting"], r["value"]) for r in (a.get("report") or {}).get("per_value") or []]


def _loads_named(a: dict) -> list[str]:
    return [t for t, r in _named(a) if r == "measured_load"]


# 1. a sweep of measured loads: must read -------------------------------------------------------------------


def test_a_sweep_without_a_model_names_the_other_load_en() -> None:
    """en36-025's form: 'throughput plateaus between concurrency 4 and 16' with no model: 4 sized, 16 named as
    a load of the user's run (before: 'concurrency: 16' as another setup, which the scorer does not take)."""
    a = _answer("Serving on an H100 at 8K context: throughput plateaus between concurrency 4 and 16")
    assert a["request"]["concurrency"] == 4
    assert _loads_named(a) == ["concurrency: 16"]
    assert key_understood("concurrency", [4, 16], a)


def test_a_sweep_with_a_model_gets_a_row_per_load_en() -> None:
    """en40-001's form: 'a single request gets 35 tok/s, 16 concurrent requests 400 tok/s': both loads rowed
    (before: '1' was never read, so no row and no name)."""
    a = _answer("Qwen2.5-14B on an L40S: a single request gets 35 tok/s, 16 concurrent requests 400 tok/s.")
    assert sorted(v for s, v in _rows(a) if s == "concurrency") == [1, 16]
    assert key_understood("concurrency", [1, 16], a)


def test_a_sweep_with_rates_between_its_loads_en() -> None:
    """en41-025's form: 'from 96 tok/s at concurrency 1 to 772 tok/s at 16': the 772 is a rate, no load; the
    loads are 1 and 16."""
    a = _answer(
        "On 8x H200 141GB I serve a 744B MoE with 40B active at 200K context. Output goes from 96 tok/s at"
        " concurrency 1 to 772 tok/s at 16. How many concurrent sessions can this node carry?"
    )
    assert sorted(v for s, v in _rows(a) if s == "concurrency") == [1, 16]


def test_a_sweep_names_a_rate_read_as_a_load_as_observed_en() -> None:
    """'40 tok/s at concurrency 1 and 300 tok/s at concurrency 8': an older reader listed '1 and 300' as
    loads; the 300 is the rate at 8, named as observed, and the rows are 1 and 8."""
    a = _answer("Qwen2.5-7B on one A100 with vLLM: 40 tok/s at concurrency 1 and 300 tok/s at concurrency 8.")
    assert sorted(v for s, v in _rows(a) if s == "concurrency") == [1, 8]
    # s46 review N3: both rates of the sweep are observed with their unit (the 40 was a target before)
    assert ("300 tok/s", "observed") in _named(a) and ("40 tok/s", "observed") in _named(a)
    assert "concurrency: 300" not in [t for t, _ in _named(a)]


def test_a_sweep_without_a_model_names_the_other_load_zh() -> None:
    """The same sweep in Chinese, no model: '并发 4 和 16 时吞吐差不多' on an A100."""
    a = _answer("用 vLLM 在 A100 上部署，测试并发 4 和 16 时吞吐差不多，这正常吗？")
    assert a["request"]["concurrency"] == 4
    assert _loads_named(a) == ["concurrency: 16"]


def test_a_sweep_with_a_model_gets_a_row_per_load_zh() -> None:
    """'并发 1 时 35 token/s，并发 16 时总吞吐 400 token/s' with Qwen2.5-14B: a row per load."""
    a = _answer("L40S 上用 vLLM 部署 Qwen2.5-14B，并发 1 时 35 token/s，并发 16 时总吞吐 400 token/s")
    assert sorted(v for s, v in _rows(a) if s == "concurrency") == [1, 16]


def test_a_single_stream_and_a_count_before_the_word_zh() -> None:
    """'单并发 35 token/s，8 并发 200 token/s': 1 and 8 are the loads, the 200 a rate (before: 'concurrency:
    200' as a second value)."""
    a = _answer("单并发 35 token/s，8 并发 200 token/s，A100 跑 Qwen2.5-7B 正常吗？")
    assert sorted(v for s, v in _rows(a) if s == "concurrency") == [1, 8]
    assert ("200", "observed") in _named(a)


# 1. must not misread: a load today and a target, one load measured, a load asked ----------------------------


def test_a_measured_load_and_a_load_asked_is_no_sweep_en() -> None:
    """'40 tok/s at concurrency 1 … How many A100s for 64 concurrent users?': the 64 asked is sized; one load
    measured is no sweep."""
    a = _answer("We get 40 tok/s at concurrency 1 with Qwen2.5-7B. How many A100s for 64 concurrent users?")
    assert a["request"]["concurrency"] == 64
    assert not _loads_named(a)


def test_a_load_now_and_at_peak_is_no_sweep_en() -> None:
    """'10 concurrent at 30 tok/s each today … 40 concurrent at peak': the peak sized, today's load named as
    such (current_load), not as a measured load."""
    a = _answer(
        "Serving a 30B model: we see 10 concurrent users at 30 tok/s each today and expect 40 concurrent at"
        " peak: how many L40S?"
    )
    assert a["request"]["concurrency"] == 40
    assert ("10", "current_load") in _named(a)
    assert not _loads_named(a)


def test_a_load_now_and_at_peak_is_no_sweep_zh() -> None:
    """'现在 20 并发，峰值 100 并发': the peak sized, the 20 today's load."""
    a = _answer("现在 20 并发，峰值 100 并发，用 L40S 部署 Qwen2.5-14B 要几张？")
    assert a["request"]["concurrency"] == 100
    assert ("20", "current_load") in _named(a)
    assert not _loads_named(a)


def test_a_load_with_a_latency_target_is_no_sweep_zh() -> None:
    """'8 并发，首字延迟 2 秒以内，峰值 16 并发': targets, no measurement: no load named as measured."""
    a = _answer("部署 Qwen2.5-14B，8 并发，首字延迟 2 秒以内，峰值 16 并发，要几张 L40S？")
    assert not _loads_named(a)


# 2. unknown training codebases named as typed: must read ---------------------------------------------------


def test_paxml_is_named_as_typed_en() -> None:
    """en38-023's form: 'with paxml on a single SXM4 A100 machine': named, never dropped (before: nothing)."""
    a = _answer("Training Llama2 with paxml on 8 A100s, what MFU should I expect?")
    assert ("training_tool: paxml", "no_field") in _named(a)
    assert a["request"]["gpu_count"] == 8


def test_paxml_is_named_as_typed_zh() -> None:
    a = _answer("用 paxml 在 8 张 A100 上训练 Llama2，MFU 只有 30%")
    assert ("training_tool: paxml", "no_field") in _named(a)


def test_parlai_is_named_as_typed_en() -> None:
    """en34-029's form: 'Fine-tuning t5-11b in ParlAI on 4 A100 GPUs'."""
    a = _answer("Fine-tuning t5-11b in ParlAI on 4 A100 GPUs runs out of memory")
    assert ("training_tool: ParlAI", "no_field") in _named(a)
    assert a["request"]["gpu_count"] == 4


def test_parlai_is_named_as_typed_zh() -> None:
    a = _answer("在 ParlAI 里用 4 张 A100 微调 t5-11b 显存不够")
    assert ("training_tool: ParlAI", "no_field") in _named(a)


def test_t5x_is_named_as_typed_en() -> None:
    a = _answer("Pre-training a 1B T5 with t5x on 64 A100s")
    assert ("training_tool: T5X", "no_field") in _named(a)


# 2. must not misread: a model's name holding the letters -------------------------------------------------


def test_a_t5_checkpoint_is_no_t5x_en() -> None:
    """'google/t5-xxl-lm-adapt': a T5 checkpoint, no codebase named."""
    a = _answer("Fine-tuning google/t5-xxl-lm-adapt on 8 A100s with DeepSpeed ZeRO-2")
    assert not [t for t, _ in _named(a) if "T5X" in t]


def test_a_t5_checkpoint_is_no_t5x_zh() -> None:
    a = _answer("用 DeepSpeed 在 8 张 A100 上微调 t5-xxl，显存不够")
    assert not [t for t, _ in _named(a) if "T5X" in t or "paxml" in t or "ParlAI" in t]


# 3. a memory per GPU wanted: must read ----------------------------------------------------------------------


def test_a_memory_wanted_is_named_en() -> None:
    """en41-009's form: 'each of the eight A800 GPUs uses 52GB … bring it down to 48GB or less per GPU'."""
    a = _answer(
        "When I fine-tune Qwen2-7B, each of the eight A800 GPUs uses 52GB of memory. How can I bring it down"
        " to 48GB or less per GPU?"
    )
    assert ("48 GB", "memory_target") in _named(a)
    assert a["request"]["gpu"] == "A800-80GB" and a["request"]["gpu_count"] == 8
    assert key_understood("gpu_memory_gib", 48, a)


def test_a_memory_wanted_under_is_named_en() -> None:
    a = _answer("Serving Qwen2-7B on a 4090 at 8k context, the KV cache takes 6GB; can I get it under 20GB?")
    assert ("20 GB", "memory_target") in _named(a)
    assert a["request"]["gpu"] == "RTX-4090"


def test_a_memory_wanted_is_named_zh() -> None:
    """The same in Chinese: '每张卡用了 52G 显存，怎么降到 48G 以下？'."""
    a = _answer("微调 Qwen2-7B，8 张 A800 每张卡用了 52G 显存，怎么降到 48G 以下？")
    assert ("48 GB", "memory_target") in _named(a)
    assert a["request"]["gpu_count"] == 8


def test_a_memory_kept_within_is_named_zh() -> None:
    a = _answer("微调 Qwen2-7B，想把每张卡的显存控制在 40G 以内，8 张 A800")
    assert ("40 GB", "memory_target") in _named(a)


# 3. must not misread: a total, a card's memory --------------------------------------------------------------


def test_a_total_up_to_is_no_target_en() -> None:
    """'2 cards with 24GB each … up to 40 GB total': the cards' total, as before, no memory wanted."""
    a = _answer("Can I serve Qwen2.5-32B on 2 cards with 24GB each at 32k context, up to 40 GB total?")
    assert not [t for t, r in _named(a) if r == "memory_target"]
    assert a["request"]["gpu_memory_gib"] == 24


def test_a_card_memory_is_no_target_zh() -> None:
    """'两张 24G 的卡' with a 4090's memory said: the card's memory, no target."""
    a = _answer("两张 24G 的 4090 部署 Qwen2.5-14B，32k 上下文够吗？")
    assert not [t for t, r in _named(a) if r == "memory_target"]


def test_a_grouped_rate_is_no_load_en() -> None:
    """'900 tok/s at concurrency 8 and 2,100 at 32': the 2 of 2,100 is no load; the loads are 8 and 32."""
    a = _answer("Serving Llama-3.1-8B on one H100 with vLLM: 900 tok/s at concurrency 8 and 2,100 at 32.")
    assert a["request"]["concurrency"] == 8
    assert _rows(a) == [("concurrency", 8), ("concurrency", 32)]


def test_a_grouped_rate_is_no_load_zh() -> None:
    """'并发 8 时 900 token/s，并发 32 时 2,100 token/s': loads 8 and 32, never 2 or 100."""
    a = _answer("H100 上用 vLLM 部署 Llama-3.1-8B，并发 8 时 900 token/s，并发 32 时 2,100 token/s")
    assert sorted(v for s, v in _rows(a) if s == "concurrency") == [8, 32]


# 4. a notebook's card as its instance: must read ------------------------------------------------------------


def test_a_colab_instance_is_one_card_en() -> None:
    """en34-007's form: 'Google Colab crashes … on a T4 instance': one T4 (before: no count)."""
    a = _answer(
        "Google Colab crashes with out of memory loading llava-v1.5-7b with load_4bit=True on a T4 instance"
    )
    assert a["request"]["gpu"] == "T4"
    assert a["request"]["gpu_count"] == 1


def test_a_colab_instance_is_one_card_zh() -> None:
    """The same in Chinese: '在 Colab 的 T4 实例上加载 … OOM': one T4."""
    a = _answer("在 Colab 的 T4 实例上加载 llava-v1.5-7b 就 OOM 了")
    assert a["request"]["gpu"] == "T4"
    assert a["request"]["gpu_count"] == 1


# 4. must not misread: a cloud instance that may hold several cards ------------------------------------------


def test_a_cloud_instance_is_no_count_en() -> None:
    a = _answer("On AWS I serve Qwen2.5-72B on an A100 instance, how many GPUs do I need?")
    assert a["request"]["gpu_count"] is None


def test_a_cloud_instance_is_no_count_zh() -> None:
    a = _answer("在 AWS 的 A100 实例上部署 Qwen2.5-72B，需要几张卡？")
    assert a["request"]["gpu_count"] is None
