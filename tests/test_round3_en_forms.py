"""Round 3 of the real questions, English half (issue 24; tests/data/real_questions/en_r3.json): how people
write GPU counts ('2 * 8 H100', 'between 2 and 4', '… 24 in total'), post-training algorithms the sizing
models only by family (DAPO, GSPO, KTO, SimPO, REINFORCE++), messages that are mostly a pasted command
(never noise), and the GPUs of a serving command (data-parallel replicas, CUDA_VISIBLE_DEVICES). Each rule
in both languages, through the CLI (``sizing-bot ask --format json``); the sentences are written for these
tests (none is from the real-question corpus)."""

from __future__ import annotations

import pytest

from bot.cli import main
from tests.cli_run import named
from tests.round_forms import ask

PRODUCTS = [
    ("Full fine-tune of Qwen2.5-32B on 4 * 8 H800: how long for 1B tokens?", 32),
    ("Can 2 * 8 A800 full fine-tune Llama 3 70B?", 16),
    ("Qwen2.5-32B 全参微调，2 * 8 张 H800 够吗", 16),
    ("Qwen2.5-32B 全参微调，用 4*8 的 H800 集群要多久训完 10 亿 token", 32),
    ("Qwen2.5-32B 全参微调 2x8卡 A800", 16),
    ("Full fine-tune Qwen2.5-32B on 4 x 8 GPUs of H800", 32),
]


@pytest.mark.parametrize(("text", "gpus"), PRODUCTS)
def test_nodes_times_cards_with_an_asterisk_or_a_card_word(
    capsys: pytest.CaptureFixture[str], text: str, gpus: int
) -> None:
    """'2 * 8 H800' is 16 cards as '2 x 8 H800' is (before, markup stripped the '*' and only the 8 was
    read, the 2 named as unread); '2*8 张', '4*8 的 H800', '2x8卡': the same with a card word between."""
    data = ask(capsys, text)
    assert data["request"]["gpu_count"] == gpus
    assert not {"2", "4", "8"} & {t for t, r in named(data).items() if r == "unread"}


def test_markdown_emphasis_is_still_no_product(capsys: pytest.CaptureFixture[str]) -> None:
    """Bold and italics around counts are markup, never a product: '**2** H100' is two H100s."""
    data = ask(capsys, "Serve Llama 3 70B on **2** H100 with *16* users")
    assert data["request"]["gpu_count"] == 2
    assert data["request"]["concurrency"] == 16


RANGES = [
    "Serve Mixtral 8x7B for 50 users on between 2 and 4 L40S",
    "We can rent between 2 & 4 L40S to serve Mixtral 8x7B to 50 users",
    "部署 Mixtral 8x7B 给 50 个用户，卡数介于 2 和 4 张 L40S 之间",
]


@pytest.mark.parametrize("text", RANGES)
def test_a_range_with_between_is_sized_from_its_lower_end(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """'between 2 and 4 L40S' / '介于 2 和 4 张之间' is the range 2–4, as '2 to 4' is (before, 4 was
    sized and the 2 named as unread)."""
    req = ask(capsys, text)["request"]
    assert (req["gpu_count"], req["gpu_count_max"]) == (2, 4)


TOTALS = [
    "Three racks of 8 L40S each, 24 L40S in total: can we full fine-tune Qwen2.5-72B?",
    "Full fine-tune Qwen2.5-72B; we have 8 A800 per node and 24 A800 altogether",
    "3 组机器每组 8 张 A800，一共 24 张，全参微调 Qwen2.5-72B",
]


@pytest.mark.parametrize("text", TOTALS)
def test_a_total_said_after_per_node_counts_is_the_count(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """'3 groups of 8 …, 24 in total': the total is the job's GPU count (before, the first count, 8, was
    sized and the 24 named as a second value)."""
    data = ask(capsys, text)
    assert data["request"]["gpu_count"] == 24
    assert "24" not in named(data)


VARIANTS = [
    ("GSPO on Qwen3-8B with 8 H100: how long for 20k prompts?", "grpo", "GSPO"),
    ("I run DAPO on Qwen2.5-7B with 16 H800 and it OOMs", "grpo", "DAPO"),
    ("REINFORCE++ for Qwen2.5-7B on 8 A100, enough memory?", "rloo", "REINFORCE++"),
    ("SimPO on Mistral 7B with 8 A100 80G", "dpo", "SimPO"),
    ("KTOTrainer on Llama 3 8B, one A100 80G: does it fit?", "dpo", "KTO"),
    ("用 DAPO 训练 Qwen2.5-7B，8 张 H100 要多久", "grpo", "DAPO"),
    ("KTO 对齐 Qwen2.5-7B 需要几张 A100", "dpo", "KTO"),
    ("ORPO 微调 Llama 3 8B，两张 4090 能跑吗", "dpo", "ORPO"),
]


@pytest.mark.parametrize(("text", "family", "typed"), VARIANTS)
def test_a_post_training_variant_is_sized_as_its_family_and_named(
    capsys: pytest.CaptureFixture[str], text: str, family: str, typed: str
) -> None:
    """DAPO/GSPO are GRPO, REINFORCE++ is RLOO, KTO/ORPO/SimPO are DPO in what they hold in memory
    (bot.parse.algorithm_variants); the answer says so (before: 'SimPO on Mistral 7B' was sized as
    serving, 'KTO training' as pre-training)."""
    data = ask(capsys, text)
    assert data["request"]["stage"] == "finetune"
    assert data["request"]["algorithm"] == family
    assert named(data)[f"algorithm: {typed}"] == "algorithm_family"


def test_a_word_that_contains_a_variant_is_not_one(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "Serve Llama 3 8B, remaxed budget $1000 a month, on one L4")
    assert data["request"]["stage"] == "inference"
    assert data["request"]["algorithm"] is None


def test_the_variant_reason_reads_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    main(["ask", "--lang", "en", "DAPO on Qwen2.5-7B with 8 H100, 10k prompts"])
    assert "“algorithm: DAPO” (a variant the sizing has no model of by name" in capsys.readouterr().out
    main(["ask", "--lang", "zh", "用 DAPO 训练 Qwen2.5-7B，8 张 H100，1 万条 prompt"])
    assert "“algorithm: DAPO”（该变体没有单独建模" in capsys.readouterr().out


VERL = (
    "python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo data.train_batch_size=256 "
    "data.max_prompt_length=1024 data.max_response_length=2048 "
    "actor_rollout_ref.model.path=/models/Qwen2.5-3B-Instruct "
    "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 "
    "actor_rollout_ref.actor.fsdp_config.param_offload=False "
    "actor_rollout_ref.rollout.tensor_model_parallel_size=2 trainer.n_gpus_per_node=4"
)


@pytest.mark.parametrize("lead", ["It OOMs on 4 GPUs, why? ", "4 张卡跑这个就爆显存，为什么？"])
def test_a_message_that_is_mostly_a_command_is_not_noise(
    capsys: pytest.CaptureFixture[str], lead: str
) -> None:
    """A few words and a long command of dotted key=value overrides (verl's Hydra style): most tokens are
    longer than a word, yet it is a question (before: read as random characters, nothing understood)."""
    data = ask(capsys, lead + VERL)
    req = data["request"]
    assert data["understood"] is True
    assert (req["model"], req["algorithm"], req["gpu_count"], req["offload"]) == (
        "Qwen2.5-3B",
        "grpo",
        4,
        False,
    )


def test_random_characters_are_still_noise(capsys: pytest.CaptureFixture[str]) -> None:
    noise = "q#7v!x9@z$p2&m" * 20 + " " + "k=%^&*()_+|}{" * 10
    data = ask(capsys, noise, want_code=2)
    assert data["understood"] is False


SERVING = [
    ("CUDA_VISIBLE_DEVICES=0,1,2,3 python -m sglang.launch_server --model-path Qwen/Qwen2.5-14B-Instruct "
     "--tp 2 --dp 2", {"gpu_count": 4, "tp": 2}),
    ("vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 4 --data-parallel-size 2 on H100: 200 users?",
     {"gpu_count": 8, "tp": 4}),
    ("用 python -m sglang.launch_server --model-path Qwen/Qwen2.5-7B-Instruct --dp 2 "
     "部署在 A10 上，能撑多少并发",
     {"gpu_count": 2, "tp": 1}),
    ("CUDA_VISIBLE_DEVICES=0,1 vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 2 够 30 个用户吗",
     {"gpu_count": 2, "tp": 2}),
    ("CUDA_VISIBLE_DEVICES=0,1,2,3 text-generation-launcher --model-id mistralai/Mistral-7B-v0.1 on L4",
     {"gpu_count": 4, "tp": 4}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "want"), SERVING)
def test_a_serving_command_runs_on_its_replicas_and_visible_gpus(
    capsys: pytest.CaptureFixture[str], text: str, want: dict[str, int]
) -> None:
    """SGLang --dp / vLLM --data-parallel-size: TP × DP GPUs (before: named as having no setting);
    CUDA_VISIBLE_DEVICES before the command is the GPU count when the engine's layout uses them all, and
    TGI's TP (it shards over every visible GPU)."""
    req = ask(capsys, text)["request"]
    assert {k: req[k] for k in want} == want


@pytest.mark.parametrize(
    "text",
    [
        "CUDA_VISIBLE_DEVICES=2,3 vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 16384",
        "CUDA_VISIBLE_DEVICES=2,3 vllm serve meta-llama/Llama-3.1-8B-Instruct，为什么只用了一张卡",
    ],
)
def test_visible_gpus_the_engine_does_not_use_are_named(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """vLLM without a tensor-parallel size runs on one of the two visible GPUs: sized on one, and the
    visible list named with the reason, never silently dropped nor silently taken as the count."""
    data = ask(capsys, text)
    assert data["request"]["tp"] == 1 and data["request"]["gpu_count"] in (None, 1)
    assert named(data)["CUDA_VISIBLE_DEVICES: 2,3"] == "engine_gpus"


COUNT_KEYS = [
    ("GRPO on Qwen2.5-7B with trainer.n_gpus_per_node=4 trainer.nnodes=2 on A100: memory per GPU?", 8),
    ("DPO Llama 3.1 8B, cluster.gpus_per_node=8, H20 cards", 8),
    ("Full fine-tune Qwen2.5-7B on A100 with world_size=16", 16),
    ("A100 上全参微调 Qwen2.5-7B，num_gpus=4，要多久", 4),
    ("Qwen2.5-7B 全参微调，nproc_per_node=8，nnodes=2，A800", 16),
]


@pytest.mark.parametrize(("text", "gpus"), COUNT_KEYS)
def test_launcher_count_keys_written_in_prose_are_the_gpu_count(
    capsys: pytest.CaptureFixture[str], text: str, gpus: int
) -> None:
    """verl's n_gpus_per_node × nnodes, NeMo-RL's gpus_per_node, WORLD_SIZE, DeepSpeed's num_gpus in a
    sentence (not a pasted command): the GPU count (before: the numbers were named as unread)."""
    data = ask(capsys, text)
    assert data["request"]["gpu_count"] == gpus
    assert not [t for t, r in named(data).items() if r == "unread"]


PER_NODE_FIRST = [
    ("GRPO Qwen2.5-7B, 4 gpus per node, 2 nodes of A100", 8),
    ("Full fine-tune Llama 3 70B with 8 H100 per node across 4 nodes", 32),
    ("全参微调 Llama 3 70B，每台 8 卡，共 3 台 A800", 24),
]


@pytest.mark.parametrize(("text", "gpus"), PER_NODE_FIRST)
def test_cards_per_node_said_before_the_nodes(
    capsys: pytest.CaptureFixture[str], text: str, gpus: int
) -> None:
    """'4 gpus per node, 2 nodes' is 8 GPUs, as '2 nodes of 4 GPUs' is (before: 4, the 2 unread)."""
    assert ask(capsys, text)["request"]["gpu_count"] == gpus


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Can 2 cards or 3 cards of RTX 3090 serve InternLM-20B?", (2, 3)),
        ("两卡或三卡 3090 能部署 internlm-20b 吗", (2, 3)),
        ("用 4 张到 8 张 A100 部署 Llama 3 70B", (4, 8)),
    ],
)
def test_a_unit_said_after_both_ends_of_an_alternative(
    capsys: pytest.CaptureFixture[str], text: str, want: tuple[int, int]
) -> None:
    """'两卡或三卡', '2 cards or 3 cards': the range, as '2 or 3 cards' is (before: the first end sized,
    the second named as unread)."""
    req = ask(capsys, text)["request"]
    assert (req["gpu_count"], req["gpu_count_max"]) == want


CARD_MEMORY = [
    ("Serve Qwen2.5 14B on two A10 cards, they have 24G", 24),
    ("LoRA Llama 3 70B on 8 MI50 cards with 32GB of HBM2 each", 32),
    ("Full fine-tune Qwen2.5-7B on 8 GPUs of 64GB", 64),
    ("LoRA on Llama 3 70B, 4 cards; each card has 48GB", 48),
    ("4 张 MI50，都是 32G 的，LoRA 微调 Llama 3 70B", 32),
    ("LoRA 微调 Llama 3 70B，4 张卡，每张 48G", 48),
]


@pytest.mark.parametrize(("text", "gib"), CARD_MEMORY)
def test_each_cards_memory_in_more_phrasings(capsys: pytest.CaptureFixture[str], text: str, gib: int) -> None:
    """'they have 24G', 'GPUs of 64GB', '32GB of HBM2 each', '都是 32G 的', '每张 48G': each card's memory
    (before: named as unread, and the default 80 GB card sized in its place)."""
    data = ask(capsys, text)
    assert data["request"]["gpu_memory_gib"] == gib
    assert str(gib) not in named(data)


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama 3 8B on 2 L4, they have 64 GB of system memory",
        "服务器内存都是 512G，4 张 A100 部署 Llama 3 70B",
    ],
)
def test_system_memory_is_not_a_cards_memory(capsys: pytest.CaptureFixture[str], text: str) -> None:
    data = ask(capsys, text)
    assert data["request"]["gpu_memory_gib"] in (None, 80.0)
    assert [t for t in named(data) if "64" in t or "512" in t]  # '64', or 'host_memory: 64 GB' (round 3 zh)


OUTPUTS = [
    "Serve Gemma-2-27B on one L40S; 2k-token prompts, 512 output tokens; 10 requests per second",
    "Serve Gemma-2-27B on one L40S, 2k-token prompts, generating 512 tokens each, 10 requests per second",
    "Serve Gemma-2-27B on one L40S: input 2k tokens, max_tokens 512, 10 qps",
    "部署 Gemma-2-27B，一张 L40S，输入 2k token，输出 512 token，qps 10",
]


@pytest.mark.parametrize("text", OUTPUTS)
def test_a_request_rate_with_its_output_length_is_a_tokens_per_second_target(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """'512 output tokens', 'generating 512 tokens each', 'max_tokens 512' are each request's reply (the
    context sized is 2,048 + 512), and 10 requests/s × 512 is 5,120 output tokens/s to serve (before: the
    rate was named as needing the output length that the message gave, and the 512 read as the context
    or named as unread)."""
    data = ask(capsys, text)
    assert data["request"]["seq_len"] in (2048 + 512, 2000 + 512)
    assert data["request"]["target_tokens_per_s"] == 5120
    assert "qps_needs_output" not in named(data).values()


def test_a_request_rate_without_an_output_length_stays_named(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "Serve Gemma-2-27B on one L40S with 2k-token prompts at 10 requests per second")
    assert data["request"]["target_tokens_per_s"] is None
    assert named(data)["10 requests per second"] == "qps_needs_output"


DATA_PARALLEL = [
    ("On A10 cards I used SGLang data parallelism with --dp 2 for Qwen2.5 7B; it was slower than one GPU", 2),
    ("Serve Llama 3 70B with tp=4 and dp=2 on H100", 8),
    ("Pretrain a 7B on 100B tokens with dp 8 tp 2 on A100", 16),
    ("部署 Qwen2.5 7B，A10 显卡，数据并行 2，张量并行 2", 4),
]


@pytest.mark.parametrize(("text", "gpus"), DATA_PARALLEL)
def test_a_data_parallel_size_in_prose_is_the_gpus_it_needs(
    capsys: pytest.CaptureFixture[str], text: str, gpus: int
) -> None:
    """DP × TP × PP GPUs when no count of GPUs says otherwise ('compared with one GPU' is the other setup,
    named); before, the DP size was unread or named as having no setting."""
    data = ask(capsys, text)
    assert data["request"]["gpu_count"] == gpus
    assert not [t for t, r in named(data).items() if r == "unread"]


def test_a_data_parallel_size_beside_the_users_count_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "Serve Llama 3 70B on 4 H100 with tp 4, dp 2")
    assert data["request"]["gpu_count"] == 4
    assert named(data)["dp: 2"] == "no_field"


IN_USE_OF_CARD = [
    ("nvidia-smi shows 23643MiB / 24576MiB on my one GPU while I fine-tune Llama 2 7B", 24, "23643"),
    ("Each GPU uses 75GB out of 80GB during a QLoRA of Llama 3 70B on 2 GPUs", 80, "75"),
    ("微调 Llama 2 7B，nvidia-smi 显示 23643MiB / 24576MiB", 24, "23643"),
]


@pytest.mark.parametrize(("text", "gib", "used"), IN_USE_OF_CARD)
def test_memory_in_use_out_of_the_cards(
    capsys: pytest.CaptureFixture[str], text: str, gib: int, used: str
) -> None:
    """nvidia-smi's 'used / total' and 'N GB out of M GB': M is each card's memory, N (in use) is named;
    before, both were unread and a default 80 GB card was sized."""
    data = ask(capsys, text)
    assert data["request"]["gpu_memory_gib"] == gib
    assert used in named(data)


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        ("Serve Llama 3 70B for 10 users on a quad A6000 workstation", 4),
        ("Pretrain a 1B model on 100B tokens with half a dozen H100s", 6),
        ("Can a triple RTX 3090 rig run Qwen2.5 32B at 4-bit?", 3),
        ("Full fine-tune Llama 3 70B on an octa-GPU H100 box", 8),
        ("四卡 A6000（quad A6000）部署 Llama 3 70B 给 10 个人用", 4),
    ],
)
def test_multiplier_words_count_cards(capsys: pytest.CaptureFixture[str], text: str, gpus: int) -> None:
    """'quad A6000', 'triple RTX 3090', 'octa-GPU', 'half a dozen' (before: no count, or 'half a dozen'
    read as twelve); never 'quad-core'."""
    assert ask(capsys, text)["request"]["gpu_count"] == gpus


def test_a_quad_core_cpu_is_no_card_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        ask(capsys, "QLoRA Llama 3 8B on a quad-core CPU box with one RTX 3060")["request"]["gpu_count"] == 1
    )


@pytest.mark.parametrize(
    "text",
    [
        "LoRA Llama 3 8B on one A100: rank 64, effective batch size 128, micro batch 4, 8192 context",
        "Full SFT of Mistral 7B on 8 A100 with a total batch size of 128 and per-device batch 4",
        "Llama 3 8B LoRA，单卡 A100，effective batch size 128，micro batch 4",
    ],
)
def test_an_effective_or_total_batch_is_the_global_batch(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """'effective batch size 128', 'total batch size of 128': sequences per optimizer step, not the micro-
    batch (before: the micro-batch was set to 128)."""
    req = ask(capsys, text)["request"]
    assert (req["global_batch"], req["batch_size"]) == (128, 4)


DEADLINES = [
    ("Full fine-tune Qwen2.5-32B on 500M tokens by next week: how many H100s?", 7),
    ("Full fine-tune Qwen2.5-32B on 500M tokens over the weekend: how many H100s?", 2),
    ("Can I fine-tune Llama 3 8B on 200M tokens overnight on 8 A100?", 0.5),
    ("Qwen2.5-32B 全参微调 5 亿 token，下周之前要训完，要几张 H100", 7),
    ("Llama 3 8B 微调 2 亿 token，一晚上跑完要几张 A100", 0.5),
]


@pytest.mark.parametrize(("text", "days"), DEADLINES)
def test_a_deadline_relative_to_now(capsys: pytest.CaptureFixture[str], text: str, days: float) -> None:
    """'by next week', 'over the weekend', 'overnight', '下周之前', '一晚上': the deadline in days (before:
    the 30-day planning window was assumed)."""
    assert ask(capsys, text)["request"]["deadline_days"] == days


def test_running_overnight_is_no_deadline(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "I left it running overnight fine-tuning Llama 3 8B on 200M tokens on one A100")
    assert data["request"]["deadline_days"] != 0.5


@pytest.mark.parametrize(
    ("text", "gpu"),
    [
        ("We pay $1.99 per H100 hour: what does SFT of Llama 3.1 70B on 300M tokens cost?", "H100-SXM5-80GB"),
        ("SFT Llama 3 8B on 1B tokens, $0.4 per RTX 4090 hr, 8 cards", "RTX-4090"),
        ("Llama 3 8B 微调 10 亿 token，租卡 $0.4 per RTX 4090 hour，8 张", "RTX-4090"),
    ],
)
def test_a_price_per_named_card_hour(capsys: pytest.CaptureFixture[str], text: str, gpu: str) -> None:
    """'$1.99 per H100 hour': a price per GPU-hour of that card (before: a budget of $1.99)."""
    req = ask(capsys, text)["request"]
    assert req["price_per_gpu_hour"] in (1.99, 0.4) and req["budget"] is None
    assert req["gpu"] == gpu


USERS = [
    ("Self-host gpt-oss-20b for my team of 15 on one RTX 5090?", 15),
    ("Serve Llama 3 8B for 40 employees on one L40S", 40),
    ("Serve Llama 3 8B on one L40S for a 20-person team", 20),
    ("部署 Qwen2.5 14B 给 20 个同事用，一张 L40S 够吗", 20),
]


@pytest.mark.parametrize(("text", "users"), USERS)
def test_the_people_a_service_is_for_are_its_users(
    capsys: pytest.CaptureFixture[str], text: str, users: int
) -> None:
    """'a team of 15', '40 employees', 'a 20-person team', '20 个同事': the users served (before:
    unread, and a default load sized)."""
    data = ask(capsys, text)
    assert data["request"]["concurrency"] == users
    assert str(users) not in named(data)


def test_data_about_customers_is_not_a_load(capsys: pytest.CaptureFixture[str]) -> None:
    req = ask(capsys, "Fine-tune Llama 3 8B on 5000 customer emails on one A100")["request"]
    assert req["stage"] == "finetune" and req["concurrency"] is None


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("Fine-tune Mistral-Nemo-12B with LoRA on one RTX 3090", None),
        ("用 LoRA 微调 Mistral NeMo 12B Instruct，一张 3090", None),
        ("SFT Llama 3 70B with NVIDIA NeMo on 16 H100", "NeMo"),
    ],
)
def test_a_tool_name_inside_a_model_name_is_not_the_tool(
    capsys: pytest.CaptureFixture[str], text: str, tool: str | None
) -> None:
    """Mistral-NeMo is a model; NeMo alone is NVIDIA's framework (before: Mistral-Nemo-12B set the training
    tool to NeMo)."""
    data = ask(capsys, text)
    assert data["request"]["training_tool"] == tool
    assert data["request"]["model"] in ("Mistral-Nemo-12B", "Llama-3-70B")


@pytest.mark.parametrize(
    "text",
    [
        "Full fine-tune Qwen2.5-7B on 2x A100 80GB: could I run it as num_processes=8 instead?",
        "2 张 A100 80G 全参微调 Qwen2.5-7B，改成 world_size=8 能跑吗",
    ],
)
def test_a_count_key_beside_counted_cards_is_not_their_count(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """Cards counted in the prose ('2x A100', '2 张 A100') are what the user has; a total-count key beside
    them (another setup being asked about) is named, never the GPUs sized (real question en-005 sized 8)."""
    data = ask(capsys, text)
    assert data["request"]["gpu_count"] == 2
    # s34-gen: the key–value grammar names the count with its key ('gpu_count: 8', a second value)
    assert {"8", "gpu_count: 8"} & set(named(data))
