"""What a pasted or uploaded training/serving config gave: :class:`StackConfig`.

``values`` are :class:`estimator.models.SizingRequest` fields (the request the config states);
``unused`` names every other key with a reason code (:data:`UNUSED_REASONS`), so nothing in the
config is dropped silently (docs/design.md §8).
"""

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from estimator.factories import empty_list

UNUSED_REASONS = (
    "not_sized",  # a key the tool has that does not change the sizing (learning_rate, logging_steps)
    "no_field",  # a key that changes the answer, but the sizing has no setting for it yet
    "commented_out",  # a setting line put aside with "#" in the pasted config or script: not a setting
    "unknown_key",  # a key the tool (at the version its table was taken from) does not have
    "auto_value",  # 'auto': the tool fills it in at run time
    "bad_value",  # a value the key cannot take
    "runtime_not_modelled",  # a serving engine whose own memory model the sizing does not have
    "other_setup",  # a second tool (setup) in the message: the answer sizes the one asked about
    "needs_gpu_count",  # accumulation: the global batch needs the data-parallel size, i.e. a GPU count
    "cap_not_load",  # --max-num-seqs & co. next to a load in words: a cap of the engine, not the load
    "load_above_cap",  # the same, with the stated load above the cap: the rest of the requests wait
    "cap_only",  # the cap alone on the user's GPUs: the answer gives how many sequences fit at once
    "cap_at_load",  # lmdeploy/TGI batch size equal to the stated load: both sized, the cap kept (s32)
    "cap_as_load",  # lmdeploy/TGI batch size (their cap) sized as the load, none other stated (s32)
    "zero_from_file_name",  # 'deepspeed: ds_z2.json': the ZeRO stage read from the name alone (used, said)
    "engine_gpus",  # CUDA_VISIBLE_DEVICES lists other than the GPUs the engine's TP × PP × DP uses
    "vllm_server_default",  # TRL use_vllm with no vllm_mode: its engine as sized (server), said (s18)
    "samples_cap",  # LLaMA-Factory max_samples beside a named dataset: sized at the cap, said (s27)
    "demo_rows",  # LLaMA-Factory dataset naming its demo files: sized at their rows, said (s35)
    "demo_rows_text",  # the same beside a sample count in words: the text's count is the data (s48)
    "dataset_size_unknown",  # a Hub dataset or the user's file with no cap: its size asked for (s36 fixc)
    "cap_above_rows",  # max_samples above every named demo file's rows: it truncates nothing (s35)
    "sequence_parallel",  # Ulysses / ring attention: no SP degree in the plans (bot.parse.seq_parallel)
    "script_fp32",  # ChatGLM3's finetune_hf.py loads with no torch_dtype: fp32 (bot.parse.script_reads, s33)
    "script_defaults",  # DeepSpeed-Chat step 1 main.py: micro-batch 16 × 512, no checkpointing (s34)
    "script_reference",  # DeepSpeed-Chat step 3: the reference a whole copy beside a LoRA actor (s48)
    "dschat_critic",  # DeepSpeed-Chat step 3's critic/reward model named: the critic's size (s49)
    "dschat_critic_trained",  # its critic trained in full unless --critic_lora_dim, at its size (s49)
    "script_tool",  # the tool whose script is read (DeepSpeed-Chat): used through the script (s48 review B4)
    "beta_not_sft",  # a 'beta' with no preference or RL tuning named: SFT has none (bot.parse.hyper_names)
    "close_value",  # 'finetuning_type: lroa': not a value the tool takes, read as the closest (s39 fixc)
    "speculative_not_modelled",  # a speculative-decoding flag: draft weights and speed not sized (s43)
    "speculative_draft",  # the draft model named in words beside speculative decoding (s43 fixserve2 #2)
    "draft_tp",  # the draft's own TP (draft_tensor_parallel_size): counted on the target's TP (s44)
    "speculative_speed",  # speculative decoding with a known draft: its memory counted, its speed not (s44)
    "expert_parallel",  # an expert-parallel flag: experts sized split by TP over the same GPUs (s43)
    "colon_missing",  # 'quantization_bit 4' in a YAML: read as 'quantization_bit: 4', named (s39 fixc)
)
"""Reason codes of :attr:`StackConfig.unused` (also used in ``interpretation.ignored``)."""


class StackConfig(BaseModel):
    """One config or command line read from a message or a file."""

    model_config = ConfigDict(defer_build=True)  # not needed by `ask`'s first answer

    tool: str = Field(
        description="the tool whose vocabulary it is: llamafactory, trl, axolotl, torchtune, "
        "deepspeed, megatron, torchrun, accelerate, vllm, sglang, lmdeploy, tgi, llama.cpp, ollama"
    )
    tools: list[str] = Field(
        default_factory=empty_list, description="every tool seen (a launcher and its script)"
    )
    format: str = Field(description="yaml, json, cli, modelfile or python")
    source: str = "text"
    """'file' (--config, a document) or 'text' (pasted)"""
    values: dict[str, Any] = Field(default_factory=dict, description="SizingRequest fields it states")
    model_name: str | None = None
    """the model it names, as written"""
    implied: dict[str, Any] = Field(
        default_factory=dict,
        description="fields the kind of config implies (a training config: stage finetune; Megatron-LM: "
        "pretrain), used only where the message's words do not say otherwise",
    )
    used: dict[str, str] = Field(default_factory=dict, description="key as written → the field it set")
    unused: dict[str, str] = Field(default_factory=dict, description="'key: value' → reason (UNUSED_REASONS)")
    architecture: Any = Field(None, exclude=True)
    """the model the config's own shape builds (a ``ModelSpec``: Megatron-LM's --num-layers …), or None"""
    accumulation: int | None = None
    """gradient accumulation steps: global batch = micro × this × DP once the GPUs are known"""
    accumulation_key: str | None = None
    """the key it was read from, as written"""

    def set(self, key: str, field: str, value: Any) -> None:
        """Record ``key`` as setting ``field`` (a later key for the same field wins, as in the tool)."""
        self.values[field] = value
        self.used[key] = field

    def skip(self, key: str, value: Any, reason: str) -> None:
        self.unused[f"{key}: {_short(value)}"] = reason

    def skip_kept(self, key: str, value: Any, field: str, kept: Any) -> None:
        """Name ``key`` as not used (no field sizes it) and keep ``kept`` in ``field``, a cue for the
        estimate's choices, never a sized value ('optim: adafactor': no AdamW change offered over it)."""
        self.skip(key, value, "no_field")
        self.values[field] = kept


def _short(value: Any) -> str:
    """``value`` as echoed: a whole float as the integer it is ('1e8' read by JSON: 100000000, not
    '100000000.0', s24 trial #11); a long text cut at 60 characters."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e18:
        value = int(value)
    text = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
    return text if len(text) <= 60 else text[:57] + "…"
