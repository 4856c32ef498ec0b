"""Round 4 of the real questions, English half (issue 24; tests/data/real_questions/en_r4.json): readers of
how people write, one per kind of fault seen — products with a multiplication sign (cards × memory, experts ×
size), serving engines by name, a memory beyond one card, a job asked with and without LoRA, digit-led words
inside unknown names, RTX A-series cards, and config keys or trainer-log labels in prose read through the
pasted-config handlers. Each rule in both languages, through the CLI (``sizing-bot ask --format json``, in
process); the sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import named
from tests.round_forms import ask

CARDS_TIMES_MEMORY = [
    ("My box is 48GB*4: can it LoRA-tune Qwen2.5 32B?", 4, 48),
    ("Would 8*24G be enough to serve Llama 3 70B in 4-bit?", 8, 24),
    ("We rent 2 x 80GB: how long to fully fine-tune Mistral 7B on 1B tokens?", 2, 80),
    ("Serve Qwen2.5 72B on 4x96GB", 4, 96),
    ("一台 48G*4 的服务器能 LoRA 微调 Qwen2.5 32B 吗", 4, 48),
    ("8*24G 够部署 4bit 的 Llama 3 70B 吗", 8, 24),
]


@pytest.mark.parametrize(("text", "count", "memory"), CARDS_TIMES_MEMORY)
def test_cards_times_each_cards_memory_without_a_card_name(
    capsys: pytest.CaptureFixture[str], text: str, count: int, memory: int
) -> None:
    """'48GB*4', '8*24G', '2 x 80GB', '4x96GB': that many cards of that memory. Before, both numbers were
    named as unread (or '4x96GB' dropped in silence) and the job was sized on one default A100."""
    data = ask(capsys, text)
    assert data["request"]["gpu_count"] == count
    assert data["request"]["gpu_memory_gib"] == memory
    assert not {str(count), str(memory)} & {t for t, r in named(data).items() if r == "unread"}


@pytest.mark.parametrize(
    "text",
    [
        "A workstation with 64GB x 2 of RAM and one RTX 4090: serve Llama 3 8B",
        "内存 64G*2，一张 4090 部署 Llama 3 8B",
    ],
)
def test_a_product_of_system_memory_is_no_card(capsys: pytest.CaptureFixture[str], text: str) -> None:
    data = ask(capsys, text)
    assert data["request"]["gpu_count"] == 1
    assert data["request"]["gpu_memory_gib"] in (None, 24.0)


MOE_NAMES = [
    ("How many H100 to serve Mixtral 8 x 22B for 20 users?", "Mixtral-8x22B", 141e9),
    ("QLoRA of Mixtral 8*7B on two 4090s, does it fit?", "Mixtral-8x7B", 46.7e9),
    ("Can one A100 80GB serve Mistral 8x7B in int4?", "Mixtral-8x7B", 46.7e9),
    ("部署 mistral 8*22B 需要几张 H100", "Mixtral-8x22B", 141e9),
    ("Mixtral 8 x 7B 做 QLoRA 微调，两张 4090 够吗", "Mixtral-8x7B", 46.7e9),
]


@pytest.mark.parametrize(("text", "model", "params"), MOE_NAMES)
def test_mixture_of_experts_names_with_spaces_a_star_or_the_company_name(
    capsys: pytest.CaptureFixture[str], text: str, model: str, params: float
) -> None:
    """'Mixtral 8 x 22B' and 'Mixtral 8*7B' were found but sized as a 22B / 7B; 'Mistral 8x7B' (the company's
    name for its MoE) was an unknown model, nothing sized."""
    data = ask(capsys, text)
    assert data["request"]["model"] == model
    assert data["request"]["params_total"] == pytest.approx(params)


ENGINES = [
    ("Serve Qwen2.5 14B with DeepSpeed-MII on 2 L40S", "DeepSpeed-MII"),
    ("Is one A10 enough to run Llama 3 8B behind text-generation-webui?", "text-generation-webui"),
    ("Deploy Qwen2.5 7B through Triton Inference Server on an L4", "Triton Inference Server"),
    # s38: Aphrodite Engine is modelled now (estimator.runtimes.aphrodite; tests/test_s38_seam.py)
    ("用 DeepSpeed-MII 部署 Qwen2.5 14B 需要几张 L40S", "DeepSpeed-MII"),
    ("用 LocalAI 跑 Llama 3 8B，一张 3090 够吗", "LocalAI"),
]


@pytest.mark.parametrize(("text", "engine"), ENGINES)
def test_serving_engines_the_sizing_does_not_model_are_named(
    capsys: pytest.CaptureFixture[str], text: str, engine: str
) -> None:
    """Named as not modelled, the job a serving one; DeepSpeed-MII is no DeepSpeed training tool."""
    data = ask(capsys, text)
    assert named(data).get(f"runtime: {engine}") == "runtime_not_modelled"
    assert data["request"]["stage"] == "inference"
    assert "training_tool: DeepSpeed" not in named(data)


def test_deepspeed_training_is_still_the_training_tool(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "Full fine-tune Llama 3 8B with DeepSpeed ZeRO-3 on 4 A100")
    assert named(data).get("training_tool: DeepSpeed") == "settings_applied"
    assert data["request"]["zero_stage"] == 3


@pytest.mark.parametrize(
    ("text", "total"),
    [
        ("Serve Qwen2.5 72B on our A100 (160GB): how much context fits?", 160),
        ("Can H100 640GB serve DeepSeek-V3 in FP8?", 640),
        ("用 A100（160G）部署 Qwen2.5 72B 能放多长的上下文", 160),
    ],
)
def test_a_memory_beyond_one_card_is_the_total_of_several(
    capsys: pytest.CaptureFixture[str], text: str, total: int
) -> None:
    """'A100 (160GB)': no A100 has 160 GB; two of them do. Before, it was sized as one 160 GB A100."""
    data = ask(capsys, text)
    assert data["request"]["total_memory_gib"] == total
    assert data["request"]["gpu_memory_gib"] is None
    assert data["request"]["gpu_count"] is None


@pytest.mark.parametrize(
    "text",
    [
        "Modded RTX 4090 48GB: can it LoRA-tune Qwen2.5 14B?",
        "A100 80GB: how many tokens/s for Llama 3 8B?",
        "4090 魔改 48G 能 LoRA 微调 Qwen2.5 14B 吗",
    ],
)
def test_a_cards_own_memory_stays_per_card(capsys: pytest.CaptureFixture[str], text: str) -> None:
    data = ask(capsys, text)
    assert data["request"]["total_memory_gib"] is None
    assert data["request"]["gpu_memory_gib"] in (48.0, 80.0)


BOTH_WAYS = [
    ("How much VRAM to fine-tune Qwen2.5 7B with and without LoRA on 2 A6000?", ["lora", "full"]),
    ("Gemma 2 9B, with or without QLoRA: how many L4 do I need?", ["qlora", "full"]),
    ("Fine-tune Phi-3 mini on one 3090 — LoRA or no LoRA?", ["lora", "full"]),
    ("Qwen2.5 7B 微调，用 LoRA 和不用 LoRA 分别要多少显存", ["lora", "full"]),
    ("Qwen2.5 7B 微调用不用 LoRA，两张 A6000 够吗", ["lora", "full"]),
]


@pytest.mark.parametrize(("text", "methods"), BOTH_WAYS)
def test_a_job_asked_with_and_without_an_adapter_sizes_both(
    capsys: pytest.CaptureFixture[str], text: str, methods: list[str]
) -> None:
    """Before, the negated mention made it a full fine-tuning only (the LoRA half dropped in silence)."""
    data = ask(capsys, text)
    assert set(data["request"]["methods"]) == set(methods)
    assert data["request"]["stage"] == "finetune"


@pytest.mark.parametrize(
    "text", ["Fine-tune Qwen2.5 7B without LoRA on 4 A100", "Qwen2.5 7B 不用 LoRA，全参微调要几张 A100"]
)
def test_without_an_adapter_alone_is_a_full_fine_tuning(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    data = ask(capsys, text)
    assert data["request"]["method"] == "full"
    assert not data["request"].get("methods")


@pytest.mark.parametrize(
    ("text", "name", "params"),
    [
        ("LoRA-tune Acme-Vision2-4KHD-13B on 4 V100: enough?", "Acme-Vision2-4KHD-13B", 13e9),
        ("Serve bar-chat-32k-7b on one A10", "bar-chat-32k-7b", 7e9),
        ("微调 Acme-Vision2-4KHD-13B 需要几张 V100", "Acme-Vision2-4KHD-13B", 13e9),
    ],
)
def test_an_unknown_name_with_a_digit_led_word_keeps_its_size(
    capsys: pytest.CaptureFixture[str], text: str, name: str, params: float
) -> None:
    """'-4KHD-', '-32k-' inside a name the catalog does not know: the name is named as typed and sized by
    the size it ends with. Before, the digit-led word broke the name and nothing was sized."""
    data = ask(capsys, text)
    assert data["interpretation"]["unknown_model"] == name
    assert data["request"]["params_total"] == params


@pytest.mark.parametrize(
    "text",
    ["Serve Llama 3 8B on 2x A5000", "Serve Llama 3 8B on an RTX A4500", "用两块 A5000 部署 Llama 3 8B"],
)
def test_rtx_a_series_cards_are_named_never_replaced_in_silence(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """The RTX A2000/A4000/A4500/A5000/A5500 are not in the catalog: named as typed (with the card sized
    instead said), never silently sized as the default A100."""
    data = ask(capsys, text)
    typed = data["interpretation"]["unknown_gpu"]
    assert typed is not None and "A" in typed and typed[-4:].isdigit()


INLINE_KEYS = [
    ("QLoRA of Llama 3 8B on one 4090, lora_target_linear: true", "lora_targets", ["all-linear"]),
    ("Full fine-tune Qwen2.5 1.5B on 2 A100 with max_samples=50000", "num_samples", 50000),
    ("Full fine-tune Qwen2.5 7B on 8 A100, pure_bf16 true", "pure_bf16", True),
    ("Qwen2.5 7B 在 4 张 A100 上 QLoRA，lora_target_linear: true", "lora_targets", ["all-linear"]),
    ("Qwen2.5 1.5B 全参微调，两张 A100，max_samples=50000", "num_samples", 50000),
]


@pytest.mark.parametrize(("text", "field", "value"), INLINE_KEYS)
def test_config_keys_in_prose_go_through_the_config_handlers(
    capsys: pytest.CaptureFixture[str], text: str, field: str, value: Any
) -> None:
    """A key the pasted-config reader knows, written inside a sentence, sets its field. Before, these were
    dropped in silence ('lora_target_linear: true', 'pure_bf16 true') or named as an unread number."""
    data = ask(capsys, text)
    assert data["request"][field] == value


@pytest.mark.parametrize(
    "text",
    [
        "Unsloth prints Num GPUs = 2, Num examples = 3,000, Num Epochs = 2, Batch size per device = 4, "
        "Gradient Accumulation steps = 2, Total batch size = 16 while I fine-tune Qwen2.5 7B",
        "用 Unsloth 微调 Qwen2.5 7B，日志：Num GPUs = 2, Num examples = 3,000, Num Epochs = 2, "
        "Batch size per device = 4, Gradient Accumulation steps = 2, Total batch size = 16",
    ],
)
def test_a_trainer_banner_is_read_by_its_labels(capsys: pytest.CaptureFixture[str], text: str) -> None:
    data = ask(capsys, text)
    req = data["request"]
    assert (req["gpu_count"], req["num_samples"], req["epochs"]) == (2, 3000, 2)
    assert (req["batch_size"], req["global_batch"]) == (4, 16)
    assert not named(data)


@pytest.mark.parametrize(
    ("text", "recompute"),
    [
        ("Full fine-tune Qwen2.5 7B on 8 A100, disable_gradient_checkpointing: true", "none"),
        ("Full fine-tune Qwen2.5 7B on 8 A100, disable_gradient_checkpointing: false", "full"),
        ("Qwen2.5 7B 全参微调，8 张 A100，disable_gradient_checkpointing: true", "none"),
    ],
)
def test_llamafactorys_disable_key_is_the_opposite(
    capsys: pytest.CaptureFixture[str], text: str, recompute: str
) -> None:
    """LLaMA-Factory's ``disable_gradient_checkpointing: true`` was read as gradient checkpointing on."""
    assert ask(capsys, text)["request"]["recompute"] == recompute


@pytest.mark.parametrize(
    ("text", "sized", "other"),
    [
        (
            "I launch TGI with --num-shard 2 for Qwen2.5 32B on 2 L40S and it runs out of memory at startup. "
            "SGLang works fine on the same box.",
            "TGI",
            "SGLang",
        ),
        (
            "vLLM ran without errors. With lmdeploy on 2 A100 the 70B model hits OOM at 16k context.",
            "lmdeploy",
            "vLLM",
        ),
        ("SGLang 部署 Qwen2.5 32B 没问题。换成 vLLM 在两张 L40S 上启动就爆显存。", "vLLM", "SGLang"),
    ],
)
def test_an_engine_said_to_work_is_the_comparison(
    capsys: pytest.CaptureFixture[str], text: str, sized: str, other: str
) -> None:
    """With no question naming one engine, the one not said to work is sized and the working one named as
    another setup (before, the engine of the 'works fine' sentence could be sized instead)."""
    data = ask(capsys, text)
    assert data["request"]["runtime"] == sized
    assert named(data).get(f"runtime: {other}") == "other_setup"


ENGINE_FLAGS = [
    ("SGLang for Qwen2.5 32B on 2 L40S: tp-size 2, context-length 32768. How many users?", "tp", 2, 32768),
    (
        "TGI on 4 L40S, num-shard set to 4 and max-total-tokens 8192, for Llama 3 70B AWQ: users?",
        "tp",
        4,
        8192,
    ),
    (
        "lmdeploy with --tp 2 --session-len 16384 on 2 A10 for Qwen2.5 14B AWQ: how many users?",
        "tp",
        2,
        16384,
    ),
    (
        "用 SGLang 在两张 L40S 上部署 Qwen2.5 32B，tp-size 2，context-length 32768，能撑多少并发",
        "tp",
        2,
        32768,
    ),
    ("llama.cpp 跑 Qwen2.5 32B Q4_K_M，-c 16384，一张 4090 速度多少", "max_model_len", 16384, 16384),
]


@pytest.mark.parametrize(("text", "field", "value", "context"), ENGINE_FLAGS)
def test_an_engines_flags_in_prose_go_through_its_flag_table(
    capsys: pytest.CaptureFixture[str], text: str, field: str, value: int, context: int
) -> None:
    """The serving-command reader's table read in a sentence: before, 'tp-size 2', 'num-shard set to 4' and
    'context-length 32768' were named as unread numbers; '--tp 2 --session-len' read the 2 as a context."""
    data = ask(capsys, text)
    assert data["request"][field] == value
    assert data["request"]["max_model_len"] == context
    assert not {str(value), str(context)} & set(named(data))


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("We have a DGX A100 (8x80GB). Can we fully fine-tune Qwen2.5 72B?", 8),
        ("Our HGX H100 serves Llama 3 70B: how many users at 8k context?", 8),
        ("我们有一台 DGX H100，能全参微调 Qwen2.5 72B 吗", 8),
    ],
)
def test_one_dgx_system_written_with_an_article_is_eight_gpus(
    capsys: pytest.CaptureFixture[str], text: str, count: int
) -> None:
    """'a DGX A100' is one system of eight; before, the article left it uncounted (sized on one GPU)."""
    assert ask(capsys, text)["request"]["gpu_count"] == count


@pytest.mark.parametrize(
    ("text", "load"),
    [
        ("Qwen2.5 72B on 4 H100 with 96 parallel requests: tokens/s?", 96),
        ("Qwen2.5 72B on 4 H100, a batch of 48 requests: latency?", 48),
        ("Qwen2.5 72B 在 4 张 H100 上跑 96 个并行请求，吞吐多少", 96),
    ],
)
def test_requests_run_together_in_other_words_are_the_load(
    capsys: pytest.CaptureFixture[str], text: str, load: int
) -> None:
    """Before, 'parallel' left the number unread and 'a batch of N requests' was dropped for the default."""
    data = ask(capsys, text)
    assert data["request"]["concurrency"] == load
    assert str(load) not in named(data)


@pytest.mark.parametrize(
    ("text", "context"),
    [
        ("Serve Qwen2.5 32B on 2 H100 at ISL 2048 OSL 512 with 32 users", 2560),
        ("Serve Qwen2.5 32B on 2 H100, 2048 in / 512 out, 32 users", 2560),
        ("Serve Qwen2.5 32B on 2 H100, in/out 2048/512, 32 users", 2560),
        ("两张 H100 部署 Qwen2.5 32B，ISL 2048、OSL 512，32 个用户", 2560),
    ],
)
def test_benchmark_shapes_are_the_prompt_and_the_reply(
    capsys: pytest.CaptureFixture[str], text: str, context: int
) -> None:
    """'ISL 2048 OSL 512' (input and output sequence lengths as benchmarks write them), '2048 in / 512 out':
    each request's prompt and reply, the context sized. Before, both numbers were named as unread."""
    data = ask(capsys, text)
    assert data["request"]["seq_len"] == context
    assert not {"2048", "512"} & set(named(data))


@pytest.mark.parametrize(
    "text",
    [
        "How many tokens per second can 8xH100 generate for Qwen2.5 72B?",
        "8 张 H100 跑 Qwen2.5 72B 的吞吐能到多少",
    ],
)
def test_a_count_after_a_rate_word_with_no_rate_is_the_cards(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """'tokens per second can 8xH100', 'throughput of 8 H100': no rate is stated, so the 8 counts the cards
    (before, it was taken for a per-GPU rate's clause and dropped: one GPU sized)."""
    assert ask(capsys, text)["request"]["gpu_count"] == 8


@pytest.mark.parametrize(
    ("text", "micro", "global_batch"),
    [
        ("Full fine-tune of a 32B model, micro bs 1, GA 16, on 16 H800", 1, 256),
        ("Pretrain a 7B on 64 H100 with mbs 2 and gbs 1024 over 2T tokens: how many days?", 2, 1024),
        ("Qwen2.5 7B 全参微调，mbs 4，GA 8，8 张 A100", 4, 256),
    ],
)
def test_training_short_forms_are_their_keys(
    capsys: pytest.CaptureFixture[str], text: str, micro: int, global_batch: int
) -> None:
    """'GA 16', 'mbs 2', 'micro bs 1', 'gbs 1024': before, 'GA 16' was an unread number."""
    data = ask(capsys, text)
    assert (data["request"]["batch_size"], data["request"]["global_batch"]) == (micro, global_batch)


@pytest.mark.parametrize(
    "text",
    [
        "Qwen3-30B-A3B Q4_K_M in llama.cpp with 36 of 48 layers on a 16GB 4060 Ti; the rest on CPU. Speed?",
        "llama.cpp 跑 Qwen3-30B-A3B Q4_K_M，48 层里 36 层放在 4060 Ti 上，其余在内存，速度多少",
    ],
)
def test_layers_split_beside_a_card_or_the_cpu_are_a_partial_offload(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """A layer split near a card's name or the CPU (not only the word 'GPU'), and '48 层里 36 层': part of the
    model in CPU memory; before, both numbers were unread. Since s14-ngl the split is sized (it asserted
    the 'serving_offload' not-modelled reason, for exactly this case): 36 as llama.cpp's -ngl, the output
    layer and 35 of 48 layers on the 4060 Ti."""
    data = ask(capsys, text)
    assert data["request"]["gpu_layers"] == 36
    split = data["report"]["inference"]["layer_split"]
    assert (split["layers"], split["gpu_layers"], split["output_on_gpu"]) == (48, 35, True)
    assert "offload: True" not in named(data)
    assert not {"36", "48"} & set(named(data))


@pytest.mark.parametrize(
    ("text", "context", "prompt"),
    [
        (
            "Serve Qwen2.5 32B on 2 H100 with 1500-token prompts and 300-token answers for 20 users",
            1800,
            1500,
        ),
        ("A benchmark of 24 prompts at 2048 in / 512 out on 2 H100 for Qwen2.5 32B with vLLM", 2560, 2048),
        ("两张 H100 部署 Qwen2.5 32B，1500-token prompts and 300-token answers，20 个用户", 1800, 1500),
    ],
)
def test_each_requests_reply_in_token_words_and_a_count_of_prompts(
    capsys: pytest.CaptureFixture[str], text: str, context: int, prompt: int
) -> None:
    """'300-token answers' is each reply (before, 'N-token prompts and …' took the prompt alone as the context
    and the reply was dropped in silence); '24 prompts' in a serving benchmark counts requests, never a
    24-token prompt (named as unread)."""
    data = ask(capsys, text)
    assert (data["request"]["seq_len"], data["request"]["prompt_tokens"]) == (context, prompt)


@pytest.mark.parametrize(
    ("text", "price"),
    [
        (
            "Renting 4x H100 at $2.49 per GPU per hour: cost to fully fine-tune Qwen2.5 7B on 100M tokens?",
            2.49,
        ),
        ("Qwen2.5 7B full fine-tune on 100M tokens, 4 H100 at $3/GPU/hr: how much?", 3.0),
        ("Qwen2.5 7B full fine-tune on 100M tokens, 4 H100, $2 an hour per card: total cost?", 2.0),
        ("4 张 H100 全参微调 Qwen2.5 7B，100M token，每卡每小时 15 元，要多少钱", 15.0),
    ],
)
def test_a_price_per_device_and_per_hour_is_a_gpu_hour_price(
    capsys: pytest.CaptureFixture[str], text: str, price: float
) -> None:
    """Before, '$2.49 per GPU per hour' was read as a budget of $2.49."""
    data = ask(capsys, text)
    assert data["request"]["price_per_gpu_hour"] == price
    assert data["request"]["budget"] is None


@pytest.mark.parametrize(
    ("text", "count", "each"),
    [
        ("I have 96 GB of VRAM in total across four cards: can I serve Qwen2.5 32B at 8k?", 4, 24),
        ("Combined VRAM is 160GB (2 cards). Can it serve Llama 3 70B in 8-bit?", 2, 80),
        ("My total GPU memory is 192GB over 4 GPUs: serve Qwen2.5 72B for 10 users", 4, 48),
        ("四张卡总显存 96G，能部署 Qwen2.5 32B 吗", 4, 24),
    ],
)
def test_a_total_memory_with_a_count_is_each_cards_share(
    capsys: pytest.CaptureFixture[str], text: str, count: int, each: int
) -> None:
    """Before, '96 GB … in total across four cards' was dropped in silence (the count kept, the memory lost),
    and 'combined VRAM is 160GB (2 cards)' sized two 160 GB cards."""
    data = ask(capsys, text)
    assert (data["request"]["gpu_count"], data["request"]["gpu_memory_gib"]) == (count, each)


@pytest.mark.parametrize(
    "text",
    [
        "Each of my 4 GPUs has 48 GB: can they serve Qwen2.5 72B in 4-bit?",
        "我的 4 张卡每张 48G，能部署 4bit 的 Qwen2.5 72B 吗",
    ],
)
def test_a_count_inside_each_of_my_n_gpus(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'each of my 4 GPUs has 48 GB': four cards of 48 GB (before, the 4 was unread and one card sized)."""
    data = ask(capsys, text)
    assert (data["request"]["gpu_count"], data["request"]["gpu_memory_gib"]) == (4, 48)


@pytest.mark.parametrize(
    ("text", "total"),
    [
        ("Serve meta-llama/Llama-4-Scout-17B-16E-Instruct on 2 H100 for 20 users", 109e9),
        ("Can 8 H100 serve Llama-4-Maverick-17B-128E-Instruct-FP8?", 400e9),
        ("用 8 张 H100 部署 Llama-4-Maverick-17B-128E-Instruct 可以吗", 400e9),
    ],
)
def test_the_active_size_in_a_moe_name_keeps_the_catalog_total(
    capsys: pytest.CaptureFixture[str], text: str, total: float
) -> None:
    """'Llama-4-Scout-17B-16E': the 17B is the active size (Llama 4 names experts, not the total); before,
    the model was found and then sized as a 17B dense model."""
    data = ask(capsys, text)
    assert data["request"]["params_total"] == total
    assert data["request"]["params_active"] == 17e9


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("SFT of Qwen2.5-7B with ms-swift on 8 x 910B NPUs: how long for 1B tokens?", "Ascend-910B", 8),
        ("用 ms-swift 在 8 x 910B NPUs 上 SFT Qwen2.5-7B 要多久", "Ascend-910B", 8),
    ],
)
def test_a_card_number_before_npus_is_no_model_size(
    capsys: pytest.CaptureFixture[str], text: str, gpu: str, count: int
) -> None:
    """'8 x 910B NPUs': Ascend 910B cards, not a 910B model named 'NPUs' (before: a second model named, the
    count unread, the default A100 sized)."""
    data = ask(capsys, text)
    assert (data["request"]["gpu"], data["request"]["gpu_count"]) == (gpu, count)
    assert not [t for t in named(data) if t.startswith("model:")]


@pytest.mark.parametrize(
    "text",
    [
        "Megatron-LM TP=4 PP=2 pretraining of a 13B on 64 A100: days for 300B tokens?",
        "Megatron-LM TP=4 PP=2 预训练 13B，64 张 A100，300B token 要几天",
    ],
)
def test_a_tool_name_before_the_job_is_no_model(capsys: pytest.CaptureFixture[str], text: str) -> None:
    data = ask(capsys, text)
    assert data["interpretation"]["unknown_model"] is None
    assert (data["request"]["tp"], data["request"]["pp"]) == (4, 2)


@pytest.mark.parametrize(
    ("text", "precision"),
    [
        ("Can two 3090s serve Llama 3 70B in 4 bits at 8k context?", "int4"),
        ("Serve Qwen2.5 32B at 8 bits on one A100 40GB", "int8"),
        ("两张 3090 能跑 4 bits 的 Llama 3 70B 吗", "int4"),
    ],
)
def test_a_bit_width_in_the_plural(capsys: pytest.CaptureFixture[str], text: str, precision: str) -> None:
    """'in 4 bits', 'at 8 bits': before, the number was unread and another precision sized."""
    data = ask(capsys, text)
    assert data["request"]["precision"] == precision


@pytest.mark.parametrize(
    ("text", "rank"),
    [
        ("Fine-tune Qwen2.5 14B with a rank-32 LoRA on 2 A100", 32),
        ("Fine-tune Qwen2.5 14B with a 64-rank QLoRA on one 4090", 64),
        ("Qwen2.5 14B 用 rank-32 LoRA 微调，两张 A100 够吗", 32),
    ],
)
def test_a_rank_written_before_the_adapter(capsys: pytest.CaptureFixture[str], text: str, rank: int) -> None:
    """'a rank-32 LoRA', 'a 64-rank QLoRA': the adapter's rank (before, the number was unread)."""
    assert ask(capsys, text)["request"]["lora_rank"] == rank
