"""Launch recipes: for each kind of answer (pre-training at scale, full fine-tuning, LoRA/QLoRA,
data-centre serving, personal serving) the recipes are built, every flag and key is checked against the
tool's own list (``bot/recipes/flags/*.json``, pinned versions), and every value against the answer's
plan: TP, PP, DP, ZeRO stage, offload, micro-batch, gradient accumulation, global batch, sequence length,
precision, context, concurrency and GPU count. Also the CLI (--recipe, --recipe-dir), the JSON contract,
the parser's recipe words, follow-ups, and the Telegram ⚙️ button.
"""

from __future__ import annotations

import json
import math
from functools import cache

import pytest

from bot.cli import main
from bot.core.conversation import Conversation
from bot.core.pipeline import Answer, answer
from bot.parse import parse
from bot.recipes import TOOLS, Recipe, build_recipes, chosen_plan, has_recipes, matching
from bot.recipes.flags import FILES, commands, flag_data, problems, versions, yaml_items
from bot.recipes.model import gpus_of, job_for
from bot.recipes.present import as_text
from bot.recipes.serving import served
from bot.recipes.training import deepspeed_stage
from bot.recipes.training_parts import advised_plan
from bot.render.advice import framework_keys
from bot.render.renderer import render
from estimator import catalog
from estimator.mla_layout import mla_tp_copies
from estimator.models import Method, Plan, SizingReport, SizingRequest, Stage
from estimator.plan import with_batch

TRAINING = {
    "pretrain": "7B模型1万亿token要多少A100",
    "pretrain_tp_zero3": "How long to pretrain a 70B model on 2T tokens with 1024 H100s?",
    "pretrain_v100_fp16": "GPT-3 175B pretrain 300B tokens on 1024 V100",
    "continued_pretrain": "continued pretraining Qwen2.5-7B on 100B tokens",
    "full": "给我一个DeepSpeed配置，8卡A100全参微调13B",
    "full_tp_multinode": "full fine-tune Llama-3.1-70B",
    "full_offload_one_gpu": "offload full fine-tune 13B on one A100",
    "full_v100": "全参微调Qwen2.5-7B 8张V100",
    # s36 left #1: the unnamed full fine-tune above now runs ZeRO-3 data parallelism; TP 2 said keeps
    # DeepSpeed AutoTP's TP 2 × DP 4 with ZeRO-2 (the layout it was before) among the kinds
    "full_v100_tp": "全参微调Qwen2.5-7B 8张V100，TP 2",
    "lora_one_gpu": "LoRA fine-tune Qwen2.5-7B on one 4090",
    "lora_eight_gpus": "LoRA fine-tune Llama-3.1-8B on 8 A100",
    "qlora": "Can I QLoRA a 70B on two 4090s?",
}
SERVING = {
    "datacentre": "vllm部署qwen2.5-72b的启动参数怎么设，4张A100",
    "datacentre_replicas": "部署70B推理需要几张A100，100并发，32k上下文",
    "datacentre_fp8_mla": "deepseek-v3 部署 H200",
    "datacentre_int4": "部署qwen2.5-72b int4 2张A100",
    "personal": "单卡4090跑qwen2.5-14b",
    "personal_two_cards": "2张4090跑Llama-3-70B",
    "mac": "M2 Ultra 192G 跑 70B",
}


@cache
def _answer(question: str) -> Answer:
    return answer(question)


def _recipes(question: str) -> tuple[Answer, list[Recipe]]:
    a = _answer(question)
    return a, build_recipes(a.report, a.lang)


def _by_tool(recipes: list[Recipe]) -> dict[str, Recipe]:
    return {r.tool: r for r in reversed(recipes)}  # the first of a tool (the DeepSpeed config)


def _args(recipe: Recipe, program: str) -> dict[str, str | None]:
    """flag → value of the command ``program`` in a bash recipe (the value None for a switch)."""
    for words in commands(recipe.text):
        while words and "=" in words[0] and words[0].split("=")[0].isupper():
            words = words[1:]
        if words and words[0] == program:
            out: dict[str, str | None] = {}
            for i, word in enumerate(words):
                if word.startswith("-"):
                    nxt = words[i + 1] if i + 1 < len(words) else None
                    out[word] = nxt if nxt is not None and not nxt.startswith("-") else None
            return out
    raise AssertionError(f"no {program} command in {recipe.filename}")


def _overrides(recipe: Recipe) -> dict[str, str]:
    [words] = [w for w in commands(recipe.text) if w[:2] == ["tune", "run"]]
    return dict(w.split("=", 1) for w in words if "=" in w and not w.startswith("-"))


def _env(recipe: Recipe, program: str) -> dict[str, str]:
    for words in commands(recipe.text):
        env = {}
        while words and "=" in words[0] and words[0].split("=")[0].isupper():
            name, value = words[0].split("=", 1)
            env[name] = value
            words = words[1:]
        if words and words[0] == program:
            return env
    return {}


# -- the flag lists ----------------------------------------------------------------------------------


@pytest.mark.parametrize("tool", sorted(FILES))
def test_each_flag_list_names_its_version_and_source(tool):
    data = flag_data(tool)
    assert data["version"] and data["source"] and data["how_extracted"]
    assert data["flags"] == sorted(data["flags"]) and len(data["flags"]) > 20


def test_versions_pinned_in_the_readme():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Launch recipes", 1)[1].split("\n## ", 1)[0]
    for tool, version in versions().items():
        short = version.split(" (")[0].removeprefix("Megatron-LM ")
        assert short in section, f"README does not pin {tool} {short}"


@pytest.mark.parametrize("question", [*TRAINING.values(), *SERVING.values()])
def test_every_flag_and_key_is_in_the_tools_list(question):
    _, recipes = _recipes(question)
    assert recipes, question
    for recipe in recipes:
        assert problems(recipe) == [], (recipe.filename, recipe.text)


def test_the_check_catches_what_a_tool_does_not_have():
    bad = [
        Recipe(tool="vllm", title="t", filename="a.sh", language="bash", text="vllm serve m --tp-sizee 2\n"),
        Recipe(
            tool="sglang",
            title="t",
            filename="b.sh",
            language="bash",
            text="python -m sglang.launch_server --tp 2\n",
        ),  # a prefix abbreviation, not a flag
        Recipe(
            tool="deepspeed",
            title="t",
            filename="c.json",
            language="json",
            text='{"zero_optimization": {"stage": 3, "offload_everything": true}}',
        ),
        Recipe(
            tool="llamafactory",
            title="t",
            filename="d.yaml",
            language="yaml",
            text="finetuning_type: ptuning\nlora_rnk: 8\n",
        ),
        Recipe(
            tool="ollama",
            title="t",
            filename="e.sh",
            language="bash",
            text="cat > Modelfile <<'EOF'\nFROM ./x.gguf\nPARAMETER num_parallel 4\nEOF\n",
        ),
        Recipe(
            tool="torchtune",
            title="t",
            filename="f.sh",
            language="bash",
            text="tune run lora_finetune_single_device --config qwen2_5/7B_lora lora_rank=8\n",
        ),
        Recipe(
            tool="megatron",
            title="t",
            filename="g.sh",
            language="bash",
            text="torchrun --nproc-per-node 8 pretrain_gpt.py --recompute-granularity partial\n",
        ),
    ]
    for recipe in bad:
        assert problems(recipe), recipe.text


def test_recipe_tools_are_the_contracts_tools():
    assert set(TOOLS) == set(FILES)
    for question in [*TRAINING.values(), *SERVING.values()]:
        _, recipes = _recipes(question)
        names = [r.filename for r in recipes]
        assert len(names) == len(set(names)), names
        for r in recipes:
            assert r.tool in TOOLS and r.language in ("json", "yaml", "bash") and r.title and r.text


# -- training: values from the plan --------------------------------------------------------------------


def _check_deepspeed(recipe: Recipe, plan: Plan, precision: str) -> None:
    ds = json.loads(recipe.text)
    micro, acc = plan.micro_batch, plan.gradient_accumulation
    assert ds["train_micro_batch_size_per_gpu"] == micro
    assert ds["gradient_accumulation_steps"] == acc
    # DeepSpeedConfig._batch_assertion: train_batch_size == micro × accumulation × DP
    assert ds["train_batch_size"] == micro * acc * plan.dp == plan.global_batch_sequences
    zero = ds["zero_optimization"]
    assert zero["stage"] == deepspeed_stage(plan)
    assert zero["stage"] == plan.zero_stage or (plan.offload and plan.zero_stage < 2 and zero["stage"] == 2)
    assert ("offload_optimizer" in zero) == plan.offload
    assert ds[precision] == {"enabled": True}
    assert ds.get("tensor_parallel", {}).get("autotp_size", 1) == plan.tp


def _check_launcher(recipe: Recipe, plan: Plan, precision: str) -> None:
    program = "deepspeed" if recipe.tool == "deepspeed" else "torchrun"
    args = _args(recipe, program)
    if program == "deepspeed":
        assert int(args["--num_gpus"]) == gpus_of(plan)
    else:
        assert int(args.get("--nnodes") or 1) * int(args["--nproc-per-node"]) == gpus_of(plan)
    assert int(args["--per_device_train_batch_size"]) == plan.micro_batch
    assert int(args["--gradient_accumulation_steps"]) == plan.gradient_accumulation
    assert args[f"--{precision}"] == "true"
    assert ("--gradient_checkpointing" in args) == (plan.recompute == "full")


def _check_megatron(recipe: Recipe, plan: Plan, report: SizingReport, precision: str) -> None:
    a = _args(recipe, "torchrun")
    gpus = int(a.get("--nnodes") or 1) * int(a["--nproc-per-node"])
    assert gpus == gpus_of(plan)
    tp, pp = int(a["--tensor-model-parallel-size"]), int(a["--pipeline-model-parallel-size"])
    assert (tp, pp) == (plan.tp, plan.pp)
    assert gpus // (tp * pp) == plan.dp
    assert ("--sequence-parallel" in a) == (plan.tp > 1)
    assert ("--use-distributed-optimizer" in a) == (plan.zero_stage >= 1 or plan.offload)
    strategy = {2: "optim_grads", 3: "optim_grads_params"}.get(plan.zero_stage)
    assert a.get("--data-parallel-sharding-strategy") == strategy
    assert ("--use-megatron-fsdp" in a) == (strategy is not None)
    granularity = {"none": None, "selective": "selective", "full": "full"}[plan.recompute]
    assert a.get("--recompute-granularity") == granularity
    assert int(a["--micro-batch-size"]) == plan.micro_batch
    global_batch = int(a["--global-batch-size"])
    assert global_batch == plan.global_batch_sequences
    assert global_batch == plan.micro_batch * plan.gradient_accumulation * plan.dp
    assert int(a["--seq-length"]) == report.request.seq_len
    assert f"--{precision}" in a
    spec = job_for(report, "en").spec
    assert int(a["--num-layers"]) == spec.layers and int(a["--hidden-size"]) == spec.hidden
    assert int(a["--num-attention-heads"]) == spec.heads and int(a["--ffn-hidden-size"]) == spec.ffn_hidden
    if spec.kv_heads < spec.heads:
        assert int(a["--num-query-groups"]) == spec.kv_heads and "--group-query-attention" in a
    if report.request.tokens and report.request.stage != Stage.finetune:
        assert int(a["--train-samples"]) == math.ceil(report.request.tokens / report.request.seq_len)
    assert ("--optimizer-cpu-offload" in a) == plan.offload


def _check_llamafactory(recipe: Recipe, plan: Plan, report: SizingReport, recipes: dict[str, Recipe]) -> None:
    y = yaml_items(recipe.text)
    req = report.request
    assert int(y["per_device_train_batch_size"]) == plan.micro_batch
    assert int(y["gradient_accumulation_steps"]) == plan.gradient_accumulation
    assert int(y["cutoff_len"]) == req.seq_len
    method = req.method or Method.full
    assert y["finetuning_type"] == ("full" if method == Method.full else "lora")
    if method != Method.full:
        assert int(y["lora_rank"]) == 16 and y["lora_target"] == "all"  # the estimate's assumption
    assert y.get("quantization_bit") == ("4" if method == Method.qlora else None)
    if "deepspeed" in y:
        assert y["deepspeed"] == recipes["deepspeed"].filename == "ds_config.json"
    else:
        assert plan.dp == 1 and plan.zero_stage == 0 and not plan.offload
    assert ("disable_gradient_checkpointing" in y) == (plan.recompute != "full")
    assert y.get("bf16", y.get("fp16")) == "true"
    run = next(line for line in recipe.text.splitlines() if "llamafactory-cli" in line)
    nproc = int(run.split("NPROC_PER_NODE=")[1].split()[0]) if "NPROC_PER_NODE=" in run else 1
    nodes = int(run.split("NNODES=")[1].split()[0]) if "NNODES=" in run else 1
    assert nproc * nodes == gpus_of(plan)


def _check_torchtune(recipe: Recipe, plan: Plan, report: SizingReport) -> None:
    o = _overrides(recipe)
    assert int(o["batch_size"]) == plan.micro_batch
    assert int(o["gradient_accumulation_steps"]) == plan.gradient_accumulation
    assert int(o["tokenizer.max_seq_len"]) == report.request.seq_len
    assert o["enable_activation_checkpointing"] == str(plan.recompute == "full")
    if gpus_of(plan) > 1:
        a = _args(recipe, "tune")
        assert int(a["--nnodes"]) * int(a["--nproc_per_node"]) == gpus_of(plan)
        assert o["fsdp_reshard_after_forward"] == str(plan.zero_stage == 3)
    else:
        assert "single_device" in recipe.text


@pytest.mark.parametrize("kind", sorted(TRAINING))
def test_training_recipes_carry_the_plan(kind):
    a, recipes = _recipes(TRAINING[kind])
    report = a.report
    plan = chosen_plan(report)
    assert plan is not None and plan.gradient_accumulation and plan.global_batch_sequences
    # the answer's advice on gradient checkpointing (a borderline verdict's fit_change) is in the recipe
    plan = advised_plan(job_for(report, a.lang), plan)
    by_tool = _by_tool(recipes)
    precision = "fp16" if "V100" in (report.request.gpu or "") else "bf16"
    pretraining = report.request.stage in (Stage.pretrain, Stage.continued_pretrain)
    # TP with ZeRO-3: Megatron-LM (DeepSpeed's AutoTP training runs ZeRO 0/1/2 only; s34 fixb)
    tp_zero3 = plan.tp > 1 and deepspeed_stage(plan) == 3
    assert ("megatron" in by_tool) == (pretraining or plan.pp > 1 or tp_zero3)
    assert not (tp_zero3 and ("deepspeed" in by_tool or "torchrun" in by_tool))
    if "megatron" in by_tool:
        _check_megatron(by_tool["megatron"], plan, report, precision)
    if "deepspeed" in by_tool or "torchrun" in by_tool:
        ds = next(r for r in recipes if r.language == "json")
        _check_deepspeed(ds, plan, precision)
        launcher = next(r for r in recipes if r.filename.startswith("launch_"))
        _check_launcher(launcher, plan, precision)
    if report.request.stage != Stage.pretrain:
        # LLaMA-Factory runs data parallelism only: no recipe for a TP layout (s34 fixb)
        assert ("llamafactory" in by_tool) == (plan.tp == 1)
    if "llamafactory" in by_tool:
        _check_llamafactory(by_tool["llamafactory"], plan, report, by_tool)
    if "torchtune" in by_tool:
        _check_torchtune(by_tool["torchtune"], plan, report)


def test_kinds_cover_each_tool_and_layout():
    seen_tools: set[str] = set()
    plans = []
    for question in [*TRAINING.values(), *SERVING.values()]:
        a, recipes = _recipes(question)
        seen_tools |= {r.tool for r in recipes}
        plans.append(chosen_plan(a.report))
    assert seen_tools == set(TOOLS)
    plans = [p for p in plans if p is not None]
    assert {p.zero_stage for p in plans} == {0, 1, 2, 3}
    assert any(p.tp > 1 for p in plans) and any(p.offload for p in plans)
    assert {p.recompute for p in plans} >= {"selective", "full"}


def test_a_pipeline_plan_gets_megatron_only():
    """PP needs a pipeline-aware model: Megatron-LM, not DeepSpeed/LLaMA-Factory on a Hugging Face model."""
    a = _answer(TRAINING["full_tp_multinode"])
    mem = a.report.memory
    pp_plan = with_batch(Plan(tp=8, pp=2, dp=2, zero_stage=1, recompute="full", micro_batch=1), 128)
    report = a.report.model_copy(update={"memory": mem.model_copy(update={"plan": pp_plan, "plan_gpus": 32})})
    report = report.model_copy(update={"flops": 1.0})  # a timed answer: the plan at plan_gpus
    recipes = build_recipes(report, "en")
    assert [r.tool for r in recipes] == ["megatron"]
    assert problems(recipes[0]) == []
    _check_megatron(recipes[0], pp_plan, report, "bf16")


def test_offload_on_one_gpu_runs_zero_offload():
    a, recipes = _recipes(TRAINING["full_offload_one_gpu"])
    plan = chosen_plan(a.report)
    assert plan.offload and plan.zero_stage == 0 and plan.dp == 1
    ds = json.loads(_by_tool(recipes)["deepspeed"].text)
    assert ds["zero_optimization"]["stage"] == 2
    assert ds["zero_optimization"]["offload_optimizer"] == {"device": "cpu", "pin_memory": True}


def test_torchtune_only_with_a_registered_config():
    registry = flag_data("torchtune")["recipes"]
    _, recipes = _recipes(TRAINING["lora_one_gpu"])
    tune = _by_tool(recipes)["torchtune"]
    assert "lora_finetune_single_device" in tune.text and "qwen2_5/7B_lora_single_device" in tune.text
    assert "qwen2_5/7B_lora_single_device" in registry["lora_finetune_single_device"]
    _, recipes = _recipes(TRAINING["lora_eight_gpus"])
    [words] = [w for w in commands(_by_tool(recipes)["torchtune"].text) if w[:2] == ["tune", "run"]]
    assert "lora_finetune_distributed --config llama3_1/8B_lora" in " ".join(words)
    _, recipes = _recipes(TRAINING["full"])  # a generic 13B: no torchtune config
    assert "torchtune" not in _by_tool(recipes)


# -- the global batch ---------------------------------------------------------------------------------


def test_pretraining_batch_is_about_4m_tokens_per_step():
    a = _answer(TRAINING["pretrain"])
    plan = a.report.memory.plan
    tokens = plan.global_batch_sequences * a.report.request.seq_len
    assert 0.8 * 4 * 2**20 <= tokens <= 1.2 * 4 * 2**20  # Llama 2 §2.2: 4M tokens
    assert plan.global_batch_sequences == plan.micro_batch * plan.gradient_accumulation * plan.dp
    assert any(x.field == "global_batch" and x.why == "global_batch_pretrain" for x in a.report.assumptions)


def test_finetuning_batch_is_128_sequences():
    a = _answer(TRAINING["full"])
    plan = a.report.memory.plan
    assert plan.global_batch_sequences == 128 and plan.gradient_accumulation == 128 // plan.dp
    assert any(x.field == "global_batch" and x.value == 128 for x in a.report.assumptions)


def test_a_users_global_batch_is_used_and_rounded_to_whole_micro_batches():
    from estimator import estimate

    report = estimate(SizingRequest(stage=Stage.finetune, params_total=13e9, gpu_count=8, global_batch=100))
    plan = report.memory.plan
    assert plan.dp == 8 and plan.gradient_accumulation == 12 and plan.global_batch_sequences == 96
    assert [n.params for n in report.warnings if n.code == "global_batch_adjusted"] == [
        {"global_batch": 100, "adjusted": 96, "micro_batch": 1, "gradient_accumulation": 12, "dp": 8}
    ]
    assert not any(x.field == "global_batch" for x in report.assumptions)


def test_reply_shows_the_batch():
    text = render(_answer(TRAINING["pretrain"]), "text")
    plan = _answer(TRAINING["pretrain"]).report.memory.plan
    assert f"{plan.global_batch_sequences:,}" in text and f"{plan.gradient_accumulation} " in text


# -- serving: values from the layout ------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(SERVING))
def test_serving_recipes_carry_the_layout(kind):
    a, recipes = _recipes(SERVING[kind])
    inf = a.report.inference
    by_tool = _by_tool(recipes)
    n = served(inf)
    assert n == min(inf.concurrency, inf.max_concurrency or inf.concurrency)
    if inf.runtime == "llama.cpp":
        assert set(by_tool) == {"llama.cpp", "ollama"}
        a_ = _args(by_tool["llama.cpp"], "llama-server")
        assert int(a_["-c"]) == inf.context_tokens * n and int(a_["-np"]) == n and a_["-ngl"] == "all"
        assert a_["-m"].endswith(".gguf")
        assert len((a_.get("-ts") or "1").split(",")) == inf.serving_gpus
        text = by_tool["ollama"].text
        assert f"PARAMETER num_ctx {inf.context_tokens}" in text
        assert _env(by_tool["ollama"], "ollama")["OLLAMA_NUM_PARALLEL"] == str(n)
        return
    assert set(by_tool) == {"vllm", "sglang"}
    v = _args(by_tool["vllm"], "vllm")
    s = _args(by_tool["sglang"], "python")
    spec = job_for(a.report, "en").spec
    assert int(s["--tp-size"]) == inf.tp
    assert int(v.get("--pipeline-parallel-size") or 1) == int(s.get("--pp-size") or 1) == inf.pp
    assert int(v["--max-model-len"]) == int(s["--context-length"]) == inf.context_tokens
    per = int(s["--max-running-requests"])
    assert per * inf.replicas >= n > (per - 1) * inf.replicas
    assert float(v["--gpu-memory-utilization"]) == 0.9  # the estimate's vLLM default
    assert inf.tp * inf.pp * inf.replicas == inf.serving_gpus
    dp = int(v.get("--data-parallel-size") or 1)
    # MLA + MoE sized as DP attention: one engine per GPU; with no engine named it is sized on vLLM's
    # default plain TP (estimator.mla_layout.mla_tp_copies; s25 trial #8) and the recipe keeps that TP
    dp_sized = not mla_tp_copies(a.report.request, spec)
    if spec.kv_lora_rank and spec.experts and inf.tp > 1 and dp_sized:  # one engine per GPU, as sized
        ranks = inf.tp * inf.replicas
        assert dp == ranks and "--enable-expert-parallel" in v and "--tensor-parallel-size" not in v
        assert int(v["--max-num-seqs"]) == -(-n // ranks)
    else:
        assert int(v["--tensor-parallel-size"]) == inf.tp and int(v["--max-num-seqs"]) == per
        assert dp == int(s.get("--dp-size") or 1) and (dp == inf.replicas or dp == 1)
    fraction = float(s["--mem-fraction-static"])
    assert 0.5 < fraction < 0.9
    fmt = inf.weight_format
    if fmt in ("bf16", "fp16"):
        assert v["--dtype"] == s["--dtype"] == {"bf16": "bfloat16", "fp16": "float16"}[fmt]
    elif fmt == "fp8" and spec.release_precision != "fp8":
        assert v["--quantization"] == s["--quantization"] == "fp8"
    elif fmt == "int4":
        assert v["--quantization"] == s["--quantization"] == "awq"
    if spec.kv_lora_rank and inf.tp > 1 and dp_sized:
        assert int(s["--attn-dp-size"]) == inf.tp
    elif spec.kv_lora_rank and inf.tp > 1:  # sized on plain TP: SGLang's recipe sets no DP attention either
        assert "--attn-dp-size" not in s and "--enable-dp-attention" not in s


def test_serving_model_is_the_instruct_release_of_the_catalog_model():
    _, recipes = _recipes(SERVING["datacentre"])
    assert "vllm serve Qwen/Qwen2.5-72B-Instruct" in _by_tool(recipes)["vllm"].text
    _, recipes = _recipes(SERVING["personal"])
    assert "Qwen2.5-14B-Instruct-Q8_0.gguf" in _by_tool(recipes)["llama.cpp"].text


def test_a_runtime_the_user_names_comes_first():
    """The request's runtime puts that tool's recipe first (the request field read directly: issue 23
    deleted ``Job.said``, which probed fields defensively)."""
    report = _answer(SERVING["datacentre"]).report
    assert [r.tool for r in build_recipes(report, "en")] == ["vllm", "sglang"]
    report = report.model_copy(update={"request": report.request.model_copy(update={"runtime": "SGLang"})})
    assert [r.tool for r in build_recipes(report, "en")] == ["sglang", "vllm"]


# -- nothing to launch ---------------------------------------------------------------------------------


def test_no_recipes_without_a_plan():
    assert build_recipes(None) == []
    a = answer("预算100万，能训多大的模型？")
    assert build_recipes(a.report, a.lang) == [] and not has_recipes(a.report)
    a = answer("7B 1T tokens")  # training: a plan exists
    assert has_recipes(a.report)


def test_recipes_are_deterministic_and_in_the_replys_language():
    first = build_recipes(_answer(TRAINING["full"]).report, "zh")
    again = build_recipes(_answer(TRAINING["full"]).report, "zh")
    assert first == again
    english = build_recipes(_answer(TRAINING["full"]).report, "en")
    assert [r.text.splitlines()[-1] for r in first if r.language == "json"] == [
        r.text.splitlines()[-1] for r in english if r.language == "json"
    ]
    zh_titles = " ".join(r.title for r in first)
    assert any("\u4e00" <= ch <= "\u9fff" for ch in zh_titles)


# -- framework advice ----------------------------------------------------------------------------------


def test_framework_advice_per_kind():
    keys = {kind: framework_keys(_answer(q).report) for kind, q in {**TRAINING, **SERVING}.items()}
    assert keys["pretrain"][:2] == ["megatron", "deepspeed_fsdp"]
    assert keys["full"] == ["deepspeed_fsdp", "llamafactory"]
    assert keys["lora_one_gpu"] == ["llamafactory", "torchtune"]
    assert keys["datacentre"] == ["vllm_sglang"] and keys["personal"] == ["llama_cpp"]
    text = render(_answer(TRAINING["pretrain"]), "text")
    assert "Megatron-LM" in text and "Narayanan" in text
    text = render(answer("LoRA fine-tune Qwen2.5-7B on one 4090", None), "text")
    assert "LLaMA-Factory" in text and "torchtune" in text


# -- CLI and contract ---------------------------------------------------------------------------------


def test_json_contract_has_the_recipes(capsys):
    assert main(["ask", "--format", "json", TRAINING["full"]]) == 0
    data = json.loads(capsys.readouterr().out)
    recipes = data["report"]["recipes"]
    assert {r["tool"] for r in recipes} == {"llamafactory", "deepspeed"}
    for r in recipes:
        assert set(r) == {"tool", "title", "filename", "language", "text"}
    ds = json.loads(next(r["text"] for r in recipes if r["language"] == "json"))
    plan = data["report"]["memory"]["plan"]
    assert ds["train_batch_size"] == plan["micro_batch"] * plan["gradient_accumulation"] * plan["dp"]


def test_cli_prints_recipes_in_fenced_blocks(capsys):
    assert main(["ask", "--recipe", "vllm部署qwen2.5-72b，4张A100"]) == 0
    out = capsys.readouterr().out
    assert "### serve_vllm.sh — " in out and "```bash\n#!/usr/bin/env bash\nvllm serve" in out
    assert "### serve_sglang.sh" in out
    assert main(["ask", "--recipe", "vllm", "部署qwen2.5-72b，4张A100"]) == 0  # only the tools named
    out = capsys.readouterr().out
    assert "serve_vllm.sh" in out and "serve_sglang.sh" not in out


def test_cli_recipe_before_a_question_does_not_swallow_it(capsys):
    assert main(["ask", "--recipe", "8卡A100全参微调13B"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("13B") and "### ds_config.json" in out


def test_cli_writes_recipe_files(tmp_path, capsys):
    assert main(["ask", "--recipe-dir", str(tmp_path / "out"), TRAINING["pretrain"]]) == 0
    captured = capsys.readouterr()
    files = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert files == ["ds_config.json", "launch_torchrun.sh", "pretrain_megatron.sh"]
    assert "###" not in captured.out and "wrote" in captured.err
    assert (tmp_path / "out" / "pretrain_megatron.sh").stat().st_mode & 0o111
    json.loads((tmp_path / "out" / "ds_config.json").read_text())


def test_cli_answers_a_recipe_question_with_the_recipe(capsys):
    assert main(["ask", "给我一个DeepSpeed配置，8卡A100全参微调13B"]) == 0
    out = capsys.readouterr().out
    assert "### ds_config.json" in out and "### launch_deepspeed.sh" in out and "llamafactory.yaml" not in out


def test_as_text_fences_each_recipe():
    recipes = build_recipes(_answer(TRAINING["full"]).report, "en")
    text = as_text(recipes)
    assert text.count("```") == 2 * len(recipes)


# -- the parser and follow-ups ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tools"),
    [
        ("给我DeepSpeed配置", ["deepspeed"]),
        ("vllm 启动命令", ["vllm"]),
        ("sglang launch command for Qwen2.5-72B", ["sglang"]),
        ("LLaMA-Factory yaml for LoRA Qwen2.5-7B", ["llamafactory"]),
        ("Megatron参数怎么设", ["megatron"]),
        ("ollama 怎么跑 给我命令", ["ollama"]),
        ("llama.cpp 启动参数", ["llama.cpp"]),
        ("give me the launch command", []),
        ("用vllm部署70B要几张卡", None),  # a tool alone asks for sizing
        ("8卡A100这个配置能训多大模型", None),
        ("7B模型1万亿token要多少A100", None),
    ],
)
def test_parser_recognises_recipe_questions(text, tools):
    assert parse(text).recipe_tools == tools


def test_recipe_follow_up_answers_the_previous_question():
    conv = Conversation()
    first = conv.ask(1, 1, "8卡A100全参微调13B")
    again = conv.ask(1, 1, "给我DeepSpeed配置")
    assert again.answer.understood and again.followup
    assert again.answer.report.request == first.answer.report.request
    assert again.answer.parsed.recipe_tools == ["deepspeed"]
    picked = matching(build_recipes(again.answer.report, again.answer.lang), again.answer.parsed.recipe_tools)
    assert [r.filename for r in picked] == ["ds_config.json", "launch_deepspeed.sh"]
    served_ = conv.ask(1, 1, "vllm 启动命令")  # after training: serve the model
    assert served_.answer.report.request.stage == Stage.inference
    assert [r.tool for r in matching(build_recipes(served_.answer.report), ["vllm"])] == ["vllm"]


def test_matching_falls_back_to_all():
    recipes = build_recipes(_answer(TRAINING["full"]).report)
    assert matching(recipes, ["ollama"]) == recipes
    assert matching(recipes, None) == recipes


def test_catalog_models_resolve_to_repo_ids():
    from bot.recipes.refs import hf_repo

    assert hf_repo(catalog.model("Llama-3-8B"), serving=True) == "meta-llama/Meta-Llama-3-8B-Instruct"
    assert hf_repo(catalog.model("Qwen2.5-72B")) == "Qwen/Qwen2.5-72B"
    assert hf_repo(catalog.model("DeepSeek-V3")) == "deepseek-ai/DeepSeek-V3"
    known = [m for m in catalog.models().values() if hf_repo(m)]
    assert len(known) >= 170


# -- Telegram ------------------------------------------------------------------------------------------


def test_long_recipes_become_documents_and_short_ones_share_a_message():
    from htmlcheck import assert_telegram_html

    from bot.telegram.recipes import Document, outgoing, recipe_html

    recipes = build_recipes(_answer(TRAINING["pretrain"]).report, "zh")
    messages = outgoing(recipes)
    assert all(isinstance(m, str) for m in messages) and len(messages) < len(recipes)
    for m in messages:
        assert_telegram_html(m)
        assert '<pre><code class="language-' in m
    assert '<pre><code class="language-json">' in recipe_html(recipes[1])
    small = outgoing(recipes, limit=1000)  # the Megatron command is longer than that: a file
    docs = [m for m in small if isinstance(m, Document)]
    assert [d.filename for d in docs] == ["pretrain_megatron.sh"]
    assert docs[0].data.decode() == recipes[0].text
    assert len(small) == 2  # the file, then the config and the launcher in one message


TOKEN = "123456:FAKE-TOKEN-abc"


def _telegram(body):
    import asyncio

    from tg_harness import checked_fake_api, polling, settings_for

    import bot.telegram.app as tg

    with checked_fake_api(TOKEN) as api:

        async def run() -> None:
            async with polling(tg.build_application(settings_for(api))):
                await body(api)

        asyncio.run(asyncio.wait_for(run(), 20))
        return api


def test_telegram_config_button_sends_code_blocks(monkeypatch, tmp_path):
    import asyncio

    from htmlcheck import assert_telegram_html

    import bot.telegram.keyboards as kb

    monkeypatch.setenv("SIZING_BOT_DB", str(tmp_path / "s.sqlite3"))
    monkeypatch.delenv("SIZING_BOT_PRESALES", raising=False)

    async def body(api):
        user = api.user("Li", "zh-hans")
        chat = api.private_chat(user)
        api.send_text("8卡A100全参微调13B", chat=chat, user=user)
        [sent] = await asyncio.to_thread(api.wait_for, "sendMessage", 1, 8.0)
        rows = sent.params["reply_markup"]["inline_keyboard"]
        data = {b["text"]: b["callback_data"] for row in rows for b in row}
        assert "⚙️ 配置" in data and kb.decode(data["⚙️ 配置"]).action == kb.RECIPE
        assert len(data["⚙️ 配置"].encode()) <= 64
        api.press(api.bot_messages(chat["id"])[-1], data["⚙️ 配置"], user=user)
        calls = await asyncio.to_thread(api.wait_for, "sendMessage", 2, 8.0)
        recipe_message = calls[-1].params["text"]
        assert_telegram_html(recipe_message)
        assert '<pre><code class="language-json">' in recipe_message
        assert "train_batch_size" in recipe_message and "llamafactory.yaml" in recipe_message
        await asyncio.to_thread(api.wait_for, "answerCallbackQuery", 1, 8.0)

    _telegram(body)


def test_telegram_recipe_question_answers_with_the_matching_recipe(monkeypatch, tmp_path):
    import asyncio

    monkeypatch.setenv("SIZING_BOT_DB", str(tmp_path / "s.sqlite3"))
    monkeypatch.delenv("SIZING_BOT_PRESALES", raising=False)

    async def body(api):
        user = api.user("Li", "zh-hans")
        chat = api.private_chat(user)
        api.send_text("vllm部署qwen2.5-72b的启动参数怎么设，4张A100", chat=chat, user=user)
        answer_, recipe = await asyncio.to_thread(api.wait_for, "sendMessage", 2, 8.0)
        assert "Qwen2.5 72B" in answer_.params["text"]
        assert '<pre><code class="language-bash">' in recipe.params["text"]
        assert "vllm serve Qwen/Qwen2.5-72B-Instruct" in recipe.params["text"]
        assert "sglang" not in recipe.params["text"]
        api.send_text("给我sglang启动命令", chat=chat, user=user)  # a follow-up: that answer's SGLang line
        calls = await asyncio.to_thread(api.wait_for, "sendMessage", 4, 8.0)
        last = calls[-1].params["text"]
        assert "sglang.launch_server" in last and "--tp-size 4" in last

    _telegram(body)


@pytest.mark.parametrize(
    ("text", "global_batch", "micro"),
    [
        ("全局batch为256，8卡A100全参微调13B", 256, None),
        ("full fine-tune 13B on 8 A100, global batch size 1,024", 1024, None),
        ("global batch 1024 micro batch 2 7B 1T tokens A100", 1024, 2),
        ("global batch 2k, 7B 1T tokens", 2000, None),
        ("8卡A100全参微调13B batch 4", None, 4),  # a bare batch is the micro-batch
    ],
)
def test_parser_reads_a_global_batch_apart_from_the_micro_batch(text, global_batch, micro):
    request = parse(text).request
    assert (request.global_batch, request.batch_size) == (global_batch, micro)


def test_a_stated_global_batch_reaches_the_recipes():
    a, recipes = _recipes("全局batch为256，8卡A100全参微调13B")
    plan = chosen_plan(a.report)
    assert plan.global_batch_sequences == 256 and plan.gradient_accumulation == 32
    assert json.loads(_by_tool(recipes)["deepspeed"].text)["train_batch_size"] == 256
    assert not any(x.field == "global_batch" for x in a.report.assumptions)  # the user's, not assumed
    conv = Conversation()
    conv.ask(1, 1, "8卡A100全参微调13B")
    changed = conv.ask(1, 1, "全局batch 512呢")
    assert changed.followup and changed.answer.report.memory.plan.global_batch_sequences == 512


def test_every_corpus_question_gets_valid_recipes():
    """The real questions people ask: whatever each answer recommends, its recipes use only flags and
    keys the tools have, and DeepSpeed's batch identity holds."""
    from corpus import load_questions

    built = 0
    for q in load_questions():
        a = answer(q["text"])
        for recipe in build_recipes(a.report, a.lang):
            built += 1
            assert problems(recipe) == [], (q["id"], recipe.filename, problems(recipe))
            if recipe.language == "json":
                ds = json.loads(recipe.text)
                plan = chosen_plan(a.report)
                assert ds["train_batch_size"] == (
                    ds["train_micro_batch_size_per_gpu"] * ds["gradient_accumulation_steps"] * plan.dp
                )
    assert built > 100


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_vllm_recipe_for_mla_moe_runs_the_layout_the_capacity_assumes(lang):
    """Kimi K2 on 8 × B200: the vLLM command runs the layout the capacity was sized on. Since s24 that is
    vLLM's default, plain --tensor-parallel-size 8 (every rank keeps the whole MLA latent cache; the note
    offers --data-parallel-size 8 --enable-expert-parallel after, estimator.mla_layout.vllm_plain_tp);
    before, the capacity assumed data-parallel attention and the recipe ran one engine per GPU (trial
    2026-12-02) — the rule kept is the same: the command and the capacity are one layout."""
    question = (
        "kimi k2 用vllm部署要多少张B200，fp8" if lang == "zh" else "serve kimi k2 with vllm on B200 in fp8"
    )
    _, recipes = _recipes(question)
    vllm_recipe = _by_tool(recipes)["vllm"]
    v = _args(vllm_recipe, "vllm")
    assert v["--tensor-parallel-size"] == "8" and v["--max-num-seqs"] == "16"
    assert "--data-parallel-size" not in v and problems(vllm_recipe) == []
