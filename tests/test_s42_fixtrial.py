"""s42 fixtrial: the s42 fresh-user trial's findings (/work/notes/s42/trial_report.md items 1-6, 9-16), each
read in both languages, with sentences that look alike but must not move."""

from __future__ import annotations

import pytest

from bot.cli import _ask
from bot.parse import parse


def _text(question: str) -> str:
    return _ask(question, None, "text")[0]


def _report(question: str):
    return _ask(question, None, "json")[2].report


# 1: a card name outside the catalog with a model number of letters + digits ('X9000', 'Foo X1') before a
# card word is named as typed, never a count of cards nor the default card in silence
@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("serve Qwen2.5-7B on an X9000 GPU, 5 users", "X9000"),
        ("部署 Qwen2.5-7B 到 X9000 显卡上，并发 5", "X9000"),
        ("serve Qwen2.5-7B on a Foo X1 GPU, 5 users", "Foo X1"),
        ("部署 Qwen2.5-7B 到 Foo X1 卡上，并发 5", "Foo X1"),
        ("serve MyLLM-13B on a <i>Foo X1</i> GPU, 5 users", "Foo X1"),
        ("用 2 张 Zeta Q7 显卡部署 Qwen2.5-7B", "Zeta Q7"),
    ],
)
def test_an_unknown_card_with_a_glued_model_number_is_named_as_typed(question: str, name: str) -> None:
    parsed = parse(question)
    assert parsed.unknown_gpu == name
    assert parsed.request.gpu_count in (None, 1, 2)  # never 9,000 cards from 'X9000'
    text = _text(question)
    assert f"“{name}”" in text and ("not in my catalog" in text or "不在我的目录中" in text)
    assert "9,000" not in text and "“9000”" not in text


def test_an_unknown_card_with_its_memory_is_sized_on_that_memory() -> None:
    for question, name in (
        ("I have an X9000 48GB GPU, serve Qwen2.5-7B", "X9000"),
        ("用 2 张 Foo X1 48G 显卡部署 Qwen2.5-7B", "Foo X1"),
    ):
        parsed = parse(question)
        assert parsed.unknown_gpu == name and parsed.request.gpu_memory_gib == 48
        assert parsed.request.gpu_count in (None, 1, 2)


@pytest.mark.parametrize(
    ("question", "count"),
    [
        ("serve Qwen2.5-72B on 2 nodes x8 GPUs", 16),
        ("serve Qwen2.5-7B on A100 x8 GPUs", 8),
        ("serve Qwen2.5-7B on H100 SXM x8 GPUs", 8),
        ("serve Qwen2.5-7B on A100 80GB x8 GPUs", 8),
        ("部署 Qwen2.5-7B，A100 x4 卡", 4),
    ],
)
def test_a_count_after_a_card_or_a_machine_word_stays_a_count(question: str, count: int) -> None:
    parsed = parse(question)
    assert parsed.unknown_gpu is None and parsed.request.gpu_count == count


# 2, 3: a corpus embedding job, its verb glued to Chinese ('做embedding') or not, with a catalog encoder:
# bge-m3 is 567,754,752 parameters (estimator/data/encoders.json, from BAAI/bge-m3's config.json), so
# 10M documents × 512 tokens take 2 × 567,754,752 × 5.12e9 FLOPs at the L20's prefill rate
@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("用bge-m3给1000万条文档做embedding，一张L20要跑多久", "约 20.0 小时"),
        ("用 bge-m3 给 1000 万条文档做 embedding，一张 L20 要跑多久", "约 20.0 小时"),
        ("用bge-m3给1000万条文档做向量化，一张L20要跑多久", "约 20.0 小时"),
        ("embed 10 million documents with bge-m3 on one L20, how long?", "≈ 20.0 hours"),
        ("Embedding 10 million documents with bge-m3 on one L20 — how long?", "≈ 20.0 hours"),
    ],
)
def test_a_corpus_embedding_job_is_timed_from_the_catalog_encoder(question: str, said: str) -> None:
    from bot.core.embedding_job import embedding_job
    from estimator import catalog
    from estimator.serving_speed import prefill_seconds

    job = embedding_job(parse(question))
    assert job is not None and job.docs == 10_000_000 and job.tokens_per_doc == 512
    assert job.params == 567_754_752
    hours = prefill_seconds(567_754_752.0, 10_000_000 * 512, catalog.resolve_gpu("L20"), 1) / 3600
    assert job.hours == pytest.approx(hours) and round(hours, 1) == 20.0
    text = _text(question)
    assert said in text and "568M" in text
    assert "Gemma" not in text and "45B" not in text


@pytest.mark.parametrize(
    "question",
    [
        "fine-tune bge-m3 on 1 million pairs on one L20",
        "用 100 万条数据微调 bge-m3，一张 L20",
        "在嵌入式设备上部署 Qwen2.5-7B，1 万条请求",
        "encoder-decoder T5 训练 100 万条样本，8 张 A100",
    ],
)
def test_training_or_embedded_systems_are_no_embedding_job(question: str) -> None:
    from bot.core.embedding_job import EmbeddingJob, embedding_job

    assert not isinstance(embedding_job(parse(question)), EmbeddingJob)


def test_a_model_name_ending_in_embedding_is_no_embedding_verb() -> None:
    from bot.core.embedding_job import EMBED_RE

    assert EMBED_RE.search("serve qwen2.5-7b_embedding on a t4") is None
    assert EMBED_RE.search("用 bge-m3 做embedding") is not None
    assert EMBED_RE.search("embedding 10m docs") is not None


# 4: the prompts of an RL run counted with the noun first ('prompt 1万条', 'prompts: 10k') are its samples,
# and a price asked ('多少钱', a closing 'how much') gets the cost
Q02 = (
    "verl跑GRPO，Qwen2.5-32B，rollout.n=8，response长度4096，2机16卡H800，"
    "prompt 1万条训2个epoch，要多久多少钱"
)


@pytest.mark.parametrize(
    ("question", "epochs"),
    [
        (Q02, 2),
        ("verl跑GRPO，Qwen2.5-7B，8卡H100，prompt 1万条，训2个epoch，要多久", 2),
        ("用 OpenRLHF 做 PPO，Qwen2.5-7B，8 张 A100，prompt 1万条，1 个 epoch，要多久", 1),
        ("GRPO Qwen2.5-7B on 8 H100, prompts: 10k, 2 epochs, how long and how much", 2),
        ("fine-tune Qwen2.5-7B on 8 A100, prompts: 10k, 3 epochs, how long?", 3),
    ],
)
def test_prompts_counted_noun_first_are_the_samples(question: str, epochs: int) -> None:
    parsed = parse(question)
    assert parsed.request.num_samples == 10_000 and parsed.request.epochs == epochs
    assert not [u for u in parsed.unused_numbers if u[0] in ("1万", "10k")]
    text = _text(question)
    assert "请给出样本数" not in text and "give the samples" not in text


def test_q02_is_timed_and_priced() -> None:
    report = _report(Q02)
    cost = report.cost  # the billed GPU-hours at the H800's CNY band (estimator/data/prices.toml)
    assert cost is not None and cost.low == cost.billed_gpu_hours * cost.price_low
    assert cost.high == cost.billed_gpu_hours * cost.price_high and report.request.num_samples == 10_000
    text = _text(Q02)
    assert "天" in text.splitlines()[0] and "费用：¥" in text
    en = _text("GRPO Qwen2.5-7B on 8 H100, prompts: 10k, 2 epochs, how long and how much")
    assert "Cost: $" in en


@pytest.mark.parametrize(
    ("question", "field", "value"),
    [
        ("部署 Qwen2.5-7B，每次输入 5 篇文档，每篇 4k token，要几张卡", "num_samples", None),
        ("serve Qwen2.5-7B on one L4, prompt 2k, reply 512, 10 users", "num_samples", None),
        ("serve Qwen2.5-7B on one L4, prompt: 2048 tokens, 10 users", "num_samples", None),
    ],
)
def test_a_prompt_length_or_documents_in_one_request_are_no_samples(question, field, value) -> None:
    assert getattr(parse(question).request, field) == value


def test_how_much_memory_is_no_price() -> None:
    assert not parse("Qwen2.5-7B on one H100, how much memory?").asks_cost
    assert parse("Qwen2.5-7B LoRA on one H100, 10k samples, how long and how much?").asks_cost


# 5: a stated load on the user's GPUs where only FP8 weights fit: the headline's FP8 on their count is what
# the details and the JSON size (Mixtral-8x7B: 46.7B parameters, 93.4 GB in bf16 needs 4 × L40S at 20 × 8K)
@pytest.mark.parametrize(
    ("question", "weights", "kv"),
    [
        (
            "Serve Mixtral-8x7B-Instruct with TGI on 2x L40S, 20 concurrent users, 8k context — "
            "is that enough?",
            "Weights: 47.0 GB",
            "× 8K context × 20 concurrent = 21.5 GB",
        ),
        (
            "用 TGI 在 2 张 L40S 上部署 Mixtral-8x7B-Instruct，20 并发，8k 上下文，够吗",
            "权重：47.0 GB",
            "× 上下文 8K × 并发 20 = 21.5 GB",
        ),
    ],
)
def test_fp8_on_the_users_count_fills_the_details(question: str, weights: str, kv: str) -> None:
    report = _report(question)
    inf = report.inference
    assert report.feasible_reason == "fp8_only" and inf.weight_format == "fp8"
    assert inf.serving_gpus == 2 and inf.tp == 2 and inf.concurrency == 20 and inf.max_concurrency >= 20
    text = _text(question)
    assert weights in text and kv in text
    assert "On 4 GPUs" not in text and "4 张卡：" not in text
    short = next(w for w in report.warnings if w.code == "released_weights_short")
    assert short.params["min_gpus"] == 4 and short.params["gpu_count"] == 2


@pytest.mark.parametrize(
    "question",
    [
        "vllm 部署 Qwen3-32B，2张4090，并发10",  # FP8 on 2 × 4090 holds fewer than 10 at 4K: bf16's verdict
        "serve Qwen3-32B with vllm on 2 4090s, concurrency 10",
    ],
)
def test_a_load_fp8_cannot_hold_keeps_the_16_bit_verdict(question: str) -> None:
    report = _report(question)
    assert report.inference.weight_format == "bf16" and report.feasible == "no"


# 6: verl's rollout engine takes its own default share, actor_rollout_ref.rollout.gpu_memory_utilization 0.5
# (verl/trainer/config/rollout/rollout.yaml), the one its note names: a 32B policy's bf16 weights (65 GB)
# do not fit 0.5 of an 80 GB card, so its engines are 2 GPUs; a stated share is the one used
@pytest.mark.parametrize(
    "question",
    [
        "verl跑GRPO，Qwen2.5-32B，1万条prompt，rollout.n=8，response长度4096，2机16卡H800，训2个epoch，要多久",
        "verl GRPO on Qwen2.5-32B, 10k prompts, rollout.n=8, response length 4096, 2 nodes x 8 H800, "
        "2 epochs, how long",
    ],
)
def test_verl_rollouts_use_verls_share(question: str) -> None:
    from estimator.rollout import engine_usable_bytes

    report = _report(question)
    why = {a.field: (a.value, a.why) for a in report.assumptions}
    assert why["rollout_gpu_memory_utilization"] == (0.5, "verl_rollout_share")
    weights = report.model_spec.params_total * 2  # the engine serves 16-bit weights
    assert weights > engine_usable_bytes(report.gpu_spec, 0.5)  # one GPU's half cannot hold them
    assert report.rollout.decode_tp == 2
    text = _text(question)
    assert ("每个引擎 2 卡" in text) or ("2 GPU per engine" in text)
    assert "share of each GPU: 90%" not in text and "显存的比例：90%" not in text


@pytest.mark.parametrize(
    ("question", "tp"),
    [
        ("verl跑GRPO，Qwen2.5-7B，1万条prompt，rollout.n=8，8卡H100，训1个epoch，要多久", 1),
        (
            "verl GRPO on Qwen2.5-32B, 10k prompts, rollout.n=8, 8 H100, "
            "actor_rollout_ref.rollout.gpu_memory_utilization=0.9, 1 epoch, how long",
            1,
        ),
    ],
)
def test_verl_rollouts_that_fit_one_gpu_stay_on_one(question: str, tp: int) -> None:
    report = _report(question)
    assert report.rollout.decode_tp == tp


# 14: '2机16卡' is 8 cards a machine, what was said: no reading note, as '2 nodes x 8' has none; a total the
# machines do not share evenly ('3机16卡') or a count that could be either ('2机4卡') keeps its note
@pytest.mark.parametrize(
    ("question", "note"),
    [
        ("2机16卡H800 训 Qwen2.5-7B 全参，1亿 token，要多久", None),
        ("full fine-tune Qwen2.5-7B on 2 nodes x 8 H800, 100M tokens, how long", None),
        ("3机16卡H800 训 Qwen2.5-7B 全参，1亿 token，要多久", "把“3机16卡”理解为共 16 张卡"),
        (
            "2机4卡H800 训 Qwen2.5-7B 全参，1亿 token，要多久",
            "把“2机4卡”理解为机器数 × 每台卡数：2 × 4 = 8 张卡",
        ),
    ],
)
def test_machines_and_cards_note_only_when_the_reading_is_open(question: str, note: str | None) -> None:
    parsed = parse(question)
    assert parsed.request.gpu_count in (16, 8)
    text = _text(question)
    if note is None:
        assert "理解为共" not in text and "Read “" not in text and parsed.request.gpu_count == 16
        assert parsed.request.gpus_per_node in (None, 8)
    else:
        assert note in text


# 15: a number set aside is echoed as typed ('-100B', not '-100b')
@pytest.mark.parametrize(
    ("question", "echo"),
    [
        ("pretrain a 7B model on -100B tokens on 8 H100, budget -$5k", "“-100B”, “-$5k”"),
        ("预训练 7B 模型，-100B token，8 张 H100，预算 -5万", "“-100B”, “-5万”"),
    ],
)
def test_a_nonpositive_number_is_echoed_as_typed(question: str, echo: str) -> None:
    assert parse(question).nonpositive_numbers == [e.strip("“”") for e in echo.split(", ")]
    assert echo in _text(question)


# 9: a machine count that made the GPU count ('4 nodes of 8' → 32) is used, even when another setting
# holds the same value (rollout.n=4): never 'not used: 4'
@pytest.mark.parametrize(
    "question",
    [
        "verl PPO on Qwen2.5-7B with a 7B critic, 4 nodes of 8 H200, 100k prompts, rollout.n=4, "
        "response length 2048 — how many days?",
        "verl 跑 PPO，Qwen2.5-7B 带 7B critic，4 台 8 卡 H200，10万条prompt，rollout.n=4，"
        "回复长度 2048，要几天",
    ],
)
def test_a_node_count_equal_to_another_setting_is_used(question: str) -> None:
    parsed = parse(question)
    assert parsed.request.gpu_count == 32 and parsed.request.num_generations == 4
    assert parsed.unused_numbers == []


def test_a_stray_number_beside_nodes_is_still_named() -> None:
    parsed = parse("Qwen2.5-7B LoRA, 2 nodes of 8 H100, 2 epochs, 10k samples, 4 and more")
    assert parsed.request.gpu_count == 16 and ("4", "unread") in parsed.unused_numbers


# 12: a config the user pastes as their own ('这是我的LLaMA-Factory配置', 'here is my deepspeed config') asks
# for no recipe; a recipe asked ('给我 LLaMA-Factory 的配置') still is; the stderr note is in the reply's
# language
@pytest.mark.parametrize(
    ("question", "tools"),
    [
        ("这是我的LLaMA-Factory配置，数据大概20万条，8张4090够吗\nstage: sft\nfinetuning_type: lora", None),
        ("here is my deepspeed config, Qwen2.5-7B on 8 A100, 1B tokens", None),
        ("给我 LLaMA-Factory 的配置，Qwen2.5-7B LoRA，8 张 4090", ["llamafactory"]),
        ("give me a deepspeed config for Qwen2.5-7B full fine-tune on 8 A100", ["deepspeed"]),
        (
            "这是我的LLaMA-Factory配置，Qwen2.5-7B LoRA，8 张 4090，帮我写个deepspeed配置",
            ["deepspeed", "llamafactory"],
        ),
    ],
)
def test_own_config_pasted_asks_no_recipe(question: str, tools: list[str] | None) -> None:
    assert parse(question).recipe_tools == tools


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Qwen2.5-7B 全参微调，8 张 A100，1亿 token", "提示：这个回答没有启动配置"),
        ("full fine-tune Qwen2.5-7B on 8 A100, 100M tokens", "note: no launch"),
    ],
)
def test_no_recipe_note_in_the_reply_language(monkeypatch, capsys, question: str, said: str) -> None:
    import bot.recipes
    from bot.cli_recipes import write_recipes
    from bot.core.pipeline import answer

    monkeypatch.setattr(bot.recipes, "build_recipes", lambda report, lang: [])
    assert write_recipes(answer(question), "all", None, show=False)
    err = capsys.readouterr().err
    assert said in err and "P-tuning" not in err


# 10: '推荐什么卡' / 'recommend a GPU' asks to choose the card: the common serving cards are compared (as
# 'which GPUs?' already was), never the default card sized alone
@pytest.mark.parametrize(
    "question",
    [
        "预算每月3万，部署Qwen2.5-72B-Instruct给公司500人用，推荐什么卡",
        "部署 Qwen2.5-72B-Instruct 给 500 人用，推荐用哪种显卡",
        "Serve Qwen2.5-72B-Instruct for 500 employees on a $4k monthly budget; can you recommend a GPU?",
    ],
)
def test_recommend_which_card_compares_cards(question: str) -> None:
    parsed = parse(question)
    assert "cards_asked" in parsed.notes
    assert parsed.gpu_alternatives == ["H100-SXM5-80GB", "H200-SXM-141GB"]


@pytest.mark.parametrize(
    "question",
    [
        "部署 Qwen2.5-72B-Instruct 给 500 人用，我们推荐用 H100，要几张",
        "推荐什么参数配置？Qwen2.5-7B LoRA，8 张 4090",
        "I recommend a 32k context; serve Qwen2.5-7B on 2 L40S",
    ],
)
def test_a_recommendation_with_a_card_or_without_a_card_word_compares_none(question: str) -> None:
    assert "cards_asked" not in parse(question).notes
