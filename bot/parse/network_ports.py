"""Network ports in a pasted command or in prose (issue 24, s36 fixa #5): 'docker run -p 8080:80',
'--publish 8000:8000', '--port 8000', 'port=8000', 'on port 8000', '端口 8080', '端口号是8000'. A port
(or an address) does not change the GPUs, the memory or the time: each is named as not used with that
reason ('network_port'), never 'no word said what it is', and never read as a count or a length."""

from __future__ import annotations

from bot.parse.regex import rc

PORT_RE = rc(
    r"(?:(?<![\w-])-p|--publish)\s+(?:\d+(?:\.\d+){3}:|[a-z][\w.-]*:|:)?(?P<a>\d{2,5})(?::(?P<b>\d{2,5}))?"
    r"|(?:--|\b)(?:port|listen[-_]port|api[-_]port)\b\s*(?:[=:：]|is|of)?\s*(?P<c>\d{2,5})\b"
    r"|端口号?\s*(?:是|为|[=:：])?\s*(?P<d>\d{2,5})(?!\s*(?:张|卡|个|条|万|k\b))"
)
"""A port as typed: after '-p'/'--publish' (host:container, or docker's address:host:container, whose
'127.0.0.1:8000' the normalizer has already blanked to ' :8000' — s36 fixe #3), '--port', 'port', '端口'."""


BENCH_LIST_RE = rc(r"\s*,\s*\d")
"""A comma after a '-p' value: a list of values ('llama-bench -p 512,4096': two prompt lengths), which
docker's '-p' (host:container) never takes (s42)."""


def network_ports(s: str) -> dict[str, str]:
    """{port as typed: 'network_port'} for each port of the normalized text ``s``; a '-p' value is no port
    in a message naming llama-bench (its '-p' is the prompt length, examples/llama-bench/README.md) or when a
    comma list follows it (:data:`BENCH_LIST_RE`, s42)."""
    bench = "llama-bench" in s
    return {
        n: "network_port"
        for m in PORT_RE.finditer(s)
        if m.group("a") is None or not (bench or BENCH_LIST_RE.match(s, m.end()))
        for n in m.group("a", "b", "c", "d")
        if n is not None
    }
