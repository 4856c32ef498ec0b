"""Session 41, part fixtrain: training answers that match real runs (issue 24 items 3–4, the s40 trial).

1. No GPU said in words ('no GPU, 32 GB RAM laptop', '没有GPU，只有64G内存', '只有 CPU'): the reply's head
   answers for their machine first (bot.parse.no_gpu, bot.render.cpu_head) — the RAM against the weights and
   one sequence's KV cache, and llama.cpp's CPU decode bound: host bandwidth × 0.65 (llama.cpp's measured
   share, ggml-org/llama.cpp#19480: estimator.layer_offload.CPU_BANDWIDTH_EFFICIENCY) / weight bytes read per
   token; training on a CPU is said to be impractical and not timed, then the GPU plan.
3. Megatron-family tools (MindSpeed-LLM, Megatron-DeepSpeed, Pai-Megatron-Patch beside Megatron-LM and NeMo)
   are sized with Megatron's layouts and get Megatron's advice, never a data-parallel-only stack's; a LoRA run
   on LLaMA-Factory gets no Megatron advice.
"""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json


def _text(question: str) -> str:
    from bot.cli import ask

    return ask(question, None, "text")[0]


def _head(question: str) -> list[str]:
    """The reply's first paragraph: the headline and the lines under it."""
    return _text(question).split("\n\n")[0].splitlines()


def _parse(question: str):
    from bot.parse import parse

    return parse(question)


# 1. no GPU --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "ram"),
    [
        ("没有GPU，只有64G内存，能跑 Qwen2.5-7B 吗", 64.0),
        ("没有独立显卡，内存 32G，跑 Qwen2.5-7B 可以吗", 32.0),
        ("纯CPU 跑 Llama 3 8B 要多少内存", None),
        ("no GPU, 32 GB RAM laptop, can I run Llama 3 8B?", 32.0),
        ("Can I run Llama 3 8B without a GPU? 16GB of RAM", 16.0),
        ("I don't have a GPU, CPU only, Qwen2.5 7B", None),
    ],
)
def test_no_gpu_said_is_read(text: str, ram: float | None) -> None:
    p = _parse(text)
    assert "no_gpu" in p.notes and "cpu_only" in p.notes
    assert p.request.gpu is None
    assert p.request.host_memory_gib == ram


@pytest.mark.parametrize(
    "text",
    [
        "GPU 没有显存了，Qwen2.5-7B 怎么办",
        "我们只有CPU offload，8张4090 微调 Qwen2.5-7B",
        "没有GPU显存可用了，A100 上跑 Qwen2.5-7B",
        "I have no GPU memory left on my A100 for Llama 3 8B",
        "Llama 3 8B without GPU offload on a 4090",
        "no more GPUs: fine-tune Qwen2.5 7B on the 8 we have",
        "I have no GPU yet, should I buy an RTX 4090 for Llama 3 8B?",
        "我还没有显卡，想买一张 RTX 4090 跑 Qwen2.5-7B",
    ],
)
def test_a_gpu_resource_or_a_named_card_is_not_no_gpu(text: str) -> None:
    """Must not misread: a GPU's memory, offload or count; a card named beside 'no GPU yet'."""
    assert "no_gpu" not in _parse(text).notes


def test_no_gpu_zh_answers_the_cpu_first() -> None:
    lines = _head("没有GPU，只有64G内存，能跑 Qwen2.5-7B 吗")
    # s45 fixread #5 (s44 trial #6): the CPU's speed first (was last), the RAM, then this head (was first)
    assert lines[2].startswith("你的机器没有 GPU：我估算的是 GPU，不估算 CPU")
    # s41 cpufix #4: no precision stated, the CPU run is GGUF Q4_K_M (Ollama's default tag): Qwen2.5-7B
    # 7.61e9 weights in llama-quantize's mix (estimator.gguf_mix) = 4.67e9 B = 4.4 GiB (the published
    # Qwen2.5-7B-Instruct-Q4_K_M.gguf: 4.68 GB); KV 28 layers × 4 heads × 128 × 2 × 2 B = 56 KiB a token
    # × 4,096 = 0.2 GiB; 4.6 GiB ≤ 64 GiB
    assert lines[1] == (
        "你的 64 GiB 内存放得下 Q4_K_M 的模型：权重 4.4 GiB + 一条 4,096 token 序列的 KV 缓存 0.2 GiB "
        "≈ 4.6 GiB。"
    )
    # 51.2e9 × 0.65 / 4.67e9 = 7.12; 89.6e9 × 0.65 / 4.67e9 = 12.46 tokens/s
    assert "最多约 7.1–12.5 token/s" in lines[0] and "51.2–89.6 GB/s" in lines[0]


def test_no_gpu_en_answers_the_cpu_first() -> None:
    lines = _head("no GPU, 32 GB RAM laptop, can I run Llama 3 8B?")
    assert lines[2].startswith("No GPU on your machine: I size GPUs, not the CPU; llama.cpp or Ollama")  # s45
    # s41 cpufix #4: Q4_K_M, Llama 3 8B 8.03e9 weights in llama-quantize's mix = 4.91e9 B = 4.6 GiB
    # (published Llama-3.1-8B-Instruct-Q4_K_M: 4.92 GB)
    assert lines[1].startswith("Your 32 GiB of RAM holds the model at Q4_K_M: weights 4.6 GiB")
    # 51.2e9 × 0.65 / 4.91e9 = 6.78, 89.6e9 × 0.65 / 4.91e9 = 11.86
    assert "≈ 6.8–11.9 tokens/s at most on 51.2–89.6 GB/s" in lines[0]  # s45 fixread #5: first (was last)


def test_a_server_without_gpu_reads_the_moe_active_weights() -> None:
    """512 GiB of RAM is a server's (above 256 GiB, estimator.layer_offload.DESKTOP_MEMORY_MAX): 8-channel
    DDR4-3200 to 12-channel DDR5-4800, 204.8–460.8 GB/s; Qwen3-30B-A3B reads its 3.3B active of 30.5B."""
    line = _head("CPU-only server with 512GB RAM, can I run Qwen3-30B-A3B?")[0]  # s45: the speed leads
    assert "204.8–460.8 GB/s" in line and "server's 8-channel" in line
    # s41 cpufix #4: Q4_K_M's whole-file average (a MoE: no tensor mix), 18.49e9 B × 3.3 / 30.5 = 2.0e9 B
    assert "1.9 GiB of Q4_K_M weights" in line


def test_a_cpu_named_keeps_its_head_and_gains_the_speed() -> None:
    lines = _head("Llama-3-8B on an i7-12700 with 16GB")
    assert lines[2].startswith("Your machine is a CPU (i7-12700) with no GPU: the bound above")  # s45 B6
    assert "tokens/s at most" in lines[0]  # the CPU's speed first, its RAM, then the GPU reference


@pytest.mark.parametrize(
    ("text", "head"),
    [
        ("只有 CPU，想微调 Qwen2.5-7B，要多久", "你的机器没有 GPU：在 CPU 上训练不现实"),
        (
            "CPU only, how long to fine-tune Llama 3 8B on 100M tokens?",
            "No GPU on your machine: training on a CPU",
        ),
    ],
)
def test_training_without_gpu_says_impractical_then_gpus(text: str, head: str) -> None:
    out = _text(text)
    assert out.startswith(head)
    assert "A100" in out  # the GPU plan follows


# 3. Megatron-family tools ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("用 MindSpeed-LLM 全参微调 Qwen2.5-72B，32 张 A100 80G，1 亿 token 要多久", "MindSpeed-LLM"),
        ("用 Pai-Megatron-Patch 全参微调 Qwen2.5-72B，32 张 A100", "Pai-Megatron-Patch"),
        ("Pretrain a 7B model with Megatron-DeepSpeed on 64 H100s, 1T tokens", "Megatron-DeepSpeed"),
        ("ModelLink 预训练 Llama 2 7B，16 张 910B", "MindSpeed-LLM"),
        # moved from tests/test_round10_zh_forms.py, test_round13_zh_forms.py and test_round24_zh_forms.py,
        # where these tools were named as not used (no limits modelled then); now sized as Megatron-family
        ("用 MindSpeed-LLM 在 16 张 910B 上全参微调 Qwen2.5-72B 要多久", "MindSpeed-LLM"),
        ("How many 910B for Qwen2.5-72B full fine-tuning with ModelLink?", "MindSpeed-LLM"),
        ("采用 Pai-Megatron-Patch 微调 Qwen-72B，最少要几张 A100", "Pai-Megatron-Patch"),
        ("看了 Pai-Megatron-Patch 的示例脚本，全参微调 Qwen2-72B 要几张 H800？", "Pai-Megatron-Patch"),
        ("Megatron-LM pretrain a 7B model on 64 H100s", "Megatron-LM"),
        ("megatron-core 训练 7B，64 张 H800，1T token", "Megatron-LM"),
    ],
)
def test_megatron_family_tools_are_modelled(text: str, tool: str) -> None:
    a = answer_json(text)
    assert a["request"]["training_tool"] == tool
    assert not any("training_tool" in i["text"] for i in a["interpretation"]["ignored"])


def test_megatron_deepspeed_is_not_also_deepspeed() -> None:
    """Must not misread: 'Megatron-DeepSpeed' is one tool, not Megatron-LM plus DeepSpeed not used."""
    a = answer_json("Pretrain a 7B model with Megatron-DeepSpeed on 64 H100s, 1T tokens")
    assert "DeepSpeed" not in str(a["interpretation"]["ignored"])


def test_megatron_family_gets_megatron_advice_zh() -> None:
    out = _text("用 MindSpeed-LLM 全参微调 Qwen2.5-72B，32 张 A100 80G，1 亿 token 要多久")
    assert "你用的是 Megatron 系工具" in out and "--tensor-model-parallel-size" in out
    assert "数据并行能撑住模型时用 DeepSpeed ZeRO" not in out  # not another stack for their tool


def test_megatron_family_gets_megatron_advice_en() -> None:
    out = _text("Pretrain a 7B model with Megatron-DeepSpeed on 64 H100s, 1T tokens")
    assert "Your tool is Megatron-family" in out
    assert "DeepSpeed ZeRO or PyTorch FSDP while data parallelism" not in out


@pytest.mark.parametrize(
    "text",
    [
        "LoRA fine-tune Llama 3 70B with LLaMA-Factory on 8 x A100 80G, 100M tokens, how long?",
        "用 LLaMA-Factory 对 Qwen2.5-72B 做 LoRA 微调，8 张 A100，1 亿 token",
    ],
)
def test_a_lora_run_on_a_hf_tool_gets_no_megatron_advice(text: str) -> None:
    out = _text(text)
    assert "Megatron-family" not in out and "Megatron 系" not in out
    assert "Megatron-LM for pre-training" not in out and "大规模预训练用 Megatron-LM" not in out


# 5. MoE eager slowdown: shown under the band; transformers 5's grouped experts keep the grouped rate -----


@pytest.mark.parametrize(
    ("text", "version", "experts"),
    [
        ("LLaMA-Factory LoRA 微调 Qwen3-30B-A3B，8 张 A100，1 亿 token，transformers 5.0", "5.0", None),
        ("transformers 版本 4.51.3，LoRA 微调 Qwen3-30B-A3B，8 张 A100", "4.51.3", None),
        ("LoRA Qwen3-30B-A3B with TRL, transformers==4.57.1, 8 H100, 100M tokens", "4.57.1", None),
        ("fine-tune Qwen3-30B-A3B on transformers v5 with 8 A100s", "5", None),
        ('fine-tune Qwen3-30B-A3B, transformers>=5, experts_implementation="eager", 8 A100', "5", "eager"),
    ],
)
def test_transformers_release_is_read(text: str, version: str, experts: str | None) -> None:
    r = _parse(text).request
    assert r.transformers_version == version and r.experts_implementation == experts


@pytest.mark.parametrize(
    "text",
    [
        "sentence-transformers 2.2 微调 Qwen3-30B-A3B 8 张 A100",
        "transformers 4 张 A100 微调 Qwen3-30B-A3B",
        "fine-tune Qwen3-30B-A3B with sentence-transformers 3.0 on 8 A100",
    ],
)
def test_not_a_transformers_release(text: str) -> None:
    """Must not misread: another package ending in the name; a bare figure after it is a count."""
    assert _parse(text).request.transformers_version is None


def _mfu(text: str) -> float:
    return answer_json(text)["report"]["mfu"]["likely"]


def test_transformers_5_keeps_the_grouped_rate() -> None:
    """v5's default experts backend is grouped_mm (transformers modeling_utils.py
    get_correct_experts_implementation): no eager divisor; v4 and 'eager' stated keep it."""
    base = "LoRA fine-tune Qwen3-30B-A3B with TRL on 8 H100, 100M tokens"
    v4, v5 = _mfu(base + ", transformers==4.57.1"), _mfu(base + ", transformers 5.0")
    eager = _mfu(base + ', transformers 5.0, experts_implementation="eager"')
    assert v5 > 5 * v4  # the floor divides the MoE rate by ≈ 6.5 on H100 (30.5B dense vs 3.3B active)
    assert eager == pytest.approx(v4)


def test_the_eager_band_line_zh_and_en() -> None:
    zh = _text("用 LLaMA-Factory LoRA 微调 Qwen3-30B-A3B，8 张 A100 80G，1 亿 token 要多久")
    assert "这个区间已含 MFU ÷ 6：v5 之前的 transformers 在循环里逐个跑 MoE 的专家" in zh
    en = _text("LoRA fine-tune Qwen3-30B-A3B with TRL on 8 H100, 100M tokens, transformers==4.57.1")
    assert "MFU ÷ 6.5 inside this range: your transformers 4.57.1 runs an MoE's experts" in en
    v5 = _text("LoRA fine-tune Qwen3-30B-A3B with TRL on 8 H100, 100M tokens, transformers 5.0")
    assert "inside this range" not in v5


# 4. H100 memory: training and serving weigh the same card ---------------------------------------------------


@pytest.mark.parametrize(
    "lang_q",
    [("zh", "8 张 H100 全参微调 Llama 3 8B，1 亿 token"), ("en", "full fine-tune Llama 3 8B on 8 H100")],
)
def test_h100_training_and_serving_use_the_same_card_memory(lang_q: tuple[str, str]) -> None:
    """Both from GpuSpec.addressable_bytes: the datasheet's 80 GB HBM3 as 80 GiB (81,920 MiB, NVIDIA H100
    datasheet); serving takes vLLM's 0.9 of it, less the CUDA context. nvidia-smi reports 81,559 MiB on an
    H100 80GB HBM3 (0.36 GiB less, not applied here: it would move every H100 answer alike)."""
    train = answer_json(lang_q[1])["report"]["memory"]
    serve = answer_json("serve Llama 3 8B on 1 H100" if lang_q[0] == "en" else "1 张 H100 部署 Llama 3 8B")
    inf = serve["report"]["inference"]
    assert train["gpu_memory_bytes"] == 80 * 2**30
    assert 0.88 * 80 * 2**30 < inf["usable_bytes_per_gpu"] <= 0.9 * 80 * 2**30


# 2. demo data at cutoff_len: already right on this branch's base; regression guards, both languages ---------

_YAML = (
    "\nmodel_name_or_path: Qwen/Qwen2.5-7B-Instruct\nstage: sft\nfinetuning_type: lora\n"
    "dataset: identity,alpaca_en_demo\ntemplate: qwen\ncutoff_len: 2048\nper_device_train_batch_size: 1\n"
    "gradient_accumulation_steps: 8\nnum_train_epochs: 3.0\nbf16: true\n"
)


@pytest.mark.parametrize(
    ("head", "bound"),
    [
        (
            "用 LLaMA-Factory 跑这个要多久，4 张 4090：",
            "时间按每条样本 2,048 token（你允许的最长长度）计，是上限",
        ),
        ("How long will this take on 4 RTX 4090s with LLaMA-Factory?", "an upper bound"),
    ],
)
def test_demo_datasets_are_their_rows_and_cutoff_an_upper_bound(head: str, bound: str) -> None:
    """LLaMA-Factory's data/identity.json holds 91 rows and data/alpaca_en_demo.json 999 (the JSON arrays'
    lengths, bot.parse.configs.demo_datasets), not samples of any count × cutoff_len."""
    a = answer_json(head + _YAML)
    assert a["request"]["num_samples"] == 91 + 999
    # 1,090 samples × 2,048 tokens (cutoff_len, the bound) × 3 epochs = 6,696,960 tokens
    assert a["request"]["seq_len"] == 2048 and a["request"]["tokens"] == 1090 * 2048 * 3
    assert bound in a["reply"]
