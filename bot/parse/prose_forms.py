"""How people write settings and lengths in prose (round 3 of the real questions, issue 24 items 2 and 4;
tests/data/real_questions/zh_r3.json). Each rule is a way of writing, in both languages, gated by a cheap
substring test (most messages have none of them).

- **More assignment verbs, and serving settings** ('--tp 指定为 4', 'max_model_len 配置为 8192',
  'tensor parallel size specified as 4', 'gpu_memory_utilization configured to 0.8'): the verb is
  replaced by '=' so the setting's own rule reads the value (as :mod:`bot.parse.setting_verbs` does for
  '设为' / 'set to' on training settings).
- **The longest sample is the sequence length** ('平均约 54K tokens、最长约 120K tokens', 'average 2k
  tokens, the longest 16k tokens'): a length said of the longest sample is the training sequence
  (every sample must fit), never the data's token count; 'average' stays the tokens per sample.
- **A bare 'batch' with a verb** ('batch 开到 4', 'batch 设成 2'): the micro-batch, as 'batch 4' is.
- **The parts of a request said with a length word** ('prompt 长度 1k、回答长度 512', '问题长度 1000 字，回答
  300 字', '1k-token prompts, 512-token answers'): the prompt and the reply, whose sum is the context (not
  the prompt read as the whole context and the reply dropped).
- **A rate with a modal verb** ('每秒要生成 2000 token'): the tokens/s target, as '每秒生成 2000 token' is.
- **Nodes times cards glued with '*'** ('4*8*A800', '2*8 张 4090'): the product is the GPU count ('*' is
  markup to the normalizer, so it is read first; '8*40G', a count times a memory, is
  :mod:`bot.parse.setting_verbs`').
- **vLLM's sampling words in an online-RL question** ('GRPO 采样参数 max_tokens 2048、n 8'): the
  completion length and the generations per prompt, written as 'responses up to 2048 tokens' and '8
  generations' are read (not as TRL's key names, which would name TRL as the tool).
- **An engine's cap on the sequences run at once, in prose** ('--max-num-seqs 256', 'max_num_seqs 设为 64',
  SGLang's 'max-running-requests 128'): the request's ``max_num_seqs`` (the answer stays at or below it), as
  in a pasted command (:data:`bot.parse.configs.merge.CAP_FLAGS`).
- **lmdeploy's KV-cache share** ('cache_max_entry_count 0.5'): the share of the memory left after the
  weights that the KV cache takes; named (the sizing has no field for it), never an unread number.
- **A data size with a language or domain word** ('50GB 的中文语料', '20GB of Chinese text'): the size of
  the text, as '50GB 语料' / '20GB of text' is read (the adjective hid the data word).
- **The host's memory** ('机器内存 1T', 'CPU 内存 512G', '内存 900GB', '--shm-size 800G', '2TB of RAM'): the
  CPU side's memory (it bounds what offload can hold), never GPU memory nor a token count ('1T' read as a
  trillion training tokens); named, as the sizing has no field for it. A bare '内存' (often said of a
  card) counts only from 256 GB up, more than any card has; right after a card's number and under 256 GB
  ('4090 内存 24G') it is the card's memory, read as '显存' is.
- **A peak written with the memory word** ('峰值显存 70G', '显存峰值 70G', 'peak VRAM 70GB'): memory used at
  the peak, as '峰值 70G' is, never the card's memory (a 70 GB card sized for an H100 run).
- **Hyperparameters that change neither memory nor time** ('学习率 2e-5', 'warmup 0.03', 'pref_beta 0.1',
  'temperature 1.0', 'top_p 0.99', 'seed 42', 'lora_dropout 0.05'): named as not sized, never unread numbers.
- **A request rate with the output per request** ('QPS 2，每次输出 300 token', '2 requests per second, 300
  output tokens each'): the output tokens per second the service must decode (rate × output), no longer
  named as needing the output it was given.
- **A daily volume and a first-token target** ('每天 10 万次调用', '10k requests a day', '首 token 延迟 1 秒
  以内', 'TTFT under 500 ms'): named as settings the sizing has no field for (a day's average is not the
  peak), never unread numbers.
- **LoRA's alpha** ('lora_alpha 32', 'alpha 32'): a scale of the adapter's update; it changes neither the
  memory nor the time, so it is named as not sized (never an unread number).
- **Rollout-engine settings in a training command** (ms-swift ``--vllm_tensor_parallel_size 4``, TRL
  ``vllm_tensor_parallel_size``, verl ``actor_rollout_ref.rollout.tensor_model_parallel_size=2``,
  OpenRLHF ``--vllm_tensor_parallel_size``): the tensor parallelism of the vLLM/SGLang engine that
  generates the rollouts, not the training layout (which stays data parallel with ZeRO/FSDP in these
  tools); the request's ``rollout_tp`` (checked to hold the model: estimator.rollout), never taken as
  the training TP.
- **A Hugging Face id** ('liuhaotian/llava-v1.6-vicuna-7b', 'openbmb/MiniCPM-V-2_6'): the organization
  before '/' is dropped so the model name is read as typed (an organization has no digit; the name has
  one, so 'A100/H100', 'fp16/bf16' and 'vllm/sglang' are untouched).
- **Two stages asked in one message** ('预训练与 SFT 微调各需要多长时间', 'how long for pre-training and
  for SFT'): one is sized, the other named as another setup (never dropped in silence).
"""

from __future__ import annotations

import re
from typing import Any

from bot.later_names import hyper_item
from bot.parse.host_forms import CARD_MEMORY_APART, CARD_THEN_HOST, HOST_GATE, HOST_KEYS
from bot.parse.rate_forms import EACH_RE, per_minute, sized_rate, users_times
from bot.parse.regex import rc
from bot.parse.request_parts import request_parts

_SERVING_SETTING = (
    r"(--?tp\b|tp\b|--?pp\b|tensor[\s_\-]*parallel(?:[\s_\-]*size)?|pipeline[\s_\-]*parallel(?:[\s_\-]*size)?"
    r"|张量并行(?:数|度)?|(?:流水线?|管道|管线)并行(?:数|度)?|max[\s_\-]*model[\s_\-]*len|max[\s_\-]*num[\s_\-]*seqs"
    r"|session[\s_\-]*len|num[\s_\-]*ctx|gpu[\s_\-]*memory[\s_\-]*utilization|mem[\s_\-]*fraction[\s_\-]*static"
    r"|batch[\s_\-]*size|batchsize|micro[\s_\-]*batch(?:[\s_\-]*size)?|cutoff[\s_\-]*len(?:gth)?"
    r"|max[\s_\-]*(?:seq(?:uence)?[\s_\-]*)?len(?:gth)?|gradient[\s_\-]*accumulation(?:[\s_\-]*steps)?"
    r"|lora[\s_\-]*(?:rank|r)\b|epochs?)"
)
MORE_ASSIGN_RE = rc(
    _SERVING_SETTING + r"\s*(?:(?:只能|只|就|都|也|可以|还是|已经|最多|最大)\s*)?"
    r"(?:指定为|指定成|指定了|指定|配置为|配置成|配成|配为|写成|写的是|填的是|填了|给到|给的是|用的是"
    r"|(?:is\s+|was\s+)?(?:specified|configured|given|passed)\s+(?:as|to|at)\b)\s*(?=\d)"
)
"""'--tp 指定为 4', 'max_model_len 配置为 8192', 'tensor parallel size specified as 4'."""
_ASSIGN_WORDS = ("指定", "配", "写", "填", "给", "用的是", "specified", "configured", "given", "passed")
_ASSIGN_GATE = re.compile("|".join(map(re.escape, _ASSIGN_WORDS)))

LONGEST_RE = rc(
    r"(?:最长(?:的)?(?:样本|数据|一条|的那条|序列)?(?:有|是|为|达到|能到|到)?"
    r"|(?:the\s+)?longest(?:\s+(?:samples?|examples?|ones?|sequences?|conversations?|documents?))?"
    r"(?:\s+(?:is|are|has|have|at|of|reach(?:es)?|runs?\s+to))?)"
    r"\s*(?P<about>约|大约|大概|差不多|about|around|roughly|~|up\s+to|over|超过)?\s*"
    r"(?=\d[\d.,]*\s*[kmw万千]?\s*(?:tokens?|toks?)\b)"
)
"""'最长约 120K tokens', 'the longest around 16k tokens': the longest sample's length (the sequence)."""
COMPLETION_BEFORE_RE = rc(
    r"(?:responses?|completions?|generations?|outputs?|rollouts?|回复|回答|生成|输出)\s*(?:lengths?\s*|长度\s*)?"
    r"(?:[,，]\s*)?$"
)
"""A completion word just before '最长' ('回复最长2048 token'; after a comma too: '每个prompt 8条rollout，
最长1024 token', trial s24-2 #8): the RL completion length, TRL GRPOConfig's max_completion_length
(trl/trainer/grpo_config.py), read by bot.parse.rl_words.COMPLETION_RE; never the whole sequence."""

HF_ORG_RE = rc(r"(?<![\w./\-])[a-z][a-z\-_]{1,38}/(?=[a-z][a-z0-9_.\-]*\d)")
"""The organization of a Hugging Face id ('liuhaotian/' in 'liuhaotian/llava-v1.6-vicuna-7b')."""

BATCH_VERB_RE = rc(
    r"(?<![a-z_])batch(?![\s_\-]*(?:size|大小|sizes))\s*(?:(?:只能|只|就|都|也|可以|最多|最大)\s*)?"
    r"(?:开到|开成|设为|设成|设到|调到|调成|改成|改为|设置为|设置成|用了?)\s*(?=\d)"
)
"""'batch 开到 4', 'batch 只能设成 2': the micro-batch ('batch = 4')."""
PER_SECOND_VERBS_RE = rc(r"每秒\s*(?:要|需要|能|得|可以|想)\s*(?=生成|输出|达到|跑|处理|吐)")
"""'每秒要生成 2000 token': the rate's verb after a modal, as '每秒生成 2000 token' is read."""
NODES_STAR_CARDS_RE = rc(
    r"(?<![\d.*])(?P<n>\d{1,3})\s*\*\s*(?P<m>\d{1,2})\s*(?:\*\s*)?"
    r"(?=(?:张|块|卡|台)?\s*(?:的)?\s*(?:nvidia\s*)?(?:[a-z]{1,5}\s?\d{2,4}(?!\s*g)|\d{4}(?!\d)|rtx|tesla|titan|gpus?\b|卡|显卡))"
)
"""'4*8*A800', '2*8 张 4090': nodes × cards each (never '8*40G', a memory)."""
_RL_GATE = ("grpo", "ppo", "rloo", "dapo", "gspo", "rollout", "rlhf", "强化学习", "采样")
_DATA_GATE = ("文本", "语料", "数据", "text", "data", "corpus")
RL_WORDS_RE = rc(r"(?<![a-z])(?:grpo|ppo|rloo|dapo|gspo|rollout|rlhf|强化学习|采样)(?![a-z])")
SAMPLING_MAX_TOKENS_RE = rc(
    r"(?<![a-z_])max[_\s]tokens\s*(?:=|:|为|是|设为)?\s*(?P<v>\d[\d,]*(?:\s*k(?![a-z]))?)(?![\d.])"
)
SAMPLING_N_RE = rc(
    r"(?<![a-z_.\-])n\s*(?:=|:|为|是)?\s*(?P<v>\d{1,2})(?![\d.]|\s*(?:张|卡|台|块|gpus?|cards?|nodes?))"
)
"""vLLM ``SamplingParams`` words ('max_tokens 2048', 'n=8') said of an online-RL run."""
CAP_RE = rc(
    r"(?<![a-z])(?:-{0,2}(?:max[_\-\s]num[_\-\s]seqs?|max[_\-\s]running[_\-\s]requests|max[_\-\s]reqs)|-np|--parallel)"
    r"\s*(?:=|:|为|是|设为|设成|开到)?\s*(?P<n>\d{1,5})(?![\d.])"
)
"""'--max-num-seqs 256', 'max_running_requests 128', Chitu's 'infer.max_reqs=1' (round 28 zh): the engine's
cap on sequences run at once; llama.cpp's '-np 4' / '--parallel 4' (its slots, common/arg.cpp): the sequences
it runs at once, read as the load (the meaning table's row; -c is split over them: launchers.slot_context).
s17: '--max-num-seq 30', the prefix argparse takes for --max-num-seqs, was read as a 30-token sequence."""
CACHE_SHARE_RE = rc(
    r"(?<![a-z])-{0,2}cache[_\-\s]max[_\-\s]entry[_\-\s]count\s*(?:=|:|为|是|设为|设成)?\s*(?P<v>0?\.\d+|1(?:\.0+)?)"
    r"(?![\d])"
)
"""lmdeploy's ``cache_max_entry_count`` (TurbomindEngineConfig; default 0.8)."""
_TEXT_KIND = (
    r"(?:中文|英文|中英文?|多语言|代码|领域|医疗|医学|法律|金融|通用|高质量|清洗后的?|原始|专业|行业)"
    r"|(?:chinese|english|multilingual|code|domain|medical|legal|financial|raw|clean(?:ed)?|high[\s\-]quality)"
)
DATA_KIND_RE = rc(
    r"(?<=\d)(?P<u>\s*(?:gb|tb|g|t|mb))\s*(?P<of>的|\s+of)?\s*(?:" + _TEXT_KIND + r")\s*"
    r"(?=文本|语料|数据|text\b|data\b|corpus\b|tokens?\b)"
)
"""'50GB 的中文语料', '20GB of Chinese text': the adjective between a data size and its data word."""
_SIZE = r"(?P<v>\d+(?:\.\d+)?)\s*(?P<u>tb|t|gb|g|gib|tib)(?![a-z0-9])"
_REQUIREMENT = (
    r"(?:\s*(?:requirements?|needs?|要求|需求))?(?:\s*(?:is|are|of|be))?(?:\s*(?:(?:higher|more|greater|larger"
    r"|bigger|lower|less)\s+than|above|over|below|at\s+least|是不是|是否))?\s*(?:要|需要)?\s*"
    r"(?:高于|超过|大于|至少|不少于|低于|少于)?"
)
"""s21: the host memory as a requirement compared with a size ('the minimum RAM requirement higher than 8 GB',
'内存要求是不是要高于 8GB'): the size is the host's memory the asker has in mind (before, unread)."""
_RAISED_TO = (
    r"(?:to|[加调升扩提增](?:加)?[到至])(?=\s*\d[\d.]*\s*(?:tb|t|gb|g|gib|tib)(?![a-z0-9])"
    r"(?!\s*(?:of\s+)?(?:vram|gpu|显存|video)))"
)
"""r39 en: 'raise the RAM to 100GB', 'CPU 内存加到 100G': the size the host's memory is set to; never a card's
memory ('from RAM to 24GB of VRAM' moves weights onto the card)."""
HOST_MEMORY_RE = rc(
    r"(?:(?P<q>(?:机器|主机|服务器|机子|cpu|系统|物理|host|system)\s*的?\s*(?:内存|memory|ram)|\b(?:d|sys)?ram\b|shm[\s\-_]*size"
    + HOST_KEYS
    + r")"
    r"|(?P<bare>(?<!显)内存))"
    + _REQUIREMENT
    + r"(?:[\"']?\s*total\s*(?=[=:：]))?"  # round 37: a log's 'system memory total="127.8 GiB"' (Ollama)
    + r"\s*(?:是|有|为|:|=|共|总共|一共|大概|约|只有|才|"
    + _RAISED_TO
    + r")?\s*[(（\"']?\s*"  # r35 en: 'the CPU RAM (900G)'
    + _SIZE
    + r"|"
    + _SIZE.replace("?P<v>", "?P<v2>").replace("?P<u>", "?P<u2>")
    + r"(?:\s+(?:of\s+)?(?:(?:available|free|spare|total|installed)\s+)?"  # r39 en: '7.62 GiB total CPU RAM'
    + r"(?:(?:system|host|cpu|main|server)\s+(?:ram|memory)"
    + r"|(?:(?:lp)?ddr[45]x?\s+)?d?ram"
    + r"|unified\s+memory|内存)(?![a-z])|\s+of\s+(?P<bare3>memory)(?![a-z])"
    + r"|\s*(?:的\s*)?(?:统一内存|(?:系统|主机|物理|机器|服务器|cpu\s*)内存|(?P<bare2>内存))"
    + r"|\s*(?:(?:lp)?ddr[45]x?|d[45])\s*(?:的\s*)?内存)"
)
"""'机器内存 1T', 'CPU 内存 512G', '--shm-size 800G', '2TB of RAM', '192G 统一内存' (Apple's unified memory,
never a card's): the host's memory; round 6: 'DRAM 1.5T' (before, 1.5T tokens were sized); round 13: the
whole set of host words after a size ('48GB of system RAM', '64 GB DDR5 RAM', '512G of CPU memory'), and a
bare '256GB of memory' once the cards' memory is said apart ('96GB of VRAM, but only 256GB of memory');
s21: a requirement between ('RAM requirement higher than 8 GB': :data:`_REQUIREMENT`); round 16 zh: the
DDR generation between the size and 内存, written out or short ('256G D4 内存', '192G DDR5 内存'): never a
card's."""
CARD_MEMORY_WORD_RE = rc(
    r"(?<=\d)(?P<pre>\s*(?:ti|super|d|s)?\s*(?:的)?\s*)内存"
    r"(?=\s*(?:是|有|为|:|只有|才)?\s*\d{1,3}(?:\.\d+)?\s*g(?:b|ib)?(?![a-z0-9]))"
)
"""'4090 内存 24G': a card's memory called 内存 (a bare '内存' under 256 GB right after the card)."""
PEAK_VRAM_RE = rc(
    r"峰值\s*(?:的)?\s*显存(?:占用)?|显存\s*(?:的)?\s*(?:峰值|最高)(?:占用)?|最高\s*显存(?:占用)?"
    r"|\bpeak\s+(?:vram|gpu\s+memory)(?:\s+usage)?"
)
"""'峰值显存 70G', 'peak VRAM 70GB': a peak use, written as '峰值' / 'peak memory'."""
_VALUE = (
    r"\s*(?:=|:|为|是|设为|设成|设置为|用的?|(?:is|was|of|at|set\s+to)(?![a-z]))?\s*"
    r"(?P<v>\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?![\d.])"
)
"""A hyperparameter's value after its name: a number, in scientific notation too ('1e-8', '2e-05'); s43
fixread2: after 'is', 'of', 'at' ('a learning rate of 1e-8', 'learning rate is 2e-05': before, unread)."""
HYPERPARAMETERS = (
    ("learning_rate", r"learning[\s_\-]*rate|(?<![a-z_])lr(?![a-z_])|学习率"),
    ("warmup_ratio", r"warmup(?:[\s_\-]*(?:ratio|steps))?|预热(?:比例|步数)?"),
    ("weight_decay", r"weight[\s_\-]*decay|权重衰减"),
    ("kl_beta", r"(?<![a-z])(?:init[\s_\-]*)?kl[\s_\-]*(?:coef(?:ficient)?|beta)"),
    ("pref_beta", r"(?:pref|dpo)[\s_\-]*beta|(?<![a-z_])beta(?![a-z_\d])"),
    ("sampling.temperature", r"temperature|温度"),
    ("sampling.top_p", r"top[\s_\-]*p(?![a-z])"),
    ("sampling.top_k", r"top[\s_\-]*k(?![a-z])"),
    ("random_seed", r"(?<![a-z_])seed(?![a-z_])|随机种子"),
    ("lora_dropout", r"lora[\s_\-]*dropout"),
    ("max_grad_norm", r"max[\s_\-]*grad[\s_\-]*norm|梯度裁剪"),
    ("adam_epsilon", r"(?:adam[\s_\-]*)?(?<![a-z])eps(?:ilon)?(?![a-z])"),  # s43: 'eps 1e-8'
)
HYPERPARAMETER_RES = tuple((name, rc("(?:" + words + ")" + _VALUE)) for name, words in HYPERPARAMETERS)
"""Settings that change neither memory nor time (see the module docstring), each with its value."""
_HYPER_GATE = (
    "rate", "lr", "学习率", "warmup", "预热", "decay", "衰减", "beta", "temperature", "温度", "top", "seed",
    "种子", "dropout", "norm", "梯度裁剪", "kl",
)  # fmt: skip
DAILY_RE = rc(
    r"(?:每天|每日|一天|日均|daily)\s*(?:约|大概|大约|有|要)?\s*(?P<n>\d+(?:\.\d+)?)\s*(?P<m>万|千|k|m)?\s*"
    r"(?:次|个|条)?\s*(?:调用|请求|访问|requests?|calls?|queries)"
    r"|(?P<n2>\d+(?:\.\d+)?)\s*(?P<m2>万|千|k|m)?\s*(?:requests?|calls?|queries)\s*(?:a|per|each)\s+day"
)
"""'每天 10 万次调用', '10k requests a day': a day's request volume."""
TTFT_RE = rc(
    r"(?:首\s*(?:个\s*)?token|首字|首包|ttft|time\s+to\s+first\s+token)\s*(?:的)?\s*(?:延迟|时延|时间|latency)?\s*"
    r"(?:要|要求|需要|在|控制在|低于|小于|不超过|<|≤|under|below|within|of|at\s+most|:|=)?\s*"
    r"(?P<v>\d+(?:\.\d+)?)\s*(?P<u>ms|毫秒|s\b|秒|seconds?)"
)
"""'首 token 延迟 1 秒以内', 'TTFT under 500 ms': a first-token latency target."""
_TARGET_GATE = ("每天", "每日", "一天", "日均", "daily", "day", "首", "ttft", "first")
_SCALE = {"万": 1e4, "千": 1e3, "k": 1e3, "m": 1e6}
ALPHA_RE = rc(r"(?<![a-z])(?:lora[\s_\-]*)?alpha\s*(?:=|:|为|是|设为|设成)?\s*(?P<n>\d{1,4})(?![\d.])")
"""'lora_alpha 32', 'alpha=16'."""

ROLLOUT_TP_RE = rc(
    r"(?<![a-z0-9])(?:vllm|sglang|rollout|infer(?:ence)?|gen(?:eration)?)[\s_\-.]*(?:的\s*)?(?:[a-z_]+[\s_\-.]+)?"
    r"(?:tensor[\s_\-]*(?:model[\s_\-]*)?parallel(?:[\s_\-]*size)?|tp(?:[\s_\-]*size)?)"
    r"\s*(?:=|:|为|是|设为|设成)?\s*(?P<n>\d{1,3})(?![\d.])"
)
"""A rollout engine's tensor parallelism in a training command (see the module docstring)."""
_ROLLOUT_WORDS = ("vllm", "sglang", "rollout", "infer", "gen")

TWO_STAGES_RE = rc(
    r"(?:预训练|pre[\s\-]?train(?:ing)?|pretrain(?:ing)?)\s*(?:和|与|跟|及|以及|还有|,|/|、|and|&|plus|then)\s*"
    r"(?:(?:sft|lora|全参|全量|指令)\s*)?(?:微调|fine[\s\-]?tun(?:e|ing)|sft)"
    r"|(?:微调|fine[\s\-]?tun(?:e|ing)|sft)\s*(?:和|与|跟|及|以及|还有|,|/|、|and|&|plus)\s*(?:预训练|pre[\s\-]?train(?:ing)?)"
)
"""Pre-training and fine-tuning asked together ('预训练与 SFT 微调', 'pre-training and fine-tuning')."""
_STAGE_WORDS = ("预训练", "train")


_RL_GATE_RE = re.compile("|".join(map(re.escape, _RL_GATE)))
_DATA_GATE_RE = re.compile("|".join(map(re.escape, _DATA_GATE)))
_HOST_GATE_RE = re.compile("内存|ram|memory|shm" + HOST_GATE)
_CHIP_BEFORE_RE = re.compile(
    r"(?<![a-z0-9.\-_/])m[1-5](?:\s*(?:pro|max|ultra))?\s*(?:with|has|的|只有|有|[,，(（])?\s*$"
)
"""Round 32 en: an Apple chip right before a RAM size ('an Apple M1 with 8GB of RAM', 'M2 Pro, 16GB RAM',
'M1 的 8G 内存'): Apple silicon has one unified memory, so the size is the chip's, never the host's."""
_VRAM_SAID_RE = re.compile(
    r"显存\s*(?:大小|容量)?\s*(?:是|有|为|:|：)?\s*\d|\d\s*g(?:b|ib)?\s+(?:of\s+)?(?:vram|gpu\s+memory)\b"
)
"""A card's memory said as 显存 (or VRAM, GPU memory) with its size ('显存: 40GB, 内存: 50GB',
'96GB of VRAM'): a bare 内存 (or 'of memory') is then the host's."""
_HARDWARE_LINE_RE = re.compile(
    r"cpu\s*[:：]?\s*[^，,；;。\n]{0,24}[，,；;、]\s*内存|显卡\s*[:：]?\s*[^，,；;。\n]{0,16}?\d{1,3}\s*g(?:b|ib)?(?![a-z0-9])"
    + CARD_THEN_HOST
    + CARD_MEMORY_APART
)
"""Round 21 zh: a hardware line listing the CPU right before 内存 ('cpu 13700，内存 32g'), or the card said
apart with its own memory ('显卡 4060ti 16g'): a bare 内存 is then the host's too (before, unread)."""
_HYPER_GATE_RE = re.compile("|".join(map(re.escape, _HYPER_GATE)) + r"|(?<![a-z])eps")  # not 'steps'
_RATE_GATE_RE = re.compile("qps|rps|req|请求|rpm")
_ROLLOUT_GATE_RE = re.compile("|".join(map(re.escape, _ROLLOUT_WORDS)))
_STAGE_GATE_RE = re.compile("|".join(map(re.escape, _STAGE_WORDS)))
_TARGET_GATE_RE = re.compile("|".join(map(re.escape, _TARGET_GATE)))
"""Cheap gates: one C-level search each (a generator over words would cost Python calls per parse)."""


def read_prose_forms(s: str) -> str:
    """The normalized text ``s`` with the rewriting rules of this module applied (assignment verbs, a
    Hugging Face organization, the longest sample's length)."""
    if _ASSIGN_GATE.search(s):
        s = MORE_ASSIGN_RE.sub(r"\1 = ", s)
    if "/" in s:
        s = HF_ORG_RE.sub("", s)
    if "batch" in s:
        s = BATCH_VERB_RE.sub("batch = ", s)
    s = request_parts(s)
    if "*" in s:
        s = NODES_STAR_CARDS_RE.sub(lambda m: f"{int(m.group('n')) * int(m.group('m'))} ", s)
    if _RL_GATE_RE.search(s) and RL_WORDS_RE.search(s):
        s = SAMPLING_MAX_TOKENS_RE.sub(lambda m: f" responses up to {m.group('v')} tokens ", s)
        s = SAMPLING_N_RE.sub(lambda m: f" {m.group('v')} generations ", s)
    if _DATA_GATE_RE.search(s):
        s = DATA_KIND_RE.sub(
            lambda m: f"{m.group('u')}{' of' if m.group('of') and 'of' in m.group('of') else ''} ", s
        )
    if "峰值" in s or "最高" in s or "peak" in s:
        s = PEAK_VRAM_RE.sub(lambda m: " peak memory " if m.group(0).startswith("peak") else " 峰值 ", s)
    if "内存" in s:
        s = CARD_MEMORY_WORD_RE.sub(lambda m: f"{m.group('pre')}显存", s)
    if "每秒" in s:
        s = PER_SECOND_VERBS_RE.sub("每秒", s)
    if "最长" in s or "longest" in s:
        s = LONGEST_RE.sub(lambda m: _longest(m, s), s)
    return s


def _longest(m: re.Match[str], s: str) -> str:
    """'最长 2048 tokens' is the sequence (max_len), unless a completion word precedes it."""
    return m.group(0) if COMPLETION_BEFORE_RE.search(s, max(0, m.start() - 24), m.start()) else " max_len "


def host_memory(s: str) -> tuple[str, list[tuple[str, str]]]:
    """The host's memory masked and named ('host_memory: 1 TB'); see the module docstring."""
    if not _HOST_GATE_RE.search(s):
        return s, []
    named: list[tuple[str, str]] = []
    for m in reversed(list(HOST_MEMORY_RE.finditer(s))):
        value, unit = (m.group("v"), m.group("u")) if m.group("v") else (m.group("v2"), m.group("u2"))
        gb = float(value) * (1024 if unit.startswith("t") else 1)
        if (
            (m.group("bare") or m.group("bare2") or m.group("bare3"))
            and (gb < 256 or m.group("bare3"))
            and not _VRAM_SAID_RE.search(s)
            and not _HARDWARE_LINE_RE.search(s)
        ):  # '内存 24G' is often a card's memory: left to the card rules (unless 显存 is said apart)
            continue
        if _CHIP_BEFORE_RE.search(s, max(0, m.start() - 16), m.start()):  # s36: 'M1 with 8GB of RAM'
            continue  # a Mac chip's RAM is its unified memory: the chip's, left to the card rules
        size = f"{float(value):g} {'TB' if unit.startswith('t') else 'GB'}"
        named.insert(0, (f"host_memory: {size}", "no_field"))
        s = s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :]
    return s, named


def hyperparameters(s: str) -> tuple[str, list[tuple[str, str]]]:
    """Each hyperparameter of :data:`HYPERPARAMETERS` masked and named as not sized; in a GRPO/PPO/RLOO
    question a bare 'beta 0.04' (TRL/ms-swift GRPOConfig ``beta``) or 'kl coef 0' is the KL coefficient,
    named ``kl_beta: v`` for the caller to size (:func:`bot.parse.settings.extract_settings`)."""
    if not _HYPER_GATE_RE.search(s):
        return s, []
    named: list[tuple[str, str]] = []
    for name, pattern in HYPERPARAMETER_RES:
        m = pattern.search(s)
        if m:
            named.append(hyper_item(name, m, s))  # as typed; 'beta' of an SFT (bot.parse.hyper_names)
            s = s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :]
    return s, named


def kl_coefficient(hyper: list[tuple[str, str]], fields: dict[str, Any]) -> list[tuple[str, str]]:
    """``hyper`` (:func:`hyperparameters`) less the KL coefficient, which goes into ``fields['kl_beta']``
    (0 → no reference model, :func:`estimator.rl_reference.has_reference`)."""
    kl = [h for h in hyper if h[0].startswith("kl_beta: ")]
    if kl:
        fields["kl_beta"] = float(kl[0][0].removeprefix("kl_beta: "))
    return [h for h in hyper if h not in kl]


def serving_targets(s: str, training: bool) -> tuple[str, list[tuple[str, str]]]:
    """A daily request volume and a first-token target masked and named (see the module docstring)."""
    if training or not _TARGET_GATE_RE.search(s):
        return s, []
    named: list[tuple[str, str]] = []  # a daily volume: bot.parse.request_volume reads it (s35 fix c #2)
    m = TTFT_RE.search(s)
    if m:
        unit = "ms" if m.group("u") in ("ms", "毫秒") else "s"
        named.append((f"time_to_first_token: {m.group('v')} {unit}", "no_field"))
        s = s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :]
    return s, named


SECONDS_PER_DAY = 86_400


def daily_requests(s: str) -> float | None:
    """A day's request volume in the normalized text ``s`` ('每天 10 万次调用', '10k requests a day'), else
    None: with the output tokens per request it is the service's average load (trial s21 #5), requests per
    day ÷ :data:`SECONDS_PER_DAY` × output tokens = output tokens/s."""
    m = DAILY_RE.search(s) if _TARGET_GATE_RE.search(s) else None
    if not m:
        return None
    n, mag = (m.group("n"), m.group("m")) if m.group("n") else (m.group("n2"), m.group("m2"))
    return float(n) * _SCALE.get(mag or "", 1)


def requests_rate(s: str) -> float | None:
    """Requests per second stated in the normalized text ``s`` (a per-minute rate ÷ 60), else None."""
    if not _RATE_GATE_RE.search(s):
        return None
    m = sized_rate(s)  # the peak's when today's is given too (trial s18 #1)
    if not m:
        return None
    raw = next(g for g in m.groups() if g is not None)
    times = users_times(s, m) if EACH_RE.search(s) else (1.0, "")  # '50 users each send 2 a minute'
    return float(raw) / (60 if per_minute(m) else 1) * times[0] if times else None


def lora_alpha(s: str) -> tuple[str, list[tuple[str, str]]]:
    """LoRA's alpha masked and named as not sized (it changes neither memory nor time)."""
    if "alpha" not in s:
        return s, []
    m = ALPHA_RE.search(s)
    if not m:
        return s, []
    return s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :], [
        (f"lora_alpha: {m.group('n')}", "not_sized")
    ]


def engine_settings(s: str, training: bool) -> tuple[str, dict[str, int], list[tuple[str, str]]]:
    """In a serving question: an engine's cap on sequences run at once (a request field) and lmdeploy's
    KV-cache share (named), each masked."""
    fields: dict[str, int] = {}
    named: list[tuple[str, str]] = []
    if training or not ("max" in s or "cache" in s or "-np" in s or "--parallel" in s):
        return s, fields, named
    m = CAP_RE.search(s)
    if m:  # llama.cpp's -np/--parallel: its slots, each a sequence run at once (the load, read once)
        slots = m.group(0).lstrip().startswith(("-np", "--parallel"))
        fields["concurrency" if slots else "max_num_seqs"] = int(m.group("n"))
        s = s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :]
    m = CACHE_SHARE_RE.search(s)
    if m:
        named.append((f"cache_max_entry_count: {m.group('v')}", "no_field"))
        s = s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :]
    return s, fields, named


def cap_and_load(f: dict[str, Any]) -> list[tuple[str, str]]:
    """An engine's cap read from prose beside the load, as a pasted command's is
    (:func:`bot.parse.configs.merge._load_and_cap`): alone, it bounds the answer ('how many fit at once',
    ``cap_only``); beside a stated load, the load is sized and the cap named (``cap_not_load``, or
    ``load_above_cap`` when the load exceeds it)."""
    cap = f.get("max_num_seqs")
    if not cap or cap == f.get("batch_size") == f.get("concurrency"):  # lmdeploy's, named (load_words)
        return []
    load = f.get("concurrency")
    if load is None:
        f["concurrency_asked"] = True
        return [(f"max_num_seqs: {cap}", "cap_only")]
    f["max_num_seqs"] = None
    return [(f"max_num_seqs: {cap}", "load_above_cap" if load > cap else "cap_not_load")]


def rollout_parallel(s: str, training: bool) -> tuple[str, list[int]]:
    """In a training question, each rollout engine's TP degree masked (so the training layout does not
    take it), with the degrees in the order written (the request's ``rollout_tp``: the first)."""
    if not training or not _ROLLOUT_GATE_RE.search(s):
        return s, []
    found: list[int] = []
    for m in reversed(list(ROLLOUT_TP_RE.finditer(s))):
        found.insert(0, int(m.group("n")))
        s = s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :]
    return s, found


def other_stage(s: str, stage: str | None) -> list[tuple[str, str]]:
    """The stage not sized when pre-training and fine-tuning (or serving and tuning:
    :mod:`bot.parse.stage_pairs`) are asked together, named as another setup."""
    if stage not in ("finetune", "pretrain") or not _STAGE_GATE_RE.search(s) or not TWO_STAGES_RE.search(s):
        from bot.parse.stage_pairs import coordinated_stage  # here: stage_pairs reads words (import cycle)

        return coordinated_stage(s, stage)  # round 9: '推理和微调各需要多少卡' (serving with tuning)
    other = "pretrain" if stage == "finetune" else "finetune"
    return [(f"stage: {other}", "other_setup")]
