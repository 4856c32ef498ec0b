"""Session 46, part leftovers: readers and answers the session's parts left (issue 24 items 2–4).

1. Reader (bot.parse.earlier_counts): a setup the message says is past ('之前只用了 2 张 …，现在有 8 张',
   'Before, we only used 2 A100s …; now we have 8 A100s') gives way to the current one: the present's word
   ('现在', '目前', 'now', 'currently') ends the earlier setup's stretch, the past count is named
   ``other_setup`` and the current one sized.
2. Reader (bot.parse.role_left.L_BUDGET, bot.parse.foreign_money): 'Our budget is 20000 euros', 'budget was
   about £15,000' are read as a budget and named in their currency (``currency_unsupported``); '预算两万欧元'
   names its amount (20,000 EUR); cards after 'budget is' / '预算是' ('预算是 8 张 H100') are a count.
8. Reader (bot.parse.unknown_tools._model_keys): a name is a model's when it is a run of whole parts of a
   catalog id ('qwen25' of 'Qwen2.5-7B'), not any word inside one ('tiny' inside 'tinyllama'); TinyLlama-1.1B
   added to the catalog from its config.json (s46-verdictmodel's entry, bbf286c4).
3. Reader (bot.parse.value_list.keyed_list): one key written with each of its options ('GPUS_PER_NODE=1 or
   GPUS_PER_NODE=2', 'per_device_train_batch_size=2 or …=8') lists that setting's values: a row each.
7. Reader (bot.parse.negated_values._extended): the start of a context extension ('context from 32k to 128k
   with YaRN', '上下文从 32k 扩展到 128k') is named as the model's original window (``original_context``).
"""

from __future__ import annotations

from tests.cli_run import ask_json_in_process as _answer
from tests.cli_run import ignored_pairs as _named

# 1. a past setup, then the current one: must read ----------------------------------------------------------


def test_a_past_count_gives_way_to_the_current_one_zh() -> None:
    """'之前只用了 2 张 … 现在有 8 张': the 8 sized, the 2 named as the earlier setup's (before: 2 sized)."""
    a = _answer("之前只用了 2 张 A100 微调 Qwen2.5-7B，现在有 8 张，1 万条数据要多久？")
    assert a["request"]["gpu_count"] == 8
    assert ("2", "other_setup") in _named(a)


def test_a_past_count_gives_way_to_the_current_one_with_mu_qian_zh() -> None:
    """'以前 … 目前有 8 张 A100': '目前' ends the earlier stretch as '现在' does."""
    a = _answer("以前用 2 张 A100 LoRA 微调 Qwen2.5-7B，目前有 8 张 A100，1 万条数据要多久？")
    assert a["request"]["gpu_count"] == 8
    assert ("2", "other_setup") in _named(a)


def test_a_past_count_gives_way_to_the_current_one_en() -> None:
    """'Before, we only used 2 A100s …; now we have 8 A100s': the 8 sized (before: 2, the 8 'repeated')."""
    a = _answer(
        "Before, we only used 2 A100s to LoRA Qwen2.5-7B; now we have 8 A100s. How long for 10k samples?"
    )
    assert a["request"]["gpu_count"] == 8
    assert ("2", "other_setup") in _named(a)


def test_a_used_to_count_gives_way_to_the_current_one_en() -> None:
    """'We used to run on 2 A100s, currently 8 A100s': 'currently' ends the earlier stretch."""
    a = _answer("We used to run on 2 A100s, currently 8 A100s. How long to LoRA Qwen2.5-7B on 10k samples?")
    assert a["request"]["gpu_count"] == 8
    assert ("2", "other_setup") in _named(a)


# 1. must not misread: a lone past count, and 'before' as a clause of time --------------------------------


def test_a_lone_past_count_stays_the_job_zh() -> None:
    """'之前只用了 2 张 A100 …' with no current count: the only count said stays sized."""
    a = _answer("之前只用了 2 张 A100 微调 Qwen2.5-7B，1 万条数据要多久？")
    assert a["request"]["gpu_count"] == 2
    assert ("2", "other_setup") not in _named(a)


def test_before_as_a_clause_of_time_opens_no_past_setup_en() -> None:
    """'Before we start, we have 8 A100s …': no past setup; the 8 is the user's own and stays sized."""
    a = _answer("Before we start, we have 8 A100s. How long to LoRA Qwen2.5-7B on 10k samples?")
    assert a["request"]["gpu_count"] == 8
    assert ("8", "other_setup") not in _named(a)


def test_a_now_count_before_the_past_word_is_the_job_zh() -> None:
    """'现在有 8 张 A100，之前只用 2 张': the past stretch starts at '之前'; 8 sized, 2 named."""
    a = _answer("现在有 8 张 A100，之前只用 2 张，LoRA 微调 Qwen2.5-7B 1 万条数据要多久？")
    assert a["request"]["gpu_count"] == 8


# 2. a budget in a currency the sizing does not price in: must read ----


def test_a_euro_budget_after_is_is_named_as_euros_en() -> None:
    """'Our budget is 20000 euros': named as a euro budget (before: the 20000 'unread')."""
    a = _answer("Our budget is 20000 euros. How many H100s to LoRA Qwen2.5-7B on 10k samples in a week?")
    assert a["request"]["budget"] is None
    assert ("budget: 20000 euros (20,000 EUR)", "currency_unsupported") in _named(a)
    assert ("20000", "unread") not in _named(a)


def test_a_pound_sign_budget_after_was_about_is_named_en() -> None:
    """'The budget was about £15,000': named in pounds, never sized as dollars."""
    a = _answer("The budget was about £15,000, how many H100s to LoRA Qwen2.5-7B?")
    assert a["request"]["budget"] is None
    assert ("budget: £15,000 (15,000 GBP)", "currency_unsupported") in _named(a)


def test_a_chinese_numeral_euro_budget_names_its_amount_zh() -> None:
    """'预算两万欧元': the amount named as 20,000 EUR (before: '( EUR)', no amount)."""
    a = _answer("预算两万欧元，LoRA 微调 Qwen2.5-7B 1 万条数据一周内做完要几张 H100？")
    assert a["request"]["budget"] is None
    assert ("budget: 两万欧元 (20,000 EUR)", "currency_unsupported") in _named(a)


# 2. must not misread: yuan and dollar budgets, and cards after 'budget is' ----


def test_a_yuan_budget_before_de_yu_suan_stays_a_budget_zh() -> None:
    """'10 万元的预算': a yuan budget, read as before."""
    a = _answer("我们有 10 万元的预算，LoRA 微调 Qwen2.5-7B 要几张 H100？")
    assert a["request"]["budget"] == 100_000
    assert a["request"]["currency"] == "CNY"


def test_cards_after_budget_is_are_a_count_en() -> None:
    """'Our budget is 8 H100s': the cards the user can have, a count, never a budget of 8."""
    a = _answer("Our budget is 8 H100s for a week, how long to LoRA Qwen2.5-7B on 10k samples?")
    assert a["request"]["gpu_count"] == 8
    assert a["request"]["budget"] is None


def test_cards_after_yu_suan_shi_are_a_count_zh() -> None:
    """'预算是 8 张 H100': a count (before: a budget of 8 and no count)."""
    a = _answer("预算是 8 张 H100，LoRA 微调 Qwen2.5-7B 1 万条数据要多久？")
    assert a["request"]["gpu_count"] == 8
    assert a["request"]["budget"] is None


def test_a_dollar_budget_after_is_stays_dollars_en() -> None:
    """'the budget is 5000 dollars': a dollar budget, read as before."""
    a = _answer("The budget is 5000 dollars, how many H100s to LoRA Qwen2.5-7B?")
    assert a["request"]["budget"] == 5000
    assert a["request"]["currency"] == "USD"


# 8. a model's name is a run of whole parts of a catalog id; TinyLlama in the catalog ---------------------


def test_a_word_inside_one_part_of_a_model_id_is_no_model_name() -> None:
    """'tiny' lies inside 'tinyllama' (one part of 'TinyLlama-1.1B'): no model's name; 'tinyllama' and the
    runs of whole parts ('qwen25' of 'Qwen2.5-7B') are."""
    from bot.parse.unknown_tools import _known

    assert not _known("tiny")
    assert _known("tinyllama") and _known("Qwen2.5") and _known("llama3")


def test_a_tool_named_with_a_model_word_inside_is_still_named_en() -> None:
    """'tiny-lab's scripts' with TinyLlama in the catalog: the tool named as typed (57020185's case)."""
    a = _answer("We fine-tune Qwen2.5-7B on one A100 with tiny-lab's scripts/train.py and it OOMs")
    assert ("training_tool: tiny-lab", "no_field") in _named(a)


def test_tinyllama_is_read_from_the_catalog_en() -> None:
    """TinyLlama 1.1B from its config.json (litgpt config.py tiny_llama: 22 layers, 32 heads, 4 KV heads,
    hidden 2048, intermediate 5632, vocab 32000): 1,100,048,384 parameters."""
    from estimator.architecture import count_params
    from estimator.catalog import model

    spec = model("TinyLlama-1.1B")
    assert (spec.layers, spec.hidden, spec.heads, spec.kv_heads) == (22, 2048, 32, 4)
    assert (spec.ffn_hidden, spec.vocab) == (5632, 32000)
    assert abs(count_params(spec)[0] - 1_100_048_384) / 1_100_048_384 < 0.001
    a = _answer("Full fine-tune TinyLlama-1.1B on one RTX 3090: does it fit?")
    assert a["request"]["model"] == "TinyLlama-1.1B"
    assert a["interpretation"]["unknown_model"] is None


def test_tinyllama_is_read_from_the_catalog_zh() -> None:
    """'用一张 3090 全参微调 TinyLlama-1.1B': the catalog's TinyLlama."""
    a = _answer("用一张 3090 全参微调 TinyLlama-1.1B，放得下吗？")
    assert a["request"]["model"] == "TinyLlama-1.1B"


def test_a_name_containing_llama_is_not_tinyllama_zh() -> None:
    """'open_llama_7b': its own name, never TinyLlama."""
    a = _answer("一张 A100 部署 open_llama_7b 够吗？")
    assert a["request"]["model"] != "TinyLlama-1.1B"


# 3. a launcher key written with each of its options: a row each ---------------------------------------------


def _rows(a: dict) -> list[tuple[str, float]]:
    return [(r["setting"], r["value"]) for r in a["report"]["per_value"]]


def test_a_gpus_per_node_key_listed_as_options_gets_a_row_each_en() -> None:
    """'GPUS_PER_NODE=1 or GPUS_PER_NODE=2': each count a row (before: 1 sized, the 2 'repeated'); on one A100
    the 6ND = 1.2e20 FLOPs take about twice as long as on two."""
    a = _answer(
        "Pretraining a 1B model on 20B tokens with A100s, GPUS_PER_NODE=1 or GPUS_PER_NODE=2, how long?"
    )
    assert _rows(a) == [("gpu_count", 1), ("gpu_count", 2)]
    assert ("2", "repeated") not in _named(a)
    one, two = (r["days"] for r in a["report"]["per_value"])
    assert 1.8 < one / two < 2.2


def test_a_gpus_per_node_key_listed_as_options_gets_a_row_each_zh() -> None:
    """'GPUS_PER_NODE=1 或者 GPUS_PER_NODE=2，分别要多久': a row each."""
    a = _answer("用 A100 预训练 1B 模型 200 亿 token，GPUS_PER_NODE=1 或者 GPUS_PER_NODE=2，分别要多久？")
    assert _rows(a) == [("gpu_count", 1), ("gpu_count", 2)]


def test_a_batch_key_listed_as_options_gets_a_row_each_en() -> None:
    """'per_device_train_batch_size=2 or …=8': the micro-batch's two values, a row each."""
    a = _answer(
        "LoRA Qwen2.5-7B on one A100 with per_device_train_batch_size=2 or per_device_train_batch_size=8, "
        "does it fit?"
    )
    assert _rows(a) == [("batch_size", 2), ("batch_size", 8)]


# 3. must not misread: two keys, each with one value ---------------------------------------------------------


def test_two_keys_each_with_one_value_are_no_options_en() -> None:
    """'GPUS_PER_NODE=2 … NNODES=2': two settings, no list; no rows."""
    a = _answer("LoRA Qwen2.5-7B on A100s, GPUS_PER_NODE=2 and NNODES=2, how long for 10k samples?")
    assert a["report"]["per_value"] == []


def test_two_keys_each_with_one_value_are_no_options_zh() -> None:
    """'GPUS_PER_NODE=8，NNODES=2': no list of one key; no rows."""
    a = _answer("用 A100 LoRA 微调 Qwen2.5-7B，GPUS_PER_NODE=8，NNODES=2，1 万条数据要多久？")
    assert a["report"]["per_value"] == []


# 7. a context extension's start is the model's original window ---------------------------------------------


def test_the_start_of_a_context_extension_is_the_original_window_en() -> None:
    """'context from 32k to 128k with YaRN': 128k (131,072 tokens) sized, the 32k named as the original window
    (before: 'you changed it to the later one')."""
    a = _answer(
        "Extending Qwen2.5-7B context from 32k to 128k with YaRN fine-tuning on 8 H100s, memory per GPU?"
    )
    assert a["request"]["seq_len"] == 131_072
    assert ("32k", "original_context") in _named(a)


def test_the_start_of_a_context_extension_is_the_original_window_zh() -> None:
    """'上下文从 32k 扩展到 128k': the 32k named as the model's original window, in Chinese words."""
    a = _answer("把 Qwen2.5-7B 的上下文从 32k 扩展到 128k，8 张 H100 微调，每卡显存要多少？")
    assert a["request"]["seq_len"] == 131_072
    assert ("32k", "original_context") in _named(a)
    assert "模型原本的上下文窗口" in a["reply"]


# 7. must not misread: a setting the user raises is their own earlier value ----------------------------------


def test_a_raised_cutoff_is_the_users_earlier_value_en() -> None:
    """'raising cutoff_len from 2048 to 4096': no context extension; the 2048 is the user's earlier value."""
    a = _answer("LoRA Qwen2.5-7B on one A100, raising cutoff_len from 2048 to 4096, how much memory?")
    assert a["request"]["seq_len"] == 4096
    assert ("2048", "replaced_by_later_value") in _named(a)


def test_a_raised_cutoff_is_the_users_earlier_value_zh() -> None:
    """'cutoff_len 从 2048 扩到 4096': '扩到' with no context word: the user's earlier value."""
    a = _answer("LoRA 微调 Qwen2.5-7B，cutoff_len 从 2048 扩到 4096，一张 A100 显存够吗？")
    assert a["request"]["seq_len"] == 4096
    assert ("2048", "replaced_by_later_value") in _named(a)
