"""Round 11 of the real questions, Chinese (issue 24; tests/data/real_questions/zh_r11.json): kinds of
writing the r11work half showed the parser missing, each read by one mechanism for its whole axis — a
total word that belongs to the next figure ('两张 24G 显存的卡，一共 48G': the 24G is one card's), the
NVIDIA data-center cards by architecture letter the catalog lacks ('K80', 'M40', 'Tesla M60': named as
typed, never replaced silently), an algorithm a tool's own key names that is sized as its family
('--rlhf_type kto', 'stage: kto': named, as the prose 'KTO' is), the gradient-accumulation key as each
tool spells it ('accumulate_grad_batches', 'accumulative_counts', '--update-freq', '梯度累加'), the
aspect and time adverbs between a key and its value ('长度已改成 4096', 'batch 已经调成 2', 'is already
set to'), and a sample's source and target lengths as research scripts name them ('source_max_len' +
'target_max_len', 'max_source_seq_len' + 'max_target_seq_len'), and a software's two-part version
('cuda 12.1', 'python 3.10', 'ubuntu 22.04': no figure) — tested in both languages through the
CLI (``sizing-bot ask --format json``). The sentences are written for these tests (none is from the
real-question corpus)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import ask_in_process, ignored_pairs


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    return ask_in_process(capsys, text)


def req(data: dict[str, Any], key: str) -> Any:
    return data["request"].get(key)


ignored = ignored_pairs


@pytest.mark.parametrize(
    ("text", "count", "memory"),
    [
        ("两张 24G 显存的卡，一共 48G，LoRA 微调 Qwen2.5-3B 够吗", 2, 24),
        ("准备 4 张卡 80G 显存，一共 320G，全量微调 Qwen2.5-14B 要多久", 4, 80),
        ("两张卡每张 24G 显存，总共 48G 显存，能推理 Qwen2.5-14B 吗", 2, 24),
        ("I have two cards with 24GB of VRAM each, 48GB in total: LoRA on Qwen2.5-3B?", 2, 24),
        ("four GPUs, 48GB of VRAM each, 192GB combined, can they serve Llama-3-70B?", 4, 48),
        ("8 cards with 80GB of memory each, 640GB in total, for a full fine-tune of Qwen2.5-32B", 8, 80),
    ],
)
def test_a_total_word_belongs_to_the_figure_it_precedes(
    capsys: pytest.CaptureFixture[str], text: str, count: int, memory: int
) -> None:
    """'一共 48G' after '24G 显存的卡' totals the cards: the 24G stays one card's (main read it as the
    two cards' total, 12G a card, and sized a 12 GB card)."""
    data = ask(capsys, text)
    assert req(data, "gpu_count") == count
    assert req(data, "gpu_memory_gib") == memory


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("我有两块 K80 卡，各自 11G 显存，能微调 ChatGLM2-6B 吗", "k80"),
        ("用 M40 24G 做 Qwen2-7B 的 LoRA 微调要多久", "m40"),
        ("Tesla M60 上能推理 Qwen2-7B 吗", "m60"),
        ("I have 4 Tesla K40 cards, can I fine-tune Qwen2-1.5B?", "k40"),
        ("an old M10 card: can it run Qwen2-0.5B?", "m10"),
        ("two Tesla P6 boards for Qwen2-1.5B inference?", "p6"),
    ],
)
def test_an_older_data_center_card_is_named_as_typed(
    capsys: pytest.CaptureFixture[str], text: str, card: str
) -> None:
    """NVIDIA's data-center cards by architecture letter (Kepler K, Maxwell M, Pascal P) that the
    catalog has no row for are named as typed (unknown_gpu), never swapped for the default card in
    silence (main dropped 'K80' and 'M40' and sized an A100 with nothing said)."""
    data = ask(capsys, text)
    assert card in (data["interpretation"].get("unknown_gpu") or "").lower().replace(" ", "")


@pytest.mark.parametrize(
    ("text", "gpu"),
    [
        ("用两块 Tesla P40 卡微调 ChatGLM2-6B", "Tesla-P40"),
        ("P100 两张推理 Qwen2-7B", "Tesla-P100-PCIe-16GB"),
        ("k8s 上部署 Qwen2-7B，4 张 A10", "A10"),
        ("p99 latency under 200ms for Qwen2-7B on an A100, how many cards?", "A100-SXM4-80GB"),
    ],
)
def test_catalog_cards_and_percentiles_are_unchanged(
    capsys: pytest.CaptureFixture[str], text: str, gpu: str
) -> None:
    """Guards: cards the catalog has keep their row; 'k8s' and a latency percentile ('p99') are no cards."""
    data = ask(capsys, text)
    assert req(data, "gpu") == gpu
    assert data["interpretation"].get("unknown_gpu") is None


@pytest.mark.parametrize(
    ("text", "word", "sized"),
    [
        (
            "用 ms-swift 训练：swift rlhf --rlhf_type kto --model Qwen2.5-7B-Instruct "
            "--train_type lora，2 张 A100",
            "kto",
            "dpo",
        ),
        (
            "swift rlhf --rlhf_type orpo --model Qwen2.5-7B-Instruct --train_type lora 需要几张 4090",
            "orpo",
            "dpo",
        ),
        (
            "llamafactory-cli train --stage kto --model_name_or_path Qwen2.5-7B "
            "--finetuning_type lora，显存够吗",
            "kto",
            "dpo",
        ),
        (
            "swift rlhf --rlhf_type simpo --model Qwen2.5-7B-Instruct --train_type lora on 2 A100s, enough?",
            "simpo",
            "dpo",
        ),
        (
            "python3 -m verl.trainer.main_ppo algorithm.adv_estimator=dapo "
            "actor_rollout_ref.model.path=Qwen2.5-7B on 8 H100s",
            "dapo",
            "grpo",
        ),
        (
            "swift rlhf --rlhf_type cpo --model Qwen2.5-7B-Instruct --train_type lora: how much memory?",
            "cpo",
            "dpo",
        ),
    ],
)
def test_an_algorithm_a_tool_key_names_is_named_when_sized_as_its_family(
    capsys: pytest.CaptureFixture[str], text: str, word: str, sized: str
) -> None:
    """A tool's own key naming an algorithm the sizing has no model of ('--rlhf_type kto', 'stage: kto',
    'adv_estimator=dapo') is sized as its family and named (algorithm_family), as the same word in prose
    is (main sized KTO as DPO with nothing said)."""
    data = ask(capsys, text)
    assert req(data, "algorithm") == sized
    assert any(word in t.lower() and r == "algorithm_family" for t, r in ignored(data))


@pytest.mark.parametrize(
    "text",
    [
        "swift rlhf --rlhf_type dpo --model Qwen2.5-7B-Instruct --train_type lora，2 张 A100",
        "python3 -m verl.trainer.main_ppo algorithm.adv_estimator=gae "
        "actor_rollout_ref.model.path=Qwen2.5-7B",
        "llamafactory-cli train --stage dpo --model_name_or_path Qwen2.5-7B --finetuning_type lora",
    ],
)
def test_an_algorithm_sized_by_its_own_name_is_not_named(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """Guards: DPO is DPO; verl's 'gae' is PPO's own advantage estimator — nothing to name."""
    data = ask(capsys, text)
    assert not any(r == "algorithm_family" for _, r in ignored(data))


@pytest.mark.parametrize(
    ("text", "global_batch"),
    [
        ("全量微调 qwen1.5-4b，8 张 A100，batch 改成 1，accumulate_grad 4", 32),
        ("用 xtuner 微调 internlm2-7b，accumulative_counts = 16，batch_size = 1，4 张 A100", 64),
        ("8 张 A100 全量微调 Qwen2.5-7B，batch size 2，梯度累加 4", 64),
        ("fine-tune qwen1.5-4b on 8 A100s, accumulate_grad_batches=4, batch size 2", 64),
        ("fairseq training of a 1.3B model on 8 V100s, --update-freq 8, --batch-size 4", 256),
        (
            "Lightning Trainer(accumulate_grad_batches=2) with batch size 4 on 4 A100s, "
            "Qwen2.5-1.5B full fine-tune",
            32,
        ),
    ],
)
def test_the_accumulation_key_as_each_tool_spells_it(
    capsys: pytest.CaptureFixture[str], text: str, global_batch: int
) -> None:
    """Gradient accumulation under each tool's own key name (PyTorch Lightning accumulate_grad_batches,
    xtuner/mmengine accumulative_counts, fairseq --update-freq, '梯度累加') makes the global batch:
    micro-batch × accumulation × GPUs (main left the number unread)."""
    data = ask(capsys, text)
    assert req(data, "global_batch") == global_batch


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("全量微调 qwen1.5-4b，8 张 A100，长度已改成 4096", "seq_len", 4096),
        ("全量微调 qwen1.5-4b，8 张 A100，序列长度已经调成 8192，batch 已经改成 2", "batch_size", 2),
        ("LoRA 微调 Qwen2-7B，2 张 A100，lora rank 还是 16", "lora_rank", 16),
        (
            "full fine-tune of qwen1.5-4b on 8 A100s, the sequence length is already set to 4096",
            "seq_len",
            4096,
        ),
        ("LoRA on Qwen2-7B with 2 A100s, the batch size is still 2", "batch_size", 2),
        ("Qwen2-7B LoRA on 2 A100s, lora rank already 32", "lora_rank", 32),
    ],
)
def test_a_value_after_aspect_words(
    capsys: pytest.CaptureFixture[str], text: str, key: str, value: int
) -> None:
    """The aspect and time adverbs between a key and its value ('已', '已经', '还是'; 'already', 'still')
    keep the value the key's (main left '长度已改成 4096' unread)."""
    data = ask(capsys, text)
    assert req(data, key) == value


@pytest.mark.parametrize(
    ("text", "seq_len"),
    [
        (
            "单卡 A100 40G 对 Qwen2-7B 做 LoRA，batch_size=1，max_source_seq_len=256，"
            "max_target_seq_len=128，够吗",
            384,
        ),
        (
            "python qlora.py --model_name_or_path huggyllama/llama-7b --source_max_len 1024 "
            "--target_max_len 256 on one A100 40GB",
            1280,
        ),
        ("ptuning 微调 chatglm-6b，max_source_length 64，max_target_length 128，2 张 T4", 192),
        ("用 qlora.py 微调 llama-13b，--source_max_len 512 --target_max_len 512，一张 3090 够吗", 1024),
        ("LoRA script with max_src_len 300 and max_tgt_len 100 on a single 4090, Qwen2-7B", 400),
        ("P-Tuning of ChatGLM2-6B: max_source_len 256, max_target_len 256, two A10s", 512),
    ],
)
def test_a_samples_source_and_target_lengths_add_up(
    capsys: pytest.CaptureFixture[str], text: str, seq_len: int
) -> None:
    """A sample's source and target lengths under the names research scripts use (artidoro/qlora's
    source_max_len / target_max_len, max_source_seq_len / max_target_seq_len, short forms): the
    sequence sized is their sum (main read one of them alone)."""
    data = ask(capsys, text)
    assert req(data, "seq_len") == seq_len


@pytest.mark.parametrize(
    ("text", "versions"),
    [
        (
            "系统 ubuntu 22.04，python 3.10，cuda 12.3，显卡 4060ti 16G，单卡 LoRA 微调 chatglm3-6b 够吗",
            ("22.04", "3.10", "12.3"),
        ),
        ("设备 A100 * 8，cuda 版本 11.7，torch2.1，LoRA 微调 Qwen-14B-Chat 显存多少", ("11.7", "2.1")),
        ("环境：CUDA 12.1，transformers 4.36，两张 3090 跑 Qwen2-7B 的 QLoRA 可以吗", ("12.1", "4.36")),
        (
            "Ubuntu 20.04, CUDA 11.8, PyTorch 2.1, 2x RTX 3090: LoRA on Qwen2-7B, enough?",
            ("20.04", "11.8", "2.1"),
        ),
        (
            "python 3.11 and cudnn 8.9 on one A100 40GB, serving Qwen2-7B with vLLM: how many users?",
            ("3.11", "8.9"),
        ),
        ("driver 535.104, CUDA 12.2, 4 L4s: can they fine-tune Llama-3-8B with LoRA?", ("535.104", "12.2")),
    ],
)
def test_a_softwares_two_part_version_is_no_figure(
    capsys: pytest.CaptureFixture[str], text: str, versions: tuple[str, ...]
) -> None:
    """A two-part version after the software it is of ('cuda 12.1', 'python 3.10', 'ubuntu 22.04') is a
    name: never a figure left unread (main named each as an unread number)."""
    data = ask(capsys, text)
    named = " ".join(t for t, _ in ignored(data))
    assert not any(v in named for v in versions)
    assert req(data, "gpu_memory_utilization") is None and req(data, "hours") is None


def test_a_share_after_an_engine_flag_stays_read(capsys: pytest.CaptureFixture[str]) -> None:
    """Guard: a number after a flag of an engine ('gpu_memory_utilization 0.9') is no version."""
    data = ask(capsys, "vllm 部署 Qwen2-7B，gpu_memory_utilization 0.9，一张 A100")
    assert req(data, "gpu_memory_utilization") == 0.9
