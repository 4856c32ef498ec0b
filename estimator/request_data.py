"""The stated settings of how training samples become sequences (issue 24: LLaMA-Factory ``cutoff_len`` is
a cap, not every sample's length), declared once here and mixed into
:class:`estimator.request.SizingRequest` (kept apart so the request module stays within the 500-line limit
of tests/test_layout.py)."""

from pydantic import BaseModel, Field

from estimator.request_setting import _setting


class DataSettings(BaseModel, defer_build=True):  # a mixin of SizingRequest: no schema of its own
    """Sample packing (JSON name as the field)."""

    packing: bool | None = Field(
        None,
        description="samples packed into sequences of seq_len (LLaMA-Factory packing / neat_packing, TRL "
        "SFTConfig packing, axolotl sample_packing); False or None: each batch padded to its longest sample "
        "(LLaMA-Factory's data collator, transformers DataCollatorForSeq2Seq padding=True)",
        json_schema_extra=_setting("training", json_order=67, echo="stage_suffix"),  # said (s36 fixc #1)
    )
