"""A model's ``config.json`` given with a question: a file (``--config``, a Telegram document) or JSON
pasted into the message. Read by :mod:`estimator.hf_config`; the result travels in the request
(``SizingRequest.architecture``), so follow-ups keep it.

:func:`split_pasted` finds a config pasted into a message (and returns the rest: the question);
:func:`read_config` turns the bytes or text into a :class:`ConfigInfo` — the architecture, or the
reason it cannot be used (a stable code and the fields concerned; the renderer words it).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from bot.core.pasted import MARKER_RE, split_pasted
from bot.textclean import clean_data
from estimator.catalog import ModelSpec
from estimator.factories import empty_list

if TYPE_CHECKING:
    from bot.parse.configs import StackConfig

__all__ = ["MARKER_RE", "ConfigInfo", "read_config", "read_config_file_data", "split_pasted"]


class ConfigInfo(BaseModel):
    """What a config.json gave: the architecture (``spec``), or the ``error`` code and its fields.

    Serialized as ``config`` in the JSON contract."""

    model_config = ConfigDict(defer_build=True)  # not needed by `ask`'s first answer

    spec: ModelSpec | None = Field(None, exclude=True)
    name: str | None = Field(None, description="the model's name as sized (the config's _name_or_path)")
    model_type: str | None = Field(None, description="model_type as given")
    architecture: str | None = Field(None, description="architectures[0] as given")
    assumed_family: bool = Field(
        False, description="model_type is not a family the reader knows: read as a Llama-like causal LM"
    )
    text_only: bool = Field(False, description="a multimodal config: its text model was sized")
    params_total: float | None = Field(None, description="parameters counted from the architecture")
    params_active: float | None = Field(None, description="active parameters per token (MoE)")
    error: str | None = Field(
        None,
        description="why it cannot be sized: cannot_read (the file), too_large, not_json, not_object, "
        "unsupported, unsupported_layout, missing_fields, bad_values, too_deep, yaml_aliases (a YAML file "
        "whose aliases expand it far beyond any config: bot.core.yaml_aliases), not_config_yaml (a YAML "
        "mapping of no tool read: ``fields`` its top-level keys)",
    )
    fields: list[str] = Field(default_factory=empty_list, description="fields concerned by the error")
    source: str = Field("text", description="'file' (--config, a document) or 'text' (pasted)")

    @property
    def ok(self) -> bool:
        return self.spec is not None


def _cleaned(data: bytes | str) -> bytes | str:
    """``data`` with lone surrogates in its strings (JSON ``"\\ud800"`` escapes, which no encoder
    accepts) replaced (:mod:`bot.textclean`); unchanged when it is clean or not JSON."""
    try:
        parsed = json.loads(data)
    except (ValueError, TypeError, RecursionError):
        return data
    cleaned = clean_data(parsed)
    return data if cleaned is parsed else json.dumps(cleaned, ensure_ascii=False)


def read_config(data: bytes | str, *, source: str = "file") -> ConfigInfo:
    """The architecture in ``data`` (a config.json's bytes or text), or why it cannot be used.
    Never raises."""
    # the config.json reader loads when a config is given, not with every question (start-up: s18)
    from estimator.hf_config import MAX_CONFIG_BYTES, ConfigError, spec_from_json

    size = len(data) if isinstance(data, bytes | bytearray) else len(data.encode("utf-8", "surrogatepass"))
    if size > MAX_CONFIG_BYTES:
        return ConfigInfo(error="too_large", fields=[f"{size:,} bytes"], source=source)
    try:
        read = spec_from_json(_cleaned(data))
    except ConfigError as exc:
        return ConfigInfo(error=exc.code, fields=list(exc.fields), model_type=exc.model_type, source=source)
    except (ValueError, TypeError, RecursionError, MemoryError):
        return ConfigInfo(error="not_json", source=source)
    spec = read.spec
    return ConfigInfo(
        spec=spec,
        name=spec.name,
        model_type=read.model_type,
        architecture=read.architecture,
        assumed_family=read.assumed_family,
        text_only=read.text_only,
        params_total=spec.params_total,
        params_active=spec.params_active,
        source=source,
    )


STACK_ERRORS = ("not_json", "unsupported", "missing_fields", "not_object")
"""config.json errors after which a file is tried as a training or serving config."""


def read_config_file_data(data: bytes | str, *, source: str = "file") -> ConfigInfo | StackConfig:
    """A config file's bytes (``sizing-bot ask --config``, the web API's ``config``, a Telegram
    document, a Feishu file message), read the same way everywhere: a model's config.json
    (:func:`read_config`); failing that with one of :data:`STACK_ERRORS`, a training or serving config
    or command line (LLaMA-Factory / axolotl / torchtune YAML, DeepSpeed JSON, vLLM …, format detected
    from the content: :mod:`bot.parse.configs`); failing both, the config.json's error. A YAML file whose
    aliases would expand it beyond any config is ``yaml_aliases`` (:mod:`bot.core.yaml_aliases`). Input over
    ``MAX_CONFIG_BYTES`` is ``too_large`` and is not decoded. Never raises."""
    info = read_config(data, source=source)
    if info.ok or info.error not in STACK_ERRORS:
        return info
    from bot.core.yaml_aliases import excessive_aliases
    from bot.parse.configs import read_stack_config

    text = data.decode("utf-8", "replace") if isinstance(data, bytes | bytearray) else data
    excessive = excessive_aliases(text)  # a YAML alias bomb: refused as YAML, never called JSON
    if excessive:
        return ConfigInfo(error="yaml_aliases", fields=excessive, source=source)
    stack = read_stack_config(text, source=source)
    if stack is None and info.error == "not_json" and yaml_keys(text):  # a YAML of no tool read: said so
        return ConfigInfo(error="not_config_yaml", fields=yaml_keys(text), source=source)
    return info if stack is None else stack


def yaml_keys(text: str) -> list[str]:
    """The top-level keys of ``text`` when it is a YAML mapping (every non-blank, non-comment line a
    ``key: value``, an indented line or a list item) of at least two keys; else []."""
    from bot.parse.configs import _yamlish
    from bot.parse.configs.yamlish import load

    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines or not all(_yamlish(ln) for ln in lines):
        return []
    try:
        data = load(text)
    except (ValueError, TypeError, RecursionError):
        return []
    return list(data)[:8] if isinstance(data, dict) and len(data) >= 2 else []


def file_too_large(size: int | str, *, source: str = "file") -> ConfigInfo:
    """The ``too_large`` answer for a file of ``size`` bytes (refused before it is read)."""
    shown = f"{size:,} bytes" if isinstance(size, int) else size
    return ConfigInfo(error="too_large", fields=[shown], source=source)


def file_unreadable(reason: str, *, source: str = "file") -> ConfigInfo:
    """The ``cannot_read`` answer: the file could not be opened or downloaded (``reason``: a short,
    non-secret cause such as the OS's ``strerror`` or an exception's class name)."""
    return ConfigInfo(error="cannot_read", fields=[reason], source=source)
