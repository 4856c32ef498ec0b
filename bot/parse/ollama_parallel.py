"""Ollama's parallel slots said in words beside it ('ollama … parallel 4', 'parallel 设成 4', 'Ollama 并行数
4'): the requests one loaded model serves at once, ``OLLAMA_NUM_PARALLEL`` (ollama/ollama
``envconfig/config.go``; its key form 'OLLAMA_NUM_PARALLEL=4' / 'num_parallel 4' is read as a load by
:data:`bot.parse.role_left.L_CONC`). s40 fixs #2: the bare word left the number unread and the answer sized
one sequence. Called by :func:`bot.parse.message.parse_one` only when Ollama is the runtime, no load was
read and the message has 'parallel' or '并行' (cheap ``in`` tests there); imported then."""

from __future__ import annotations

from bot.parse.regex import rc
from bot.parse.result import ParseResult

PARALLEL_RE = rc(
    r"(?<![a-z_\-])(?<!tensor )(?<!pipeline )(?<!data )(?<!expert )(?<!sequence )(?<!context )"
    r"(?:parallel|(?<![张量线据家列])并行(?:数|度|请求数?))"
    r"(?:\s*(?:=|:|：|为|是|设为|设成|设置为|开到|调到|改成|to|of|is|set\s+to))*\s*(?P<n>\d{1,3})"
    r"(?![\d.]|\s*(?:[kmbt]\b|gb|g\b|张|卡|台|x\b|gpus?|cards?))"
)
"""'parallel 4', 'parallel=4', 'parallel 设成 4', '并行数 4'; not 'tensor parallel 4' nor '数据并行 4'."""


def with_ollama_parallel(parsed: ParseResult) -> ParseResult:
    """``parsed`` with its concurrency read from Ollama's parallel slots said in words, the number no
    longer unread; unchanged when none is said or the number was read as something else."""
    m = PARALLEL_RE.search(parsed.normalized)
    if m is None or (m.group("n"), "unread") not in parsed.unused_numbers or int(m.group("n")) < 1:
        return parsed
    said = m.group("n")
    unused = [u for u in parsed.unused_numbers if u != (said, "unread")]
    return parsed.model_copy(
        update={
            "request": parsed.request.model_copy(update={"concurrency": int(said)}),
            "found": [*parsed.found, "concurrency"],
            "unused_numbers": unused,
        }
    )
