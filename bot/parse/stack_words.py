"""The tools a message names in prose (issue 24 items 2 and 3): training tools and serving engines.

A training tool whose limits the sizing models (:data:`estimator.training_tools.TRAINING_TOOL_LIMITS`:
HF Trainer, TRL, LLaMA-Factory, axolotl, ms-swift, Unsloth, Megatron-LM, NeMo) sets
``SizingRequest.training_tool`` (:func:`training_tool`); any other is named as not used
(``no_field``), as the pasted-config reader names the tool of a config; a second modelled tool in the
same message is another setup, named as not sized (``other_setup``: issue 24, part U2 item 4).
A serving engine whose own memory model the sizing does not have (TensorRT-LLM, KTransformers …) is named as
``runtime_not_modelled``; vLLM, SGLang, llama.cpp, Ollama, lmdeploy, TGI, ExLlama and transformers
are read by :mod:`bot.parse.settings`.
"""

from __future__ import annotations

from bot.parse.codebases import CODEBASE_RE, codebase_spans, glued_codebases, rl_codebase
from bot.parse.cue_index import CueTable
from bot.parse.kv_layers import KV_LAYER_RE, kv_cache_layers
from bot.parse.more_engines import MORE_RUNTIMES, NOT_DEEPSPEED_TRAINING
from bot.parse.more_tools import (
    MORE_TOOL_CUES,
    MORE_TRAINING_TOOLS,
    RL_TRAINING_TOOLS,
    TENSORRT_BUILD_FLAGS,
    asked_tools,
    compared_tool,
    swift_megatron,
)
from bot.parse.regex import LazyPattern, rc, words_gate
from estimator.runtimes import RUNTIMES as ENGINE_REGISTRY
from estimator.training_tools import TRAINING_TOOL_LIMITS

TRAINING_TOOLS: tuple[tuple[LazyPattern, str], ...] = (
    (
        rc(
            r"(?<!360)llama[\s\-_]*factory|llama[\s\-_]*efficient[\s\-_]*tuning|llamafactory-cli"
            r"|train_bash\.py|finetuning_type"
        ),
        "LLaMA-Factory",
    ),
    (rc(r"chatglm[\s\-_]*efficient[\s\-_]*tuning"), "ChatGLM-Efficient-Tuning"),
    (rc(r"\bmedicalgpt\b"), "MedicalGPT"),
    (rc(r"\blonglora\b"), "LongLoRA"),
    (rc(r"\bllama[\s\-_]*(?:recipes|cookbook)\b"), "llama-recipes"),  # renamed llama-cookbook (2025)
    (rc(r"\balpaca[\s\-_]*lora\b"), "alpaca-lora"),
    (rc(r"\bllm[\s\-_]*foundry\b"), "llm-foundry"),
    (rc(r"\blit[\s\-_]*llama\b"), "lit-llama"),
    (rc(r"\blit[\s\-_]*gpt\b"), "litgpt"),  # s15: Lightning-AI/litgpt (was lit-gpt), not lit-llama
    (rc(r"\blit[\s\-_]*parrot\b"), "lit-parrot"),  # s36: litgpt's first name (2023), as typed
    (rc(r"deepspeed[\s\-_]*chat"), "DeepSpeed-Chat"),
    (rc(r"\bmegatron[\s\-_]*llm\b"), "Megatron-LLM"),
    # round 26: NVIDIA-NeMo/Megatron-Bridge (HF ↔ Megatron checkpoints), not Megatron-LM itself
    (rc(r"\bmegatron[\s\-_]*bridge\b"), "Megatron-Bridge"),
    (rc(r"\baxolotl\b"), "axolotl"),
    (rc(r"\bunsloth\b|use[_\s\-]*unsloth"), "Unsloth"),
    (rc(r"\btorchtune\b"), "torchtune"),
    (
        rc(
            r"\bms[\s\-_]*swift\b|modelscope[\s\-_]*swift|\bswift\s+(?:sft|rlhf|pt|infer|example|export)"
            r"|(?:用|使用|基于|通过)\s*swift\b|\bswift\s*(?:框架|微调|训练|做|跑)"
            # round 6: '感谢 swift 很方便的框架', 'swift 这个框架', 'the swift framework'
            r"|(?:感谢|谢谢)\s*swift\b|\bswift\s*(?:这个|这套|[\u4e00-\u9fff]{0,5}的)\s*(?:框架|工具|库)"
            r"|\bthe\s+swift\s+(?:framework|library|toolkit)"
            r"|\b(?:using|with|via)\s+swift\s+(?:to\s+)?(?:fine[\s\-]?tun|train|sft)"
        ),
        "ms-swift",
    ),  # 'swift' alone is also a language: a fine-tuning word or '用' beside it
    (rc(r"\bverl\b"), "verl"),
    (rc(r"\bopenrlhf\b"), "OpenRLHF"),
    (rc(r"\bxtuner\b"), "XTuner"),
    (rc(r"\bfastchat\b"), "FastChat"),
    # s41 fixtrain #3: Megatron-family forks, each by its own name (estimator.training_tools.MEGATRON_FAMILY)
    (rc(r"\bmegatron[\s\-_]*deepspeed\b"), "Megatron-DeepSpeed"),
    (rc(r"\bpai[\s\-_]*megatron[\s\-_]*patch\b"), "Pai-Megatron-Patch"),
    (
        rc(
            r"(?<!pai[\s\-_])\bmegatron(?:[\s\-_]*(?:lm|core))?\b"
            r"(?![\s\-_]*(?:llm|bridge|style|like|deepspeed|patch|式|风格))"
        ),
        "Megatron-LM",
    ),
    (
        rc(r"(?<!mistral[\s\-_])\bnemo\b(?![\s\-_]*(?:\d+(?:\.\d+)?\s*b\b|instruct|base|minitron))"),
        "NeMo",
    ),  # not Mistral-NeMo-12B
    # round 23: also by its strategies ('--strategy colossalai_gemini', colossalai_zero2; ColossalAI Chat)
    (rc(r"\bcolossal[\s\-_]*ai(?![a-z0-9])"), "ColossalAI"),
    (rc(r"\bpaddlenlp\b"), "PaddleNLP"),
    (rc(r"\blmflow\b"), "LMFlow"),
    (rc(r"\btrl\b|sft[\s_]*trainer|dpo[\s_]*trainer|grpo[\s_]*trainer|rloo[\s_]*trainer"), "TRL"),
    (rc(r"hugging\s*face\s+trainer|\bhf\s+trainer\b"), "HF Trainer"),
    (rc(r"(?<!megatron[\s\-_])\bdeepspeed\b" + NOT_DEEPSPEED_TRAINING), "DeepSpeed"),
    *MORE_TRAINING_TOOLS,
)
"""Training tools by name, as people write them → the name the reply uses."""

RUNTIMES_NOT_MODELLED: tuple[tuple[LazyPattern, str], ...] = (
    (rc(r"tensorrt[\s\-_]*llm|\btrt[\s\-_]*llm\b|" + TENSORRT_BUILD_FLAGS), "TensorRT-LLM"),
    (rc(r"\bktransformers\b"), "KTransformers"),
    (rc(r"\bxinference\b"), "Xinference"),
    # round 39 en: also MLC alone and its chat CLI ("speed report for MLC on a Pixel 8 Pro", mlc_chat_cli);
    # never flash memory's multi-level cells ("MLC-based SSD", "MLC NAND")
    (
        rc(
            r"(?<![a-z0-9])mlc(?:[\s\-_]*(?:llm|chat(?:_cli)?))?"
            r"(?![a-z0-9]|[\s\-_]*(?:based|nand|flash|ssd|cell))"
        ),
        "MLC-LLM",
    ),
    (rc(r"\bairllm\b"), "AirLLM"),
    *MORE_RUNTIMES,
)
"""Serving engines the sizing has no memory model of (named, never silently sized as another)."""


TRL_KEYS_RE = rc(
    r"(?<![a-z0-9_])-{0,2}(?:num[_\-]generations|use[_\-]vllm|vllm[_\-]gpu[_\-]memory[_\-]utilization"
    r"|max[_\-]completion[_\-]length|grpo[_\s]*config|sft[_\s]*config|dpo[_\s]*config)(?![a-z])"
)
"""Arguments of TRL's trainers (``GRPOConfig.num_generations``, ``use_vllm``,
``vllm_gpu_memory_utilization``, ``max_completion_length``; trl/trainer/grpo_config.py): a message
with them and no tool named runs TRL."""

SWITCH_RE = rc(
    r"(?:\bthen\b|switch(?:ed|ing)?\s+to|mov(?:ed|ing)\s+to|now\s+(?:with|using|on)|instead\s+(?:with|use)"
    r"|换成|改用|换用|改成|后来用|现在用)\s*(?:to\s+|用\s*)?$"
)
"""A switch written just before a tool ('we tried A, then B', '后来改用 B'): B is the setup asked about."""


ANY_TOOL_RE = rc("|".join(p.pattern for p, _ in (*TRAINING_TOOLS, *RUNTIMES_NOT_MODELLED)))
TOOLS_INDEX = CueTable(
    TRAINING_TOOLS,
    declared={  # s41 fixtrain #3: the Megatron forks by their joined names, rarer than either word alone
        "Megatron-DeepSpeed": (
            "megatron-deepspeed",
            "megatron deepspeed",
            "megatron_deepspeed",
            "megatrondeepspeed",
        ),
        "Pai-Megatron-Patch": ("pai-megatron", "pai megatron", "pai_megatron", "paimegatron"),
    },
)
"""The training tools by their cues (:mod:`bot.parse.cue_index`): a message's candidates in one C pass, in
place of :data:`ANY_TOOL_RE`'s search (~10 µs a call, most messages name no tool)."""
NOT_MODELLED_INDEX = CueTable(RUNTIMES_NOT_MODELLED)
"""One search first: most messages name no tool (speed). The KV-cache layers have their own search
(:data:`bot.parse.kv_layers.KV_LAYER_RE`): with them the alternation has too many literals for one gate."""


TOOL_CUES: tuple[tuple[LazyPattern, str], ...] = (
    (TRL_KEYS_RE, "TRL"),
    (
        rc(
            r"(?<![a-z])(?:actor[_\s]*rollout[_\s]*ref|ppo[_\s]*(?:mini|micro)[_\s]*batch\w*|log[_\s]*prob[_\s]*micro\w*)"
        ),
        "verl",
    ),
    (rc(r"(?<![a-z])(?:cutoff_len|lora_target(?![_s])|--template)(?![a-z])"), "LLaMA-Factory"),
    (rc(r"(?<![a-z])(?:lora_target_linear|sample_packing|sequence_len)(?![a-z])"), "axolotl"),
    # swift 2.x SftArguments.sft_type; 3.x --train_type, --rlhf_type (swift/llm/argument/rlhf_args.py)
    (rc(r"(?<![a-z])(?:sft_type|sftarguments|train_type|rlhf_type)(?![a-z])"), "ms-swift"),
    (
        rc(
            r"(?<![a-z])(?:per[_\s\-]*device[_\s\-]*train[_\s\-]*batch[_\s\-]*size|trainingarguments)(?![a-z])"
        ),
        "HF Trainer",
    ),
    (
        rc(
            r"(?<![a-z0-9])(?:zero[\s\-_]*(?:stage[\s\-_]*)?[0-3]|zero[\s\-_]*(?:one|two|three)|ds[_\s\-]*config"
            r"|zero[_\s]*optimization|ds[_\s]*z[0-3])(?![0-9])"
        ),
        "DeepSpeed",
    ),
    *MORE_TOOL_CUES,
)
"""Settings only one tool's users write, for a message that names no tool: TRL's trainer arguments, verl's
``actor_rollout_ref`` / ``ppo_mini_batch_size`` (verl/trainer/config/ppo_trainer.yaml), HF
``TrainingArguments.per_device_train_batch_size``, LLaMA-Factory's ``cutoff_len`` / ``lora_target`` /
``--template`` (its examples/train_lora/*.yaml), axolotl's ``sequence_len`` / ``sample_packing`` /
``lora_target_linear`` (its examples/*.yml), DeepSpeed's ZeRO stages and ``ds_config`` /
``zero_optimization`` (deepspeed.ai/docs/config-json). The tool is inferred and the reply says so
(:func:`inferred_tool`). FSDP is PyTorch's, used by several of these tools: no tool of its own. A tool's
own key comes before the HF Trainer's (round 10: 'cutoff_len 4096，per_device_train_batch_size 1' is a
LLaMA-Factory run, which passes TrainingArguments through; before, HF Trainer was inferred)."""

FSDP_RE = rc(r"(?<![a-z])fsdp")
CUE_WORDS = (
    "zero",
    "ds",
    "_",
    "generation",
    "vllm",
    "complet",
    "config",
    "rollout",
    "ppo",
    "log",
    "train",
    "cutoff",
    "sftarg",
    "bnb",
)
"""A word every cue of :data:`TOOL_CUES` holds: a message with none skips the search (speed)."""
_CUE_RE = words_gate(CUE_WORDS)
TOOL_CUES_INDEX = CueTable(TOOL_CUES)
"""The tools' settings by their cues (:mod:`bot.parse.cue_index`): '_' passes the gate above in most
pasted configs, the keys themselves are rare."""


def inferred_tool(s: str) -> tuple[str, str] | None:
    """(tool, the words it was read from) when the normalized text ``s`` writes the settings of one
    (:data:`TOOL_CUES`, the first found); None otherwise. For a message that names no tool (the caller
    knows: :func:`named_tools` is empty). ZeRO beside FSDP is an analogy (FSDP FULL_SHARD is ZeRO-3), not
    DeepSpeed."""
    if not _CUE_RE.search(s):
        return None
    for pattern, tool in TOOL_CUES_INDEX.candidates(s):  # those whose cues occur, in the table's order
        if (m := pattern.search(s)) and not (tool == "DeepSpeed" and FSDP_RE.search(s)):
            return tool, m.group(0).strip(" -")
    return None


CODEBASE_TOOLS = frozenset({"Pai-Megatron-Patch"})
"""Codebases whose own name is a modelled tool (a Megatron-family one): never left out as a codebase."""


def training_tool(s: str) -> str | None:
    """The modelled training tool (:data:`TRAINING_TOOL_LIMITS`) of ``s``: the one a switch points to
    ("tried A, then B": B), else the one written first; None: none named (see :func:`inferred_tool`). A
    tool named as the comparison ('unlike unsloth': :func:`bot.parse.more_tools.compared_tool`) is not it."""
    tools = TOOLS_INDEX.candidates(s)  # those whose cues occur: most messages, none
    if not tools:
        return None
    found = [
        (at, name) for p, name in tools if name in TRAINING_TOOL_LIMITS and (at := _own_use(p, s)) is not None
    ]
    # round 13: 'Pai-Megatron-Patch' is a codebase, not Megatron-LM (every one joined by '-' or '_')
    if found and ("-" in s or "_" in s) and CODEBASE_RE.search(s):
        spans = codebases(s)
        found = [
            (at, name)
            for at, name in found
            if name in CODEBASE_TOOLS or not any(a <= at < b for a, b, _ in spans)
        ]
    if len(found) > 1 and swift_megatron(s, {name for _, name in found}):  # s46 trial #3
        return "Megatron-LM"
    if len(found) > 1:
        switched = [(at, name) for at, name in found if SWITCH_RE.search(s[max(0, at - 24) : at])]
        found = switched or asked_tools(s, found)
    return min(found)[1] if found else None


def _own_use(p: LazyPattern, s: str) -> int | None:
    """Where the tool of pattern ``p`` is first named in ``s`` as the job's, not as the comparison or a
    figure's source (:func:`bot.parse.more_tools.compared_tool`); None: only so (s42: 'a paper reports
    Megatron at 50% MFU; … with Megatron on 64 H100s' runs Megatron, its second mention)."""
    for m in p.finditer(s):
        if not compared_tool(s, m.start()):
            return m.start()
    return None


LAUNCHER_RE = rc(r"\btorchrun\b|torch\.distributed\.(?:run|launch)\b|\baccelerate\s+launch\b")
"""Launchers named in prose ('the fine-tuning.sh (torchrun)'): they start the processes and change neither
the layout nor the memory, so they are named as not sized (a pasted command line is read by
:mod:`bot.parse.configs.launchers`)."""


def launcher_named(s: str) -> list[tuple[str, str]]:
    """('launcher: torchrun', 'not_sized') for a launcher the normalized text ``s`` names."""
    if "torch" not in s and "launch" not in s:
        return []
    m = LAUNCHER_RE.search(s)
    return [(f"launcher: {' '.join(m.group(0).split())}", "not_sized")] if m else []


DEEPSPEED_SETTINGS_RE = rc(
    r"zero[\s\-_]*(?:stage[\s\-_]*|阶段\s*)?[0-3](?![0-9]|\.\d)|(?:stage|阶段)[\s\-_]*[0-3]\s*(?:的\s*)?zero"
    r"|(?<![a-z0-9])(?:ds|deepspeed)[_\-\s]*z[0-3](?![0-9])|zero_optimization|zero[\s\-_]*offload"
)
"""DeepSpeed's own settings in the text (a ZeRO stage, ZeRO-Offload, a ``zero_optimization`` block): the
sizing applies them (bot.parse.settings), so DeepSpeed named beside them is used, never "not used"
(reason 'settings_applied': the reply names it among what is used)."""


def tool_written(s: str, name: str) -> bool:
    """Whether the normalized text ``s`` names the training tool ``name`` outright (DeepSpeed beside its
    ZeRO stage: the tool whose settings are applied, not one read from them)."""
    return any(pattern.search(s) for pattern, tool in TOOLS_INDEX.candidates(s) if tool == name)


LAUNCHERS_NAMED = frozenset({("training_tool: accelerate", "no_field")})
"""Tools named that launch another ('with accelerate'): the trainer under them is still read from its keys."""


def named_tools(s: str, used: str | None = None) -> list[tuple[str, str]]:
    """('training_tool: X', 'no_field') and ('runtime: Y', 'runtime_not_modelled') for the tools named
    in the normalized text ``s`` (except ``used``, the training tool the sizing keeps to; DeepSpeed beside
    its settings, :data:`DEEPSPEED_SETTINGS_RE`, with 'settings_applied'), in a fixed order, each once."""
    spans = codebases(s) if ("-" in s or "_" in s) and CODEBASE_RE.search(s) else []  # joined names
    if "tune" in s or "trainer" in s or "rlhf" in s:  # s41: one glued word ('with mpttune'), no known tool
        spans += [g for g in glued_codebases(s) if not ANY_TOOL_RE.search(g[2])]
    named = [(f"training_tool: {name}", "no_field") for _, _, name in spans]  # round 13: by repository name
    tools, runtimes = TOOLS_INDEX.candidates(s), NOT_MODELLED_INDEX.candidates(s)
    if not tools and not runtimes:
        return named + (kv_cache_layers(s) if KV_LAYER_RE.search(s) else [])
    applied = "DeepSpeed" if DEEPSPEED_SETTINGS_RE.search(s) else None
    out = [
        (
            f"training_tool: {name}",
            "settings_applied"
            if name == applied
            else "megatron_backend"
            if used == "Megatron-LM" and swift_megatron(s, {name, used})
            else "other_setup"
            if used and name in TRAINING_TOOL_LIMITS
            else "no_field",
        )
        for pattern, name in tools
        if name != used and (m := pattern.search(s)) and not any(a <= m.start() < b for a, b, _ in spans)
    ]
    out += named
    out += [(f"runtime: {name}", "runtime_not_modelled") for pattern, name in runtimes if pattern.search(s)]
    return out + kv_cache_layers(s)  # round 12: LMCache, NIXL … beside the engine


FINE_TUNING_TOOLS = frozenset(
    {
        "LLaMA-Factory", "ChatGLM-Efficient-Tuning", "axolotl", "Unsloth", "TRL", "DeepSpeed-Chat", "XTuner",
        "alpaca-lora", "LongLoRA", "MedicalGPT", "llama-recipes", "torchtune", "LMFlow", "OpenRLHF", "verl",
        "EasyR1", *(name for _, name in RL_TRAINING_TOOLS),
    }
)  # fmt: skip
"""Tools that fine-tune a released model (their READMEs: SFT, LoRA/QLoRA, DPO/PPO/GRPO); pre-training and
serving are other tools' jobs (Megatron-LM, NeMo; vLLM …). Round 12: the RL post-training codebases
(:data:`bot.parse.more_tools.RL_TRAINING_TOOLS`, EasyR1) too — 'training a 3B with X-R1, vllm OOMs' is an RL
fine-tuning whose rollout engine is vLLM, not a serving job."""


def fine_tuning_tool_named(s: str) -> bool:
    """Whether the normalized text ``s`` names a fine-tuning tool (:data:`FINE_TUNING_TOOLS`): "training
    a 70B with LLaMA-Factory" is a fine-tuning when no stage word says otherwise."""
    # round 13: a codebase named by its repository ('-' or '_' first: a C test, s34)
    if ("-" in s or "_" in s) and CODEBASE_RE.search(s) and codebases(s):
        return True
    for pattern, name in TOOLS_INDEX.candidates(s):
        if name in FINE_TUNING_TOOLS and pattern.search(s):
            return True
        if name in SERVE_AND_TUNE_TOOLS and pattern.search(s) and TRAINING_WORD_RE.search(s):
            return (
                SERVING_WORD_RE.search(s) is None
            )  # s48: 'train … in FastChat', never 'serve with FastChat'
    return False


SERVE_AND_TUNE_TOOLS = frozenset({"FastChat"})
"""s48 r44en: tools that both fine-tune and serve — FastChat (github.com/lm-sys/FastChat:
fastchat/train/train.py fine-tunes LLaMA into Vicuna, its README's 'Fine-tuning'; fastchat.serve serves): a
fine-tuning tool only when a training word is said and no serving word ('How can I train with a 3090 in
FastChat?'); before, that was sized as a pre-training. 'Running Vicuna with FastChat' stays serving."""


RL_TOOLS = frozenset({"OpenRLHF", "verl", "EasyR1", *(name for _, name in RL_TRAINING_TOOLS)})
"""RL post-training codebases: each generates its rollouts with a serving engine (vLLM or SGLang)."""
TRAINING_WORD_RE = rc(
    r"训练|微调|训(?=的|了|过|一个)|\btrain(?:s|ed|ing)?\b|(?<![a-z])train_(?:ppo|grpo|dpo|sft|rm)"
    r"|fine[\s\-]?tun|\b(?:grpo|ppo|dapo|rloo)\b"
)
"""Training words; round 15 zh: the colloquial '训的是 7b 模型' and a trainer's entry point
('openrlhf.cli.train_ppo_ray')."""
SERVING_WORD_RE = rc(r"部署|推理|上线|\bserv(?:e|es|ed|ing)\b|\bdeploy|\binference\b")


def rl_training_named(s: str) -> bool:
    """Whether the normalized text ``s`` trains with an RL codebase (:data:`RL_TOOLS` and a training word):
    its vLLM is the rollout engine, so 'vllm' there names no serving job (round 12: '用 X-R1 训练 3B 模型，
    训练时 vllm 报显存不足' was sized as serving DeepSeek-R1)."""
    if not TRAINING_WORD_RE.search(s) or SERVING_WORD_RE.search(s):  # '训练完用 vllm 部署': serving
        return False
    if (
        ("-" in s or "_" in s)
        and CODEBASE_RE.search(s)
        and any(rl_codebase(name) for _, _, name in codebases(s))
    ):
        return True
    return any(name in RL_TOOLS and pattern.search(s) for pattern, name in TOOLS_INDEX.candidates(s))


STAGE_READ_RUNTIMES = ("vLLM", "SGLang", "Ollama", "TGI", "lmdeploy", "ExLlama", "llama.cpp", "transformers")
"""Modelled runtimes whose names the stage words or this module's own forms below read; any other runtime of
:data:`estimator.runtimes.RUNTIMES` names a serving job by its ``words`` (s38: Aphrodite)."""
SERVING_ENGINE_RE = rc(
    r"\blmdeploy\b|\bexllama\w*|\bexl2\b|llama[\s.\-_]*cpp|\bllama-server\b"
    r"|\bkobold[\s.\-_]*cpp\b|\bllamafile\b|\blm[\s\-_]*studio\b|\bgpt4all\b|\balpaca[\s.\-_]*cpp\b"
    + "".join(f"|{rt.words}" for name, rt in ENGINE_REGISTRY.items() if name not in STAGE_READ_RUNTIMES)
)
"""Serving engines the stage words do not name (vLLM, SGLang, Ollama and TGI are in them), besides
:data:`RUNTIMES_NOT_MODELLED`; s37 round 33: the llama.cpp front-ends
(:data:`bot.parse.written_settings.LLAMA_CPP_FRONTENDS`: 'which models can I use with koboldcpp?')."""


def serving_engine_named(s: str) -> bool:
    """Whether the normalized text ``s`` names a serving engine: a job on it is serving."""
    if SERVING_ENGINE_RE.search(s):
        return True
    for pattern, _ in NOT_MODELLED_INDEX.candidates(s):  # noqa: SIM110 (not any(genexpr): no generator frame)
        if pattern.search(s):
            return True
    return False


NOT_MODELLED_RE = rc("|".join(f"(?:{p.pattern})" for p, _ in RUNTIMES_NOT_MODELLED))
"""Any runtime of :data:`RUNTIMES_NOT_MODELLED`, in one search (parse cost: one call, not one a runtime)."""


def codebases(s: str) -> list[tuple[int, int, str]]:
    """The training codebases the normalized text ``s`` names by repository name
    (:func:`bot.parse.codebases.codebase_spans`), less those the tool table names by the same words
    ('chatglm-efficient-tuning', 'simple_grpo'). Callers search :data:`CODEBASE_RE` first (the gate)."""
    spans = codebase_spans(s)
    if not spans or not ANY_TOOL_RE.search(s):
        return spans
    known = {(m.start(), m.end()) for p, _ in TRAINING_TOOLS for m in p.finditer(s)}
    return [(a, b, name) for a, b, name in spans if (a, b) not in known]
