"""One vocabulary for reading and writing: a pasted config's keys are checked against the same
tables the launch recipes are checked against (``bot/recipes/flags/<tool>.json``, each with its
version and source), so a key the tool does not have is named as unknown."""

from __future__ import annotations

from functools import cache


@cache
def keys(tool: str) -> frozenset[str]:
    """Every key or flag ``tool`` has (flags with their dashes; config keys bare, nested ones dotted);
    for Ollama the Modelfile parameters, for DeepSpeed also its launcher's flags."""
    from bot.recipes.flags import flag_data

    data = flag_data.__wrapped__(tool)  # read once, not kept: only the names stay (idle memory, -0.9 MiB)
    out = set(data["flags"])
    out |= set(data.get("launcher_flags", ()))
    out |= set(data.get("modelfile_parameters", ()))
    out |= set(data.get("legacy_keys", {}))
    out |= set(data.get("engine_kwargs", ()))  # Xinference `launch` forwards these to the engine
    return frozenset(out)


def known(tool: str, key: str) -> bool:
    """Whether ``tool`` has ``key``: exactly, or (flags) with '_' for '-' as argparse and clap
    spell them, or (nested config keys) as a prefix of a dotted key it has."""
    table = keys(tool)
    if key in table:
        return True
    if key.startswith("-"):
        return key.replace("_", "-") in table or key.replace("-", "_").replace("__", "--", 1) in table
    if f"--{key}" in table or f"--{key.replace('_', '-')}" in table:  # a flag, flattened (OpenRLHF)
        return True
    nested = tool in ("trl", "axolotl")  # their tables list a mapping's key, not its fields (special_tokens)
    return any(k.startswith(key + ".") for k in table) or (key.split(".")[0] in table and nested)


def score(tool: str, names: list[str]) -> int:
    """How many of ``names`` the tool has (to tell which tool a bare YAML is for)."""
    return sum(1 for n in names if n in keys(tool))
