"""Titles and comment lines of the launch recipes: msgids, translated into the reply's language.

Flags, keys and values stay as the tools spell them; only the titles and the ``#`` comments are words.
"""

from __future__ import annotations

from bot.render.i18n import N_, translate

TITLES: dict[str, str] = {
    "deepspeed": N_("DeepSpeed config: %(layout)s"),
    "deepspeed_launch": N_("DeepSpeed launcher: %(gpus)s on one node"),
    "torchrun_launch": N_("torchrun launcher: %(nodes)s nodes × %(per_node)s GPUs"),
    "megatron": N_("Megatron-LM %(stage)s: %(layout)s"),
    "llamafactory": N_("LLaMA-Factory %(stage)s: %(layout)s"),
    "torchtune": N_("torchtune %(stage)s (config %(config)s): %(layout)s"),
    "vllm": N_("vLLM server: %(layout)s, %(concurrency)s × %(context)s context"),
    "sglang": N_("SGLang server: %(layout)s, %(concurrency)s × %(context)s context"),
    "llama.cpp": N_("llama.cpp server: %(weights)s, %(concurrency)s × %(context)s context"),
    "ollama": N_("Ollama: %(weights)s, %(concurrency)s × %(context)s context"),
}

STAGES: dict[str, str] = {
    "pretrain": N_("pre-training"),
    "continued_pretrain": N_("continued pre-training"),
    "full": N_("full fine-tuning"),
    "lora": N_("LoRA fine-tuning"),
    "qlora": N_("QLoRA fine-tuning"),
    "freeze": N_("freeze-tuning"),
    "ptuning": N_("P-tuning v2"),
    "dpo": N_("DPO"),
}

COMMENTS: dict[str, str] = {
    "batch": N_(
        "global batch %(global)s sequences = micro-batch %(micro)s × %(accumulation)s accumulation × "
        "DP %(dp)s"
    ),
    "every_node": N_(
        "run on each of the %(nodes)s nodes with NODE_RANK = 0 … %(last)s; MASTER_ADDR = the first "
        "node's address"
    ),
    "hostfile": N_("hostfile: one line per node, e.g. “node1 slots=%(per_node)s”"),
    "train_script": N_(
        "train.py: your Hugging Face Trainer script; its batch and precision arguments must match "
        "ds_config.json"
    ),
    "trl_script": N_(
        "train.py: your script with TRL's %(trainer)s (%(algo)s); its batch and precision arguments must "
        "match ds_config.json"
    ),
    "no_llamafactory_algo": N_(
        "no LLaMA-Factory recipe: LLaMA-Factory 0.9.5 has no %(algo)s stage (its stages: pt, sft, rm, "
        "ppo, dpo, kto)"
    ),
    "no_llamafactory_ppo": N_(
        "no LLaMA-Factory recipe: its PPO stage needs a reward model trained first (stage: rm)"
    ),
    "no_deepspeed_tp_zero3": N_(
        "no DeepSpeed recipe: its AutoTP training runs with ZeRO-0, 1 or 2 only, not TP %(tp)s with ZeRO-3 "
        "(DeepSpeed's AutoTP training tutorial); Megatron-LM runs this layout"
    ),
    "no_llamafactory_tp": N_(
        "no LLaMA-Factory recipe: it runs data parallelism only (DeepSpeed ZeRO or FSDP), not the TP %(tp)s "
        "of this layout"
    ),
    "no_torchtune_algo": N_(
        "no torchtune recipe: the torchtune configs written here are supervised fine-tuning only, "
        "not %(algo)s"
    ),
    "no_megatron_algo": N_(
        "no Megatron-LM recipe: pretrain_gpt.py trains on the language-modelling loss only, not %(algo)s"
    ),
    "pref_beta": N_(
        "pref_beta %(beta)s (DPO's β): LLaMA-Factory's example value; the estimate does not size it"
    ),
    "dpo_dataset": N_("a preference dataset: prompt, chosen and rejected answers"),
    "autotp": N_("TP %(tp)s through DeepSpeed AutoTP (Hugging Face models with a tensor-parallel plan)"),
    "offload_stage": N_(
        "CPU offload of the optimizer states runs on ZeRO-2 (ZeRO-Offload); on one GPU ZeRO-2 shards nothing"
    ),
    "recompute_hf": N_("full recompute: gradient checkpointing on every layer"),
    "recompute_selective_hf": N_(
        "selective recompute: SDPA/FlashAttention recomputes the attention scores in the backward pass, "
        "so no layer is checkpointed (gradient checkpointing off)"
    ),
    "megatron_script": N_(
        "pretrain_gpt.py from Megatron-LM; DATA_PATH: your corpus preprocessed by "
        "tools/preprocess_data.py; CKPT_DIR: checkpoints"
    ),
    "megatron_finetune": N_(
        "fine-tuning: CKPT_DIR holds the model converted to Megatron format (Megatron-Bridge or "
        "tools/checkpoint/convert.py)"
    ),
    "megatron_zero": N_("ZeRO-%(zero)s: %(how)s"),
    "megatron_shape": N_("model shape from %(source)s"),
    "megatron_generic_shape": N_("model shape: the generic Llama-style shape the estimate used for %(size)s"),
    "llama2_optimizer": N_(
        "optimizer as Llama 2 §2.2: AdamW β₂ 0.95, peak LR %(lr)s with cosine decay to 10 %%, 2,000 "
        "warm-up steps, weight decay 0.1, gradient clipping 1.0"
    ),
    "llamafactory_run": N_("run: %(command)s"),
    "dataset": N_("dataset: replace with yours (registered in data/dataset_info.json)"),
    "learning_rate": N_("learning rate is not sized here; LLaMA-Factory's examples use %(lr)s"),
    "torchtune_why": N_(
        "torchtune ships a tested config for this model: plain PyTorch (FSDP2), no DeepSpeed; "
        "fetch the weights first: tune download %(repo)s"
    ),
    "torchtune_sharding": N_("FSDP2: %(how)s"),
    "replicas": N_("%(replicas)s copies of the model, one per %(gpus)s GPUs, behind a load balancer"),
    "replicas_dp": N_("%(replicas)s copies of the model on this node (data parallel), %(gpus)s GPUs each"),
    "per_replica": N_("%(concurrency)s concurrent sequences in all: %(per)s per copy"),
    "quantized_checkpoint": N_(
        "an %(format)s checkpoint of %(repo)s: quantized releases are often named …-AWQ or …-GPTQ-Int4"
    ),
    "int8_checkpoint": N_("an INT8 (W8A8) checkpoint of %(repo)s; vLLM reads its quantization config"),
    "fp8_online": N_("FP8 weights quantized on load from the 16-bit checkpoint"),
    "int8_kv_as_fp8": N_("no int8 KV cache in this engine: fp8 is the same 1 byte a value"),
    "mla_dp_ep": N_(
        "MLA + MoE as the estimate sizes it: %(ranks)s data-parallel engines, one per GPU, each keeping "
        "its own sequences' MLA cache; the experts split over all of them (vLLM data- and "
        "expert-parallel deployment); --max-num-seqs is per engine"
    ),
    "mla_tp": N_(
        "the estimate keeps each sequence's MLA cache on one GPU (data-parallel attention, as SGLang's "
        "--attn-dp-size); vLLM with plain TP copies it to every GPU of the group"
    ),
    "gguf": N_(
        "%(file)s: a %(kind)s GGUF of %(repo)s (published -GGUF repositories, or convert_hf_to_gguf.py "
        "and llama-quantize)"
    ),
    "context_total": N_("-c is the KV cache of all slots: %(concurrency)s × %(context)s tokens"),
    "all_layers": N_("every layer on the GPU (%(layers)s layers + output)"),
    "split_layers": N_(
        "%(ngl)s of %(slots)s layers on the GPU (the output layer counts), the rest in CPU memory"
    ),
    "split_experts": N_("the MoE experts of %(n)s layers in CPU memory"),
    "ollama_parallel": N_(
        "OLLAMA_NUM_PARALLEL: sequences served at once, each with a KV cache of num_ctx tokens"
    ),
}

SHARDING: dict[int, str] = {
    0: N_("no sharding (plain data parallelism)"),
    1: N_("the distributed optimizer shards the optimizer states"),
    2: N_("Megatron-FSDP shards optimizer states and gradients"),
    3: N_("Megatron-FSDP shards optimizer states, gradients and weights"),
}
"""ZeRO stages as Megatron-LM runs them (:func:`bot.recipes.megatron.megatron`)."""

FSDP: dict[bool, str] = {
    True: N_("weights re-sharded after the forward pass (ZeRO-3, FULL_SHARD)"),
    False: N_("weights kept gathered between forward and backward (ZeRO-2, SHARD_GRAD_OP)"),
}


def title(lang: str, key: str, **values: object) -> str:
    return translate(lang, TITLES[key], **values)


def comment(lang: str, key: str, **values: object) -> str:
    """A ``#`` comment line in ``lang``."""
    return "# " + translate(lang, COMMENTS[key], **values)


def words(lang: str, table: dict, key: object) -> str:
    return translate(lang, table[key])
