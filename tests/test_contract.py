"""The public JSON contract of `sizing-bot ask --format json` (schema 1) matches the README."""

import json
import re
from pathlib import Path

from bot.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"


def _ask(capsys, question: str) -> dict:
    code = main(["ask", "--format", "json", question])
    data = json.loads(capsys.readouterr().out)
    assert code == (0 if data["understood"] else 2)
    return data


def _documented() -> tuple[set[str], set[str]]:
    """Top-level and report.* field names from the README's contract table."""
    table = README.read_text(encoding="utf-8").split("## The JSON contract", 1)[1].split("\n## ", 1)[0]
    top = set(re.findall(r"^\| `(\w+)`", table, re.M)) | {"report"}  # report.* rows document `report`
    report = set(re.findall(r"`report\.(\w+)`", table))
    return top, report


def test_top_level_and_report_fields_match_the_readme(capsys):
    data = _ask(capsys, "7B模型1万亿token要多少A100")
    top, report = _documented()
    assert top == set(data)
    assert report <= set(data["report"])
    undocumented = set(data["report"]) - report
    assert not undocumented, f"document these in README.md: {sorted(undocumented)}"


def test_request_fields_are_documented(capsys):
    data = _ask(capsys, "全参微调7B要几张A100")
    table = README.read_text(encoding="utf-8").split("## The JSON contract", 1)[1]
    row = next(line for line in table.splitlines() if line.startswith("| `request`"))
    documented = set(re.findall(r"`(\w+)`", row)) - {"request", "A100"}
    assert documented >= set(data["request"]) - {"gpu"}
    assert set(data["request"]) >= documented - {"A100SXM480GB"}  # every documented field is output


def test_request_carries_every_request_field(capsys):
    """Each SizingRequest field is in the JSON, null when not said (a total memory, for one)."""
    from estimator.models import SizingRequest

    data = _ask(capsys, "我们有640G显存，能部署DeepSeek-V3吗")
    assert set(data["request"]) == set(SizingRequest.model_fields)
    assert data["request"]["total_memory_gib"] == 640


def test_seed_values_in_si_units(capsys):
    d = _ask(capsys, "7B模型1万亿token要多少A100")
    assert d["schema"] == 1 and d["lang"] == "zh"
    assert d["request"]["params_total"] == 7e9 and d["request"]["tokens"] == 1e12
    assert d["request"]["gpu"] == "A100-SXM4-80GB"
    assert d["report"]["flops"] == 4.2e22
    assert round(d["report"]["gpu_hours"]["likely"]) == 93_483
    assert d["report"]["cost"]["low"] == 1_402_245 and d["report"]["cost"]["currency"] == "CNY"
    assert d["report"]["memory"]["per_gpu_bytes"] > 1e9  # bytes, not GiB
    assert {a["field"] for a in d["assumptions"]} >= {"mfu", "deadline_days", "price_per_gpu_hour"}


def test_not_understood_exits_2_with_help(capsys):
    d = _ask(capsys, "今天天气怎么样")
    assert d["understood"] is False and d["report"] is None and d["reply"]


def test_serving_fields(capsys):
    d = _ask(capsys, "部署70B推理需要几张A100")
    inf = d["report"]["inference"]
    # interpolated 70B shape (estimator.architecture): 81 layers × 8 KV heads × 128 × 2 (K, V) × 2 bytes
    assert inf["kv_bytes_per_token"] == 81 * 8 * 128 * 2 * 2
    assert {"per_sequence", "aggregate"} <= set(inf["decode_tokens_per_s"])
    assert inf["min_gpus"] == 2


def test_comparison_questions_size_every_gpu_named(capsys):
    d = _ask(capsys, "7B 1T tokens: H100 or A100, which is cheaper?")
    [other] = d["report"]["comparisons"]
    assert d["request"]["gpu"].startswith("H100") and other["gpu"].startswith("A100")
    assert round(other["gpu_hours"]["likely"]) == 93_483  # the seed's A100 figure
    assert "A100" in d["reply"]


def test_a_question_starting_with_a_dash_is_a_question(capsys):
    """`sizing-bot ask "-8张卡 …"` used to stop at argparse ('unrecognized arguments')."""
    code = main(["ask", "-8张卡训练7B 1万亿token", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["request"]["tokens"] == 1e12 and data["request"]["gpu_count"] is None


def _row(name: str) -> str:
    table = README.read_text(encoding="utf-8").split("## The JSON contract", 1)[1].split("\n## ", 1)[0]
    return next(line for line in table.splitlines() if line.startswith(f"| `{name}`"))


def test_nested_memory_and_serving_fields_are_documented(capsys):
    """Every key of report.memory (and its plan) and of report.inference is named in its README row."""
    training = _ask(capsys, "full fine-tune 7B on 4 A100")["report"]["memory"]
    serving = _ask(capsys, "serve Llama-3-70B on 4 H100, 16 users")["report"]["inference"]
    for name, keys in (("report.memory", [*training, *training["plan"]]), ("report.inference", serving)):
        row = _row(name)
        missing = [k for k in keys if not re.search(rf"\b{k}\b", row)]
        assert not missing, f"document in README.md's {name} row: {missing}"
