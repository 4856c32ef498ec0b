"""Session 49 (mends, issue 23 item 5): docs/design.md kept true to the code.

The design's §3.1.1 lists every request field in its JSON order and §8.1 every reason an
``interpretation.ignored`` entry or a substitution gives. Nothing checked either before, so the fields and
reasons of sessions 43–48 (``reference_copy``, ``expert_parallel``, ``ep_*``, ``script_*``,
``demo_rows_text``, ``mixed_rig`` …) were never written there: these tests fail when one is missing, or
when the document still lists one the code no longer has.
"""

from __future__ import annotations

import re
from pathlib import Path

from bot.core.ignored_reasons import IGNORED_REASONS, MODEL_SUBSTITUTIONS, USED_REASONS
from bot.core.substitution_reasons import SUBSTITUTION_REASONS
from bot.parse.configs.model import UNUSED_REASONS
from estimator.models import SizingRequest

DESIGN = (Path(__file__).resolve().parents[1] / "docs" / "design.md").read_text(encoding="utf-8")
_ROW = re.compile(r"^\| `(?P<key>[a-z0-9_]+)` \| (?P<kind>[a-z ]+) \| (?P<text>.+) \|$", re.MULTILINE)
_FIELD_ROW = re.compile(
    r"^\| (?P<order>\d+) \| `(?P<name>[a-z0-9_]+)` \| (?P<scope>[a-z]+) \| .+ \|$", re.MULTILINE
)


def _section(start: str, end: str | None) -> str:
    i = DESIGN.index(start)
    return DESIGN[i : DESIGN.index(end, i) if end else len(DESIGN)]


def _declared_fields() -> dict[str, tuple[int, str]]:
    out = {}
    for name, field in SizingRequest.model_fields.items():
        extra = field.json_schema_extra
        assert isinstance(extra, dict) and "json_order" in extra, name  # every field is declared with one
        out[name] = (extra["json_order"], extra.get("scope") or "both")
    return out


def test_every_request_field_is_in_design_3_1_1_with_its_json_order_and_scope() -> None:
    rows = {
        m["name"]: (int(m["order"]), m["scope"])
        for m in _FIELD_ROW.finditer(_section("#### 3.1.1", "### 3.2"))
    }
    declared = _declared_fields()
    missing = sorted(declared.keys() - rows.keys())
    assert missing == [], (
        f"add a row '| json_order | `field` | scope | what it is |' to docs/design.md §3.1.1: {missing}"
    )
    assert sorted(rows.keys() - declared.keys()) == []  # a field the design lists and the code lost
    assert {n: rows[n] for n in declared} == declared
    assert rows["reference_copy"] == (130, "training") and rows["expert_parallel"] == (131, "training")


def test_json_order_numbers_are_unique_so_the_table_has_one_row_each() -> None:
    orders = [order for order, _ in _declared_fields().values()]
    assert len(orders) == len(set(orders))


def test_every_reason_is_in_design_8_1_once_with_a_line_on_what_it_means() -> None:
    rows = [(m["key"], m["kind"], m["text"]) for m in _ROW.finditer(_section("### 8.1 The reasons", None))]
    keys = [k for k, _, _ in rows]
    expected = [*IGNORED_REASONS, *SUBSTITUTION_REASONS]  # IGNORED_REASONS ends with UNUSED_REASONS
    missing = sorted(set(expected) - set(keys))
    assert missing == [], f"add a row '| `reason` | kind | what it means |' to docs/design.md §8.1: {missing}"
    assert sorted(set(keys) - set(expected)) == []  # a reason the design lists and the code lost
    assert len(keys) == len(expected)  # once each (tool_inferred is both a reason and a substitution)
    assert all(len(text) > 12 for _, _, text in rows)
    for new in (
        "ep_not_dividing",
        "ep_over_gpus",
        "ep_dp",
        "ep_no_experts",
        "script_reference",
        "script_tool",
    ):
        assert new in keys
    assert set(UNUSED_REASONS) <= set(keys) and set(MODEL_SUBSTITUTIONS.values()) <= set(keys)


def test_design_8_1_marks_the_used_reasons_as_used() -> None:
    words = _section("### 8.1 The reasons", "Substitutions (")
    kinds = {m["key"]: m["kind"] for m in _ROW.finditer(words)}
    assert {k for k, kind in kinds.items() if kind == "used"} == set(USED_REASONS)
