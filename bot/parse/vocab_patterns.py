"""The patterns of :mod:`bot.parse.prose_vocab` (split off it, session 39): config keys written in prose
(lengths, batches and accumulation, LoRA rank and targets, tensor/model parallel, llama.cpp's GPU layers),
an FP8 KV cache, FP4 weights, 'without offloading'. The key names are those of the pasted-config reader.
"""

from __future__ import annotations

from bot.parse.configs.meaning import SWIFT_PROMPT_BOUNDED
from bot.parse.regex import rc
from bot.parse.rl_batch import EVAL_BATCH_KEYS

_SEP = (
    r"\s*(?:也|都|还|就)?\s*(?:(?:is\s+)?set\s+(?:to|at)|=|:|of|is|to|为|是|要|设为|设成|设置为|改成"
    r"|设的|设了|开的|开了|调的|调了)?\s*"  # round 37: the past forms ('model_max_length 设的 1024')
)
_N = r"(?P<n>\d[\d,]*(?:\.\d+)?\s*(?:k|万)?)(?!\d|\.\d|[a-z])"  # a full stop after it ends the sentence
"""A key's value: digits, a thousands 'k' or a Chinese 万 ('cutoff_len 设成 2万': 20,000, not 2; s17)."""


def _key(words: str) -> str:
    """A key as people type it: with or without leading dashes, '_' / '-' / space between words (never a
    space before a dash: 'vllm --max_model_len' is two words of a command, round 10)."""
    return r"(?<![a-z0-9_])-{0,2}(?:" + words.replace("_", r"(?:[_\-]|\s(?!\s*-))*") + r")" + _SEP + _N


SEQ_RE = rc(
    _key(
        r"cutoff_len(?:gth)?|cutoff|max_seq(?:uence)?_len(?:gth)?|sequence_len(?:gth)?|model_max_length"
        r"|max_model_len|max_length|max_len|seq_len(?:gth)?|序列(?:长度)?|截断长度"
    )
)
DATE_CUTOFF_RE = rc(
    r"(?:knowledge|(?:pre-?)?training[\s_\-]*data|data|知识|(?:预)?训练数据|数据)\s*(?:的)?\s*(?:cutoff|截止)"
    r"(?:[\s_\-]*date|日期|时间)?\s*(?:=|:|：|of|is|in|at|为|是|到|在)?\s*"
    r"(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*)?"
    r"(?P<n>\d{4}(?:\s*(?:[-/.]|年)\s*\d{1,2}(?![\d.])\s*月?)?)(?![\d.])"
)
"""A knowledge cutoff: a date ('knowledge cutoff 2023', '数据的 cutoff 是 2024-06'), never ``cutoff_len``."""
"""Sequence length per sample (training) or the context served (LLaMA-Factory cutoff_len, TRL
max_length / max_seq_length, axolotl sequence_len, HF model_max_length, vLLM --max-model-len)."""
SOURCE_RE = rc(
    _key(
        r"max_source_length|max_prompt_length|max_input_(?:len(?:gth)?|tokens)(?![a-z])"
        r"|(?:random_)?input_len(?:gth)?(?![a-z])|prompt_max_len|max_input_token_len"  # TRT-LLM (s17), MindIE
    )
)
TARGET_RE = rc(
    _key(
        r"max_target_length|max_completion_length|max_response_length|max_new_tokens|max_output_len(?:gth)?"
        r"|(?:random_)?output_len(?:gth)?(?![a-z])|generate_max_len"
        # s41: TGI's text-generation-benchmark --decode-length (benchmark/src/main.rs)
        r"|decode_len(?:gth)?(?![a-z])"
    )
)
SWIFT_RL_RE = rc(
    r"(?<![a-z0-9_])-{0,2}rlhf[_\-]type\s*[=:]?\s*(?:"
    + "|".join(sorted(SWIFT_PROMPT_BOUNDED))
    + r")(?![a-z0-9_])"
)
SWIFT_MAX_LENGTH_RE = rc(_key(r"max_length"))
"""ms-swift GRPO/PPO/GKD (``--rlhf_type``): its ``--max_length`` bounds the prompt, the sequence is it + the
completion (512 unless stated): bot.parse.configs.rl_handlers, the meaning table's source."""
"""Prompt and completion lengths (ChatGLM's ptuning scripts, TRL DPO/GRPO; vLLM's and SGLang's benchmarks
``--input-len`` / ``--output-len`` / ``--random-input-len``; OpenRLHF's ``--prompt_max_len`` /
``--generate_max_len``, openrlhf/cli/train_ppo_ray.py): one sequence is their sum."""
VLLM_MAXLEN_RE = rc(_key(r"vllm_maxlen|vllm_max_model_len"))
"""LLaMA-Factory's vllm_maxlen: the context of its vLLM inference engine (serving only)."""
DEFAULT_MAX_LEN_RE = rc(
    r"default\s+(?:max(?:imum)?\s+)?(?:of\s+)?(?P<n>\d[\d,]*\s*k?)[\s\-]*tokens?[\s\-]*"
    r"(?:max(?:imum)?[\s\-]*(?:length|len|context)|context(?:\s+(?:length|window))?)"
    r"|默认\s*(?:最大)?\s*(?:长度|上下文)\s*(?:是|为)?\s*(?P<m>\d[\d,]*\s*k?)"
)
"""'a default 131072-token max length', '默认长度 32768': the context the model is served at."""
ACCUM_RE = rc(
    _key(
        r"gradient_accumulation_steps|gradient_accumulation|grad_accum(?:ulation)?(?:_steps)?"
        r"|accumulation_steps|梯度累积(?:步数)?|梯度累计(?:步数)?|grad_acc(?:_steps)?|ga(?:_steps)?(?![a-z])"
    )
)
"""Gradient accumulation steps (HF gradient_accumulation_steps; 'ga=8', 'GA 16', 'grad_acc 4' for short)."""
MICRO_RE = rc(
    _key(
        r"per_device_(?:train_)?batch_size|train_micro_batch_size_per_gpu|micro_batch_size|micro_batch"
        r"|batch_size_per_(?:gpu|device)|(?:batch|bs)_per_(?:gpu|device)|micro_train_batch_size"
        r"|per_(?:gpu|device)_batch(?:_size)?|(?:每张?卡|单卡)\s*(?:的)?\s*(?:batch(?:_size)?|bs|批大小)|(?:每卡\s*(?:的)?\s*)?微批(?:次|量)?(?:大小)?"
    )
)
"""Micro-batch per GPU (HF per_device_train_batch_size, DeepSpeed train_micro_batch_size_per_gpu, OpenRLHF
--micro_train_batch_size; '微批次 2', '微批 2', '每卡微批大小 4' in Chinese, s11)."""
ROLLOUT_BATCH_RE = rc(_key(rf"(?:micro_)?rollout_batch(?:_size)?|{EVAL_BATCH_KEYS}"))  # rl_batch
BATCH_BESIDE_MICRO_RE = rc(r"(?<![a-z0-9_.\-])-{0,2}(?:batch[_\s\-]*size|bs)(?![a-z_])" + _SEP + _N)
"""A bare ``batch_size`` beside a micro-batch key: the sequences per optimizer step (alpaca-lora
finetune.py: ``gradient_accumulation_steps = batch_size // micro_batch_size``, defaults 128 and 4;
axolotl: ``batch_size`` = micro_batch_size × gradient_accumulation_steps), never a second micro-batch;
one equal to the micro-batch is that micro-batch said again ('（batch_size=1）' beside it: s21)."""
PPO_MINI_RE = rc(_key(r"ppo_mini_batch(?:_size)?"))
PPO_MICRO_RE = rc(_key(r"ppo_micro_batch(?:_size)?(?:_per_gpu)?"))
"""verl's ``ppo_mini_batch_size`` (prompts per actor update: a global batch in prompts, split into
micro-batches) and ``ppo_micro_batch_size_per_gpu`` (the micro-batch per GPU; ppo_trainer.yaml): the first
is named (no micro-batch), the second is one."""
RANK_RE = rc(_key(r"lora_r(?:ank)?"))
BARE_RANK_RE = rc(_key(r"rank|秩|r\s*设(?:为|成)?"))
"""'rank 设 64', 'rank=16', 'r 设 16' (s17) in a LoRA message: the adapters' rank ('local_rank', 'node_rank':
other keys)."""
LORA_WORD_RE = rc(r"(?<![a-z])q?lora(?![a-z])")
TARGET_ALL_RE = rc(
    r"(?<![a-z0-9_])-{0,2}(?:lora[_\s\-]*target(?:s|[_\s\-]*modules?)?|target[_\s\-]*modules?)"
    r"\s*(?:=|:|is|为|是)?\s*(?:all(?:[_\s\-]*linear)?)(?![a-z])"
)
TP_DEFAULT_RE = rc(
    r"-{0,2}tensor[_\s\-]*parallel[_\s\-]*size\s+(?:is\s+)?(?:left\s+out|omitted|not\s+set|unset|not\s+given)"
    r"(?:[\s,]*(?:so\s+)?(?:it\s+is|it's|=)?\s*(?:the\s+default\s+(?:of\s+)?)?1)?"
    r"|(?:没(?:有)?(?:设|加|写)|不设|不加)\s*-{0,2}tensor[_\s\-]*parallel[_\s\-]*size(?:[\s,，]*(?:默认|即|就是)?\s*(?:为|是)?\s*1)?"
)
"""vLLM's --tensor-parallel-size left out: the default of 1 (vLLM EngineArgs.tensor_parallel_size = 1)."""
MODEL_PARALLEL_RE = rc(
    r"(?<![a-z][_\-])" + _key(r"model_parallel(?:ism)?(?:_size|_degree)?|mp_size|模型并行(?:度|数)?")
)
"""'model parallel size 2' (Megatron's, ChatGLM's model_parallel_size, s35: MP_SIZE of SwissArmyTransformer's
CogVLM scripts): TP; never the tail of another flag ('--pipeline-model-parallel-size 2' is PP)."""
NGL_RE = rc(
    r"(?<![a-z0-9_])-{0,2}(?:(?:ngl|n[_\s\-]*gpu[_\s\-]*layers)\s*(?:=|:)?\s*(?P<neg>-)?"
    r"|gpulayers[\"']?\s*(?:=|:)?\s*)(?P<n>\d{1,4})(?![\d.])"
)
"""llama.cpp -ngl / --n-gpu-layers: layers on the GPU; 99 or more (no model has as many), or -1
(llama-cpp-python ``n_gpu_layers=-1``), means all. s45 round 41 (en41-026): KoboldCpp's ``--gpulayers N``
(koboldcpp.py's argparse, "number of layers to offload to GPU"; its saved .kcpps config writes
``"gpulayers": 81``) is the same count; its -1 asks KoboldCpp to guess, so only a count is read."""
ALL_LAYERS_ON_GPU = 99
KV_FP8_RE = rc(
    r"-{0,2}kv[_\s\-]*cache[_\s\-]*dtype\s*(?:=|:)?\s*fp8(?:[_\s\-]*e[45]m[23])?"
    # s49 trial: a particle or 'format' between ('fp8 的 KV cache', 'FP8 格式的 KV 缓存')
    r"|fp8[\s\-]*(?:e[45]m[23][\s\-]*)?(?:的\s*|格式的?\s*|format\s*)?kv(?:[\s\-]*cache)?"
    r"|(?:kv[\s\-]*cache\s*(?:in|=|:|用|使用)?|kv\s*缓存\s*(?:用|使用|是)?)\s*fp8(?:[_\s\-]*e[45]m[23])?"
    # round 37: said with a precision word ('KV 精度 fp8', 'KV cache precision: fp8')
    r"|kv[\s\-_]*(?:cache[\s\-_]*|缓存\s*)?(?:的\s*)?(?:精度|precision)\s*(?:is|=|:|：|为|是|用)?\s*fp8"
    r"(?:[_\s\-]*e[45]m[23])?"  # s42: the FP8 kind after it ('KV cache 用 fp8 e5m2'), named as typed
)
"""An FP8 KV cache ('--kv-cache-dtype fp8_e5m2', 'FP8 KV cache', 'KV cache 用 fp8', 'fp8 的 KV 缓存'): not FP8
weights."""
QUANT_CACHE_RE = rc(
    r"(?<![a-z0-9])(?P<q>q[468](?:_0)?)(?:\s*(?:,|/|or|and|和|或|还是|或者)\s*(?:q[468](?:_0)?|unquantized|fp16|16[\s\-]?bit))*"
    r"\s*(?:kv\s*)?cache|cache[_\s\-]*(?P<r>q[468](?:_0)?)\b"
)
"""A 4/6/8-bit quantized KV cache (ExLlamaV2 ``cache_q4``/Q6/Q8): no KV format for it, named as not used;
llama.cpp's ``--cache-type-k q8_0`` is bot.parse.kv_cache_types' (K and V each its own type, s20 #2)."""
FP4_RE = rc(r"(?<![a-z0-9])(?<!bitsandbytes-)(?<!bnb-)(?P<p>mxfp4|nvfp4|fp4)(?![a-z0-9])")
"""FP4 weights. The estimator has MXFP4 (gpt-oss); NVFP4 and plain FP4 are named as not used."""
NO_OFFLOAD_RE = rc(
    r"(?:without|no|not|w/o|disable[ds]?|turn(?:ed)?\s+off|不用|不要|不开|关闭|关掉|没有?开?|无|不)[\s_\-]*"
    r"(?:any\s+|cpu[\s\-]*)?(?:offload(?![_\s\-]*param)\w*|卸载(?!\s*(?:模型)?参数))"
    r"|fully\s+offloaded\s+to\s+(?:the\s+)?gpus?|(?:all|every)\s+layers?\s+(?:offloaded\s+)?(?:to|on)\s+(?:the\s+)?gpus?"
    r"|offload(?:ed|ing)?\s+(?:all\s+(?:the\s+)?(?:layers\s+)?)?to\s+(?:the\s+)?gpus?"
    r"|(?:全部|所有)?(?:层)?(?:都)?(?:卸载|放|加载|offload)(?:到|在)\s*gpu"
)
"""No CPU offload: 'without offloading', '不开 offload', 'ds_zero2_no_offload', and llama.cpp's 'fully
offloaded to the GPU' (its 'offload' moves layers onto the GPU)."""
