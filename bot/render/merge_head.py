"""The merge's memory line before the reply (s46 trial #2: 'how much memory to merge a LoRA adapter into
Llama 3.1 70B?' was answered with a LoRA fine-tuning plan). The figures are :func:`estimator.merge_memory.
merge_memory`'s (PEFT merge_and_unload: the base's 16-bit weights plus a stated-rank adapter). Imported by
bot.render.renderer only for a request with ``merge_asked``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.fmt import fmt_for
from bot.render.i18n import N_, translate
from estimator.merge_memory import merge_memory

if TYPE_CHECKING:
    from bot.core.answer import Answer

MERGE_HEAD = N_(
    "Merging a LoRA adapter into this %(params)s model: ≈ %(gb)s (%(gib)s) of memory, CPU RAM or GPUs — the "
    "base's 16-bit weights (2 B × %(params)s parameters; PEFT merge_and_unload adds each adapter's B·A "
    "into its layer: no gradients, optimizer states or activations). Load the base with "
    "torch_dtype=torch.bfloat16: transformers before v5 loads fp32 when none is given, twice this. The "
    "merged model is %(gb)s on disk."
)
MERGE_ADAPTER = N_(
    "With your rank %(rank)s adapter: %(adapter)s more (%(adapter_params)s parameters, r × (d_in + d_out) on "
    "each adapted matrix, at 16 bits), ≈ %(total)s (%(total_gib)s) in all."
)
"""The adapter's own bytes when its rank is stated (estimator.merge_memory)."""
MERGED_BELOW = N_("Below: serving the merged model.")
SERVING_LEFT = N_(
    "Serving the merged model was not asked, so no serving plan follows: name its GPUs, users or context "
    "to get one."
)
"""s47 (review N5): a merge question answers the merge only; the serving plan follows when serving is
asked."""
SERVING_STATED = (
    "concurrency", "users", "qps", "target_tokens_per_s", "requests_per_day", "requests_per_hour",
    "tokens_per_day", "tokens_per_hour", "runtime", "max_model_len", "prompt_tokens", "context_asked",
)  # fmt: skip
"""The request fields a serving question states (bot.parse): with one said, or a serving word ('serve',
'部署': ``ParseResult.stage_word``), the merged model's serving plan is asked too."""


def serving_asked(answer: Answer) -> bool:
    """Whether the message asks about serving the merged model, beside the merge."""
    said = answer.parsed.request
    return answer.parsed.stage_word == "inference" or any(getattr(said, f, None) for f in SERVING_STATED)


def merge_head(text: str, answer: Answer) -> str:
    """``text`` (a rendered reply) with the merge's memory before its first line; unchanged without a
    parameter count."""
    memory = merge_memory(answer.report.request) if answer.report is not None else None
    if memory is None:
        return text
    f = fmt_for(answer.lang)
    params = answer.report.request.params_total
    head = translate(
        answer.lang, MERGE_HEAD, params=f.params(params), gb=f.gb(memory.bytes), gib=f.gib(memory.bytes)
    )
    if memory.adapter_params:
        rank = f.int(answer.report.request.lora_rank)
        head += ("" if answer.lang == "zh" else " ") + translate(  # zh joins with no space (s46 review N5)
            answer.lang,
            MERGE_ADAPTER,
            rank=rank,
            adapter=f.gb(memory.adapter_bytes),
            adapter_params=f.params(memory.adapter_params),
            total=f.gb(memory.total_bytes),
            total_gib=f.gib(memory.total_bytes),
        )
    if not serving_asked(answer):  # s47: the merge answered, no serving plan nobody asked for
        return head + "\n\n" + translate(answer.lang, SERVING_LEFT)
    return head + "\n" + translate(answer.lang, MERGED_BELOW) + "\n\n" + text


def merge_json(answer: Answer) -> dict[str, float | None] | None:
    """The JSON's ``report.merge`` (s46 review N5): ``bytes``, ``adapter_bytes``, ``total_bytes`` of
    :func:`estimator.merge_memory.merge_memory`; None without a parameter count."""
    memory = merge_memory(answer.report.request) if answer.report is not None else None
    if memory is None:
        return None
    return {"bytes": memory.bytes, "adapter_bytes": memory.adapter_bytes, "total_bytes": memory.total_bytes}
