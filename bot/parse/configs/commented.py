"""Settings a pasted config or command line puts aside with ``#`` (issue 24: "commented out").

A line that starts with ``#`` in a shell script (``# --ds.adam_offload`` inside a bash array or a
continued command), a YAML file (``# quantization_bit: 4``) or a ``key = value`` file is never a
setting: bash drops it (bash(1) "COMMENTS"), as YAML does (YAML 1.2 §6.6) and TOML (TOML v1.0.0
"Comment"). The config readers already skip them (:func:`bot.parse.configs.launchers.shell_variables`,
:func:`bot.parse.configs.yamlish.load`); this keeps the prose readers, which read the message around
the config, from reading them either, and names a commented-out key that would set a sizing field as
not used (``commented_out``), so the user sees that it was read and why it does not count.
"""

from __future__ import annotations

import re

from bot.parse.configs.meaning import MEANING, bare, tool_rows, training_rows
from bot.parse.configs.model import StackConfig
from bot.parse.regex import compile_pattern

COMMENTED_RE = compile_pattern(
    r"^[ \t]*#+[ \t]*(?P<key>--?[A-Za-z][\w.\-]*|[A-Za-z_][\w.\-]*(?=[ \t]*[:=]))"
    r"(?:[ \t]*[:=]?[ \t]*(?P<value>[^\s#\\]+))?[^\n]*$",
    re.M,
)
"""A comment line that is a flag or a ``key: value`` / ``key = value`` put aside: ``# --ds.adam_offload``,
``   # --critic.adam.lr 9e-6``, ``# quantization_bit: 4``, ``#deepspeed: ds_z3.json``; the key and its
first value word (None for a bare flag)."""
METHOD_KEYS = frozenset({"quantization_bit", "load_in_4bit", "load_in_8bit", "finetuning_type", "adapter"})
"""Keys the method reader (:func:`bot.parse.configs.training._method`) reads beside the field rows."""

ASKING_RE = compile_pattern(
    r"[?？]|吗|多久|多少|几张|够不够|放得下|能不能|how\s+(?:long|many|much)|will\s+it\s+fit|enough"
)
"""A question in a comment ('要多久', 'how long and will it fit?'): the user's words, not a note of the
config's author ('# learning rate is not sized here; … 1.0e-5', our own recipes' comments)."""


def drop_commented(cfg: StackConfig, text: str, rest: str) -> str:
    """``rest`` (the message around ``cfg``) without its commented-out setting lines; each one in ``text``
    (the whole message) whose key would set a sizing field for ``cfg.tool`` is named in ``cfg.unused`` as
    ``commented_out`` (unless the config sets that key itself). Costs one test when there is no ``#``."""
    if "#" not in text:
        return rest
    rows = tool_rows(cfg.tool) if cfg.tool in MEANING else training_rows()
    written = {bare(k.split(": ", 1)[0]) for k in (*cfg.used, *cfg.unused)}
    for m in COMMENTED_RE.finditer(text):
        key = bare(m.group("key"))
        row = rows.get(key)
        if ((row is not None and row[0] is not None) or key in METHOD_KEYS) and key not in written:
            cfg.skip(key, m.group("value") or True, "commented_out")
            written.add(key)

    def put_aside(m: re.Match[str]) -> str:
        row = rows.get(bare(m.group("key")))
        if (row is None or row[0] is None) and ASKING_RE.search(m.group(0)):
            return m.group(0).lstrip().lstrip("#")  # '# Q: how long?': the user's question
        return ""

    return COMMENTED_RE.sub(put_aside, rest) if "#" in rest else rest


def prose_commented(text: str) -> tuple[str, list[tuple[str, str]]]:
    """A message with no config found: (``text`` without its commented-out setting lines, each one as
    typed with ``commented_out``), for ``ParseResult.unused_numbers`` (design §8: a setting stated is
    used or named as not used, with why). A line counts when its key is a flag (``# --quantization_bit
    4``) or a key some tool's config reads (``# cutoff_len: 4096``: :data:`MEANING`); a heading such as
    ``# Setup: 2 A100`` stays prose, as does a commented line that asks a question (:data:`ASKING_RE`).
    s28 tidy: before, the prose readers read ``# --quantization_bit 4`` as QLoRA on 4 bits."""
    if "#" not in text:
        return text, []
    said: list[tuple[str, str]] = []

    def put_aside(m: re.Match[str]) -> str:
        key = m.group("key")
        if not key.startswith("-") and not any(key in rows or bare(key) in rows for rows in MEANING.values()):
            return m.group(0)  # a heading or a note: prose
        if ASKING_RE.search(m.group(0)):
            return m.group(0).lstrip().lstrip("#")  # '# Q: how long?': the user's question
        said.append((m.group(0).strip().lstrip("#").strip(), "commented_out"))
        return ""

    rest = COMMENTED_RE.sub(put_aside, text)
    return rest, said
