"""Session 32, part left: answers true to the job as typed (the open findings of the last trials).

1. OpenRLHF's batches in its own units (openrlhf/cli/train_ppo_ray.py @021d1b0): ``--rollout_batch_size``
   counts prompts ("Batch size for make experience", default 1024), each sampled ``--n_samples_per_prompt``
   times; ``--train_batch_size`` counts responses ("Global training batch size", default 128).
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


def _notes(out: dict) -> dict[str, dict]:
    return {n["code"]: n.get("params", {}) for n in out["report"]["warnings"]}


# 1. OpenRLHF's rollout batch (prompts) and train batch (responses)

OPENRLHF_FLAGS = (
    "用 OpenRLHF 在 16 张 H100 上对 Qwen2.5-7B 做 GRPO，--rollout_batch_size 1024 --n_samples_per_prompt 8 "
    "--micro_rollout_batch_size 16 --train_batch_size 128，10 万条数据要多久？"
)
OPENRLHF_PROSE = (
    "GRPO on Qwen2.5-7B with OpenRLHF on 16 H100s, rollout batch 1024, 8 samples per prompt, "
    "train batch 128, 100k prompts — how long?"
)


@pytest.mark.parametrize("question", [OPENRLHF_FLAGS, OPENRLHF_PROSE])
def test_openrlhf_rollout_batch_is_read_in_prompts(capsys, question):
    out = _ask(capsys, question)
    req = out["request"]
    assert req["rollout_batch"] == 1024  # prompts, not a micro-batch nor the training batch
    assert req["global_batch"] == 128  # --train_batch_size: responses a step, as stated
    assert req["num_generations"] == 8
    assert req["batch_size"] in (None, 1)  # never 1024 sequences per GPU
    notes = _notes(out)
    assert notes["rollout_batch_steps"] == {
        "prompts": 1024,
        "responses": 8,
        "sequences": 8192,  # 1024 prompts × 8 samples
        "train_batch": 128,
        "steps": 64,  # 8192 ÷ 128
    }
    rollout = out["report"]["rollout"]
    assert rollout["decode_batch"] == 256  # 8192 ÷ 16 GPUs = 512 a GPU, vLLM's max_num_seqs 256 an engine
    ignored = [i["text"] for i in out["interpretation"]["ignored"]]
    assert not any(t.startswith("rollout_batch_size") for t in ignored)


def test_openrlhf_rollout_batch_said_in_both_languages(capsys):
    zh = _text(capsys, OPENRLHF_FLAGS)
    assert "rollout 批大小按提示词计" in zh and "每轮 rollout 8,192 条回答" in zh and "训 64 步" in zh
    en = _text(capsys, OPENRLHF_PROSE)
    assert "1,024 prompts × 8 samples each" in en and "64 steps a rollout" in en


def test_openrlhf_rollout_batch_changes_the_decode_batch(capsys):
    """Without it the rollout engines decode the per-GPU micro-batch (8 at once); with it, the rollout's
    8,192 responses spread over 16 GPUs: the decode hours fall."""
    without = _ask(capsys, OPENRLHF_PROSE.replace("rollout batch 1024, ", ""))
    assert without["request"].get("rollout_batch") is None
    with_it = _ask(capsys, OPENRLHF_PROSE)
    before = without["report"]["rollout"]
    after = with_it["report"]["rollout"]
    assert before["decode_batch"] < after["decode_batch"]
    assert after["gpu_hours"] < before["gpu_hours"]


def test_micro_rollout_batch_is_still_named_not_used(capsys):
    out = _ask(capsys, OPENRLHF_FLAGS)
    ignored = {i["text"]: i["reason"] for i in out["interpretation"]["ignored"]}
    assert ignored.get("micro_rollout_batch_size: 16") == "no_field"


def test_verl_batch_is_not_read_as_a_rollout_batch(capsys):
    out = _ask(
        capsys,
        "用 verl 在 16 张 H100 上对 Qwen2.5-7B 做 GRPO，data.train_batch_size=1024 "
        "actor_rollout_ref.rollout.n=8，要多久？",
    )
    assert out["request"].get("rollout_batch") is None
    assert out["request"]["global_batch"] == 1024
    assert "global_batch_prompts" in _notes(out)


# 2. Two machines of different cards: one tensor-parallel group cannot span them


@pytest.mark.parametrize(
    ("question", "gpu", "count", "other"),
    [
        ("我有一台 8×4090 和一台 4×A100，部署 Qwen2.5-72B 推理够吗", "A100-SXM4-80GB", 4, "8 × RTX 4090"),
        (
            "I have one 8×A100 box and one 4×H100 box — can I serve Llama-3-70B?",
            "A100-SXM4-80GB",
            8,  # 8 × 80 GB over 4 × 80 GB: the larger machine
            "4 × H100 SXM5 80GB",
        ),
        (
            "I have one 8×A100 box and one 4×H100 box — can the H100 box serve Llama-3-70B?",
            "H100-SXM5-80GB",
            4,  # the machine asked about
            "8 × A100 SXM4 80GB",
        ),
        (
            "we have a server with 8 L40S and another server with 2 H100, serve Qwen2.5-72B at 32k context",
            "L40S",
            8,  # 8 × 48 GB = 384 GB over 2 × 80 GB
            "2 × H100 SXM5 80GB",
        ),
    ],
)
def test_two_machines_size_one_and_name_the_other(capsys, question, gpu, count, other):
    out = _ask(capsys, question)
    req = out["request"]
    assert (req["gpu"], req["gpu_count"], req["gpus_per_node"]) == (gpu, count, count)
    ignored = {i["text"]: i["reason"] for i in out["interpretation"]["ignored"]}
    assert ignored.get(other) == "other_machine"
    assert not any(reason == "repeated" for reason in ignored.values())  # neither count a second value


def test_two_machines_said_in_both_languages(capsys):
    zh = _text(capsys, "我有一台 8×4090 和一台 4×A100，部署 Qwen2.5-72B 推理够吗")
    assert "4 张 A100 80G" in zh.splitlines()[0]
    assert "两台不同型号的卡组不成一个张量并行组" in zh
    en = _text(capsys, "I have one 8×A100 box and one 4×H100 box — can I serve Llama-3-70B?")
    assert "8 × A100 80G" in en.splitlines()[0]
    assert "cannot form one tensor-parallel group" in en


@pytest.mark.parametrize(
    "question",
    [
        "Should I use 8x H100 or 16x A100 to fine-tune Llama-3-70B?",  # options weighed
        "一台服务器插了 4 张 A100 和 4 张 H100，能跑 70B 推理吗",  # one machine
        "my box has 4 A100 and 4 H100 in one machine, serve 70B",
    ],
)
def test_options_and_one_machine_are_not_two_machines(capsys, question):
    out = _ask(capsys, question)
    assert not any(i["reason"] == "other_machine" for i in out["interpretation"]["ignored"])


# 3. Names as typed: an unknown name shaped like a family's, an Atlas server's case


@pytest.mark.parametrize(
    ("question", "typed"),
    [
        ("FooMax-M1 用 vLLM 部署要几张卡", "FooMax-M1"),  # before: the help text, nothing named
        ("serve FooMax-M1 with vLLM, how many H100?", "FooMax-M1"),
    ],
)
def test_unknown_name_like_a_family_is_named_never_read_as_it(capsys, question, typed):
    out = _ask(capsys, question)
    assert out["interpretation"]["unknown_model"] == typed
    assert out["request"].get("model") is None  # never MiniMax-M1


@pytest.mark.parametrize(
    ("question", "typed", "size"),
    [
        ("Zorblax-3-70B 用 vLLM 部署要几张 H100", "Zorblax-3-70B", 70e9),
        ("serve Zorblax-3-70B on H100s", "Zorblax-3-70B", 70e9),
    ],
)
def test_unknown_name_sized_on_its_stated_size(capsys, question, typed, size):
    out = _ask(capsys, question)
    assert out["interpretation"]["unknown_model"] == typed
    assert out["request"].get("model") is None
    assert out["request"]["params_total"] == size


@pytest.mark.parametrize(
    ("question", "typed"),
    [
        ("Atlas 800T A2 能跑 Qwen2.5-72B 推理吗", "Atlas 800T A2"),  # before: 'atlas 800t a2'
        (
            "two Atlas 800T A2 servers, pretrain a 13B model on 1T tokens, how many days?",
            "two Atlas 800T A2 servers",
        ),
    ],
)
def test_atlas_server_echoed_in_its_case(capsys, question, typed):
    out = _ask(capsys, question)
    subs = [s for s in out["interpretation"]["substitutions"] if s["reason"] == "atlas_server"]
    assert [s["typed"] for s in subs] == [typed]
    assert typed in _text(capsys, question)


@pytest.mark.parametrize("question", ["LLaVA 7B 推理要多少显存", "how much VRAM to serve LLaVA 7B?"])
def test_llava_7b_named_as_typed(capsys, question):
    """s37-left put LLaVA-1.5 in the catalog (estimator/data/models/llava.toml): an unversioned 'LLaVA 7B' is
    sized as LLaVA-1.5 7B (7,063,427,072 parameters: tower, projector and language model), the swap named
    as typed (latest_release) in the reply, never another family's 7B."""
    out = _ask(capsys, question)
    assert out["request"].get("model") == "LLaVA-1.5-7B"
    assert out["request"]["params_total"] == 7_063_427_072
    subs = out["interpretation"]["substitutions"]
    assert subs == [{"typed": "LLaVA 7B", "used": "LLaVA-1.5-7B", "reason": "latest_release"}]
    reply = _text(capsys, question)
    assert "LLaVA 7B" in reply and "LLaVA-1.5 7B" in reply


# 6. A rough count is asked as a count; Unsloth on Colab's free T4


@pytest.mark.parametrize(
    ("question", "text", "reason"),
    [
        ("几十张卡能训多大的模型", "几十", "vague_count"),
        ("我们有数十台机器，想训练 Qwen2-7B", "数十", "vague_count"),
        ("几十万条数据微调 Qwen2.5-7B 要多久", "几十万", "vague"),  # a data amount keeps its own
    ],
)
def test_rough_count_named_as_a_count(capsys, question, text, reason):
    out = _ask(capsys, question)
    ignored = {i["text"]: i["reason"] for i in out["interpretation"]["ignored"]}
    assert ignored.get(text) == reason


def test_rough_count_note_speaks_of_the_count(capsys):
    zh = _text(capsys, "几十张卡能训多大的模型")
    assert "不是具体卡数" in zh and "按数据量" not in zh.splitlines()[0]


@pytest.mark.parametrize(
    ("question", "verdict"),
    [
        ("can I fine-tune 8B on Colab's free T4 with Unsloth", "8B QLoRA fine-tuning"),
        ("Colab 免费的 T4 能用 Unsloth 微调 8B 吗", "8B QLoRA 微调"),
    ],
)
def test_unsloth_colab_leads_with_one_gpu_qlora(capsys, question, verdict):
    out = _ask(capsys, question)
    req = out["request"]
    assert (req["method"], req["gpu"]) == ("qlora", "T4") and req["gpu_count"] in (None, 1)
    first = _text(capsys, question).splitlines()[0]
    assert first.startswith(verdict) and ("1 × T4" in first or "1 张 T4" in first)


# 5. A MoE model on one personal card: the experts-on-CPU layout (llama.cpp --n-cpu-moe / --cpu-moe)

MOE_ONE_CARD_ZH = "我只有一张 4090，能用 llama.cpp 跑 Qwen3-235B-A22B 吗，内存 256G"
MOE_ONE_CARD_EN = "can I run gpt-oss-120b on a single RTX 3090 with llama.cpp? 128GB RAM"


@pytest.mark.parametrize("question", [MOE_ONE_CARD_ZH, MOE_ONE_CARD_EN])
def test_moe_on_one_card_names_the_experts_on_cpu_layout(capsys, question):
    out = _ask(capsys, question)
    split = out["report"]["inference"]["layer_split"]
    assert split["gpu_layers_chosen"] and split["gpu_layers"] < split["layers"]  # -ngl picked for the card
    m = split["experts_cpu_layers"]
    assert m is not None and 0 < m <= split["layers"]
    assert split["experts_cpu_gpu_bytes"] <= split["gpu_usable_bytes"]
    # only each token's top-k experts are read on the CPU: faster than whole layers there
    assert split["experts_cpu_tokens_per_s_low"] > split["tokens_per_s_low"]


def test_moe_experts_on_cpu_said_in_both_languages(capsys):
    zh = _text(capsys, MOE_ONE_CARD_ZH)
    assert "前 81 层（共 94 层）的专家放在 CPU 内存（--n-cpu-moe 81）" in zh
    en = _text(capsys, MOE_ONE_CARD_EN)
    assert "the experts of the first 23 of 36 layers in CPU memory (--n-cpu-moe 23)" in en


def test_dense_model_gets_no_experts_line(capsys):
    out = _ask(capsys, "我只有一张 4090，能用 llama.cpp 跑 Qwen2.5-72B 吗，内存 128G")
    split = out["report"]["inference"]["layer_split"]
    assert split["gpu_layers_chosen"] and split.get("experts_cpu_gpu_bytes") is None


def test_moe_that_does_not_fit_even_with_every_expert_on_cpu(capsys):
    out = _ask(capsys, "我只有一张 4060 8G，能用 llama.cpp 跑 DeepSeek-V3 吗，内存 512G")
    split = out["report"]["inference"]["layer_split"]
    assert split["experts_cpu_layers"] is None
    assert split["experts_cpu_gpu_bytes"] > split["gpu_usable_bytes"]
    assert "即使把所有专家都放在 CPU 内存" in _text(
        capsys, "我只有一张 4060 8G，能用 llama.cpp 跑 DeepSeek-V3 吗，内存 512G"
    )


# 4. TGI's usable memory: --cuda-memory-fraction × TGI_WIGGLE_ROOM 0.90 (text-generation-inference @db931fc)


@pytest.mark.parametrize(
    "question",
    [
        "serve Qwen2.5-7B with TGI on one A100 80GB, 8k context",
        "用 TGI 在一张 A100 80G 上部署 Qwen2.5-7B，8k 上下文",
    ],
)
def test_tgi_usable_is_fraction_times_wiggle_room(capsys, question):
    from estimator import catalog
    from estimator.runtimes.base import CUDA_CONTEXT_BYTES, visible_bytes

    inf = _ask(capsys, question)["report"]["inference"]
    assert inf["runtime"] == "TGI"
    card = visible_bytes(catalog.gpu("A100-SXM4-80GB"))
    assert inf["usable_bytes_per_gpu"] == pytest.approx(card * 1.0 * 0.90 - CUDA_CONTEXT_BYTES.value)
    vllm = _ask(capsys, question.replace("TGI", "vLLM"))["report"]["inference"]
    assert inf["workspace_bytes_per_gpu"] <= vllm["workspace_bytes_per_gpu"] * 1.5  # its warm-up, no 5 % more


def test_tgi_cuda_memory_fraction_scales_the_usable(capsys):
    from estimator import catalog
    from estimator.runtimes.base import CUDA_CONTEXT_BYTES, visible_bytes

    inf = _ask(
        capsys,
        "how many A100 80GB?\n"
        "text-generation-launcher --model-id Qwen/Qwen2.5-7B-Instruct --cuda-memory-fraction 0.5",
    )["report"]["inference"]
    card = visible_bytes(catalog.gpu("A100-SXM4-80GB"))
    assert inf["usable_bytes_per_gpu"] == pytest.approx(card * 0.5 * 0.90 - CUDA_CONTEXT_BYTES.value)
