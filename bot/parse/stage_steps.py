"""Steps 1b and 5 of the parse: the stage, algorithm, method and settings from words and keys, and what the
fields together ask (rental periods, a price lookup, GPU-hours, a duration, a concurrency or a count asked
for); a mixin of :class:`bot.parse.assemble._Parse`, which holds the state these steps read and write."""

from __future__ import annotations

from itertools import compress, repeat
from operator import attrgetter, eq, itemgetter
from typing import Any

from bot.later_names import (
    asks_batch,
    asks_epochs,
    asks_memory,
    asks_throughput,
    expert_degree,
    generating_with_tool,
    grpo_tool_algorithm,
    option_prices,
    personal_card_tuning,
    served_adapters,
    vllm_rollout_codebase,
)
from bot.parse.accum_asked import ACCUM_ASKED_RE
from bot.parse.algorithm_variants import algorithm_variant, sft_only_as_yardstick
from bot.parse.asked_method import asked_alternative, asked_method_first
from bot.parse.compared import compared_setups, sized_algorithm
from bot.parse.cue_words import EP_CUES
from bot.parse.data_parallel import read_data_parallel
from bot.parse.engines_named import engines_named, lmdeploy_share, with_engines
from bot.parse.gpus import GpuMention
from bot.parse.inline_flags import read_inline_flags
from bot.parse.inline_keys import read_inline_keys
from bot.parse.lexicon import GLOBAL_BATCH_RE
from bot.parse.method_words import METHOD_WORDS
from bot.parse.normalize import MODEL_MARK
from bot.parse.past_run import duration_as_hours
from bot.parse.per_card_load import HOW_MANY_RE, count_in_ceiling
from bot.parse.prose_forms import other_stage
from bot.parse.settings import extract_settings
from bot.parse.stack_words import fine_tuning_tool_named, rl_training_named, serving_engine_named
from bot.parse.stage_hints import (
    PRETRAINING_CODEBASE_RE,
    PRETRAINING_SCALE_RE,
    REPRODUCED_RE,
    batch_inference,
    lora_pretraining,
    spaced_release,
    tuning_only_stage,
)
from bot.parse.stage_key import adapter_keys_method, adapter_keys_stage, stage_key
from bot.parse.words import (
    ASKS_CONCURRENCY_RE,
    ASKS_CONTEXT_RE,
    ASKS_COST_RE,
    ASKS_COUNT_RE,
    ASKS_DURATION_RE,
    ASKS_LARGEST_RE,
    ASKS_PRICE_RE,
    ASKS_START_MORE_RE,
    ASKS_START_RE,
    PLURAL_GPU_RE,
    SERVE_AFTER_TUNING_RE,
    counter_asked,
    explicit_stage,
    method_from_words,
    serving_a_tuned_model,
    stage_from_words,
)
from estimator.request import TRAINING_FIELDS

TRAINED_WORDS = ("train", "trains", "training", "trained", "训练", "训")


def _name_trained(s: str) -> bool:
    """s48: whether the first model name masked in ``s`` (the parse's text) is what is trained: a training
    word just before it ('training VHM', 'training the Cobra', '训练 Cobra'), tested with str methods in C
    (no regex search on the parse's path: tests/test_parse_render_speed)."""
    before = s[: s.find(MODEL_MARK)].rstrip()
    return before.removesuffix("the").rstrip().endswith(TRAINED_WORDS)


_ROLE_OF = attrgetter("role")
_WHY_OF = itemgetter(1)  # a (text, why) pair's why
_TRAINING_ONLY = tuple(
    f for f in TRAINING_FIELDS if f not in ("tokens", "method", "algorithm", "batch_size", "epochs")
)
"""Settings only a training run has (estimator.request's training scope; a batch, epochs, samples and a
deadline are also said of serving and data): two of them with no stage word make the message a training
run, the stage a training answer defaults to (round 15 zh: a Megatron run's 'GlobalBatchSize 128', tp/pp
and 'recompute' read as a serving question and every setting named as not used)."""


def _training_settings(f: dict[str, Any], s: str) -> int:
    """How many of :data:`_TRAINING_ONLY` the fields ``f`` hold, plus a global batch's words in ``s`` (read
    later, by the assembly). Builtins only (map, count): no Python frame per field (parse-call budget)."""
    return (
        len(_TRAINING_ONLY) - list(map(f.get, _TRAINING_ONLY)).count(None) + bool(GLOBAL_BATCH_RE.search(s))
    )


NEGATED_STAGE_CUES = (
    "not train", "not fine", "not for", "not pre", "not infer", "not serv", "not deploy", "not sft",
    "no train", "no fine", "without train", "without fine", "不是训练", "不是微调", "不是推理", "不是部署",
    "不是预训练", "不用训练", "不用微调", "不需要训练", "不需要微调", "无需训练", "无需微调", "而非训练",
    "而非推理", "不做训练",
)  # fmt: skip
"""The literals one of :data:`bot.parse.negated_stage.NEGATED_STAGE_RE`'s matches holds (s38-r34en)."""


def _unnegated(s: str) -> str:
    """``s`` without the stage words it rules out (:mod:`bot.parse.negated_stage`, imported on a cue)."""
    from bot.parse.negated_stage import without_negated_stage

    return without_negated_stage(s)


class StageSteps:
    """Steps 1b and 5. The state lives in the parse (:class:`bot.parse.assemble._Parse`)."""

    s: str
    s0: str
    raw: str
    f: dict[str, Any]
    notes: list[str]
    named_unused: list[tuple[str, str]]

    def _stage_and_settings(self, s0: str) -> tuple[bool, str | None]:
        """Stage, algorithm and method from words, and the settings step (:mod:`bot.parse.settings`).
        Returns whether it is preference tuning, and the stage."""
        algorithm = sized_algorithm(s0)
        if algorithm is None and ("r1" in s0 or "grpo" in s0):  # 'X-R1', 'simple_GRPO': a GRPO codebase
            algorithm = grpo_tool_algorithm(s0)
        yardstick = algorithm == "sft" and sft_only_as_yardstick(s0)  # 'KTO … as much memory as SFT?'
        vary = not algorithm or (algorithm == "ppo" and "ppo" not in s0) or yardstick
        variant = algorithm_variant(s0) if vary else None
        if variant is not None:
            algorithm = variant[1]
            self.named_unused.append((f"algorithm: {variant[0]}", "algorithm_family"))
            if yardstick:
                self.named_unused.append(("algorithm: SFT", "other_setup"))
        preference = algorithm in ("dpo", "ppo", "grpo", "rloo")
        if any(map(s0.__contains__, NEGATED_STAGE_CUES)):  # 'inference, not training': no stage word
            s0 = _unnegated(s0)
        stage = stage_from_words(s0)
        keyed = stage_key(s0)  # '--stage pt': the tool's own stage key, before its other words
        stage = keyed[0] if keyed else stage
        algorithm = algorithm or (keyed[1] if keyed else None)
        stage = adapter_keys_stage(stage, s0, explicit_stage(s0))  # 'lora_rank: 64 … fits?': a LoRA run
        stage = lora_pretraining(tuning_only_stage(stage, s0), s0)  # round 5: 'ptv2 OOM', 'lora 预训练 13B'
        if stage == "finetune" and serving_a_tuned_model(s0):  # "serve a QLoRA-tuned Llama-3-8B"
            stage = "inference"
        if algorithm is not None and stage in (None, "pretrain", "inference"):
            stage = "finetune"
        if (
            stage != "finetune"
            and fine_tuning_tool_named(s0)
            and (explicit_stage(s0) is None or rl_training_named(s0))
        ):
            stage = "finetune"  # "training a 70B with LLaMA-Factory": that tool's job (stack_words)
        elif stage in (None, "pretrain") and (serving_engine_named(s0) or batch_inference(s0)):
            # "2000 tokens/s with TensorRT-LLM": a serving engine's job; s44: 'offline batch … output tokens'
            stage = "inference" if explicit_stage(s0) is None else stage
        stage = steps_stage(stage, s0) if "步" in s0 or "tep" in s0 or "iter" in s0 else stage  # s33 fixc #3
        if stage == "finetune" and ("generat" in s0 or "生成" in s0) and generating_with_tool(s0):
            stage = "inference"  # s32-gen: 'loading it in Unsloth … the generate takes 357 s'
        if stage == "finetune" and SERVE_AFTER_TUNING_RE.search(s0):  # "微调完推理跑得动吗": another setup
            self.named_unused.append(("stage: inference", "other_setup"))
        stated = extract_settings(self.s, training=stage not in (None, "inference"), raw=self.raw)
        if any(map(stated.s.__contains__, EP_CUES)):  # s47 trialfix #6: 'EP=4', '8 路专家并行'
            expert_degree(stated, stage not in (None, "inference"))
        self.s = stated.s
        self.data_parallel, self.s = read_data_parallel(self.s)  # 'data parallelism with --dp 2'
        self.notes += stated.notes
        self.named_unused += stated.unused
        self.accumulation, self.tool_cue = stated.accumulation, stated.tool_cue
        inline = read_inline_keys(self.s if stage != "inference" else "", stated.fields)  # round 4
        self.s = inline.s or self.s
        self.named_unused += inline.unused
        self.accumulation, self.keyed = self.accumulation or inline.accumulation, (*stated.read, *inline.read)
        methods = asked_method_first(s0, stated.methods, METHOD_WORDS)  # 'QLoRA 可以…，不量化的 LoRA 呢？'
        methods = asked_alternative(s0, stage, methods) if "lora" in s0 else methods  # 'do I need QLoRA?'
        stage = "finetune" if len(methods) == 1 and methods[0] in ("freeze", "ptuning") else stage
        method = methods[0] if len(methods) > 1 or methods[:1] in (["freeze"], ["ptuning"]) else None
        method = method or method_from_words(s0, stage, preference)
        if stage == "inference" and len(methods) < 2:  # a tuned model served: its method is not a job
            method = served_adapters(s0, self.named_unused) if methods else None  # r24: adapters named
        if len(methods) > 1:
            stage = "finetune" if stage in (None, "inference", "pretrain") else stage
        self.f = {"stage": stage, "method": method, "algorithm": algorithm, **inline.fields, **stated.fields}
        self.micro_key = stated.fields.get("batch_size")  # s21: a micro-batch key wins over prose's batch
        self.f["method"] = adapter_keys_method(self.f, s0)  # 'DPO … lora_rank 16': a LoRA run
        runtime = self.f.get("runtime") if stage == "inference" else None
        runtime, engines = engines_named(s0, runtime)  # two engines: the one asked about, the other named
        if runtime is not None:
            self.f["runtime"] = runtime
        flags = read_inline_flags(self.s, runtime, self.f, self.named_unused)  # round 4: its flags in prose
        self.s, self.computed_from = flags.s, flags.computed_from  # llama.cpp's -c over its -np slots
        self.f.update({k: v for k, v in fl.items() if self.f.get(k) is None} if (fl := flags.fields) else ())
        self.named_unused = lmdeploy_share(runtime, self.f, self.named_unused + flags.unused)  # s37: budgets
        self.named_unused += with_engines(compared_setups(s0, algorithm, runtime), engines)  # "DPO vs SFT"
        self.named_unused += other_stage(s0, stage)  # '预训练与 SFT 微调各要多久': the other stage named
        if len(methods) > 1:
            self.f["methods"] = methods
        if stage is None and _training_settings(self.f, self.s) >= 2:
            stage = self.f["stage"] = "pretrain"  # r15 zh: 'GlobalBatchSize 128 … recompute': a training run
        return preference, stage

    def named_model_trained(self) -> None:
        """A training run said only by its settings (no stage word, no 'train' / '训'), of a model named that
        no catalog has (a name masked in ``s``, not a size said alone), with no training tokens nor
        pre-training scale: a fine-tuning of that model, as a 'train' of a release is
        (stage_hints.tuning_only_stage; s34-gen2, issue 24: 'In Video-LLaVA … a batch size of 256 … how much
        gradient accumulation' was sized as a pre-training). s48: 'training VHM', '训练 VHM' likewise (a
        released model trained further is the likely job: en42-015, en35-006), unless its training is
        reproduced (:data:`REPRODUCED_RE`) or a pre-training word or scale is said."""
        f, s0 = self.f, self.s0
        if f.get("tokens") is None and "." in s0 and explicit_stage(s0) is None and spaced_release(s0):
            f["stage"] = "finetune"  # s37: 'training llava 1.5 13b', as 'training llava-1.5-13b' is
            return
        if f.get("tokens") is not None:
            return
        if ("train" in s0 or "训" in s0) and (not _name_trained(self.s) or REPRODUCED_RE.search(s0)):
            return  # 'train' / '训' is said of a release's pre-training too ('reproduce the BLT training'),
            # and of a model made anew beside a release ('按 MiniMind 推算，训练一个 1B 的模型', zh10-010)
        if explicit_stage(s0) is None and not PRETRAINING_SCALE_RE.search(s0):
            f["stage"] = "pretrain" if PRETRAINING_CODEBASE_RE.search(s0) else "finetune"

    # -- step 5: what the fields together mean

    def _asks_throughput(self) -> bool:
        """A serving throughput asked with no load, no target and no training stage stated
        (:func:`bot.parse.memory_asked.asks_throughput`)."""
        f = self.f
        load = f.get("concurrency") or f.get("target_tokens_per_s") or f.get("users")
        return not load and f.get("stage") in (None, "inference") and asks_throughput(self.s)

    def _host_ram(self) -> None:
        """Note ``host_ram_asked`` when the message names a llama.cpp-family runtime or GGUF weights and
        asks the host memory (bot.parse.ram_asked; imported behind its words: ``in`` tests only); and set
        ``checkpoint_asked`` when it asks a checkpoint's size or a training run's storage (s45 trial #1:
        bot.parse.checkpoint_asked, behind its words here so a parse without them makes no other frame), and
        ``merge_asked`` when it asks what a LoRA merge needs (s46 trial #2, behind its words too), and
        ``machines_asked`` when it asks the machines a job needs (s50 trial #2: bot.parse.machines_asked)."""
        s = self.s
        if ("merg" in s or "合并" in s or "融合" in s) and (
            "lora" in s or "adapter" in s or "适配器" in s or "unload" in s
        ):
            self._merge_asked()  # s46 trial #2: merging a LoRA into its base, not a LoRA training
        ckpt = "checkpoint" in s or "ckpt" in s or "检查点" in s or "权重文件" in s
        if ckpt or "存储" in s or "盘" in s or "storage" in s or "disk" in s:
            self._checkpoint_asked()
        if (
            "几台" in s
            or "多少台" in s
            or ("how many" in s and ("server" in s or "machine" in s or "node" in s))
        ):
            from bot.parse.machines_asked import asks_machines  # s50 trial #2: the machines, not only GPUs

            self.f["machines_asked"] = asks_machines(s) or None
        if not ("llama" in s or "gguf" in s or "lm studio" in s or "ktransformers" in s):
            return
        if not (" ram" in s or "内存" in s or " memory" in s):
            return
        from bot.parse.ram_asked import asks_host_ram

        if asks_host_ram(self.s):
            self.notes.append("host_ram_asked")

    def _checkpoint_asked(self) -> None:
        """``checkpoint_asked`` when the message asks a checkpoint's size (or, training, its storage); a
        checkpoint asked with no stage said is a full fine-tuning's (its state is a training run's)."""
        from bot.parse.checkpoint_asked import asks_checkpoint, names_checkpoint

        f = self.f
        if asks_checkpoint(self.s, f.get("stage") not in (None, "inference")):
            f["checkpoint_asked"] = True
            if f.get("stage") is None and names_checkpoint(self.s):
                f["stage"] = "finetune"

    def _merge_asked(self) -> None:
        """``merge_asked`` when the message asks what a LoRA merge needs (bot.parse.merge_asked): the stage
        is the merged model's, served, and the LoRA method is dropped (no adapter is trained)."""
        from bot.parse.merge_asked import asks_merge

        if asks_merge(self.s):
            self.f |= {"merge_asked": True, "stage": "inference"}  # the method as read (zh27-008)

    def _unquantized(self) -> None:
        """A serving question that keeps the weights unquantized and names no precision: the model's release
        precision, bf16 unless the catalog says otherwise (:mod:`bot.parse.unquantized`)."""
        from bot.parse.unquantized import release_precision, weights_unquantized  # rare: when used (start-up)

        if not self.f.get("precision") and weights_unquantized(self.s):
            self.f["precision"] = release_precision(self.f.get("model"))

    def _time_and_asks(self, gpus: list[GpuMention]) -> None:
        """Each compared card's own price, rental periods, a price lookup, GPU-hours, and a duration or
        concurrency asked for."""
        if len(gpus) > 1 and self.f.get("price_per_gpu_hour") is not None:
            option_prices(self, gpus)  # 'H100 at $2.49 vs A100 at $1.19': each card its own price (s19)
        per_node = next(compress(self.roles, map(eq, map(_ROLE_OF, self.roles), repeat("per_node"))), None)
        if per_node is not None and per_node.value == 8:  # "8卡机器": the 8-GPU nodes every plan assumes
            self.first("per_node")
        f = self.f
        if f.get("algorithm") == "grpo" and f.get("runtime") is None and "r1" in self.s:  # X-R1's recipes
            vllm_rollout_codebase(self.s, f)  # decode with vLLM (bot.parse.grpo_tools)
        if f.get("stage") == "pretrain" and MODEL_MARK in self.s and not f.get("model"):  # s34-gen2: tuned
            self.named_model_trained()
        f["budget_period"] = self._budget_period if f.get("budget") else None  # '预算每月5万', '$3k a month'
        if note := duration_as_hours(f, self.s, self.roles):  # a past run's days, a rental period (s14)
            self.notes.append(note)
        sized = ("model", "params_total", "tokens", "num_samples", "budget", "hours", "deadline_days")
        sized += ("concurrency", "global_batch")  # a global batch is a training run's, not a price (s32 fixb)
        nothing_else = not any(map(f.get, sized)) and f.get("stage") in (None, "pretrain")
        t = self.s
        if f.get("global_batch") and ("accum" in t or "梯度累" in t) and ACCUM_ASKED_RE.search(t):
            self.notes.append("accumulation_asked")  # 'how much gradient accumulation' (core.accumulation)
        if gpus and ASKS_COST_RE.search(self.s) and nothing_else:
            f["hours"] = 1.0  # "H100一小时多少钱", "H100 price per GPU-hour": one GPU-hour's price
            self.notes.append("price_lookup")
        hours_role = self.first("gpu_hours")
        if hours_role is not None and self.f.get("hours") is None:  # "1万卡时" = GPU-hours on the count
            self.f["hours"] = hours_role.value / (self.f.get("gpu_count") or 1)
        if ASKS_DURATION_RE.search(self.s):  # a time asked: said on the recommended GPUs too (s33-left2 #3)
            self.notes.append("time_asked")
            if not any(map(f.get, ("tokens", "num_samples", "hours"))):
                f["duration_asked"] = True  # "7B用8张H100训多久" with no data size (pre-training: 20·N)
        if ASKS_CONCURRENCY_RE.search(self.s) and not f.get("concurrency"):  # "最多支持多少并发"
            f["concurrency_asked"] = True
        if ("context" in self.s or "上下文" in self.s) and ASKS_CONTEXT_RE.search(self.s):  # trial s26 #10
            f["context_asked"] = True  # "max context?", "上下文能开多大": the longest their GPUs hold
        elif ("吞吐" in self.s or "throughput" in self.s) and self._asks_throughput():
            f["concurrency_asked"] = True  # '吞吐多少': tokens/s in total at the most held (s25 trial #13)
        # the start-up vocabulary (s37 fixb #4): two patterns, each behind its own words (``in`` tests)
        more = ("起来" in t and "训" not in t and "微调" not in t) or " load" in t or " boot" in t
        more = more or " launch" in t
        if (("start" in t or "启动" in t or "起得来" in t) and ASKS_START_RE.search(t)) or (
            more and ASKS_START_MORE_RE.search(t)
        ):
            f["start_asked"] = True  # 'will vLLM start …?': the start-up check's yes/no (trial s26b #6)
        if ("显存" in t or "memory" in t or "vram" in t or "内存" in t) and asks_memory(t):  # t is self.s
            f["memory_asked"] = True  # "每张卡显存占多少": the per-GPU figure on their count (s25 trial #2)
        self._host_ram()  # 'how much RAM' for llama.cpp/Ollama: the host memory leads (s39 fixm #2)
        f["cost_asked"] = ASKS_PRICE_RE.search(self.s) is not None or None  # cost words only (s35 fixe #2)
        f["global_batch_asked"] = (("batch" in t or "批" in t) and asks_batch(t)) or None  # the batch? (s42)
        f["epochs_asked"] = (("epoch" in t or "轮" in t or "遍" in t) and asks_epochs(t)) or None  # s43 #4
        if ("量化" in self.s or "quantiz" in self.s or "精度" in self.s or "precision" in self.s) and f.get(
            "stage"
        ) == "inference":
            self._unquantized()  # '不量化', 'without quantization': 16-bit weights (s37 fixc #6)
        lost = "_lost" in self.__dict__  # 'one L40S handles 40, how many for 200?' asks the count (s30 fixe)
        if (
            ASKS_COUNT_RE.search(self.s)
            or (lost and HOW_MANY_RE.search(self.s))
            or (("多少" in self.s or "how many" in self.s) and counter_asked(self.s))  # '用3090 多少张' (s39)
        ):  # "RTX 4090s: how many cards?"
            if lost and count_in_ceiling(self):  # '单卡能扛 40 … 要几张卡' (s30)
                f.pop("gpu_count")
            if not f.get("gpu_count"):
                f["count_asked"] = True
        slots = "card_slots" in map(_WHY_OF, self.named_unused)  # bot.parse.card_slots (s14); C (s37)
        plural = self._plural_gpu or PLURAL_GPU_RE.search(self.s) or slots
        if plural and not f.get("gpu_count"):  # "on 4090s", "several A100", '4 个卡槽': some cards, not one
            f["count_asked"] = True
        if f.get("stage") == "pretrain" and f.get("gpu") and personal_card_tuning(f, self.s0):
            f["stage"], self.notes = "finetune", [*self.notes, "finetune_assumed"]  # s33-left2 #1
        if f.get("gradient_accumulation") and f.get("stage") not in (None, "inference"):
            self.notes.append("accumulation_stated")  # said under the headline (bot.render.assumed_head)
        if f.get("offload") and ("optim" in self.s or "优化器" in self.s):  # s35 #4: the optimizer's alone
            from bot.parse.param_offload import optimizer_offload_alone  # rare: imported when used (start-up)

            f["offload_params"] = optimizer_offload_alone(self.s)
        unnamed = not (f.get("model") or f.get("params_total"))
        if f.get("budget") and f.get("stage") == "finetune" and unnamed and ASKS_LARGEST_RE.search(self.s0):
            f["largest_asked"] = True  # '$5000, biggest model we can full finetune …' (s35 #1)


def steps_stage(stage: str | None, s0: str) -> str | None:
    """Fine-tuning where no stage word is typed (``stage`` None, or serving only from a weak hint: '跑')
    and the message counts optimizer steps or asks one step's time ('跑一千步要多久', 'how long for 2000
    steps', 'how long per step'): steps are a training run's, never a service's; without a model the
    reply asks for it (bot.render.renderer.needs_model_size). A lone '一步' (one step) is not counted."""
    from bot.parse.steps import PER_STEP_RE, read_steps
    from bot.parse.words import explicit_stage

    if stage not in (None, "inference") or explicit_stage(s0) is not None:
        return stage
    steps = read_steps(s0)[1]
    return "finetune" if steps and (steps > 1 or PER_STEP_RE.search(s0)) else stage
