"""Question text → typed SizingRequest (Chinese and English). STUB: being implemented."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from estimator.models import SizingRequest

Lang = Literal["zh", "en"]


class ParseResult(BaseModel):
    """What the parser understood from one message."""

    request: SizingRequest
    lang: Lang = Field(description="language of the question: any CJK → 'zh'")
    found: list[str] = Field(default_factory=list, description="request fields taken from the text")
    gpu_alternatives: list[str] = Field(default_factory=list, description="other GPU ids when comparing")
    unknown_gpu: str | None = Field(None, description="a GPU-like name not in the catalog, as typed")
    gpu_suggestions: list[str] = Field(default_factory=list, description="closest catalog GPU families")
    unknown_model: str | None = None
    model_suggestions: list[str] = Field(default_factory=list)
    truncated: bool = Field(False, description="the text was cut before parsing")
    out_of_scope: bool = False


def detect_lang(text: str) -> Lang:
    return "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en"


def parse(text: str) -> ParseResult:
    return ParseResult(request=SizingRequest(), lang=detect_lang(text))
