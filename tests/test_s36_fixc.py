"""Session 36 fixc (issue 24 item 1): configs a fresh-user trial pasted.

1. axolotl: axolotl-ai-cloud/axolotl examples/llama-2/lora.yml (commit 013495e1, copied below as it is):
   every key used or named; the Hub dataset named as one whose size is not known (not 'does not change the
   GPUs'); ``bf16: auto`` beside ``fp16: false`` is no fp32 run (src/axolotl/utils/config/__init__.py
   normalize_config: auto → bf16 where the card has it) and ``load_in_8bit: true`` keeps the 8-bit base.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

AXOLOTL_LLAMA2_LORA = """\
base_model: NousResearch/Llama-2-7b-hf
model_type: LlamaForCausalLM
tokenizer_type: LlamaTokenizer
is_llama_derived_model: true

load_in_8bit: true
load_in_4bit: false
strict: false

datasets:
  - path: mhenrichsen/alpaca_2k_test
    type: alpaca
dataset_prepared_path:
val_set_size: 0.05
output_dir: ./lora-out

sequence_len: 4096
sample_packing: true
pad_to_sequence_len: true

adapter: lora
lora_model_dir:
lora_r: 32
lora_alpha: 16
lora_dropout: 0.05
lora_target_linear: true
lora_fan_in_fan_out:

wandb_project:
wandb_entity:
wandb_watch:
wandb_name:
wandb_log_model:

gradient_accumulation_steps: 4
micro_batch_size: 2
num_epochs: 4
optimizer: adamw_bnb_8bit
lr_scheduler: cosine
learning_rate: 0.0002

train_on_inputs: false
group_by_length: false
bf16: auto
fp16: false
tf32: false

gradient_checkpointing: true
early_stopping_patience:
resume_from_checkpoint:
local_rank:
logging_steps: 1
xformers_attention:
flash_attention: true

warmup_steps: 10
evals_per_epoch: 4
eval_table_size:
eval_table_max_new_tokens: 128
saves_per_epoch: 1
debug:
deepspeed:
weight_decay: 0.0
fsdp:
fsdp_config:
special_tokens:
  bos_token: "<s>"
  eos_token: "</s>"
  unk_token: "<unk>"
"""


def _ask(tmp_path: Any, config: str, question: str, fmt: str = "json", name: str = "c.yml") -> Any:
    from bot.cli import ask

    path = tmp_path / name
    path.write_text(config, encoding="utf-8")
    out, _ = ask(question, None, fmt, str(path))
    return json.loads(out) if fmt == "json" else out


def test_axolotl_example_settings_used(tmp_path: Any) -> None:
    d = _ask(tmp_path, AXOLOTL_LLAMA2_LORA, "how long on one 4090 with 2000 samples of 500 tokens?")
    r = d["request"]
    assert r["training_tool"] == "axolotl"
    assert r["seq_len"] == 4096 and r["batch_size"] == 2
    assert r["global_batch"] == 2 * 4  # micro_batch_size × gradient_accumulation_steps on one GPU
    assert r["epochs"] == 4 and r["packing"] is True
    assert r["lora_rank"] == 32 and r["lora_targets"] == ["all-linear"]
    assert r["precision"] == "int8"  # load_in_8bit: true; fp16: false beside bf16: auto is not fp32
    assert r["tokens"] == 2000 * 500 * 4  # packed: the samples' own tokens × 4 epochs
    ignored = {i["text"]: i["reason"] for i in d["interpretation"]["ignored"]}
    assert ignored["datasets: mhenrichsen/alpaca_2k_test"] == "dataset_size_unknown"
    for key in ("num_epochs", "sample_packing", "gradient_accumulation_steps", "micro_batch_size"):
        assert not any(t.startswith(f"{key}:") for t in ignored)
    # left empty (YAML null): the tool's default, not 'a value this setting cannot take'
    assert ignored["deepspeed: None"] == ignored["fsdp: None"] == "not_sized"
    # SpecialTokensConfig fields (src/axolotl/utils/schemas/model.py): axolotl has them, under special_tokens
    assert ignored["special_tokens.bos_token: <s>"] == "not_sized"


def test_axolotl_reply_names_dataset_and_packing(tmp_path: Any) -> None:
    en = _ask(tmp_path, AXOLOTL_LLAMA2_LORA, "how long on one 4090?", "text")
    assert "How long it takes depends on your data" in en
    assert "“datasets: mhenrichsen/alpaca_2k_test” (a dataset whose size cannot be read" in en
    assert "samples packed into full sequences" in en.splitlines()[1]
    assert "ZeRO stage does not shard" not in en  # no stage stated or planned
    zh = _ask(tmp_path, AXOLOTL_LLAMA2_LORA, "一张4090要多久", "text")
    assert "样本打包成满长序列" in zh and "数据集的规模无法从名字读出" in zh


@pytest.mark.parametrize(
    ("flags", "precision"),
    [
        ("bf16: auto\nfp16: false\n", None),  # auto: the release's bf16 on a card that has it, not fp32
        ("bf16: false\nfp16: false\n", "fp32"),  # both off: fp32, as before (round 24)
        ("fp16: true\n", "fp16"),
    ],
)
def test_axolotl_precision_switches(tmp_path: Any, flags: str, precision: str | None) -> None:
    cfg = "base_model: Qwen/Qwen2.5-7B\nadapter: lora\nsequence_len: 2048\nmicro_batch_size: 1\n" + flags
    d = _ask(tmp_path, cfg, "one A100 80GB")
    assert d["request"]["precision"] == precision  # None: the model's release precision (bf16)


def test_llamafactory_own_dataset_without_cap(tmp_path: Any) -> None:
    cfg = (
        "model_name_or_path: Qwen/Qwen2.5-7B\nstage: sft\nfinetuning_type: lora\ndataset: my_support_logs\n"
        "cutoff_len: 2048\n"
    )
    d = _ask(tmp_path, cfg, "how long on one A100?")
    ignored = {i["text"]: i["reason"] for i in d["interpretation"]["ignored"]}
    assert ignored["dataset: my_support_logs"] == "dataset_size_unknown"


# 2. torchtune recipes/configs/llama3_1/70B_lora.yaml (pytorch/torchtune@0502cc55), its sizing keys
TORCHTUNE_70B_LORA = """\
output_dir: /tmp/torchtune/llama3_1_70B/lora
model:
  _component_: torchtune.models.llama3_1.lora_llama3_1_70b
  lora_attn_modules: ['q_proj', 'v_proj', 'output_proj']
  apply_lora_to_mlp: True
  apply_lora_to_output: {output}
  lora_rank: 16  # higher increases accuracy and memory
  lora_alpha: 32  # usually alpha=2*rank
  lora_dropout: 0.0
tokenizer:
  _component_: torchtune.models.llama3.llama3_tokenizer
  path: /tmp/Meta-Llama-3.1-70B-Instruct/original/tokenizer.model
  max_seq_len: null
dataset:
  _component_: torchtune.datasets.alpaca_dataset
  packed: False  # True increases speed
batch_size: 2
epochs: 1
gradient_accumulation_steps: 1  # Use to increase effective batch size
dtype: bf16
enable_activation_checkpointing: True  # True reduces memory
"""


def test_torchtune_output_proj_is_o_proj() -> None:
    from estimator import catalog
    from estimator.lora import lora_matrices, lora_params

    # torchtune convert_weights._FROM_HF: self_attn.o_proj ↔ attn.output_proj; mlp gate/down/up ↔ w1/w2/w3
    assert lora_matrices(["output_proj"]) == lora_matrices(["o_proj"]) == frozenset({"o"})
    assert lora_matrices(["w1", "w2", "w3"]) == frozenset({"gate", "down", "up"})
    spec = catalog.model("Llama-3.1-70B")  # h 8192, 64 heads, 8 KV heads × 128, 80 layers, FFN 28672
    per_layer = (8192 + 8192) + (8192 + 1024) + (8192 + 8192) + 3 * (8192 + 28672)  # q, v, o, w1-3
    tune = ["q_proj", "v_proj", "output_proj", "w1", "w2", "w3"]
    hf = ["q_proj", "v_proj", "o_proj", "gate_proj", "down_proj", "up_proj"]
    assert lora_params(spec, 16, tune) == lora_params(spec, 16, hf) == 16 * 80 * per_layer == 195_297_280


@pytest.mark.parametrize(("output", "reason"), [("False", "not_sized"), ("True", "no_field")])
def test_torchtune_recipe_targets_agree(tmp_path: Any, output: str, reason: str) -> None:
    d = _ask(tmp_path, TORCHTUNE_70B_LORA.format(output=output), "8 A100 80GB", name="70B_lora.yaml")
    assert d["request"]["lora_targets"] == ["q_proj", "v_proj", "output_proj", "w1", "w2", "w3"]
    ignored = {i["text"]: i["reason"] for i in d["interpretation"]["ignored"]}
    assert "output_proj" not in ignored  # the headline's targets and the check read one table
    assert ignored[f"model.apply_lora_to_output: {output}"] == reason
    text = _ask(tmp_path, TORCHTUNE_70B_LORA.format(output=output), "8 A100 80GB", "text", "70B_lora.yaml")
    assert "rank 16 on q_proj, v_proj, output_proj, w1, w2, w3" in text.splitlines()[0]
    assert "no projection of the model has that name" not in text


def test_t4_memory_a_process_sees() -> None:
    """4. nvidia-smi memory.total of a T4 with ECC on (its default): 15,360 MiB (modal-labs/modal-client
    PR #2797, nvidia-smi totals of every GPU type they run), 16 GB GDDR6 × 15/16 — as the A10 (23,028),
    L4 (23,034) and L40S (46,068 MiB) entries already carry."""
    from estimator import catalog

    t4 = catalog.gpu("T4")
    assert t4.memory_gib == 16 and t4.visible_gib == 15360 / 1024 == 15.0
    assert t4.addressable_bytes == 15360 * 2**20
