"""Pasted and uploaded configs and command lines (issue 24 item 1): LLaMA-Factory, Hugging Face
TrainingArguments / TRL, DeepSpeed JSON, axolotl, torchtune, torchrun / accelerate / deepspeed
launchers, Megatron-LM arguments, vLLM, SGLang, lmdeploy, TGI, llama.cpp and Ollama.

:func:`find_stack_config` finds one in a message (the rest is the question); :func:`read_stack_config`
reads a whole text (a file). Both return a :class:`StackConfig` or None, and never raise.
"""

from __future__ import annotations

import json
import re
from typing import Any

from bot.lazylog import lazy_logger
from bot.parse.configs.launchers import COMMAND_RE, expand, read_serving, serving_tool, shell_variables
from bot.parse.configs.model import UNUSED_REASONS, StackConfig
from bot.parse.configs.python_args import find_python_config
from bot.parse.configs.training import read_training
from bot.parse.configs.vllm_call import find_vllm_call
from bot.parse.configs.yamlish import KEY_RE, flatten, load, scalar
from bot.parse.regex import compile_pattern
from bot.parse.written_values import fold_shell_arithmetic
from bot.recipes.run_line import RUN_GPUS_KEY, RUN_NODES_KEY

log = lazy_logger(__name__)

__all__ = ["UNUSED_REASONS", "StackConfig", "find_stack_config", "read_stack_config"]

TRAINING_TOOLS = ("trl", "llamafactory", "axolotl", "torchtune", "verl")
"""Tools whose configs are YAML. On a tie the first wins: TRL keys are a subset of LLaMA-Factory's (both
take TrainingArguments); verl's are its own nested keys (ppo_trainer.yaml: 'trainer.nnodes',
'actor_rollout_ref.rollout.n'), read through its meaning rows (trial s11 item 17: a verl YAML given with
--config was answered 'not JSON')."""
DEEPSPEED_KEYS = ("zero_optimization", "train_micro_batch_size_per_gpu", "train_batch_size")
MIN_KEYS = 2
"""Known keys a bare YAML or JSON must have to be read as a config (one key is prose)."""
API_FIELDS = (
    "prompt",
    "stream",
    "messages",
    "format",
    "keep_alive",
    "system",
    "template",
    "raw",
    "images",
    "think",
)
"""Fields of an Ollama API request (api/types.go GenerateRequest/ChatRequest) beside its options."""
MODELFILE_RE = compile_pattern(r"^[ \t]*(FROM|PARAMETER)[ \t]+(\S+)(?:[ \t]+(\S+))?", re.M)


def read_stack_config(text: str, source: str = "file") -> StackConfig | None:
    """The config in ``text`` (a whole file or a block), or None when it is not one this reads."""
    found, _ = find_stack_config(text, source)
    return found


def find_stack_config(message: str, source: str = "text") -> tuple[StackConfig | None, str]:
    """(the config or command line in ``message``, the rest of the message: the question)."""
    try:
        return _find(message if isinstance(message, str) else "", source)
    except RecursionError:  # nested deeper than a reader follows: prose, one line in the log
        log.warning("a pasted config is nested too deeply to read")
        return None, message
    except Exception:  # a paste this reader cannot follow is prose: never a traceback in the reply
        log.exception("could not read a pasted config")
        return None, message


def _find(text: str, source: str) -> tuple[StackConfig | None, str]:
    for finder in (find_python_config, find_vllm_call, _json_block, _modelfile, _command, _yaml_block):
        hit = finder(text, source)
        if hit is not None and (hit[0].values or hit[0].used or hit[0].model_name):
            _name_training_tools(hit[0])
            if hit[0].tool == "torchrun":  # 'torchrun … train.py': plain DDP (s32, bot.parse.ddp_launch)
                from bot.parse.configs.inference_scripts import read_inference_launch
                from bot.parse.ddp_launch import command_ddp

                read_inference_launch(hit[0], text)  # round 28: 'torchrun example_text_completion.py'
                command_ddp(hit[0], text)
            if " -m " in text:  # round 20: the package a command runs (no frame for other configs)
                _name_launched_package(hit[0], text)
            from bot.parse.configs.commented import drop_commented

            return hit[0], drop_commented(hit[0], text, hit[1])  # '# --ds.adam_offload': not the prose's
    return None, text


TRAINING_TOOL_NAMES = {
    "llamafactory": "LLaMA-Factory", "axolotl": "axolotl", "torchtune": "torchtune", "deepspeed": "DeepSpeed",
    "accelerate": "Accelerate", "megatron": "Megatron-LM", "trl": "Hugging Face Trainer / TRL",
    "verl": "verl", "openrlhf": "OpenRLHF", "llama-recipes": "llama-recipes", "colossalai": "ColossalAI",
    "peft": "PEFT",  # r35 en: a pasted LoraConfig alone (configs.python_args)
}  # fmt: skip
"""Training tools a config names. One whose layouts the sizing models
(:data:`estimator.training_tools.TRAINING_TOOL_LIMITS`) sets ``training_tool`` (issue 24 item 3); any
other is named as not used (no_field)."""
MODELLED_TOOLS = {
    "llamafactory": "LLaMA-Factory",
    "axolotl": "axolotl",
    "megatron": "Megatron-LM",
    "trl": "TRL",
    "openrlhf": "OpenRLHF",
    "verl": "verl",  # its rollout generates the whole step: estimator.training_tools
}


def _name_training_tools(cfg: StackConfig) -> None:
    for tool in dict.fromkeys([*cfg.tools, cfg.tool]):
        if (
            tool in MODELLED_TOOLS
            and "training_tool" not in cfg.values
            and cfg.values.get("stage") != "inference"
        ):
            cfg.values["training_tool"] = MODELLED_TOOLS[tool]
        elif tool in TRAINING_TOOL_NAMES:
            cfg.skip("training_tool", TRAINING_TOOL_NAMES[tool], _tool_reason(cfg, tool))


def _name_launched_package(cfg: StackConfig, text: str) -> None:
    """Round 20: the package a command runs with ``-m`` ('torchrun … -m FlagEmbedding.llm_reranker.run'),
    named as typed when no table knows it (:mod:`bot.parse.launched_tools`), not only '-m: True'."""
    from bot.parse.launched_tools import MODULE_RE, launched_tools
    from bot.parse.unknown_tools import _known

    if MODULE_RE.search(text):
        training = cfg.values.get("stage") != "inference"
        cfg.unused.update(dict(launched_tools(text, training, _known)))


def _tool_reason(cfg: StackConfig, tool: str) -> str:
    """'settings_applied' for DeepSpeed when the config's ZeRO stage or offload is what the sizing uses
    (a fresh-user trial: a pasted DeepSpeed JSON read "Not used: training_tool: DeepSpeed" while its
    ZeRO-3 and offload were used; named "Used" as in prose, bot.parse.stack_words); else 'no_field'."""
    applied = tool == "deepspeed" and any(k in cfg.values for k in ("zero_stage", "offload"))
    return "settings_applied" if applied else "no_field"


def _json_block(text: str, source: str) -> tuple[StackConfig, str] | None:
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        data = json.loads(text[start : end + 1])
    except (ValueError, RecursionError):  # not JSON, or nested deeper than the decoder follows
        return None
    if not isinstance(data, dict):
        return None
    rest = (text[:start] + " " + text[end + 1 :]).strip()
    flat = flatten(data)
    if any(k in data for k in DEEPSPEED_KEYS):
        blank = StackConfig(tool="deepspeed", tools=["deepspeed"], format="json", source=source)
        cfg = read_training(flat, "deepspeed", blank)
        return cfg, rest
    if "num_ctx" in flat or "options.num_ctx" in flat:
        return _ollama({k.removeprefix("options."): v for k, v in flat.items()}, "json", source), rest
    tool = _best_tool(list(flat))
    if tool is None:
        return None
    return read_training(flat, tool, StackConfig(tool=tool, tools=[tool], format="json", source=source)), rest


def _best_tool(keys: list[str]) -> str | None:
    from bot.parse.configs.vocab import score

    scores = {tool: score(tool, keys) for tool in TRAINING_TOOLS}
    best = max(TRAINING_TOOLS, key=lambda t: scores[t])
    return best if scores[best] >= MIN_KEYS else None


def _modelfile(text: str, source: str) -> tuple[StackConfig, str] | None:
    lines = MODELFILE_RE.findall(text)
    if not any(kind == "FROM" for kind, _, _ in lines) or not any(k == "PARAMETER" for k, _, _ in lines):
        return None
    flat: dict[str, Any] = {}
    for kind, name, value in lines:
        if kind == "FROM":
            flat["model"] = name
        else:
            flat[name] = scalar(value)
    rest = MODELFILE_RE.sub("", text)
    rest = re.sub(r"^\s*(TEMPLATE|SYSTEM|ADAPTER|LICENSE|MESSAGE)\b.*$", "", rest, flags=re.M).strip()
    return _ollama(flat, "modelfile", source), rest


def _ollama(flat: dict[str, Any], fmt: str, source: str) -> StackConfig:
    """Ollama (Modelfile PARAMETER or API options): num_ctx → context; num_gpu → layers on the GPU."""
    cfg = StackConfig(tool="ollama", tools=["ollama"], format=fmt, source=source)
    cfg.values["stage"] = "inference"
    cfg.values["runtime"] = "Ollama"
    from bot.parse.configs.vocab import known

    for key, value in flat.items():
        if key == "model":
            cfg.model_name, cfg.used[key] = str(value), "model"
        elif key == "num_ctx" and isinstance(value, int) and value > 0:
            cfg.set(key, "seq_len", value)
            cfg.values["max_model_len"] = value  # its KV cache is allocated for the whole num_ctx
        elif key in API_FIELDS:
            cfg.skip(key, value, "not_sized")
        elif key == "num_gpu" and isinstance(value, int) and value >= 0:
            cfg.set(key, "gpu_layers", value)  # layers on the GPU (docs/modelfile.md)
        elif key == "num_parallel":  # no option of Ollama's: its slots are OLLAMA_NUM_PARALLEL (s40 fixs #2)
            cfg.skip(key, value, "unknown_key")
        elif key in ("num_gpu", "num_batch"):
            cfg.skip(key, value, "no_field")
        else:
            cfg.skip(key, value, "not_sized" if known("ollama", key) else "unknown_key")
    return cfg


def _command(text: str, source: str) -> tuple[StackConfig, str] | None:
    joined = CONTINUATION_RE.sub(" ", text) if "\\" in text else text  # continued lines
    joined = fold_shell_arithmetic(joined) if "$(" in joined else joined  # '$(expr 16 / 8)': 2 (round 25)
    for line in joined.splitlines():
        m = COMMAND_RE.search(line)
        if m is None or line.lstrip().startswith("#"):  # a comment ('# run: llamafactory-cli train …')
            continue
        start = m.start() + (line[m.start()] in ":：`，,;；(（。")  # '命令：deepspeed …': after the colon
        end = command_end(line, start)
        if prose_launcher(line[start:end]):
            continue  # "vllm serve llama 3.1 70b on 4 H100": a sentence naming the runtime, not a command
        env = ENV_BEFORE_RE.search(line[: start + 1])
        begin = start + 1 - len(env.group(0)) if env else start
        command = expand(line[begin:end].strip().strip("`$ "), shell_variables(text))
        rest = joined.replace(line, line[:begin] + " " + line[end:], 1).strip()
        tool = serving_tool(command)
        if start > m.start() and tool is None and not KNOWN_ENTRY_RE.search(command):
            continue  # '命令：deepspeed main.py --zero_stage 2': a script whose flags the prose reads
        fmt_cfg = StackConfig(tool=tool or "torchrun", format="cli", source=source)
        if tool is not None:
            fmt_cfg.tools.append(tool)
            return read_serving(command, tool, fmt_cfg), rest
        from bot.parse.configs.launch_line import read_launch  # a training launch only (s42-speed)

        return read_launch(command, fmt_cfg), rest
    return None


CONTINUATION_RE = compile_pattern(r"\\[ \t]*\r?\n|(?<=[ \t])\\(?=[ \t])")
"""A line continuation: a backslash at the end of a line, or one standing alone between words where a
chat joined the lines of a pasted script ('main_ppo \\ data.train_batch_size=512 \\ …')."""
KNOWN_ENTRY_RE = compile_pattern(
    r"llamafactory-cli|(?:^|\s)lmf\s|src/train(?:_bash)?\.py|--(?:finetuning_type|cutoff_len|template)\b"
    r"|(?:^|\s)trl\s+(?:sft|dpo|grpo)|tune\s+run|pretrain_gpt|-m\s+(?:verl|openrlhf)\.\w"
)
"""Training entry points whose arguments the command reader knows (LLaMA-Factory's CLI and scripts, TRL's
CLI, torchtune, Megatron-LM, verl's and OpenRLHF's modules): a command after a colon is read as one only
then; another script's flags (DeepSpeed-Chat's ``main.py --zero_stage 2 --offload``) are left to the
prose reader, as before."""
ENV_BEFORE_RE = compile_pattern(r"(?<![^\s`$])(?:[A-Z_][A-Z0-9_]*=[\w,.:/-]*\s+)+$")
"""Environment assignments written before a command ('CUDA_VISIBLE_DEVICES=0,1,2 llamafactory-cli …'):
part of it (the visible GPUs are its GPU count)."""


def prose_launcher(command: str) -> bool:
    """A serving launcher word in a sentence ("lmdeploy serve internlm2.5-20b on 2 A100 …", "vllm serve
    llama 3.1 70b on 4 H100"): no flag at all and no model path, so the prose reads the model, the
    runtime and the numbers; a pasted ``vllm serve org/model`` or one with flags stays a command."""
    return serving_tool(command) is not None and not re.search(r"(?:^|\s)-|/", command)


WORD_RE = compile_pattern(r"\S+")
CJK_RE = compile_pattern(r"[\u3000-\u9fff\uff00-\uffef]")
MAX_POSITIONAL = 4
"""Bare words a command may have before its first flag (program, subcommand, module, script, model)."""


PROSE_WORDS = frozenset(
    ("with", "using", "via", "but", "so", "then", "when", "while", "because", "which", "is")
)  # fmt: skip
"""English's function words that no flag takes as its value ('on', 'and' can be: llama.cpp's '-fa on'):
after a command's flags they begin the sentence again (round 12: 'with' was read as ``--use_fast_kernels``'s
value, and the model after it lost to the command)."""


DASH_PROSE_RE = re.compile(r"\s+[A-Za-z][a-z']*(?=\s|[?,!]|$|\.(?:\s|$))")
"""After a bare '--' in a command: a plain word, as prose goes on ('-- will this fit', '-- how fast'); never a
script or a path after the shell's end of options ('-- train.py', '-- ./run.sh')."""


def _open_quote(line: str, start: int, end: int) -> bool:
    """A quote opened and not closed between ``start`` and ``end`` (round 22: the commas of
    ``--lora_target_modules='["q_proj", "v_proj"]'`` are the list's, not the end of the command)."""
    return line.count("'", start, end) % 2 == 1 or line.count('"', start, end) % 2 == 1


def command_end(line: str, start: int) -> int:
    """Where a command written inside a sentence ends: at the first CJK character, after a word a comma or a
    semicolon closes ("… --enforce-eager, how much" ends before the comma), or at the first bare word that is
    neither a flag, a flag's value, ``key=value``, a path nor one of the command's leading words ("… --tp 2
    OOMs on my node" ends before "OOMs")."""
    cjk = CJK_RE.search(line, start)
    stop = cjk.start() if cjk else len(line)
    bare, after_flag, seen_flag = 0, False, False
    for m in WORD_RE.finditer(line, start, stop):
        word = m.group(0)
        if m.start() > start and _open_quote(line, start, m.start()):
            continue  # inside a quoted value
        if word[-1] in ",;" and m.start() > start and not _open_quote(line, start, m.end()):
            if seen_flag and not after_flag and not word.startswith("-") and not _command_word(word[:-1]):
                return m.start()  # s40: '… --trust-remote-code on 8xH200, how many': the card is prose
            return m.end() - 1  # round 7: '--enforce-eager, how much …': the comma ends the command
        if word == "--" and seen_flag and DASH_PROSE_RE.match(line, m.end()):
            return m.start()  # s35: '… --max-model-len 16384 -- will this fit?': a dash, the sentence again
        if word.startswith("-"):
            after_flag = seen_flag = True
            if "=" in word:
                after_flag = False
            continue
        if seen_flag and word.lower() in PROSE_WORDS:
            return m.start()  # round 12: '… --use_fast_kernels with meta-llama/Llama-3.2-1B on 8 A40': prose
        if after_flag or _command_word(word):
            after_flag = False
            continue
        bare += 1
        if seen_flag or bare > MAX_POSITIONAL:
            return m.start()
    return stop


def _command_word(word: str) -> bool:
    """A command's own word that no flag precedes: a variable, ``key=value``, a path or a file name."""
    return (
        word.startswith("$")
        or "=" in word
        or "/" in word
        or bool(re.search(r"\.(py|sh|ya?ml|json|gguf)$", word))
    )


def _yaml_block(text: str, source: str) -> tuple[StackConfig, str] | None:
    lines = text.splitlines()
    block = [i for i, ln in enumerate(lines) if _yamlish(ln)]
    if not block:
        return None
    data = load("\n".join(lines[i] for i in block))
    tool = _best_tool(list(flatten(data)) + list(data))
    if tool is None:
        return None
    from bot.parse.configs.colonless import colonless

    if fixed := colonless(lines, block, tool):  # 'quantization_bit 4': read as 'quantization_bit: 4' (s39)
        block = sorted([*block, *fixed])
        data = load("\n".join(fixed.get(i, lines[i]) for i in block))
    cfg = read_training(
        flatten(data), tool, StackConfig(tool=tool, tools=[tool], format="yaml", source=source)
    )
    cfg.unused.update({lines[i].strip(): "colon_missing" for i in fixed})
    comments = " ".join(lines[i] for i in block if lines[i].lstrip().startswith("#"))
    if "gpu_count" not in cfg.values and (n := RUN_GPUS_RE.search(comments)):  # '# run: NPROC_PER_NODE=8 …'
        nodes = RUN_NODES_RE.search(comments)
        cfg.set("NPROC_PER_NODE", "gpu_count", int(n.group(1)) * (int(nodes.group(1)) if nodes else 1))
    if "zero_stage" not in cfg.values:
        _zero_from_comment(cfg, comments)
    kept, in_block = [], set(block)
    for i, ln in enumerate(lines):  # the prose around the config, and its prose comments (trial2 #7)
        from bot.parse.configs.commented import ASKING_RE

        if i not in in_block:
            kept.append(ln)
        elif ln.lstrip().startswith("#") and not COMMENTED_KEY_RE.match(ln) and ASKING_RE.search(ln):
            kept.append(ln.lstrip().lstrip("#"))  # '# 2张 RTX 4090，要多久': the question, read as prose
    return cfg, "\n".join(kept).strip()


COMMENTED_KEY_RE = compile_pattern(r"\s*#+\s*(?:[\w.\-/]+\s*[:=]|-{3}|$)")
"""A comment that is a config line put aside ('# lora_rank: 8', '# run: NPROC_PER_NODE=8 …', '# ds.json:
ZeRO-3'), a separator or empty: not prose. A comment that asks (:data:`ASKING_RE`: '# 2张 RTX 4090，
要多久', '# dataset ~120M tokens, single A10G 24GB on AWS. how long and will it fit?') is the user's
words, read as the question's prose."""


DS_COMMENT_RE = compile_pattern(
    r"#\s*(?P<file>[\w./-]+\.json)\s*:\s*ZeRO[-\s]?(?P<stage>[0-3])(?![0-9])"
    r"(?:\s*\+\s*(?P<offload>(?i:CPU\s+offload))"
    r"|[\s,;(]*(?P<no_offload>(?i:(?:no|without)\s+(?:CPU\s+)?offload|offload\s+(?:disabled|off)\b)))?"
)
"""The ZeRO stage a config's comment gives its DeepSpeed file ('# ds_config.json: ZeRO-3 + CPU offload',
as the bot's own LLaMA-Factory recipe writes it beside ``deepspeed: ds_config.json``); offload only as
that recipe writes it ('+ CPU offload') or turned off in words ('no CPU offload', 'offload disabled'):
any other mention of offload, or none, leaves it unstated (s13 review 7: 'no CPU offload' read as on)."""


def _zero_from_comment(cfg: StackConfig, comments: str) -> None:
    """A ``deepspeed:`` file whose name has no stage, with a comment that names it and gives the stage
    (:data:`DS_COMMENT_RE`): the stage (and offload) is the config's, used — not "no setting" (s12 trial
    B3: the bot's own recipe pasted back was said to have no DeepSpeed)."""
    key = next((k for k in cfg.unused if k.startswith("deepspeed: ")), None)
    m = DS_COMMENT_RE.search(comments) if key is not None else None
    if (
        m is None
        or key is None
        or key.split(": ", 1)[1].rsplit("/", 1)[-1] != m.group("file").rsplit("/", 1)[-1]
    ):
        return
    del cfg.unused[key]
    cfg.set("deepspeed", "zero_stage", int(m.group("stage")))
    if m.group("offload") or m.group("no_offload"):
        cfg.values["offload"] = bool(m.group("offload"))


RUN_GPUS_RE = compile_pattern(rf"\b{RUN_GPUS_KEY}=([1-9]\d{{0,3}})\b")
RUN_NODES_RE = compile_pattern(rf"\b{RUN_NODES_KEY}=([1-9]\d{{0,3}})\b")
"""The GPUs a config's run comment launches it on ('# run: FORCE_TORCHRUN=1 NPROC_PER_NODE=8
llamafactory-cli train llamafactory.yaml', as the bot's own recipe writes it with the keys of
:mod:`bot.recipes.run_line`): a comment is never read as a command (its config is), but the GPU count
it states is the config's."""


def _yamlish(line: str) -> bool:
    """A line of a YAML config: ``key: value``, an indented line, a list item or a comment."""
    s = line.strip()
    if not s:
        return False
    if s.startswith("#") or line.startswith((" ", "\t", "- ")):
        return True
    m = KEY_RE.match(line)
    return bool(m) and " " not in m.group(3)
