"""Round 3 of the real questions (issue 24 items 2 and 4; tests/data/real_questions/zh_r3.json): how people
write settings, lengths, stages, engines, names and cards in prose — each rule in both languages, through
the CLI (``sizing-bot ask --format json``). The sentences are written for these tests (none is from the
real-question corpus)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import ask_in_process, named


def ask(capsys: pytest.CaptureFixture[str], text: str, want_code: int = 0) -> dict[str, Any]:
    return ask_in_process(capsys, text, want_code=want_code)  # 2: a model with no size (it asks for one)


ASSIGNED = [
    ("用 lmdeploy 部署 Qwen2-7B，--tp 指定为 2，两张 A10", {"tp": 2}),
    ("vLLM 上跑 Qwen2-7B，max_model_len 配置为 8192", {"max_model_len": 8192}),
    ("Serving Qwen2-7B with vLLM, tensor parallel size specified as 2, on two L4s", {"tp": 2}),
    ("Qwen2-7B LoRA on one A100, batch size configured as 4", {"batch_size": 4}),
]


@pytest.mark.parametrize(("text", "want"), ASSIGNED)
def test_more_assignment_verbs_give_the_value(
    capsys: pytest.CaptureFixture[str], text: str, want: dict[str, Any]
) -> None:
    """'--tp 指定为 4' (round 3): the value after 指定为 / 配置为 / specified as is the setting's, not an
    unread number (before: the TP was left out and '4' named as unread)."""
    data = ask(capsys, text)
    assert {k: data["request"][k] for k in want} == want
    assert not {str(v) for v in want.values()} & set(named(data))


LONGEST = [
    ("3000 条数据，平均 2K tokens，最长约 16K tokens，全参微调 Qwen2-7B 要几张 A100", 16384, 2000, 6_000_000),
    (
        "800 samples averaging 4k tokens, the longest about 32k tokens; LoRA on Qwen2-7B, one H100",
        32768,
        4000,
        3_200_000,
    ),
]


@pytest.mark.parametrize(("text", "seq", "each", "tokens"), LONGEST)
def test_the_longest_sample_is_the_sequence_not_the_data(
    capsys: pytest.CaptureFixture[str], text: str, seq: int, each: int, tokens: int
) -> None:
    """'平均约 54K tokens、最长约 120K tokens' (round 3) sized the data at 120K tokens and the sequence at
    the average: the longest sample is the sequence every step must fit; the average stays per sample."""
    req = ask(capsys, text)["request"]
    assert req["seq_len"] == seq
    assert req["tokens_per_sample"] == each
    assert req["tokens"] == tokens  # samples × the average, never the longest


ROLLOUT_TP = [
    (
        "4 张 A100 用 ms-swift 做 GRPO：--vllm_tensor_parallel_size 4 --per_device_train_batch_size 2 "
        "--gradient_accumulation_steps 8，Qwen2.5-7B 要多少显存",
        4,
        2 * 8 * 4,
    ),
    (
        "verl GRPO of Qwen2.5-7B on 8 H100s, actor_rollout_ref.rollout.tensor_model_parallel_size=2, "
        "micro batch 1, gradient accumulation 4",
        2,
        1 * 4 * 8,
    ),
]


@pytest.mark.parametrize(("text", "rollout", "global_batch"), ROLLOUT_TP)
def test_a_rollout_engines_tp_is_not_the_training_layout(
    capsys: pytest.CaptureFixture[str], text: str, rollout: int, global_batch: int
) -> None:
    """'--vllm_tensor_parallel_size 4' in a GRPO command (round 3) was taken as the training TP, so the
    global batch lost its data-parallel factor (1 × 4 instead of 1 × 4 × 4 GPUs): the rollout engine's TP
    is the request's ``rollout_tp`` (the engine that times the rollouts), and the training stays data
    parallel."""
    data = ask(capsys, text)
    assert data["request"]["tp"] != rollout
    assert data["request"]["global_batch"] == global_batch
    assert data["request"]["rollout_tp"] == rollout
    assert "rollout_tp_too_small" not in {w["code"] for w in data["report"]["warnings"]}  # a 7B fits
    assert f"rollout_tensor_parallel_size: {rollout}" not in named(data)


TWO_STAGES = [
    ("两张 A100 上预训练与 SFT 微调 Qwen2-7B 各需要多长时间？", "pretrain"),
    ("How long would pre-training and fine-tuning of Qwen2-7B each take on 8 H100s?", "pretrain"),
]


@pytest.mark.parametrize(("text", "other"), TWO_STAGES)
def test_two_stages_asked_together_name_the_one_not_sized(
    capsys: pytest.CaptureFixture[str], text: str, other: str
) -> None:
    """'预训练与 SFT 微调各需要多长时间' (round 3): fine-tuning was sized and pre-training dropped without a
    word; it is named as another setup."""
    data = ask(capsys, text)
    assert data["request"]["stage"] == "finetune"
    assert named(data)[f"stage: {other}"] == "other_setup"


ENGINES = [
    ("vLLM 上 Qwen2-7B 压测能到每秒 2000 token，换成 SGLang 能撑多少并发？", "SGLang", "vLLM"),
    ("We run Qwen2-7B on vLLM today. How many users could lmdeploy hold on one L40S?", "lmdeploy", "vLLM"),
    ("用 SGLang 和 lmdeploy 都试过 Qwen2-7B，两张 4090 上 lmdeploy 能撑多少并发？", "lmdeploy", "SGLang"),
]


@pytest.mark.parametrize(("text", "sized", "other"), ENGINES)
def test_the_engine_asked_about_is_sized_and_the_other_named(
    capsys: pytest.CaptureFixture[str], text: str, sized: str, other: str
) -> None:
    """Two serving engines (round 3: 'SGLang … 只有 vLLM 的一半，用 SGLang 能撑多少并发？' sized
    vLLM, the first in the bot's list, and said nothing of SGLang): the one the question names is sized,
    the other named as another setup."""
    data = ask(capsys, text)
    assert data["request"]["runtime"] == sized
    assert named(data)[f"runtime: {other}"] == "other_setup"


def test_one_stack_is_not_two_engines(capsys: pytest.CaptureFixture[str]) -> None:
    """Ollama reads GGUF files with llama.cpp: one engine, nothing named as another setup."""
    data = ask(capsys, "ollama 导入 gguf 格式的 Qwen2-7B，一张 4060 Ti 16G 输出很慢")
    assert data["request"]["runtime"] == "Ollama"
    assert not [t for t in named(data) if t.startswith("runtime:")]


STAGE_KEYS = [
    (
        "两张 A100 80G 对 Qwen2-7B 做预训练：--stage pt --finetuning_type lora --lora_target q_proj,v_proj",
        "continued_pretrain",
        None,
    ),
    (
        "llamafactory-cli train with --stage dpo --finetuning_type lora on Qwen2-7B, one A100",
        "finetune",
        "dpo",
    ),
]


@pytest.mark.parametrize(("text", "stage", "algorithm"), STAGE_KEYS)
def test_a_tools_stage_key_names_the_stage(
    capsys: pytest.CaptureFixture[str], text: str, stage: str, algorithm: str | None
) -> None:
    """'--stage pt --finetuning_type lora' (round 3) was sized as a fine-tuning (the word inside
    finetuning_type): LLaMA-Factory's stage key says the stage, pt being a continued pre-training."""
    req = ask(capsys, text)["request"]
    assert req["stage"] == stage
    assert req["method"] == "lora"
    if algorithm:
        assert req["algorithm"] == algorithm


NAMES = [
    ("按仓库脚本启动 FooVision-Pro 的 GRPO 训练，两张 A6000 48G 会爆显存吗？", "FooVision-Pro", 2),
    ("Will the BarNet-X DPO training fit on two A6000s?", "BarNet-X", 2),
    ("用 lmdeploy 部署 someorg/foo-v1.5-chat-7b，要几张 4090？", "foo-v1.5-chat-7b", 0),
    ("How many L4s to serve acme/bar-v2.1-instruct-13b with vLLM?", "bar-v2.1-instruct-13b", 0),
]


@pytest.mark.parametrize(("text", "model", "code"), NAMES)
def test_a_name_before_its_job_or_with_a_version_is_named_as_typed(
    capsys: pytest.CaptureFixture[str], text: str, model: str, code: int
) -> None:
    """'启动 Rex-Omni 的 GRPO 训练' and 'liuhaotian/llava-v1.6-vicuna-7b' (round 3) were not read as the
    model at all: a name-like word before '的 … 训练' / 'GRPO training', and an unknown name with a version
    ('v1.6') and an organization, are the model, named as typed."""
    data = ask(capsys, text, code)  # no size typed: it asks for one (exit 2), naming the model
    assert data["interpretation"]["unknown_model"] == model


CARDS = [
    ("我用四张 Titan RTX 预训练一轮要 6 小时，和单张 3090 的差距这么大正常吗？", "Titan-RTX", 4),
    ("两张 A6000 跑 LoRA 一个 epoch 要 9 小时，比一张 4090 还慢吗？", "RTX-A6000", 2),
    (
        "Our 4 Titan RTX cards take 6 hours an epoch, far slower than a single 3090 — is that normal?",
        "Titan-RTX",
        4,
    ),
]


@pytest.mark.parametrize(("text", "gpu", "count"), CARDS)
def test_a_card_compared_with_is_not_the_card_asked_about(
    capsys: pytest.CaptureFixture[str], text: str, gpu: str, count: int
) -> None:
    """'虽然 titan 不如 3090 … 差距有点大吗？' (round 3) sized 3090s, the card compared with: a sentence
    that compares does not name the card asked about (and 'Titan RTX 预训练' is the card, not a model
    called 'RTX')."""
    req = ask(capsys, text)["request"]
    assert (req["gpu"], req["gpu_count"]) == (gpu, count)


PROMPTS = [
    ("部署 Qwen2-7B，每个请求输入 3000 token、输出 500 token，并发 16，一张 L40S 够吗", 3000, 3500),
    ("Serving Qwen2-7B: prompts of 1500 tokens and replies of 300 tokens, 16 users on one L40S", 1500, 1800),
]


@pytest.mark.parametrize(("text", "prompt", "seq"), PROMPTS)
def test_the_prompt_part_of_input_and_output_is_kept(
    capsys: pytest.CaptureFixture[str], text: str, prompt: int, seq: int
) -> None:
    """'输入 2048 token、输出 512 token' (round 3): the context is their sum, and the prompt (prefilled)
    part is the request's prompt_tokens, not a default share of the context."""
    req = ask(capsys, text)["request"]
    assert (req["prompt_tokens"], req["seq_len"]) == (prompt, seq)


PARTS = [
    ("prompt 长度 2k、回答长度 400，每秒要生成 1500 token，部署 Qwen2-7B 要几张 A10", 2000, 2400, 1500),
    ("问题长度 800 字左右，回答 200 字，50 人同时用，部署 Qwen2.5-14B 要几张 4090", 800, 1000, None),
    (
        "Serve Qwen2-7B at 1500 tokens per second, 2k-token prompts, 400-token answers: how many A10s?",
        2048,
        2448,
        1500,
    ),
]


@pytest.mark.parametrize(("text", "prompt", "seq", "rate"), PARTS)
def test_the_parts_of_a_request_with_a_length_word(
    capsys: pytest.CaptureFixture[str], text: str, prompt: int, seq: int, rate: int | None
) -> None:
    """'prompt 长度 1k、回答长度 512' read the prompt as the whole context and the reply as a second value;
    '512-token answers' was dropped in silence; '每秒要生成 2000 token' was not the rate: the prompt and
    the reply are the two parts of the context, and the rate with a modal verb is the target."""
    data = ask(capsys, text)
    req = data["request"]
    assert (req["prompt_tokens"], req["seq_len"]) == (prompt, seq)
    assert req["target_tokens_per_s"] == rate
    assert not [t for t, why in named(data).items() if why in ("unread", "repeated")]


def test_a_question_word_before_a_count_is_not_a_length(capsys: pytest.CaptureFixture[str]) -> None:
    """'问题' before a GPU count ('我有个问题 2 张 A100 …') is not a prompt length: without a length word, the
    number must carry a length unit."""
    data = ask(capsys, "我有个问题 2 张 A100 能不能全参微调 Qwen2-7B")
    assert (data["request"]["gpu_count"], data["request"]["prompt_tokens"]) == (2, None)
    assert not named(data)


BATCH_AND_ALPHA = [
    "LoRA 秩 16、lora_alpha 32、梯度累积 8 步、batch 开到 4，单卡 3090 微调 Qwen2-7B 显存够吗",
    "LoRA rank 16, lora alpha 32, gradient accumulation 8, batch 4 on one 3090 for Qwen2-7B",
]


@pytest.mark.parametrize("text", BATCH_AND_ALPHA)
def test_a_bare_batch_with_a_verb_and_loras_alpha(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'batch 开到 4' left the micro-batch unread (so no global batch), and 'lora_alpha 32' was an unread
    number: the batch is read, and alpha (a scale; neither memory nor time) is named as not sized."""
    data = ask(capsys, text)
    req = data["request"]
    assert (req["batch_size"], req["lora_rank"], req["global_batch"]) == (4, 16, 32)
    assert named(data) == {"lora_alpha: 32": "not_sized"}


STAR_COUNTS = [
    ("4*8*A800 全参微调 Qwen2-72B 会不会 OOM", "A800-80GB", 32),
    ("2*8 张 4090 LoRA 微调 Qwen2-72B 够吗", "RTX-4090", 16),
    ("Full fine-tune of Qwen2-72B on 2*8*H100: enough?", "H100-SXM5-80GB", 16),
]


@pytest.mark.parametrize(("text", "gpu", "count"), STAR_COUNTS)
def test_nodes_times_cards_glued_with_a_star(
    capsys: pytest.CaptureFixture[str], text: str, gpu: str, count: int
) -> None:
    """'4*8*A800' read 8 GPUs and left the 4 unread ('*' is markup to the normalizer): nodes × cards."""
    data = ask(capsys, text)
    assert (data["request"]["gpu"], data["request"]["gpu_count"]) == (gpu, count)
    assert not [t for t, why in named(data).items() if why == "unread"]


def test_a_count_times_a_memory_is_still_cards_of_that_memory(capsys: pytest.CaptureFixture[str]) -> None:
    """'8*40G' stays eight cards of 40 GB (round 2's rule), not a product."""
    req = ask(capsys, "8*40G 的卡全参微调 Qwen2-7B 够吗")["request"]
    assert (req["gpu_count"], req["gpu_memory_gib"]) == (8, 40)


RL_SAMPLING = [
    "GRPO 训练 Qwen2.5-7B，采样参数 max_tokens 3072、n 16，两张 A100 够吗",
    "GRPO on Qwen2.5-7B with vLLM sampling params max_tokens=3072, n=16: are 2 A100s enough?",
]


@pytest.mark.parametrize("text", RL_SAMPLING)
def test_vllm_sampling_words_in_online_rl(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'采样参数 max_tokens 4096、n 8' (round 3) left both numbers unread: in an online-RL question they
    are the completion length (the sequence) and the generations per prompt (the request fields the
    rollouts are timed with, estimator.rollout) — and they name no tool (TRL's key names would)."""
    data = ask(capsys, text)
    # s8-t3 item 2 (was 3072, a 0-token prompt): TRL's max_prompt_length 512 + the 3,072-token completion
    assert data["request"]["seq_len"] == 512 + 3072
    assert (data["request"]["num_generations"], data["request"]["max_completion_length"]) == (16, 3072)
    assert data["request"]["training_tool"] is None
    assert not [t for t, why in named(data).items() if why == "unread"]


CAPS = [
    ("Qwen2.5-7B 一张 4090 部署，--max-num-seqs 64，100 个人同时用够吗", 64, 100, "load_above_cap"),
    (
        "Qwen2.5-7B on one 4090 with max_num_seqs 64 and 100 concurrent users: enough?",
        64,
        100,
        "load_above_cap",
    ),
    ("Qwen2.5-7B 一张 4090 部署，max_num_seqs 设为 256，够吗", 256, None, "cap_only"),
]


@pytest.mark.parametrize(("text", "cap", "load", "why"), CAPS)
def test_an_engines_cap_in_prose_is_read_as_in_a_command(
    capsys: pytest.CaptureFixture[str], text: str, cap: int, load: int | None, why: str
) -> None:
    """'--max-num-seqs 256' written in a sentence (not a pasted command) was an unread number: it is the
    engine's cap, read as a pasted command's is — alone it bounds the answer (``max_num_seqs``, how many
    fit at once), beside a stated load the load is sized and the cap named."""
    data = ask(capsys, text)
    req = data["request"]
    if load is None:  # how many fit at once, never above the cap
        assert req["max_num_seqs"] == cap and 0 < req["concurrency"] <= cap
    else:
        assert (req["max_num_seqs"], req["concurrency"]) == (None, load)
    assert named(data)[f"max_num_seqs: {cap}"] == why


def test_lmdeploys_cache_share_is_sized(capsys: pytest.CaptureFixture[str]) -> None:
    """lmdeploy's cache_max_entry_count 0.5 was an unread number, then named with no field; lmdeploy's
    runtime sizes it (the share of the free memory its KV cache takes: issue 24, session 10), as a pasted
    --cache-max-entry-count is. Another engine's answer still names it."""
    data = ask(
        capsys, "lmdeploy 部署 Qwen2-7B，cache_max_entry_count 0.5，session_len 16384，一张 A10 能撑多少并发"
    )
    assert data["request"]["max_model_len"] == 16384
    assert data["request"]["gpu_memory_utilization"] == 0.5 and not named(data)
    assert "cache_max_entry_count 0.5" in data["reply"].splitlines()[0]
    data = ask(capsys, "vLLM 部署 Qwen2-7B，cache_max_entry_count 0.5，一张 A10 能撑多少并发")
    assert named(data)["cache_max_entry_count: 0.5"] == "no_field"


KV_TOKENS = [
    "vLLM 提示 KV cache 只能放 15248 个 token，Qwen1.5-14B 两张 4090 部署要多少显存",
    "vLLM says the KV cache holds only 15248 tokens; serving Qwen1.5-14B on two 4090s, how much memory?",
]


@pytest.mark.parametrize("text", KV_TOKENS)
def test_a_token_count_in_a_serving_question_is_named(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """A token count read as data in a serving question was dropped without a word (serving has no
    training tokens): it is named (docs/design.md §8: nothing stated is silently dropped)."""
    data = ask(capsys, text)
    assert data["request"]["stage"] == "inference" and data["request"]["tokens"] is None
    assert "15248" in named(data)


DATA_TEXT = [
    ("预训练 7B 用 50GB 的中文语料，8 张 A100 要多久", "data_size: 50 GB"),
    (
        "Continued pre-training of Qwen2-7B on 20GB of Chinese text with 8 A100s: how long?",
        "data_size: 20 GB",
    ),
]


@pytest.mark.parametrize(("text", "said"), DATA_TEXT)
def test_a_data_size_in_bytes_is_named_not_dropped(
    capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    """'50GB 的中文语料' left 50 unread (the language word hid the data word), and a data size in bytes
    ('50GB 语料') was read and then dropped without a word while the answer assumed Chinchilla tokens:
    it is named (no bytes-to-tokens rule yet)."""
    data = ask(capsys, text)
    assert named(data)[said] == "no_field"
    assert not [t for t, why in named(data).items() if why == "unread"]


HOST_MEMORY = [
    ("机器内存 1T，4 张 A100 40G 全参微调 Qwen2.5-14B 够吗", "host_memory: 1 TB", 4),
    ("单机 8 卡 A800、内存 900GB，ZeRO-3 offload 全参微调 Qwen2-72B 够吗", "host_memory: 900 GB", 8),
    (
        "8x A100 80GB with 2TB of RAM, ZeRO-3 offload, full fine-tune of Llama-3-70B: enough?",
        "host_memory: 2 TB",
        8,
    ),
    ("Two L40S and 512GB of system memory: can we QLoRA Qwen2.5-72B?", "host_memory: 512 GB", 2),
]


@pytest.mark.parametrize(("text", "said", "count"), HOST_MEMORY)
def test_the_hosts_memory_is_named_never_tokens_or_a_cards(
    capsys: pytest.CaptureFixture[str], text: str, said: str, count: int
) -> None:
    """'机器内存 1T' was read as a trillion training tokens (a fine-tuning sized as pre-training data), and
    '内存 900GB' / '2TB of RAM' as unread numbers: the host's memory is named (it bounds offload; no field
    yet), never tokens nor a card's memory. With CPU offload (s16) it is the field the offload's host RAM
    is compared with (tests/test_s16_host_ram.py)."""
    data = ask(capsys, text)
    req = data["request"]
    assert req["tokens"] is None and req["gpu_count"] == count
    assert req["gpu_memory_gib"] in (None, 40, 80)
    if "offload" in text:
        value, unit = said.removeprefix("host_memory: ").split()
        assert req["host_memory_gib"] == float(value) * (1024 if unit == "TB" else 1)
    else:
        assert named(data)[said] == "no_field"


def test_a_cards_memory_called_nei_cun(capsys: pytest.CaptureFixture[str]) -> None:
    """'4090 内存 24G': 内存 said of a card (under 256 GB, right after it) is its memory, not unread."""
    data = ask(capsys, "4090 内存 24G 能部署 Qwen2-7B 吗")
    assert data["request"]["gpu_memory_gib"] == 24
    assert "24" not in named(data)


PEAKS = [
    ("峰值显存 70G，单卡 H100 全参微调 Qwen2-7B，batch 还能加吗", "H100-SXM5-80GB"),
    (
        "Peak VRAM 70GB on a single H100 while fully fine-tuning Qwen2-7B: can the batch grow?",
        "H100-SXM5-80GB",
    ),
]


@pytest.mark.parametrize(("text", "gpu"), PEAKS)
def test_a_peak_with_the_memory_word_is_a_use_not_the_card(
    capsys: pytest.CaptureFixture[str], text: str, gpu: str
) -> None:
    """'峰值显存 70G' sized the H100 as a 70 GB card: a peak written with the memory word is memory used,
    as '峰值 70G' is (named, the card keeps its own 80 GB)."""
    data = ask(capsys, text)
    assert (data["request"]["gpu"], data["request"]["gpu_memory_gib"]) == (gpu, None)
    assert "70" in named(data)


ADAPTER_KEYS = [
    ("DPO 训练 Qwen2-7B，cutoff_len 2048，lora_rank 16，两张 4090", "lora"),
    ("DPO on Qwen2-7B with lora_target all, two A100s: memory?", "lora"),
    ("全参微调 Qwen2-7B，lora_rank 16，两张 A100", "full"),
]


@pytest.mark.parametrize(("text", "method"), ADAPTER_KEYS)
def test_loras_own_keys_say_the_method(capsys: pytest.CaptureFixture[str], text: str, method: str) -> None:
    """'DPO … lora_rank 16' was sized as a full DPO (preference tuning defaults to full): LoRA's own keys
    say the method when no word did; 'full' said in words keeps it."""
    assert ask(capsys, text)["request"]["method"] == method


HYPER = [
    (
        "学习率 2e-5，warmup 0.03，pref_beta 0.1，DPO 全参微调 Qwen2-7B，8 张 A100",
        {"learning_rate: 2e-5", "warmup_ratio: 0.03", "pref_beta: 0.1"},
    ),
    (
        "GRPO on Qwen2.5-7B, lr 1e-6, temperature 1.0, top_p 0.99, seed 42, two A100s",
        {"learning_rate: 1e-6", "sampling.temperature: 1.0", "sampling.top_p: 0.99", "random_seed: 42"},
    ),
]


@pytest.mark.parametrize(("text", "said"), HYPER)
def test_hyperparameters_are_named_as_not_sized(
    capsys: pytest.CaptureFixture[str], text: str, said: set[str]
) -> None:
    """Learning rate, warmup, beta, temperature, top_p, seed were unread numbers: they change neither
    memory nor time, so each is named as not sized."""
    data = ask(capsys, text)
    got = named(data)
    assert {k for k in said if got.get(k) == "not_sized"} == said
    assert not [t for t, why in got.items() if why == "unread"]


RATES = [
    ("QPS 2，每次输出 300 token，部署 Qwen2.5-14B 要几张 L40S", 600),
    ("Serving Qwen2.5-14B at 4 requests per second, replies of 250 tokens: how many L40S?", 1000),
]


@pytest.mark.parametrize(("text", "rate"), RATES)
def test_a_request_rate_with_the_output_is_a_tokens_target(
    capsys: pytest.CaptureFixture[str], text: str, rate: int
) -> None:
    """'QPS 2，每次输出 300 token' was named as needing the output per request — which it gave — and the
    300 dropped: the service decodes rate × output tokens per second."""
    data = ask(capsys, text)
    assert data["request"]["target_tokens_per_s"] == rate
    assert "qps_needs_output" not in named(data).values()


VOLUME = [
    # a daily volume is sized now (s35 fix c #2: tests/test_s35_fixc.py, tests/test_s21_daily_volume.py)
    ("同时在线 100 人，首 token 延迟 1 秒以内，部署 Qwen2.5-32B 要几张 H100", "time_to_first_token: 1 s"),
    (
        "TTFT under 500 ms for 50 concurrent users of Qwen2.5-32B on H100s: how many?",
        "time_to_first_token: 500 ms",
    ),
]


@pytest.mark.parametrize(("text", "said"), VOLUME)
def test_a_daily_volume_and_a_first_token_target_are_named(
    capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    """'每天 10 万次调用' and '首 token 延迟 1 秒以内' were unread numbers: named as settings the sizing has
    no field for (a day's average is not the peak load). s37 fixb #1: a first-token target is compared
    with the estimated time to first token beside the headline, so it is named as used ('ttft_target')."""
    data = ask(capsys, text)
    assert named(data)[said] == "ttft_target"


CARD_SUFFIXES = [
    ("4 张 4090D 部署 Qwen2.5-72B-AWQ，上下文 32k 够吗", "RTX-4090D", 4),
    ("Serving Qwen2.5-72B-AWQ on four 4090D cards at 32k context: enough?", "RTX-4090D", 4),
]


@pytest.mark.parametrize(("text", "gpu", "count"), CARD_SUFFIXES)
def test_a_card_written_with_its_letter_suffix(
    capsys: pytest.CaptureFixture[str], text: str, gpu: str, count: int
) -> None:
    """'4 张 4090D' named no card at all (neither RTX 4090 nor RTX 4090D carried the bare '4090d'): it is
    the catalog's RTX 4090D."""
    req = ask(capsys, text)["request"]
    assert (req["gpu"], req["gpu_count"]) == (gpu, count)


@pytest.mark.parametrize(
    ("text", "timed", "share", "fits"),
    [
        # s42 trial #6: under verl its engine's share is verl's own default, rollout.gpu_memory_utilization
        # 0.5 (verl rollout.yaml), not vLLM's 0.9: 0.5 × 79.2 GiB = 42.5 GB per GPU, so TP 4 holds 145 GB
        (
            "verl GRPO of Qwen2.5-72B on 16 A100 80GB, "
            "actor_rollout_ref.rollout.tensor_model_parallel_size=1",
            False,
            0.5,
            4,
        ),
        (
            "GRPO Qwen2.5-72B on 16 A100 80GB with --vllm_tensor_parallel_size 1, 10k prompts of 1024 "
            "tokens, num_generations 8, max_completion_length 1024",
            True,
            0.9,
            2,
        ),
    ],
)
def test_a_rollout_engine_too_small_for_the_model_is_said(
    capsys: pytest.CaptureFixture[str], text: str, timed: bool, share: float, fits: int
) -> None:
    """A vLLM engine of TP 1 cannot hold Qwen2.5-72B: 145.4 GB of bf16 weights (72.7B parameters × 2 B)
    exceed the 0.9 × 79.2 GiB = 76.5 GB vLLM may use of one A100 80GB (gpu_memory_utilization's default),
    so it would not start (vllm/v1/core/kv_cache_utils.py check_enough_kv_cache_memory). The note names the
    stated TP and the smallest that holds the weights and one sequence's KV cache: TP 2 (72.7 GB + its
    share of the KV); a timed answer decodes the rollouts on engines of TP 2."""
    data = ask(capsys, text)
    assert data["request"]["rollout_tp"] == 1
    note = next(w for w in data["report"]["warnings"] if w["code"] == "rollout_tp_too_small")
    assert (note["params"]["tp"], note["params"]["fits_tp"]) == (1, fits)
    # vLLM's own usable memory, as serving states it: 0.9 × the 79.2 GiB CUDA reports (71.3 GiB), s11
    from estimator import catalog
    from estimator.runtimes import VLLM, visible_bytes

    a100 = catalog.gpu("A100-SXM4-80GB")
    assert note["params"]["usable_bytes"] == pytest.approx(share * visible_bytes(a100))
    assert share != 0.9 or note["params"]["usable_bytes"] == VLLM.usable_bytes(a100)
    assert note["params"]["per_gpu_bytes"] > 145e9
    assert (
        f"TP {fits} holds them; any rollout time" in data["reply"] or f"TP {fits} 才放得下" in data["reply"]
    )
    if timed:
        assert data["report"]["rollout"]["decode_tp"] == fits
