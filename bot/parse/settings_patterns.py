"""The patterns of :mod:`bot.parse.settings`'s readers: ZeRO stage and FSDP sharding, TP/PP
degrees, LoRA rank and targets, pure bf16, measured throughput, known durations, the engine's memory
share, optimizer and quantization words (a table split off the settings step, session 39)."""

from __future__ import annotations

from bot.parse.cue_words import MEASURED
from bot.parse.generic_values import words_pattern
from bot.parse.regex import rc

ZERO_RE = rc(
    r"(?<![a-z0-9])(?:deepspeed[\s\-_]*)?zero[\s\-_]*(?:[=:]\s*)?(?:(?:sharding|optimi[sz]ation|offload)\s*[(（]?\s*(?=stage))?"
    r"(?:stage[\s\-_]*|阶段\s*)?(?P<n>[0-3])(?![0-9]|\.\d)"
    r"|(?:stage|阶段)[\s\-_]*(?P<m>[0-3])\s*(?:的\s*)?(?:deepspeed\s*)?zero"
    r"|(?<![a-z0-9])(?:ds|deepspeed)[_\-\s]*(?:z|stage[_\-]?)(?P<d>[0-3])(?![0-9])"
    r"|(?<![a-z0-9])deepspeed[_\-\s]?(?:stage[_\-\s]?)?(?P<e>[1-3])(?![0-9.]|\s*(?:张|个|台|卡|块|机|节点|gpus?\b|nodes?\b))"
    r"|(?<![a-z0-9])(?:ds_config|deepspeed)(?:[\s_\-]*(?:config|配置|json))?\s*[(（:：,，=]?\s*stage[\s\-_:=]*(?P<f>[1-3])(?![0-9.])"
)
"""ZeRO stage in prose; DeepSpeed files (ds_z3_config.json; r33 zh: Open-Llama's ds_stage2.yaml); glued to the
tool's name ('deepspeed3'; not a count: 'deepspeed 2 张卡'); Lightning's 'deepspeed_stage_3_offload'
(lightning.pytorch.strategies.deepspeed); a DeepSpeed config's stage ('ds_config（stage 2，bf16）');
round 36: the sharding's name between ('ZeRO sharding (stage 2', 'ZeRO optimization stage 3'); s49 round 45:
a key and its value ('zero=1', ColossalAI's HybridParallelPlugin zero_stage as its users write it); s51
round 47: ZeRO-Offload's stage in brackets after its name ('ZeRO-Offload (stage 2, cpu_offload …)')."""
FSDP_RE = rc(
    r"(?<![a-z0-9])fsdp(?:2(?![\d.]))?(?!_config)[\s\-_]*(?:[(（]?\s*(?:(?:用|使用|with|using)\s*)?(?:sharding[_\s]*strategy\s*[=:]?\s*)?"
    r"(?P<mode>full[_\s\-]*shard|shard[_\s\-]*grad[_\s\-]*op|no[_\s\-]*shard|hybrid[_\s\-]*shard)\s*[)）]?)?"
    r"|(?P<bare>full[_\s]*shard|shard[_\s]*grad[_\s]*op|no[_\s]*shard)"
)
"""PyTorch FSDP said in prose with its sharding strategy, or the strategy alone; 'FSDP2'
(torch.distributed.fsdp fully_shard, PyTorch 2.4+) is the same sharding by its version's name, its 2 part
of the name (s47 trialfix #5: it was left as 'no word said what it is', read as the GPUs dropped)."""
RESHARD_RE = rc(r"reshard[_\s]*after[_\s]*forward\s*[:=]?\s*(?P<v>true|false)(?![a-z])")
"""FSDP2's reshard_after_forward key and value, which set the sharding (meaning table's ``reshard_bool``:
true → ZeRO-3, false → ZeRO-2; accelerate's FSDP2 plugin reads it in place of sharding_strategy)."""
FSDP_STAGES = {"full": 3, "hybrid": 3, "shard": 2, "no": 0}
"""FSDP sharding strategies → the ZeRO stage they match (PyTorch FSDP docs: FULL_SHARD ≈ ZeRO-3, SHARD_GRAD_OP
≈ ZeRO-2, NO_SHARD ≈ DDP; HYBRID_SHARD is FULL_SHARD within a node). Plain FSDP defaults to FULL_SHARD."""
_DEGREE = r"\s*(?:=|:|of|为|是|设为|设成|改成|换成|to)?\s*(?P<n>\d{1,3})(?![\d.])"
TP_RE = rc(
    r"(?<![a-z0-9])(?:(?:tp|tensor[\s\-_]*(?:model[\s\-_]*)?parallel(?:ism)?)(?:[\s\-_]*(?:size|degree))?|张量并行(?:度|数)?)"
    + _DEGREE
    + r"|(?P<m>\d{1,3})\s*(?:路|-way|\s+way)\s*(?:张量并行|tensor[\s\-_]*parallel\w*|tp\b)"
)
PP_RE = rc(
    r"(?<![a-z0-9])(?:(?:pp|pipeline[\s\-_]*(?:model[\s\-_]*)?parallel(?:ism)?)(?:[\s\-_]*(?:size|degree))?"
    r"|(?:流水线?|管道|管线)并行(?:度|数)?)"
    + _DEGREE
    + r"|(?P<m>\d{1,3})\s*(?:(?:路|-way|\s+way)\s*(?:(?:流水线?|管道|管线)并行"
    r"|pipeline[\s\-_]*parallel\w*|pp\b)|(?:个\s*)?(?:pipeline[\s\-_]*stages|流水线?(?:阶段|级)))"
)
"""'TP 4', 'TP degree 4', '--tensor-parallel-size 4', '4路张量并行', 'PP=2', '2 pipeline stages',
'流水线并行2', '管道并行 2', '2 个流水线阶段' and PP's other Chinese names (流水并行, 管线并行)."""
RANK_RE = rc(
    r"(?:lora[\s\-_]*)?(?<![a-z])(?:rank|秩)\s*(?:(?:was\s+|is\s+|也)?(?:lowered|reduced|raised|increased|changed|cut|"
    r"dropped|bumped|降|调|改|提|减)?\s*(?:from|从)\s*\d{1,4}\s*(?:to|down\s+to|up\s+to|降?到|调到|改到|改成|提到|减到)\s*"
    r"(?=\d))?(?:=|:|of|为|是|设为|设成|改成|改为|换成|to)?\s*(?P<r>\d{1,4})(?![\d.])"
    r"|(?<![a-z0-9_])(?:lora[\s\-_]*)?r\s*=\s*(?P<r2>\d{1,4})(?![\d.])"
    r"|lora[\s\-_]*r(?P<r3>\d{1,4})(?![\d.a-z])"
    r"|(?<![a-z0-9_])-{0,2}lora[_\-]dim\s*(?:=|:)?\s*(?P<r4>\d{1,4})(?![\d.])"
)
"""A LoRA rank: 'rank 64', 'lora 秩为 8', 'r=16', 'lora_r8', DeepSpeed-Chat's ``--lora_dim 128``
(DeepSpeedExamples applications/DeepSpeed-Chat main.py: the LoRA dimension), and the value a change
ends on ('LoRA rank lowered from 16 to 4', 'rank 从 64 降到 8': the rank run now is the last)."""
TARGET_NAMES = (
    "q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj", "query_key_value",
    "qkv_proj", "w_pack", "c_attn", "wqkv", "dense_h_to_4h", "dense_4h_to_h",
)  # fmt: skip
"""Module names taken as LoRA targets when typed (unambiguous; 'dense' or 'mlp' alone are not)."""
TARGET_RE = rc(
    r"(?<![a-z0-9_])(?P<t>" + "|".join(TARGET_NAMES) + r"|[a-z][a-z0-9]*_proj|embed_tokens|lm_head)(?!\w)"
)
"""A known target or any ``*_proj`` (as typed); s36: embed_tokens, lm_head in a list naming a projection."""
ALL_LINEAR_RE = rc(
    r"all[\s\-_]*linear(?:[\s\-_]*(?:layers?|modules?|projections?))?|every\s+linear\s+layer"
    r"|(?:所有|全部)(?:的)?线性层|target[_\s]*modules?\s*[=:]\s*[\"']?all\b|lora[_\s]*target\s*[=:]\s*all\b"
)
PURE_BF16_RE = rc(
    r"pure[\s\-_]*bf16|纯\s*bf16|全\s*bf16|bf16\s*(?:only|全程)|without\s+(?:an?\s+)?(?:fp32\s+)?master"
    r"|no\s+(?:fp32\s+)?master\s+(?:weights|copy)|不要?\s*fp32\s*主权重"
)
_NUM = r"(?<![a-z0-9.])(?P<v>\d+(?:,\d{3})*(?:\.\d+)?\s*[km]?)"
_PER_GPU = r"(?P<per>(?:/|per|each|every|每|一)\s*(?:gpu|卡|card|device|张)|每卡|单卡)?"
TFLOPS_RE = rc(_NUM + r"\s*tflops?(?:/s)?\s*(?:effective\s+)?" + _PER_GPU)  # r20: 'TFLOPS effective per GPU'
MEASURED_WORDS = rc(MEASURED)
PER_GPU_BEFORE = rc(r"(?:每卡|单卡|per[\s\-]gpu|each\s+gpu)\s*(?:吞吐|throughput)?\s*(?:是|为|:|of|=)?\s*$")
HOURS_RE = rc(  # a duration ('6 hours', '36小时', '8h'), never '8 H cards' (s28: NVIDIA's H line of GPUs)
    r"(?<![a-z0-9.])(?P<v>\d+(?:\.\d+)?|[一二两三四五六七八九十百]+)\s*(?:个)?\s*(?:hours?|hrs?|小时|h(?![a-z0-9])(?!\s+(?:cards?|gpus?)(?![a-z0-9])))"
)
DEADLINE_BEFORE = rc(r"(?:in|within|under|by|需要在|要在|在)\s*$")
DEADLINE_AFTER = rc(
    r"^\s*(?:内|以内|之内|完成|跑完|训完|搞定|deadline"
    r"|够吗|够么|够嘛|够不够|够了吗|够用吗|足够吗|来得及|(?:be\s+|is\s+)?(?:enough|sufficient)\b)"
)
"""A duration said as a deadline after its number: '48 小时内', '3 天跑完', and a deadline check,
'4 小时够吗', 'is 4 hours enough?', 'would 4 hours be enough' (s40-fixh #5: read as a past run's hours,
or a rental's)."""
GPU_HOUR_AFTER = rc(r"^\s*(?:gpu|卡)")
UTIL_RE = rc(
    "(?:" + words_pattern("gpu_memory_utilization") + ")"  # the words declared once (generic_values.WORDS)
    r"\s*(?:=|:|of|to|at|设为|设成|为|是|改成|换成)?\s*(?P<v>\d{1,4}(?:\.\d+)?\s*%|\d{0,4}\.\d+|\d{1,4}(?![\d.]))"
)
OPTIMIZER_RE = rc(
    r"(?P<paged>paged[\s\-_]*)?(?:adam(?:w)?[\s\-_]*(?:bnb[\s\-_]*)?8[\s\-_]?bits?"
    r"|8[\s\-_]?bits?[\s\-_]*adam(?:w)?(?:[\s\-_]*optim\w*)?|adamw?8bit)(?![a-z0-9])"
)
"""'8-bit AdamW', 'paged_adamw_8bit', 'adamw_bnb_8bit' (bitsandbytes optimizers): an optimizer, not an
8-bit model — read before the precision words so '8-bit' is not taken as the weights'."""
NO_QUANT_RE = rc(
    r"(?:不用|不要|不做|不开|没有?用?|不|without|no|not\s+using|disable[ds]?|turn(?:ed)?\s+off)\s*(?:any\s+)?"
    r"(?:量化|quantiz\w*)|unquantized|非量化"
)
COMMENTED_RE = rc(r"注释掉|注释了|commented[\s\-]*out|#\s*-{0,2}quantization")
"""'不用量化（把 --quantization_bit 4 注释掉了）', 'no quantization (quantization_bit commented out)': the
bit width is not used."""
QUANT_BIT_RE = rc(
    r"quantization[_\s]*bit\s*[=:]?\s*(?P<b>[2348])"
    r"|(?<![a-z0-9.])(?P<c>[23])[\s\-]?bits?(?![a-z0-9])|\bquantize\(\s*(?P<q>[48])\s*\)"
)
