"""A reader for the YAML subset training configs are written in (LLaMA-Factory, axolotl, torchtune,
TRL): ``key: value`` maps nested by indentation, ``- item`` lists, inline ``[a, b]`` lists, quoted
strings, comments. No dependency on a YAML library; anything it does not understand is skipped
(it never raises). Scalars: true/false/null, ints, floats (``1.0e-4``), else strings."""

from __future__ import annotations

import re
from typing import Any

from bot.parse.regex import compile_pattern

KEY_RE = compile_pattern(r"^(\s*)(-\s+)?([A-Za-z_][\w.\-]*)\s*:(?:\s+(.*))?$")
ITEM_RE = compile_pattern(r"^(\s*)-\s+(.*)$")


def scalar(text: str) -> Any:
    """A YAML scalar as Python: bool, None, int, float or the string (quotes removed)."""
    text = _strip_comment(text).strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("null", "~", "none", ""):
        return None
    if text.startswith("[") and text.endswith("]"):
        return [scalar(p) for p in text[1:-1].split(",") if p.strip()]
    try:
        return int(text.replace("_", "")) if re.fullmatch(r"[+-]?\d[\d_]*", text) else float(text)
    except ValueError:
        return text


def _strip_comment(text: str) -> str:
    if text.lstrip().startswith(("'", '"')):
        return text
    return re.split(r"\s#", " " + text, maxsplit=1)[0][1:] if "#" in text else text


def load(text: str) -> dict[str, Any]:
    """The mapping in ``text`` (nested dicts and lists)."""
    root: dict[str, Any] = {}
    stack: list[tuple[int, Any]] = [(-1, root)]  # (indent, container or _Pending)
    for raw in text.splitlines():
        if not raw.strip() or raw.lstrip().startswith("#") or raw.strip() in ("---", "..."):
            continue
        indent = len(raw) - len(raw.lstrip())
        item = ITEM_RE.match(raw)
        while len(stack) > 1 and (
            indent < stack[-1][0] or (indent == stack[-1][0] and not (item and _takes_items(stack[-1][1])))
        ):
            stack.pop()
        node = stack[-1][1]
        if isinstance(node, _Pending) and not item and not KEY_RE.match(raw):
            node.fill(scalar(raw))  # a plain scalar on the next line ("model_name_or_path:\n  Qwen/…")
            stack.pop()
            continue
        if isinstance(node, _Pending):
            node = node.fill([] if item else {})
            stack[-1] = (stack[-1][0], node)
        if item:
            if isinstance(node, list):
                _add_item(node, item.group(2), indent, stack)
        elif (m := KEY_RE.match(raw)) and isinstance(node, dict):
            value = m.group(4)
            if value is None or not _strip_comment(value).strip():
                node[m.group(3)] = None
                stack.append((indent, _Pending(node, m.group(3))))
            else:
                node[m.group(3)] = scalar(value)
    return root


class _Pending:
    """A key whose value (a map or a list) follows on the next lines."""

    def __init__(self, target: dict[str, Any], key: str) -> None:
        self.target, self.key = target, key

    def fill(self, value: Any) -> Any:
        self.target[self.key] = value
        return value


def _takes_items(node: Any) -> bool:
    return isinstance(node, list | _Pending)


def _add_item(container: list, body: str, indent: int, stack: list[tuple[int, Any]]) -> None:
    km = KEY_RE.match(body)
    if km and not km.group(2):
        entry: dict[str, Any] = {km.group(3): scalar(km.group(4) or "")}
        container.append(entry)
        stack.append((indent, entry))
    else:
        container.append(scalar(body))


def flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Dotted keys of nested maps: {'model': {'lora_rank': 8}} → {'model.lora_rank': 8}. Lists stay
    values."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            out.update(flatten(value, path + "."))
        else:
            out[path] = value
    return out
