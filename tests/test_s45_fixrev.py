"""The s45 review's blocking findings B3-B6 and small findings 5 and 10 (/work/notes/s45/review/report.md).

Real values: a rows x tokens batch is rows x tokens a row (100k x 500 = 50M tokens, the reply's own line);
AWS's P5 instance page (aws.amazon.com/ec2/instance-types/p5): p5.4xlarge 1 x H100 80GB, p5.48xlarge
8 x H100; p5e.48xlarge and p5en.48xlarge 8 x H200."""

from __future__ import annotations

from bot.cli import ask
from tests.cli_run import ask_json_in_process, ignored_pairs


def text(q: str) -> str:
    return ask(q, None, "text")[0]


# B3: a row batch uses its output length; a serving output alone is still named (the neighbour)


def test_row_batch_uses_its_output_length_en() -> None:
    q = "how long to generate 500 tokens for each of 100k rows with Llama 3 8B on 2 H100"
    assert not [p for p in ignored_pairs(ask_json_in_process(q)) if p[0].startswith("output_tokens")]
    assert text(q).startswith("50M tokens ≈")


def test_row_batch_uses_its_output_length_zh() -> None:
    q = "用 Qwen2.5-7B 给10万条数据每条生成500个token，2张H100要多久"
    assert not [p for p in ignored_pairs(ask_json_in_process(q)) if p[0].startswith("output_tokens")]
    assert text(q).startswith("5000万 token 约需")


def test_output_alone_is_still_named_en_zh() -> None:
    """A row batch with no model sizes nothing: its output length stays named (r39 work zh39-029)."""
    for q in (
        "how long to generate 500 tokens for each of 100k rows with Qwen on 2 H100",
        "24 台服务器、每台一张 40G 的 A100，用 Qwen 把 32 万条原始数据构造成 QA 问答对（max_tokens=500），"
        "全部跑完要多久？",
        "Serve Llama 3 8B on 2 H100 with 500 output tokens",
        "Llama 3 8B 部署，2张H100，输出 500 token",
        "how long to generate 50M tokens with Llama 3 8B on 2 H100, 500 output tokens",
    ):
        assert ("output_tokens: 500", "output_in_context") in ignored_pairs(ask_json_in_process(q)), q


# B4: the P5 sizes (AWS's P5 page): p5.4xlarge 1 x H100, p5.48xlarge 8; p4d.24xlarge 8 x A100


def _gpus(q: str) -> tuple[int, str]:
    data = ask_json_in_process(q)
    req = data["request"]
    return req["gpu_count"], req["gpu"]


def test_p5_4xlarge_is_one_h100_en_zh() -> None:
    for q in (
        "Llama 3 8B inference on an AWS p5.4xlarge, 32 users",
        "Llama 3 8B 推理，AWS p5.4xlarge，32 个用户",
    ):
        count, gpu = _gpus(q)
        assert count == 1 and "H100" in gpu.upper(), (q, count, gpu)


def test_p5_48xlarge_and_p4d_stay_eight_en_zh() -> None:
    for q in (
        "Llama 3 8B inference on an AWS p5.48xlarge, 32 users",
        "Llama 3 8B 推理，AWS p5.48xlarge，32 个用户",
        "Llama 3 70B inference on a p4d.24xlarge, 8 users",
    ):
        assert _gpus(q)[0] == 8, q


# B5: Lambda beside 和/与/还是 with a space, either order; a bare 'lambda' beside 和 alone is a loss weight


def _providers(q: str) -> list[str]:
    return [t for t, why in ignored_pairs(ask_json_in_process(q)) if why == "provider_price"]


def test_lambda_beside_a_conjunction_is_named_en_zh() -> None:
    assert _providers("70B LoRA 微调 10亿 token，AWS p5 和 Lambda 哪个便宜") == ["AWS", "Lambda"]
    assert _providers("70B LoRA 微调 10亿 token，Lambda 和 AWS p5 哪个便宜") == ["Lambda", "AWS"]
    assert _providers("70B LoRA 微调 10亿 token，AWS 还是 Lambda 便宜") == ["AWS", "Lambda"]
    assert _providers("Lambda vs AWS for 8 H100 to fine-tune 70B with LoRA on 1B tokens") == ["Lambda", "AWS"]


def test_lambda_as_a_loss_weight_is_no_provider_en_zh() -> None:
    assert _providers("DPO 微调 7B，8张H100，beta 和 lambda 怎么设") == []
    assert _providers("DPO 微调 7B，8张H100，lambda 和 beta 怎么设") == []
    assert _providers("DPO fine-tune 7B on 8 H100, lambda=0.1 and beta 0.5") == []


def test_bare_p5_says_its_size_en_zh() -> None:
    for q, said in (
        ("Llama 3 8B inference on AWS p5, 32 users", "sized as a p5.48xlarge, 8 × H100 80GB"),
        ("70B LoRA 微调 10亿 token，AWS p5 和 Lambda 哪个便宜", "按 p5.48xlarge（8 张 H100 80GB）计算"),
    ):
        assert ("p5", "p5_as_48xlarge") in ignored_pairs(ask_json_in_process(q)), q
        assert _gpus(q)[0] == 8 and said in text(q), q


def test_sized_p5_or_other_family_assumes_nothing_en_zh() -> None:
    for q in (
        "Llama 3 8B inference on an AWS p5.4xlarge, 32 users",
        "Llama 3 8B 推理，AWS p5.48xlarge，32 个用户",
        "Llama 3 70B inference on AWS p4d, 8 users",
        "Llama 3 70B 推理，AWS p5e，8 个用户",
    ):
        assert not [p for p in ignored_pairs(ask_json_in_process(q)) if p[1] == "p5_as_48xlarge"], q


# B6: the CPU's decode bound leads; the line under it names the CPU as the machine that bound is for


def test_cpu_lead_matches_the_bound_shown_en() -> None:
    q = "Llama 3 8B on a Xeon with 8-channel DDR5-4800, no GPU"
    out = text(q)
    # 8 channels x 4800 MT/s x 8 B = 307.2 GB/s (JEDEC DDR5: a 64-bit channel), the reply's own bandwidth
    assert out.startswith("On the CPU, llama.cpp reads") and "307.2 GB/s" in out.split("\n")[0]
    assert "Your machine is a CPU (Xeon) with no GPU: the bound above is llama.cpp on this CPU's RAM." in out
    assert "not CPU inference" not in out and "Not used: “Xeon”" not in out
    assert ("Xeon", "cpu_not_gpu") in ignored_pairs(ask_json_in_process(q))  # the JSON keeps it (scorer)


def test_cpu_lead_names_zhiqiang_zh() -> None:
    q = "Llama 3 8B 跑在至强上，8通道 DDR5-4800，没有显卡"
    out = text(q)
    assert "307.2 GB/s" in out.split("\n")[0]
    assert "你的机器是 CPU（至强），没有 GPU：上面的上限就是 llama.cpp 在这颗 CPU 的内存上跑的结果" in out
    assert "不估算 CPU" not in out and "未使用：“至强”" not in out
    assert ("至强", "cpu_not_gpu") in ignored_pairs(ask_json_in_process(q))
    assert "（英特尔至强金牌 6330）" in text("Llama 3 8B 在 英特尔至强金牌 6330 上能跑多快")


def test_cpu_beside_a_card_or_training_keeps_its_old_reply_en_zh() -> None:
    for q in (
        "Serve Llama 3 70B on 8 H100 with a Xeon 8480+ host",
        "Llama 3 70B 推理，8张H100，至强 8480+ 主机",
    ):
        data = ask_json_in_process(q)
        assert data["interpretation"]["machine"] is None and data["request"]["gpu_count"] == 8, q
    assert "Not used: “Xeon”" in text("fine-tune Llama 3 8B on a Xeon")
    assert "未使用：“至强”" in text("微调 Llama 3 8B，只有一台至强服务器")


# Small 5: the fabric and the purchase word echoed as typed; 'buy-in' is agreement, not buying


def test_fabric_and_purchase_echoed_as_typed_en_zh() -> None:
    assert ("400G InfiniBand", "interconnect") in ignored_pairs(
        ask_json_in_process("Pretrain a 7B on 1T tokens on 64 H100 with 400G InfiniBand")
    )
    assert ("100G以太网", "interconnect") in ignored_pairs(
        ask_json_in_process("预训练 7B，1T token，64张H100，100G以太网")
    )
    assert ("Buy", "purchase_price") in ignored_pairs(
        ask_json_in_process("Rent 8 H100 for a month or Buy a server? Llama 3 70B LoRA")
    )
    assert ("买", "purchase_price") in ignored_pairs(
        ask_json_in_process("租一个月8卡H100和直接买一台哪个划算？微调 70B LoRA")
    )


def test_buy_in_is_no_purchase_en_zh() -> None:
    for q in (
        "Fine-tune Llama 3 8B with LoRA on 8 H100, we need buy-in from the team",
        "微调 Llama 3 8B LoRA，8张H100，我们已经买了这些卡",
    ):
        assert not [p for p in ignored_pairs(ask_json_in_process(q)) if p[1] == "purchase_price"], q


# Small 10: a quote for a month of cards is a rental period priced, not a training deadline


def test_quote_for_a_month_is_the_rental_en_zh() -> None:
    for q in (
        "Quote 8 H100 for a month to serve Llama 3 70B for 50 users",
        "报价：8张H100一个月，部署 Llama 3 70B，50 个用户",
    ):
        data = ask_json_in_process(q)
        # a month: 30 days x 24 h = 720 h, as 'rent … for a month' is read (bot.parse.past_run)
        assert data["request"]["hours"] == 720.0 and data["request"]["deadline_days"] is None, q
        assert not [p for p in ignored_pairs(data) if p[0].startswith("deadline_days")], q
    assert "8 × H100 80G for 720 hours = 5,760 GPU-hours" in text(
        "Quote 8 H100 for a month to serve Llama 3 70B for 50 users"
    )


def test_a_training_deadline_with_a_quote_stays_a_deadline_en_zh() -> None:
    for q in (
        "Fine-tune Llama 3 8B on 1B tokens in a month, quote 8 H100",
        "微调 Llama 3 8B，10亿 token，一个月内完成，给个报价",
    ):
        data = ask_json_in_process(q)
        assert data["request"]["deadline_days"] == 30.0 and data["request"]["hours"] is None, q
