"""Round 9 of the real questions, English half (issue 24; tests/data/real_questions/en_r9.json): readers of
how people write, one per kind of fault seen on the working half — a GGUF type outside the four the
parser knew ('Q6_K', 'UD-Q6_K_XL': sized as bf16 in silence), a serving engine's batch cap in prose ('max
batch size 64' about TensorRT-LLM: read as the load), the full weights of a served model ('serve it with
full parameters': read as a full fine-tuning), a SageMaker instance type ('ml.g5.48xlarge': no card, no
count), the cards' memory stated as their total ('8 x A10G with 192 GB': dropped in silence), a sequence's
length said as a token length ('8k token length': not read) and a tool no table has ('with EasyContext',
'with LLaMA2-Accessory': dropped, or taken for a model). Each rule in both languages, through the CLI
(``sizing-bot ask --format json``, in process); the sentences are written for these tests (none is from
the real-question corpus). Readers: :data:`bot.parse.precision_words.GGUF_FORMATS`,
:data:`bot.parse.written_values.ENGINE_BATCH_RE`, :data:`bot.parse.words.TUNED_ADJECTIVE_RE`,
:data:`bot.parse.instances.INSTANCE_RE`, the 'cards_total' naming of :mod:`bot.parse.field_steps`,
:data:`bot.parse.chat_forms.SEQUENCE_FORMS_RE` and :mod:`bot.parse.unknown_tools`."""

from __future__ import annotations

import pytest

from tests.cli_run import named
from tests.round_forms import ask

GGUF_TYPES = [
    # s47: Q5_1 (5.65G on Llama-3-8B) is sized as Q6_K (6.14G), the next wider GGUF type, no longer Q8_0
    ("Will Mistral-7B Q5_1 fit on an 8GB card with llama.cpp?", "q6_k", "q5_1"),
    ("Does DeepSeek-R1-Distill-Llama-70B-UD-Q4_K_XL.gguf fit on two 3090s?", "q5_k_m", "q4_k_xl"),
    ("用 llama.cpp 跑 Llama-3-8B 的 Q4_1 量化，需要多少显存", "q5_k_m", "q4_1"),
]
GGUF_OWN_SIZE = [
    # s47: the K-quant mixes of llama.cpp's quantize table are sized as themselves (before: Q6_K as Q8_0,
    # Q3_K_M as GPTQ int4, Q2_K as int3, Q3_K_L as Q4_K_M, each named as the next wider format)
    ("How much VRAM does Llama-3-8B in Q6_K need with llama.cpp?", "q6_k"),
    ("Can one 4090 run Qwen2.5-32B at Q3_K_M in llama.cpp?", "q3_k_m"),
    ("Q2_K 的 Qwen2.5-72B 用一张 4090 能跑吗", "q2_k"),
    ("Q3_K_L 的 Qwen2.5-14B 在 12G 的 3060 上能跑吗", "q3_k_l"),
]


@pytest.mark.parametrize(("text", "sized", "typed"), GGUF_TYPES)
def test_a_gguf_type_is_sized_as_the_next_wider_format_and_named(
    capsys: pytest.CaptureFixture[str], text: str, sized: str, typed: str
) -> None:
    """llama.cpp's quantize table (Q2_K … Q6_K, Q4_1, Q5_0/1) and Unsloth's _XL files: the next wider
    format the estimator has, named as typed (before: bf16, the type dropped)."""
    data = ask(capsys, text)
    assert data["request"]["precision"] == sized
    assert named(data)[f"precision: {typed}"] == "nearest_format"


@pytest.mark.parametrize(("text", "typed"), GGUF_OWN_SIZE)
def test_a_k_quant_mix_is_sized_as_itself(capsys: pytest.CaptureFixture[str], text: str, typed: str) -> None:
    data = ask(capsys, text)
    assert data["request"]["precision"] == typed
    assert not any(t.startswith("precision") for t in named(data))


def test_a_known_gguf_type_is_sized_as_itself(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "Llama-3-8B Q4_K_M on a 3090 with llama.cpp: how much VRAM?")
    assert data["request"]["precision"] == "q4_k_m"
    assert not any(t.startswith("precision") for t in named(data))


ENGINE_CAPS = [
    ("With TensorRT-LLM on 2 H100, is a max batch size of 64 right for Llama-3-70B in FP8?", 64),
    ("Llama-3-8B in TensorRT-LLM on one L40S with max batch size 128: how much memory?", 128),
    ("TensorRT-LLM 部署 Qwen2.5-72B，4 张 H100，max batch size 设为 32 够吗", 32),
]


@pytest.mark.parametrize(("text", "cap"), ENGINE_CAPS)
def test_tensorrt_llm_max_batch_size_in_prose_is_the_engine_cap(
    capsys: pytest.CaptureFixture[str], text: str, cap: int
) -> None:
    """'max batch size 64' about TensorRT-LLM is its ``--max_batch_size``: a cap (max_num_seqs), not the
    load (before, a batch of 64 requests at once)."""
    data = ask(capsys, text)
    assert data["request"]["max_num_seqs"] == cap
    assert named(data)[f"max_num_seqs: {cap}"] == "cap_only"


FULL_WEIGHTS = [
    "Serving Qwen2.5-72B with vLLM on 8 H200 using full parameters OOMs. Why?",
    "We deploy Llama-3-70B with full weights (no quantization) on 4 A100 80GB: how much memory?",
    "用 vLLM 部署全参模型 Qwen2.5-72B，8 张 H200 会爆显存吗",
]


@pytest.mark.parametrize("text", FULL_WEIGHTS)
def test_full_weights_of_a_served_model_are_no_fine_tuning(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    data = ask(capsys, text)
    assert data["request"]["stage"] == "inference"
    assert data["request"]["method"] is None


@pytest.mark.parametrize(
    "text",
    ["Full parameter fine-tuning of Qwen2.5-7B on 8 A100: how long?", "全参微调 Qwen2.5-7B 需要几张 A100"],
)
def test_full_parameter_fine_tuning_stays_full(capsys: pytest.CaptureFixture[str], text: str) -> None:
    data = ask(capsys, text)
    assert (data["request"]["stage"], data["request"]["method"]) == ("finetune", "full")


SAGEMAKER = [
    ("Fine-tuning Llama-3-8B on an ml.g5.12xlarge: how long for one epoch of 10k samples?", "A10G", 4),
    ("在 SageMaker 的 ml.p4d.24xlarge 上微调 Llama-3-70B 要多久", "A100-SXM4-40GB", 8),
]


@pytest.mark.parametrize(("text", "gpu", "count"), SAGEMAKER)
def test_a_sagemaker_instance_is_its_cards(
    capsys: pytest.CaptureFixture[str], text: str, gpu: str, count: int
) -> None:
    """SageMaker writes the EC2 type after 'ml.' (AWS: G5.12xlarge 4 x A10G, P4d.24xlarge 8 x A100 40GB)."""
    data = ask(capsys, text)
    assert (data["request"]["gpu"], data["request"]["gpu_count"]) == (gpu, count)


CARDS_TOTAL = [
    ("Can I serve Llama-3-70B on 2x RTX 3090 48GB?", "RTX-3090", 2, "48 GB"),
    ("I moved to an ml.g5.48xlarge with 192 GB VRAM to fine-tune Mixtral 8x7B: enough?", "A10G", 8, "192 GB"),
    ("两张 RTX 3090 48GB 能部署 Llama-3-70B 吗", "RTX-3090", 2, "48 GB"),
]


@pytest.mark.parametrize(("text", "gpu", "count", "total"), CARDS_TOTAL)
def test_the_cards_total_memory_is_named_as_used(
    capsys: pytest.CaptureFixture[str], text: str, gpu: str, count: int, total: str
) -> None:
    """A memory equal to the count × the card's is their total: the cards sized, the total named among
    what is used (before, dropped in silence)."""
    data = ask(capsys, text)
    assert (data["request"]["gpu"], data["request"]["gpu_count"]) == (gpu, count)
    assert named(data)[total] == "cards_total"


TOKEN_LENGTHS = [
    ("Fine-tune Mistral-7B on one A100 at around 8k token length: does it fit?", 8192),
    ("Fine-tune Llama-3-8B with a token length of 4096 on two 4090s", 4096),
    ("Fine-tune Qwen2.5-7B on 8 A100 with 16k-token length samples: how long for 2 epochs?", 16384),
    ("微调 Qwen2.5-7B，token length 4096，两张 4090 够吗", 4096),
]


@pytest.mark.parametrize(("text", "length"), TOKEN_LENGTHS)
def test_a_token_length_is_the_sequence_length(
    capsys: pytest.CaptureFixture[str], text: str, length: int
) -> None:
    assert ask(capsys, text)["request"]["seq_len"] == length


def test_an_output_token_length_is_no_sequence_length(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "Serve Qwen2.5-7B on one 4090 with an output token length of 512")
    assert data["request"]["seq_len"] != 512


UNKNOWN_TOOLS = [
    ("Can I fine-tune Llama-3-8B with OpenDiLoCo on 4 A100?", "OpenDiLoCo"),
    ("How long a context can I fine-tune Qwen2-72B at on 16 A100 with EasyContext?", "EasyContext"),
    ("用 EasyContext 在 16 张 A100 上微调 Qwen2-72B 能支持多长上下文", "EasyContext"),
    ("基于 LLaMA2-Accessory 微调 Qwen2-7B，8 张 A100 要多久", "LLaMA2-Accessory"),
]


@pytest.mark.parametrize(("text", "tool"), UNKNOWN_TOOLS)
def test_a_training_tool_no_table_has_is_named_as_typed(
    capsys: pytest.CaptureFixture[str], text: str, tool: str
) -> None:
    assert named(ask(capsys, text))[f"training_tool: {tool}"] == "no_field"


def test_a_serving_engine_no_table_has_is_named_as_typed(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "Serve Qwen2.5-7B with MyInferServer on 2 L40S: how many users?")
    assert named(data)["runtime: MyInferServer"] == "runtime_not_modelled"


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tune Llama-3-8B with GaLore on 2 A100",
        "Fine-tune Qwen2.5-7B with FlashAttention on one A100",
        "Serve Qwen2-7B-Instruct with vLLM on one L4",
        "用 DeepSpeed 在 4 张 A100 上微调 Qwen2.5-7B",
        "Serving Qwen2.5-7B in lmdeploy with TurbomindEngineConfig(cache_max_entry_count=0.5) on one A10",
        "Fine-tuning Qwen2.5-7B on one 4090 ends in OutOfMemory: how much VRAM does it need?",
        "用 RuntimeError 报错的那个脚本在 4090 上微调 Qwen2.5-7B，显存够吗",
    ],
)
def test_a_method_library_or_known_tool_is_no_unknown_tool(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """GaLore, FlashAttention, a model's suffix, a library's class or error and the tools of the tables are
    read by their own readers (or are no tool): no unknown tool is named."""
    items = named(ask(capsys, text))
    odd = (
        "GaLore",
        "FlashAttention",
        "Qwen2-7B-Instruct",
        "TurbomindEngineConfig",
        "OutOfMemory",
        "RuntimeError",
    )
    assert not [t for t in items if t.split(": ")[-1] in odd]


KV_IN_HOST = [
    "Two 3090s run a 70B at 32k context in llama.cpp with -nkvo: do I need a third card?",
    "With llama.cpp the KV cache kept in system memory, can one 4090 hold Qwen2.5-32B Q4_K_M at 64k?",
    "用 llama.cpp 在两张 3090 上跑 70B，32k 上下文，kv cache 放内存，够吗",
]


@pytest.mark.parametrize("text", KV_IN_HOST)
def test_a_kv_cache_in_cpu_memory_is_named_not_modelled(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """llama.cpp's -nkvo (--no-kv-offload) keeps the KV cache in host memory: read as ``kv_offload`` False
    (estimator.layer_offload sizes every layer's KV cache in RAM; s14-ngl), never dropped nor read as the
    weights' offload (it named it as not modelled before the layer split was modelled)."""
    data = ask(capsys, text)
    assert data["request"]["kv_offload"] is False
    assert data["request"]["offload"] is not True


BOTH_CARDS = [
    ("Both of my GPUs are RTX 3090: can they serve Qwen2.5-32B?", "RTX-3090"),
    ("Can both of my A6000 cards fine-tune Llama-3-8B with LoRA?", "RTX-A6000"),
    ("我的两张卡都是 3090，能部署 Qwen2.5-32B 吗", "RTX-3090"),
]


@pytest.mark.parametrize(("text", "gpu"), BOTH_CARDS)
def test_both_cards_are_two(capsys: pytest.CaptureFixture[str], text: str, gpu: str) -> None:
    data = ask(capsys, text)
    assert (data["request"]["gpu"], data["request"]["gpu_count"]) == (gpu, 2)


def test_both_beside_a_count_of_two_repeats_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "I have 2 RTX 4090 and both cards run out of memory serving Qwen2.5-32B")
    assert data["request"]["gpu_count"] == 2
    assert "2" not in named(data)


SOURCE_TOOLS = [
    "I fine-tune Mixtral 8x7B on 8 A10G; the LLaMA-Factory hardware chart says 30-60 GB, so why OOM?",
    "According to the LLaMA-Factory table, how many A100 does full fine-tuning of Qwen2.5-7B need?",
    "LLaMA-Factory 的显存表说 7B 全参要 120G，我用 4 张 4090 微调 Qwen2.5-7B 够吗",
]


@pytest.mark.parametrize("text", SOURCE_TOOLS)
def test_a_tool_named_as_the_source_of_a_figure_is_not_the_jobs_tool(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """'the LLaMA-Factory hardware chart', 'according to the … table', '… 的显存表': the asker read the
    tool's table; the job is not sized as run with that tool (named as not used)."""
    data = ask(capsys, text)
    assert data["request"]["training_tool"] is None
    assert named(data)["training_tool: LLaMA-Factory"] == "no_field"


@pytest.mark.parametrize(
    "text",
    ["I fine-tune Qwen2.5-7B with LLaMA-Factory on 2 A100", "用 LLaMA-Factory 微调 Qwen2.5-7B，两张 A100"],
)
def test_the_tool_the_job_runs_with_is_still_its_tool(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert ask(capsys, text)["request"]["training_tool"] == "LLaMA-Factory"


AT_CONTEXT_TRAINING = [
    ("Can I fine-tune Mixtral 8x7B at 8k on 8 A10G?", 8192),
    ("Pre-training a 1B model on 100B tokens at 4k on 8 H100: how many days?", 4096),
    ("全参微调 Qwen2.5-7B @ 16k，8 张 A100 要多久", 16384),
]


@pytest.mark.parametrize(("text", "length"), AT_CONTEXT_TRAINING)
def test_a_bare_thousands_after_at_is_a_training_sequence_length(
    capsys: pytest.CaptureFixture[str], text: str, length: int
) -> None:
    assert ask(capsys, text)["request"]["seq_len"] == length


def test_thousands_of_samples_after_with_stay_samples(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "Fine-tune Llama-3-8B with 8k samples on one A100: how long for 3 epochs?")
    assert data["request"]["seq_len"] != 8192
    assert data["request"]["num_samples"] == 8000


MIXED_NODES = [
    ("Train a 13B on 2 nodes of 8 A100 plus 1 node of 4 A100: how long for 100B tokens?", 20),
    ("Fine-tune Qwen2.5-72B on 2 nodes with 8 H100 each and one node with 4 H100", 20),
    ("在 2 台 8 卡 A100 加 1 台 4 卡 A100 上训练 13B，100B token 要多久", 20),
    ("3 台 8 卡 H800 和 1 台 4 卡 H800，全参微调 Qwen2.5-32B 要几天", 28),
]


@pytest.mark.parametrize(("text", "count"), MIXED_NODES)
def test_nodes_of_two_sizes_add_up(capsys: pytest.CaptureFixture[str], text: str, count: int) -> None:
    """All the cards of both node groups (before: the first group's alone, the second's node count named
    'repeated' and its cards lost); no number the message does not hold is named back."""
    data = ask(capsys, text)
    assert data["request"]["gpu_count"] == count
    assert not [t for t, why in named(data).items() if why in ("repeated", "unread")]
