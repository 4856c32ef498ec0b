"""The flag and key lists of the tools the recipes target, and the check that a recipe uses only those.

``bot/recipes/flags/<tool>.json`` holds, per tool, the version pinned, where the list was taken from
(``source``, ``how_extracted``: the tool's own argument parser or config classes at that version) and
the full sorted list (``flags``), with tool-specific lists (DeepSpeed's launcher flags, LLaMA-Factory's
templates and launcher environment, torchtune's registered recipes and configs, Ollama's commands,
Modelfile instructions and parameters, environment variables) and the allowed values of flags with
choices. :func:`problems` lists every flag, key or value of a recipe the tool does not have.
"""

from __future__ import annotations

import json
import re
import shlex
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.recipes.model import Recipe

FILES = {
    "deepspeed": "deepspeed",
    "torchrun": "torchrun",
    "megatron": "megatron",
    "llamafactory": "llamafactory",
    "torchtune": "torchtune",
    "vllm": "vllm",
    "sglang": "sglang",
    "llama.cpp": "llama.cpp",
    "ollama": "ollama",
}
"""Tools the recipes write (``tests/test_recipes.py`` checks these against the recipe tools)."""

READ_ONLY = {
    "lmdeploy": "lmdeploy", "tgi": "tgi", "axolotl": "axolotl", "trl": "trl", "verl": "verl",
    "openrlhf": "openrlhf", "ms-swift": "ms-swift", "peft": "peft", "trtllm": "trtllm", "xtuner": "xtuner",
    "xinference": "xinference", "llama-recipes": "llama-recipes",
}  # fmt: skip
"""Tools whose configs and command lines are only read (:mod:`bot.parse.configs`), same format."""


@cache
def flag_data(tool: str) -> dict[str, Any]:
    """The JSON of one tool's list (version, source, flags, extras)."""
    from importlib import resources  # here: only a recipe or a pasted config needs it (start-up)

    with (
        resources.files("bot.recipes")
        .joinpath("flags", f"{({**FILES, **READ_ONLY})[tool]}.json")
        .open("rb") as fh
    ):
        return json.load(fh)


@cache
def flag_set(tool: str) -> frozenset[str]:
    return frozenset(flag_data(tool)["flags"])


def versions() -> dict[str, str]:
    """Tool → the version its list was taken from."""
    return {tool: flag_data(tool)["version"] for tool in FILES}


# -- parsing a recipe back into what it uses ---------------------------------------------------------


def _json_paths(value: Any, prefix: str = "") -> list[str]:
    """Dotted paths of every key in a JSON object ("zero_optimization.offload_optimizer.device")."""
    if not isinstance(value, dict):
        return []
    out = []
    for key, sub in value.items():
        path = f"{prefix}{key}"
        out.append(path)
        out += _json_paths(sub, path + ".")
    return out


def yaml_items(text: str) -> dict[str, str]:
    """Top-level ``key: value`` pairs of a flat YAML file (comments and blank lines skipped)."""
    out = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, sep, value = line.partition(":")
        if sep and re.fullmatch(r"[A-Za-z_][\w.]*", key):
            out[key] = value.split(" #", 1)[0].strip()
    return out


def commands(text: str) -> list[list[str]]:
    """The commands of a bash recipe as word lists: comments dropped, ``\\`` continuations joined,
    here-documents kept as one ``<<HEREDOC`` word followed by their lines."""
    out: list[list[str]] = []
    lines = text.splitlines()
    i = 0
    current = ""
    while i < len(lines):
        line = lines[i]
        i += 1
        if not current and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        current += line
        heredoc = re.search(r"<<\s*'?(\w+)'?", current)
        words = shlex.split(current.split("<<")[0] if heredoc else current, comments=True)
        if heredoc:
            body = []
            while i < len(lines) and lines[i].strip() != heredoc.group(1):
                body.append(lines[i])
                i += 1
            i += 1
            words += ["<<HEREDOC", *body]
        if words and words[-1] == "&":
            words = words[:-1]
        out.append(words)
        current = ""
    return out


def _split_env(words: list[str]) -> tuple[list[str], list[str]]:
    """Leading ``NAME=value`` assignments (their names) and the command after them."""
    env = []
    while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=.*", words[0]):
        env.append(words[0].split("=", 1)[0])
        words = words[1:]
    return env, words


def _flag_words(words: list[str]) -> list[tuple[str, str | None]]:
    """(flag, value) pairs: a word starting with '-' and the next word when that is not a flag."""
    out = []
    for i, word in enumerate(words):
        if word.startswith("-") and not re.fullmatch(r"-?\d+(\.\d+)?", word):
            nxt = words[i + 1] if i + 1 < len(words) else None
            value = nxt if nxt is not None and not nxt.startswith("--") and not _is_flag(nxt) else None
            out.append((word, value))
    return out


def _is_flag(word: str) -> bool:
    return word.startswith("-") and not re.fullmatch(r"-?\d+(\.\d+)?", word)


def _launcher_split(words: list[str]) -> tuple[list[str], list[str]]:
    """A launcher's own words and the script's (``deepspeed``/``torchrun`` … ``script.py args``)."""
    for i, word in enumerate(words[1:], 1):
        if word.endswith(".py"):
            return words[:i], words[i:]
    return words, []


# -- the check ---------------------------------------------------------------------------------------


def _check_flags(tool: str, pairs: list[tuple[str, str | None]], problems: list[str], names=None) -> None:
    known = names if names is not None else flag_set(tool)
    choices = flag_data(tool).get("choices", {}) if names is None else {}
    for flag, value in pairs:
        if flag not in known:
            problems.append(f"{tool}: unknown flag {flag}")
        elif flag in choices and value is not None and value not in choices[flag]:
            problems.append(f"{tool}: {flag} {value} not in {choices[flag]}")


def _hf_args(words: list[str], problems: list[str]) -> None:
    """A training script's arguments: Hugging Face TrainingArguments (in LLaMA-Factory's list, which
    holds every Seq2SeqTrainingArguments field of the transformers it pins)."""
    hf = flag_set("llamafactory")
    for flag, _ in _flag_words(words):
        if flag.lstrip("-") not in hf:
            problems.append(f"train.py: unknown Trainer argument {flag}")


def _check_launcher(tool: str, words: list[str], problems: list[str]) -> None:
    own, rest = _launcher_split(words)
    names = frozenset(flag_data("deepspeed")["launcher_flags"]) if tool == "deepspeed" else None
    _check_flags("deepspeed" if tool == "deepspeed" else "torchrun", _flag_words(own[1:]), problems, names)
    if not rest:
        problems.append(f"{tool}: no script to launch")
        return
    if rest[0] == "pretrain_gpt.py":
        _check_flags("megatron", _flag_words(rest[1:]), problems)
    else:
        _hf_args(rest[1:], problems)


def _check_tune(words: list[str], problems: list[str]) -> None:
    data = flag_data("torchtune")
    i = 2
    torchrun_words = []
    while i < len(words) and words[i].startswith("-"):
        torchrun_words += words[i : i + 2]
        i += 2
    _check_flags("torchrun", _flag_words(torchrun_words), problems)
    recipe = words[i] if i < len(words) else ""
    if recipe not in data["recipes"]:
        problems.append(f"torchtune: unknown recipe {recipe}")
        return
    rest = words[i + 1 :]
    if len(rest) < 2 or rest[0] != "--config" or rest[1] not in data["recipes"][recipe]:
        problems.append(f"torchtune: {rest[:2]} is not a config of {recipe}")
    for override in rest[2:]:
        key = override.split("=", 1)[0]
        if key not in flag_set("torchtune"):
            problems.append(f"torchtune: unknown key {key}")


def _check_ollama(words: list[str], env: list[str], problems: list[str]) -> None:
    data = flag_data("ollama")
    for name in env:
        if name not in data["env_vars"]:
            problems.append(f"ollama: unknown environment variable {name}")
    if len(words) < 2:
        return
    commands_ = {key.split()[0]: flags for key, flags in data["cli_commands"].items()}
    flags = commands_.get(words[1])
    if flags is None:
        problems.append(f"ollama: unknown command {words[1]}")
        return
    spellings = {s for f in flags for s in f.split("/")}
    for flag, _ in _flag_words(words[2:]):
        if flag not in spellings:
            problems.append(f"ollama {words[1]}: unknown flag {flag}")


def _check_modelfile(lines: list[str], problems: list[str]) -> None:
    data = flag_data("ollama")
    for line in lines:
        parts = line.split()
        if not parts:
            continue
        if parts[0] not in data["modelfile_instructions"]:
            problems.append(f"Modelfile: unknown instruction {parts[0]}")
        elif parts[0] == "PARAMETER" and (len(parts) < 3 or parts[1] not in data["modelfile_parameters"]):
            problems.append(f"Modelfile: unknown parameter {parts[1:2]}")


def _check_bash(recipe: Recipe, problems: list[str]) -> None:
    for words in commands(recipe.text):
        env, words = _split_env(words)
        if "<<HEREDOC" in words:
            head = words[: words.index("<<HEREDOC")]
            if head[:1] == ["cat"]:
                _check_modelfile(words[words.index("<<HEREDOC") + 1 :], problems)
            continue
        program = words[0] if words else ""
        if program == "sleep" and len(words) == 2 and words[1].isdigit():  # waits for a server to start
            continue
        if program in ("deepspeed", "torchrun"):
            _check_launcher(program, words, problems)
        elif program == "vllm" and words[1:2] == ["serve"]:
            _check_flags("vllm", _flag_words(words[3:]), problems)
        elif program == "python" and words[1:3] == ["-m", "sglang.launch_server"]:
            _check_flags("sglang", _flag_words(words[3:]), problems)
        elif program == "llama-server":
            _check_flags("llama.cpp", _flag_words(words[1:]), problems)
        elif program == "tune" and words[1:2] == ["run"]:
            _check_tune(words, problems)
        elif program == "ollama":
            _check_ollama(words, env, problems)
        elif program == "llamafactory-cli":
            for name in env:
                if name not in flag_data("llamafactory")["launcher_env"]:
                    problems.append(f"llamafactory-cli: unknown environment variable {name}")
        else:
            problems.append(f"{recipe.tool}: unexpected command {program!r}")
        if program != "ollama" and program != "llamafactory-cli" and env:
            problems.append(f"{program}: unexpected environment {env}")


def _check_llamafactory(recipe: Recipe, problems: list[str]) -> None:
    data = flag_data("llamafactory")
    items = yaml_items(recipe.text)
    for key in items:
        if key not in flag_set("llamafactory"):
            problems.append(f"llamafactory: unknown key {key}")
    if items.get("finetuning_type") not in data["finetuning_types"]:
        problems.append(f"llamafactory: finetuning_type {items.get('finetuning_type')}")
    if "template" in items and items["template"] not in data["templates"]:
        problems.append(f"llamafactory: unknown template {items['template']}")
    for line in recipe.text.splitlines():  # the run line in the header comment
        match = re.search(r"(?:run|运行)[:：]\s*(.*llamafactory-cli.*)$", line)
        if match:
            env, _ = _split_env(shlex.split(match.group(1)))
            for name in env:
                if name not in data["launcher_env"]:
                    problems.append(f"llamafactory-cli: unknown environment variable {name}")


def _check_deepspeed_json(recipe: Recipe, problems: list[str]) -> None:
    data = flag_data("deepspeed")
    known = flag_set("deepspeed") | set(data.get("verified_nested", {}))
    for path in _json_paths(json.loads(recipe.text)):
        if path not in known:
            problems.append(f"deepspeed: unknown config key {path}")


def problems(recipe: Recipe) -> list[str]:
    """Every flag, key or value in ``recipe`` that its tool's list does not have (empty: all known)."""
    out: list[str] = []
    if recipe.language == "json":
        _check_deepspeed_json(recipe, out)
    elif recipe.language == "yaml":
        _check_llamafactory(recipe, out)
    else:
        _check_bash(recipe, out)
    return out
