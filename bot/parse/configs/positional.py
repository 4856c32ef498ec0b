"""The model a serving launcher line names by position, not by a flag (``vllm serve MODEL``, ``lmdeploy serve
api_server MODEL``, and lmdeploy's shorthand ``lmdeploy serve MODEL`` / ``lmdeploy chat MODEL``)."""

from __future__ import annotations

_LMDEPLOY_SERVE = frozenset({"api_server", "gradio", "proxy", "api_client"})
"""lmdeploy's ``serve`` subcommands (lmdeploy/cli/serve.py): any other word after ``serve`` is the model of
the shorthand people write ('lmdeploy serve Qwen2.5-32B --tp 2': trial s27 #1), as after ``lmdeploy chat``."""


def positional_model(tool: str, positional: list[str]) -> str | None:
    """``vllm serve MODEL`` / ``lmdeploy serve api_server MODEL``: the word after the subcommand; lmdeploy's
    shorthand ``lmdeploy serve MODEL`` / ``lmdeploy chat MODEL``: the word after ``serve``/``chat``."""
    after = {"vllm": "serve", "lmdeploy": "api_server"}.get(tool)
    if tool == "lmdeploy" and after not in positional:
        verb = next((w for w in ("serve", "chat") if w in positional), None)
        i = positional.index(verb) if verb else -1
        word = positional[i + 1] if 0 <= i < len(positional) - 1 else None
        return word if word is not None and word not in _LMDEPLOY_SERVE else None
    i = positional.index(after) if after in positional else -1
    word = positional[i + 1] if 0 <= i < len(positional) - 1 else None
    return None if word is None or word.lower() in PROSE_WORDS else word


PROSE_WORDS = frozenset((
    "with", "and", "or", "the", "a", "an", "on", "in", "using", "via", "for", "to", "at", "it", "this",
    "that", "my", "our", "its", "then", "but", "is", "was", "of", "from", "by", "as", "plus", "用", "和",
))  # fmt: skip
"""Words of a sentence after the subcommand when a command is written in prose ('vllm serve with
--tensor-parallel-size 4, --max-num-seqs 8', en40-002, s45-workmiss): no model's name, which the message
gives elsewhere; a model by position is a path or a repository id, never a function word."""
