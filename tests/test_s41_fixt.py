"""s41 fixt: the s41 fresh-user trial's serving, wording and parsing findings (/work/notes/s41/trial_report.md
items 1, 7, 8, 10, 12-16), each read in both languages, with sentences that look alike but must not move."""

from __future__ import annotations

from bot.cli import _ask

# 1: a cost per million tokens asked, on GPUs short of the load: the price at the load they hold is in
# line 1 (the JSON's cost_per_million_tokens, priced at priced_concurrency), said with that load
OVER_EN = (
    "Serve Llama-3.3-70B-Instruct with vLLM on 8x H100 for 200 concurrent users at 16k context, "
    "what throughput and cost per million tokens?"
)
OVER_ZH = "用vLLM在8张H100上部署Llama-3.3-70B-Instruct，200并发，16k上下文，吞吐多少，每百万token多少钱？"


def _text(question: str) -> str:
    return _ask(question, None, "text")[0]


def _report(question: str):
    return _ask(question, None, "json")[2].report


def _cpm(report) -> tuple[str, str]:
    c = report.inference.cost_per_million_tokens
    return f"{c.low:.2f}", f"{c.high:.2f}"


def test_cost_per_million_is_in_line_one_when_the_load_exceeds_the_gpus() -> None:
    for question, at in ((OVER_EN, "per million output tokens at 82 concurrent"), (OVER_ZH, "82 条并发计")):
        report = _report(question)
        # 8 × H100 80G at 16K: 320 KiB per token (80 layers × 8 KV heads × 128 × 2 × 2 B, config.json),
        # vLLM's pool holds 82 sequences of 16K: the price is at that load, not the 200 asked
        assert report.inference.priced_concurrency == report.inference.max_concurrency == 82
        low, high = _cpm(report)
        line = _text(question).splitlines()[0]
        assert f"{low}–{high}" in line and at in line, line


def test_the_load_cost_line_keeps_its_price_when_no_throughput_is_asked() -> None:
    question = "Qwen2.5-72B on 4x A100 80G for 100 users, 8k context, cost per million tokens?"
    report = _report(question)
    low, high = _cpm(report)
    line = _text(question).splitlines()[0]
    n = report.inference.max_concurrency
    assert n < 100 and f"{low}–{high} per million output tokens at {n} concurrent" in line


def test_a_load_that_fits_keeps_its_price_at_the_load_asked() -> None:
    question = OVER_EN.replace("200 concurrent", "50 concurrent")
    line = _text(question).splitlines()[0]
    low, high = _cpm(_report(question))
    assert f"${low}–{high} per million output tokens at 50 concurrent" in line
    assert "the load they hold" not in line


# 7: 'will it start?' with a pasted command that sets --max-num-seqs: the yes/no for the command as given
CMD = (
    "vllm serve Qwen/Qwen2.5-32B-Instruct-AWQ --max-model-len 32768 --gpu-memory-utilization 0.95"
    " --max-num-seqs 64"
)


def test_will_it_start_with_a_max_num_seqs_cap_answers_yes_first() -> None:
    for question, yes in (
        (f"这个命令在单张L40S上能启动吗？{CMD}", "能 —— max_model_len 为 32,768 时 vLLM 能启动"),
        (f"这个命令在单张L40S上能起来吗？{CMD}", "能 —— max_model_len 为 32,768 时 vLLM 能启动"),
        (f"Will this start on one L40S? {CMD}", "yes — vLLM starts with max_model_len 32,768"),
    ):
        report = _report(question)
        assert report.request.max_num_seqs == 64 and report.request.gpu_memory_utilization == 0.95
        kv = report.inference.kv_capacity_tokens
        # Qwen2.5-32B: 64 layers × 8 KV heads × 128 × 2 (K, V) × 2 B = 256 KiB a token (config.json)
        assert report.inference.kv_bytes_per_token == 64 * 8 * 128 * 2 * 2
        assert kv // 32768 == report.inference.max_concurrency == 2  # 97,040 tokens hold two of 32K
        line = _text(question).splitlines()[0]
        assert yes in line and f"{kv:,}" in line, line


def test_a_cap_without_a_start_question_keeps_the_concurrency_answer() -> None:
    en = _text(f"How many users can this serve on one L40S? {CMD}").splitlines()[0]
    zh = _text(f"这个命令在单张L40S上最多支持多少并发？{CMD}").splitlines()[0]
    assert "up to 2 concurrent sequences at 32K" in en and "yes —" not in en
    assert "最多约 2 条并发" in zh and "能启动" not in zh


def test_a_command_that_does_not_start_still_says_no_first() -> None:
    cmd = CMD.replace(" --gpu-memory-utilization 0.95", "")
    for question, no in (
        (f"Will this start on one L4? {cmd}", "no — vLLM will not start with max_model_len 32,768"),
        (f"这个命令在一张L4上能跑起来吗？{cmd}", "不行 —— max_model_len 为 32,768 时 vLLM 无法启动"),
    ):
        line = _text(question).splitlines()[0]
        assert no in line, line


# 8: a card named after 'called' / '叫' keeps its name as typed, model number included, and its memory
def test_a_called_card_keeps_its_name_and_stated_memory() -> None:
    for question in (
        "I have a card with 32GB of memory called Foo X1, can it serve Mistral 7B for 10 users at 8k"
        " context?",
        "I have a card called Foo X1 with 32GB, can it serve Mistral 7B for 10 users at 8k context?",
        "我有一张叫 Foo X1 的卡，32GB 显存，能跑 Mistral 7B 给 10 个人用吗？8k 上下文",
    ):
        report = _report(question)
        assert report.gpu_spec.name == "Foo X1" and report.gpu_spec.memory_gib == 32
        assert report.request.gpu_count == 1  # the '1' of 'X1' is the name's, not a count
        text = _text(question)
        assert "RTX 5000 Ada" not in text and "“1”" not in text, text.splitlines()[:3]


def test_called_after_a_model_word_is_no_card() -> None:
    en = _report("I fine-tuned a model called Foo 7B, how many H100 to serve it for 10 users?")
    zh = _report("我们有一个叫 Foo 7B 的模型，部署要几张 H100？")
    for report in (en, zh):
        assert report.gpu_spec.family == "H100"
    assert "Foo" not in zh.gpu_spec.name + en.gpu_spec.name


def test_a_called_card_with_its_memory_beside_it_reads_as_before() -> None:
    report = _report("8 cards called Zeta 9 with 64GB each, serve Qwen2.5-72B for 20 users")
    assert (report.gpu_spec.name, report.gpu_spec.memory_gib, report.request.gpu_count) == ("Zeta 9", 64, 8)
    report = _report("2 cards called Foo 48GB, serve Llama 3 8B for 10 users")
    assert (report.gpu_spec.name, report.gpu_spec.memory_gib, report.request.gpu_count) == ("Foo", 48, 2)


# 16: a fresh question whose sizes were all rejected is not called a follow-up in `ask`
def test_a_fresh_question_with_rejected_sizes_is_not_called_a_follow_up() -> None:
    for question, rejected, history in (
        (
            "用0张4090预训练一个1000T参数的模型，数据 1e30 token，多久？",
            "忽略了 1e30, 1,000,000B",
            "不保留历史",
        ),
        (
            "Pretrain a 1000T model on 0 RTX 4090, 1e30 tokens, how long?",
            "I ignored 1e30, 1,000,000B",
            "no history",
        ),
    ):
        text = _text(question)
        assert rejected in text and history not in text, text[:300]


def test_a_bare_follow_up_still_says_ask_keeps_no_history() -> None:
    assert "不保留历史" in _text("那H100呢")
    assert "keeps no history" in _text("what about 0 H100?")


# 12: a per-value row says the speed of one of the sequences running at once with their count, and '1 GPU'
def test_per_value_rows_label_a_concurrent_speed_and_say_one_gpu() -> None:
    for question, one, at in (
        (
            "How much GPU memory to serve 7B, 13B and 70B models in fp16?",
            "needs 1 GPU,",
            "per sequence at 16",
        ),
        ("7B/13B/70B 推理分别要多少显存？fp16", "需要 1 张卡", "16 条并发时每条"),
    ):
        answer = _ask(question, None, "json")[2]
        rows = answer.per_value
        assert [r.value for r in rows] == [7e9, 13e9, 70e9] and [r.load for r in rows] == [16, 16, 16]
        text = _text(question)
        first = next(
            line for line in text.splitlines() if line.startswith("• 7B") or line.startswith("• a 7B")
        )
        assert one in first and at in first and f"{rows[0].tokens_per_s:.1f}" in first, first
        assert "1 GPUs" not in text and "单路" not in text
        seventy = next(line for line in text.splitlines() if "70B" in line and line.startswith("•"))
        assert ("needs 4 GPUs" in seventy) or ("需要 4 张卡" in seventy)


# 13: the chart's cost note says the cost is the same at any count only when the table's GPU-hours agree
def test_chart_cost_note_follows_the_tables_gpu_hours() -> None:
    from bot.render.chart_labels import CHART_LABELS
    from bot.render.chart_plots import _hours_vary
    from bot.render.i18n import translate

    for question in ("7B模型1万亿token要多少A100", "How many A100 to pretrain a 7B model on 1T tokens?"):
        report = _report(question)
        base = report.gpu_hours.likely
        hours = [r.gpu_hours.likely for r in report.days_table if r.gpu_hours is not None]
        assert hours and max(abs(h - base) / base for h in hours) > 0.05  # the trial: 93.7K vs 105.7K
        assert _hours_vary(report)
    zh = translate("zh", CHART_LABELS["cost_varies"])
    assert "GPU·时随卡数不同" in zh and "总费用不变" not in zh
    same = [r.model_copy(update={"gpu_hours": None}) for r in report.days_table]  # every row at the report's
    assert not _hours_vary(report.model_copy(update={"days_table": same}))


# 14: the PDF quote's text layer holds no zero-width spaces; the Chinese still wraps
def test_a_chinese_quote_has_no_zero_width_spaces_in_its_text(tmp_path) -> None:
    import io
    from pathlib import Path

    import pytest
    from pypdf import PdfReader

    from bot.cli import main
    from bot.quote.fonts import cjk_font

    if cjk_font() is None:
        pytest.skip("no CJK font installed")
    example = Path(__file__).resolve().parent.parent / "presales.example.toml"
    for question in ("7B模型1万亿token要多少卡", "How many GPUs to pretrain a 7B model on 1T tokens?"):
        out = tmp_path / "quote.pdf"
        assert main(["ask", "--presales", str(example), "--quote", str(out), question]) == 0
        text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(out.read_bytes())).pages)
        assert "\u200b" not in text and "H800" in text
        if question.startswith("7B"):
            assert "报价单" in text.replace("\x00", "")


# 10: the context table stops at the server's limit: the stated --context-length, else config.json's window
def test_context_table_stops_at_the_servers_limit() -> None:
    sglang = (
        "python -m sglang.launch_server --model-path Qwen/Qwen2.5-72B-Instruct --tp 4 --context-length 32768"
        " --mem-fraction-static 0.85 on 4x H100, how many concurrent requests at 32k?"
    )
    for question, head in (
        (sglang, "Context → max concurrent sequences:"),
        (
            "部署Qwen2.5-72B-Instruct，4张A100 80G，vLLM，并发50，上下文32k，够吗？",
            "上下文 → 最大并发序列数：",
        ),
    ):
        report = _report(question)
        # Qwen2.5-72B-Instruct config.json: max_position_embeddings 32768 (YaRN documented to 131072)
        assert report.model_spec.native_context == 32768 and report.model_spec.max_context == 131072
        assert max(c for c, _ in report.inference.concurrency_table) == 131072  # the JSON keeps every row
        table = _text(question).split(head)[1].split("\n\n")[0]
        assert " 32K → " in table and "128K" not in table, table
    asked = _text("部署Qwen2.5-72B-Instruct，8张H100，vLLM，并发4，上下文128k，够吗？").split(
        "上下文 → 最大并发序列数："
    )[1]
    assert "128K → " in asked.split("\n\n")[0]  # a length asked for stays


def test_vllm_lists_no_row_past_the_config_window() -> None:
    text = _text("Can I serve Qwen2.5-72B-Instruct-AWQ on 2x RTX 3090 with vllm for ~10 users?")
    table = text.split("Context → max concurrent sequences:")[1].split("\n\n")[0]
    assert " 32K → " in table and "128K" not in table, table


# 15: '8x H100 nodes' is eight nodes of eight H100 (design §4, Nodes); the budget then buys the GPU-hours
def test_8x_h100_nodes_are_eight_nodes_and_the_budget_is_used() -> None:
    en = (
        "We have $50k. "
        "What's the biggest model we can pretrain on 8x H100 nodes in a month, Chinchilla-optimal?"
    )
    zh = "我们有5万美元，在 8x H100 nodes 上一个月最多能按 Chinchilla 最优预训练多大的模型？"
    for question, bought in ((en, "$50,000 ≈ 20K H100-hours"), (zh, "US$50,000 ≈ 2万 H100·时")):
        report = _report(question)
        assert (
            report.request.gpu_count == 64
        )  # 8 nodes × 8 H100; 64 × 720 h = 46K H100-hours > what $50k buys
        line = _text(question).splitlines()[0]
        assert line.startswith(bought), line
    # $50,000 at $1.50–3.50 per H100-hour (the catalog's market range): 14,286–33,333 GPU-hours
    assert "14,286–33,333" in _text(en)


def test_one_8x_node_and_a_bare_8x_stay_eight_gpus() -> None:
    from bot.parse import parse

    assert parse("pretrain on an 8x H100 node").request.gpu_count == 8
    assert parse("serve Llama 70B on 8x H100").request.gpu_count == 8
    assert parse("用 8x H100 部署 Llama 70B").request.gpu_count == 8
    assert parse("pretrain on 4 nodes of 8x H100").request.gpu_count == 32
    assert parse("Two 8x H800 nodes, SGLang serving DeepSeek-V3 FP8 with --tp 16").request.gpu_count == 16
    assert parse("两台 8x H100 nodes 预训练 7B").request.gpu_count == 16
