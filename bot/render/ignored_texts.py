"""Why a stated value was not used, in words: the reasons of ``interpretation.ignored``
(bot.core.interpretation) → msgids, translated where the reply is rendered (bot.render.understood)."""

from __future__ import annotations

from bot.render.cluster_rate_texts import CLUSTER_RATE_TEXTS
from bot.render.i18n import N_
from bot.render.read_texts import READ_TEXTS
from bot.render.script_texts import SCRIPT_TEXTS
from bot.render.seq_typed_text import SEQ_MAX as SEQ_MAX
from bot.render.seq_typed_text import WINDOW_BEYOND as WINDOW_BEYOND
from bot.render.seq_typed_text import seq_typed as seq_typed
from bot.render.serve_flag_texts import SERVE_FLAG_TEXTS
from bot.render.serving_load_texts import QPS_AT_LOAD as QPS_AT_LOAD
from bot.render.serving_load_texts import SERVING_LOAD_TEXTS
from bot.render.side_model_texts import SIDE_MODEL_TEXTS

IGNORED_TEXTS: dict[str, str] = {
    "unread": N_("no word said what it is"),
    "network_port": N_("a network port: it does not change the GPUs, memory or time"),
    "vague": N_("a rough amount, not a number: give one to size the data"),
    "vague_count": N_("a rough count, not a number: say how many GPUs to size on that many"),
    "stated_need": N_(
        "a memory you say the model needs, not your cards' memory: the sizing computes the need itself"
    ),
    "rollout_share": N_(
        "the cards given to the rollout engine: a share of the job's GPUs, not its GPU count"
    ),
    "fractional_count": N_("GPUs come whole: sized on the next whole number of GPUs"),
    "steps_need_batch": N_(
        "training steps: a time needs the global batch and the sequence length too "
        "(e.g. “global batch 256, 4k tokens per sample”), or the data size"
    ),
    "repeated": N_("a second value for a setting that takes one"),
    "replaced_by_later_value": N_(
        "the setting's earlier value: you changed it to the later one, which is used"
    ),
    "original_context": N_("the model's original context window, before the extension you asked about"),
    "rope_factor_used": N_(
        "the RoPE scaling (YaRN) factor: the longest sequence sized is the model's own window times it"
    ),
    "sharding_conflict": N_(
        "your reshard_after_forward sets the sharding (true: ZeRO-3, false: ZeRO-2), and it says otherwise"
    ),
    "training_only": N_("a training setting; this is a serving question"),
    "rollout_as_vllm": N_("the RL rollout engine: its rollouts are timed as vLLM's decoding"),
    "serving_offload": N_(
        "serving with part of the weights in CPU memory is not modelled: the sizing holds every weight on "
        "GPUs"
    ),
    "all_on_gpu": N_("every weight is on the GPU here, so the CPU memory holds none of the model"),
    "cpu_host_ram": N_(
        "the RAM of your machine with no GPU named: compared with the model's weights and KV cache under "
        "the headline; the GPU figures do not use it"
    ),
    "no_experts": N_("this model is dense: it has no experts to keep on the CPU"),
    "budget_no_cost": N_(
        "no rental cost was estimated for these GPUs, so there is nothing to compare the budget with"
    ),
    "serving_only": N_("a serving setting; this is a training question"),
    "not_for_method": N_("it belongs to another fine-tuning method"),
    "unknown_module": N_("no projection of the model has that name"),
    "above_peak": N_("above the card's dense peak"),
    "measured_wins": N_("your measured throughput is used instead"),
    "training_precision": N_(
        "full training keeps weights in bf16; int8/int4 apply to a LoRA/QLoRA base or to serving"
    ),
    "config_model": N_("your config.json gives the model"),
    "launch_line_model": N_("the launch line's shape gives the model"),
    "more_than_gpus": N_("it needs more GPUs than you have; the layout was chosen for your GPUs"),
    "no_fp8_weights": N_("this card cannot load FP8 weights: sized in 16-bit"),
    "no_fp8": N_("this card has no FP8 tensor cores: timed in bf16"),
    "no_int8": N_("this card has no INT8 tensor-core peak in my catalog: timed in bf16"),
    "fp8_time_only": N_(
        "FP8 changes the training time, and there is no token count to time; memory is sized in bf16"
    ),
    "config_differs": N_("your pasted config gives another value, and the config's is used"),
    "prose_changes": N_("your message asks to change it, and the value in your message is used"),
    "param_offload": N_(
        "parameter offload is not modelled: the memory per GPU and the verdict above count the weights on "
        "the GPUs, an upper bound: with it the GPUs hold less, and each step waits on the copies"
    ),
    "offload_adapters": N_(
        "CPU offload is modelled for full fine-tuning only; this adapter run is sized without it, "
        "so the memory per GPU is an upper bound"
    ),
    "optimizer_offload_adapters": N_(
        "the optimizer states alone offloaded (no offload_param): an adapter run's are small, so the frozen "
        "base stays on the GPUs and the run is sized without offload"
    ),
    "weights_file": N_(
        "the size of the model's weights file: the weights are sized from the model named and its format "
        "(see the weights line) — a file of another size is another model or format: name that one to "
        "size it"
    ),
    "not_sized": N_("it does not change the GPUs, memory or time"),
    "no_field": N_("it changes the answer, but the sizing has no setting for it yet"),
    "beta_not_sft": N_(
        "a coefficient of preference or RL tuning (DPO, KTO, GRPO …); supervised fine-tuning has none, "
        "so it changes nothing here"
    ),
    "sequence_parallel": N_(
        "not modelled: the plan splits activations by tensor/pipeline parallelism and recomputation; "
        "Ulysses or ring-attention sequence parallelism splits each sequence's activations over its degree "
        "(Jacobs et al. 2023, DeepSpeed-Ulysses §3), so with it fewer GPUs or less recomputation may do"
    ),
    "commented_out": N_(
        "commented out with “#” in your config: the tool does not read it, so it is not used"
    ),
    "unknown_key": N_("the tool has no setting of that name"),
    "sdpa_default": N_("without FlashAttention, transformers uses SDPA by default: no attention scores kept"),
    "auto_value": N_("“auto”: the tool fills it in at run time"),
    "bad_value": N_("not a value this setting can take"),
    "no_chunked_attention": N_(
        "the model has no chunked local attention (Llama 4's): every layer keeps the whole context anyway"
    ),
    "close_value": N_("not understood: not a value this setting takes, read as the closest one it takes"),
    "colon_missing": N_("read as “key: value”: the colon after the key was missing"),
    "utilization_bounds": N_("the share of GPU memory an engine may use is above 0 and at most 1"),
    "runtime_not_modelled": N_(
        "sized with the generic serving memory model; this engine's own is not modelled"
    ),
    "cpu_not_gpu": N_(
        "a CPU, not a GPU: the sizing sizes GPUs; CPU inference is not modelled (only llama.cpp's layers "
        "kept in CPU memory are), so the GPU in the assumptions below was sized"
    ),
    "llama_cpp_based": N_("it runs llama.cpp: sized with llama.cpp's memory model"),
    "ktransformers_split": N_(
        "its layout is sized — routed experts in CPU memory; attention, shared layers and KV cache on the "
        "GPU; its own kernels (AMX, CUDA graphs) are not modelled: the speed is llama.cpp's"
    ),
    "kv_cache_layer": N_(
        "a KV-cache store beside the engine: the sizing keeps the KV cache of the requests in flight in GPU "
        "memory, as the engine does"
    ),
    "engine_gpus": N_(
        "the engine runs on tensor × pipeline × data-parallel GPUs as its flags set them, not on every "
        "visible one: sized on those"
    ),
    "lora_variant": N_(
        "a LoRA variant the sizing has no model of by name: sized as LoRA, the low-rank adapters it is "
        "built on (its extra weights are small; DoRA keeps somewhat more activations)"
    ),
    "algorithm_family": N_(
        "a variant the sizing has no model of by name: sized as its family, shown above; one without a "
        "reference model needs less memory"
    ),
    "vllm_server_default": N_(
        "TRL generates the completions in vLLM; with no vllm_mode, sized as its 'server' mode (trl "
        "vllm-serve on GPUs of its own, not counted here): the memory is the training cards' alone and the "
        "rollouts are timed as vLLM decoding — with vllm_mode colocate vLLM takes 0.3 of each training card"
    ),
    "steps_default_batch": N_(
        "the steps × the global batch × the sequence length, both assumed (see the assumptions): the tokens "
        "trained, timed — say your global batch and length if they differ"
    ),
    "steps_default_length": N_(
        "the steps × your global batch × the sequence length, the length assumed (see the assumptions): "
        "the tokens trained, timed — say your length if it differs"
    ),
    "steps_default_global": N_(
        "the steps × the global batch × your sequence length, the global batch assumed (see the "
        "assumptions): the tokens trained, timed — say your global batch if it differs"
    ),
    "steps_stated_batch": N_(
        "the steps × your global batch × your sequence length: the tokens trained, timed"
    ),
    "steps_accum_batch": N_(
        "the steps × the global batch × your sequence length; the global batch is your gradient "
        "accumulation × the micro-batch per GPU, assumed (see the assumptions), × the data-parallel GPUs: "
        "the tokens trained, timed — say your per-device batch if it differs"
    ),
    "steps_accum_batch_length": N_(
        "the steps × the global batch × the sequence length; the global batch is your gradient "
        "accumulation × the micro-batch per GPU × the data-parallel GPUs, the micro-batch and the length "
        "assumed (see the assumptions): the tokens trained, timed — say your per-device batch and length "
        "if they differ"
    ),
    "steps_per_device": N_(
        "the steps × the per-device batch × the GPUs (gradient accumulation 1, Hugging Face's default, "
        "unless stated), ÷ the completions per prompt for RL: the prompts or samples trained, timed"
    ),
    "unknown_other_device_memory": N_(
        "another setup in your message, on a device not in my catalog with its memory written: this answer "
        "sizes the one named above — ask about it on its own and it is sized by that memory"
    ),
    "ttft_target": N_("your first-token target: compared with the estimated time to first token"),
    "sample_range": N_(
        "a range of lengths per sample: the memory is sized at its longer end (every sample must fit), "
        "the data's tokens and the time at its mean"
    ),
    "sample_avg_max": N_(
        "the longest sample: the memory is sized for samples up to this length (fits at ≤ this many tokens "
        "a sample), the data's tokens and the time at the average length"
    ),
    "worked_share": N_(
        "a share worked out from the total before it: the total is what the sizing uses, not its share"
    ),
    "liger_asked": N_(
        "it does not say the Liger kernel is on: sized without it (say “with Liger” to size its chunked loss)"
    ),
    "cards_total": N_("the cards' memory together (their count × each card's memory), as sized"),
    "not_compared": N_("one answer compares at most six cards: ask about this one with fewer to size it"),
    **CLUSTER_RATE_TEXTS,  # s42 zhleft #2 (bot.render.cluster_rate_texts)
    **SERVE_FLAG_TEXTS,  # s43 trial #3/#4 (bot.render.serve_flag_texts)
    **READ_TEXTS,  # s44 fixread (bot.render.read_texts)
    "card_unsized": N_(
        "another card in your message: nothing is sized until the model's size is known — say it to compare"
    ),
    "memory_room": N_(
        "memory free or left after loading: the room for the KV cache, not the card's size; the card's own "
        "memory is sized"
    ),
    "over_card": N_("more memory than the card named has: its own memory is sized"),
    "nearest_format": N_(
        "the sizing has no such format: sized as the next larger one it has (shown above), an upper bound "
        "on the weights"
    ),
    "tool_inferred": N_(
        "not named, read from its settings; the sizing uses those settings, not a model of the tool"
    ),
    "fp8_kind": N_("an FP8 kind: sized as FP8, one byte a value (E4M3 and E5M2 differ in range, not size)"),
    "settings_applied": N_("its settings you gave — the ZeRO stage, offload — are what the sizing uses"),
    "megatron_backend": N_(
        "its Megatron backend (Megatron-SWIFT: megatron sft/pt) runs Megatron-Core, so the plan uses "
        "Megatron-LM's tensor, pipeline and expert parallelism, not ms-swift's data-parallel-only Trainer "
        "path"
    ),
    "launcher_ddp": N_(
        "one process per GPU, and nothing named that shards: read as plain PyTorch DDP, a whole copy of the "
        "model, its gradients and optimizer states on every GPU"
    ),
    **SCRIPT_TEXTS,  # s48 merge (bot.render.script_texts)
    "zero_from_file_name": N_(
        "an assumption: the ZeRO stage (and offload) read from the file name alone, its content unseen — "
        "paste the file to size its own settings"
    ),
    "samples_cap": N_(
        "an assumption: a cap on the samples read from each dataset, not the dataset's size — the dataset "
        "named cannot be counted here, so the run is sized at the cap (fewer samples: less time and cost)"
    ),
    "demo_rows": N_(
        "LLaMA-Factory's own demo data (data/dataset_info.json): sized at the rows of its files, each cut "
        "at max_samples when that is lower"
    ),
    "demo_rows_text": N_(
        "LLaMA-Factory's own demo data, an example's placeholder: the sample count in your message is used"
    ),
    "dataset_size_unknown": N_(
        "a dataset whose size cannot be read from its name (a Hub dataset or your own file): the time "
        "comes from the samples or tokens you give — without them it is asked for"
    ),
    "cap_above_rows": N_(
        "a cap on the samples read from each dataset: the demo data named holds fewer, so it cuts nothing"
    ),
    "step_time_target": N_(
        "a time per step you want: the sizing times the whole run (its GPU-hours and days), not each step"
    ),
    "observed": N_(
        "a figure your message reports from a run (memory in use, a speed): what happened, not a setting "
        "— the sizing computes it itself"
    ),
    "team_size": N_(
        "the people on your team: no load on the GPUs and no training setting — the sizing counts GPUs, not "
        "people"
    ),
    "daily_schedule": N_(
        "hours a day the cards run: the sizing counts 24 hours a day — at fewer hours a day a run's "
        "calendar days grow in proportion"
    ),
    "daily_schedule_calendar": N_(
        "hours a day the cards run: the run's days at 24 hours a day × 24 ÷ these hours are its calendar days"
    ),
    "power_price": N_(
        "electricity: not priced — the cost given is the GPU rental; energy (kWh at board power) is given "
        "only for your own consumer card with its power on file (RTX 3080/3090/4080/4090)"
    ),
    "provider_price": N_(
        "a provider named: no price of its own is on file — the cost uses the card's market range over "
        "several providers, so which provider is cheaper is not answered; give its price per GPU-hour "
        "(e.g. “$2.99 per GPU-hour”) and the cost uses it"
    ),
    "p5_as_48xlarge": N_(
        "an AWS P5 instance with no size: sized as a p5.48xlarge, 8 × H100 80GB; a p5.4xlarge holds one "
        "H100 (AWS's P5 instance page) — write the size and it is sized as written"
    ),
    "interconnect": N_(
        "the network between nodes: not modelled — the time assumes it keeps up, as in the published runs "
        "the MFU range is fitted on (InfiniBand or tuned RoCE: Meta's Llama 3 clusters used one of each)"
    ),
    "link_compare": N_(
        "a comparison of GPU links, asked and not answered: each card is sized with its own links (NVLink: "
        "tensor parallelism inside a node; PCIe: data parallelism preferred), but no model of a link's "
        "bandwidth times the job, so how much one link speeds it up is not estimated — ask about each card "
        "(e.g. H100 SXM, then H100 PCIe) to compare the two answers"
    ),
    "purchase_price": N_(
        "buying: no purchase price is on file, so the cost here is renting and which is cheaper is not "
        "answered — a vendor's quote for the machine ÷ the monthly rent here gives the months to break even"
    ),
    "tax_rate": N_(
        "a tax rate: every cost here is a rental price before tax — for a quote with tax, multiply the "
        "costs by 1 + the rate"
    ),
    "step_label": N_(
        "which step of a procedure it names (DeepSpeed-Chat's step 3 is its RLHF step), not a count of "
        "anything: the job is sized by its model, data and GPUs"
    ),
    "calendar_date": N_(
        "a calendar date: the sizing counts a deadline in days from the start, and no start date is given — "
        "say how many days or weeks you have to use it as a deadline"
    ),
    "tool_global_batch": N_(
        "this tool's batch size is the global batch (all GPUs, one training step): sized as the global "
        "batch, the micro-batch per GPU at its default"
    ),
    "rollout_batch_other_tool": N_(
        "a rollout batch is OpenRLHF's setting (--rollout_batch_size, prompts a rollout); this tool "
        "generates its own batch each step (TRL: generation_batch_size = per-device batch × GPUs × "
        "steps_per_generation) — not used"
    ),
    "time_ago": N_(
        "when something happened, counted back from now: not a deadline nor a duration of this job"
    ),
    "rounded_context": N_(
        "the same length said rounded: the exact value your config key gives is the one sized"
    ),
    "past_date": N_(
        "a deadline already past: no time is left to plan for, so the answer below has no deadline from it — "
        "say how many days or weeks you have from now"
    ),
    "weekdays_only": N_(
        "the days of the week it runs: a month is billed on every day of it (30.4 days); weekdays "
        "only are ≈ 21.7 of them (5/7 × 30.4), so about 5/7 of the monthly cost given"
    ),
    "rl_reward_model_not_sized": N_(
        "the reward, critic or reference model of this RL job: its own size is not sized — its memory and "
        "forward passes are counted at the size of the model trained"
    ),
    "unknown_other_device": N_(
        "another device you named, not in my catalog, so not sized: write its memory after its name "
        "(e.g. “MacBook Pro M3 Max 36GB”) to size it too"
    ),
    "ppo_models": N_(
        "the models PPO holds (actor, critic, reference and reward): each is counted at the size of the "
        "model trained"
    ),
    "eval_cards": N_(
        "cards for evaluation or serving beside the training rig: they do not train, so this answer sizes "
        "the training on the cards with the count above — ask to size the evaluation or serving on its own"
    ),
    "eval_share": N_(
        "cards of the rig kept for evaluation: they do not train, so this answer sizes the training on the "
        "rest of the rig, the count above — ask to size the evaluation on its own"
    ),
    "other_machine": N_(
        "the other machine: cards of two machines of different kinds cannot form one tensor-parallel group "
        "— each rank holds an equal share at the same speed, and across machines it runs over the network — "
        "so this answer sizes one machine, the one above (the one asked about, else the one with more "
        "memory); ask to size this one on its own"
    ),
    "other_machine_dp": N_(
        "the other machine's cards, used together in one data-parallel run (ZeRO/FSDP/DDP: every GPU holds "
        "an equal share, no tensor-parallel group spans the two kinds): all the GPUs are sized at the card "
        "with less memory, the one above; the slower card paces each step, so the time is counted on it"
    ),
    "other_machine_training": N_(
        "the other machine: this answer sizes one machine, the one above; the two kinds of cards could "
        "still train together in one data-parallel run (ZeRO/FSDP: equal shares, each step paced by the "
        "slower card) — say 'across both machines' to size that"
    ),
    "other_stage_machine": N_(
        "the machine you gave the other stage: this answer sizes the stage asked on its own machine; ask "
        "about the other stage to size that one"
    ),
    "claimed_size": N_(
        "a size a tool or source is said to reach ('up to …'), not the model this job runs — name it as the "
        "model to size it"
    ),
    "other_setup": N_(
        "another setup in your message: this answer sizes the one named above — ask to size it"
    ),
    "earlier_run": N_(
        "your earlier run on the same data, cards and count: its throughput per GPU (k·N·D ÷ GPUs ÷ its "
        "time) is the measured rate this answer times the new job with"
    ),
    "earlier_run_same_job": N_(
        "your earlier run of the same model and method: its throughput per GPU (k·N·D ÷ GPUs ÷ its time) "
        "is the measured rate this answer times the new job with"
    ),
    "earlier_run_other_model": N_(
        "your earlier run of another model with the same method on the same cards: the new job is timed at "
        "the MFU that run reached — a larger model usually reaches a little more, a smaller one a little less"
    ),
    "earlier_run_other_job": N_(
        "your earlier run of another model or method: its MFU is given for comparison, not used — "
        "the new job is timed at the calibrated MFU"
    ),
    "earlier_run_other_card": N_(
        "your earlier run of the same model and method on another card: the new job is timed at the MFU "
        "that run reached (its throughput ÷ its card's peak), scaled by the two card generations' usual MFU "
        "(published runs: H100-class ≈ 0.7 × A100-class) — a newer card often reaches a different MFU, so "
        "take the time as a guide"
    ),
    "earlier_run_scaled": N_(
        "your earlier run of the same job, which gives no data size: the same job, scaled from your run — "
        "its GPU-hours × its card's dense BF16 peak ÷ the new card's, at the MFU that run reached scaled by "
        "the two card generations' usual MFU (H100-class ≈ 0.7 × A100-class), on the new count; a newer "
        "card often reaches a different MFU, so take the time as a guide"
    ),
    "earlier_run_above_peak": N_(
        "your earlier run: the model FLOPs it implies per GPU (k·N·D ÷ GPUs ÷ its time) are more than the "
        "cards' dense peak, an MFU over one — set aside, the calibrated MFU is used; check that run's "
        "tokens, GPUs and time"
    ),
    "earlier_run_rl": N_(
        "your earlier RL run: most of its time is the rollouts' generation, which k·N·D does not count — "
        "its MFU is no training rate, so it is not used; the new job is timed with the rollouts modelled"
    ),
    "period_as_total": N_(
        "a training run's cost is one sum: your budget is compared with the whole run, not per period"
    ),
    "alternative_engine": N_(
        "an engine you would also accept: this answer sizes the one you asked about — ask with it to size it"
    ),
    "needs_gpu_count": N_(
        "used once the GPU count is known (global batch = micro-batch × accumulation × data-parallel "
        "GPUs): name your GPU count (and micro-batch)"
    ),
    "output_in_context": N_(
        "an output length with no prompt length: the context per sequence sized below (prompt + output) "
        "holds it; give the prompt length and the context is sized as prompt + output"
    ),
    "fp8_in_mfu": N_(
        "FP8 beside your MFU: an MFU is read against the BF16 peak, as it is usually quoted, so what FP8 "
        "gains is already in it; the time uses your MFU of the BF16 peak, not the FP8 peak — give tokens/s "
        "per GPU, or leave the MFU out, to time it on the FP8 peak"
    ),
    "negated": N_(
        "a value your message says is not needed: not sized — the other value stated, or the default, is"
    ),
    "catalog_peak": N_("the card's peak rate: the sizing uses the peak in its catalog for this card"),
    "card_slots": N_(
        "the slots in your machine: at most that many cards — compare the count sized with them"
    ),
    "gpu_kinds": N_(
        "the number of kinds of card you listed, not a count of cards: each card's count is sized"
    ),
    "mixed_rig": N_(
        "another card in the same machine: the cards are sized as that many of the one with least memory"
    ),
    "colocate_not_trl": N_(
        "a colocated rollout outside TRL: not sized — the engine's share of each card is modelled for TRL's "
        "vllm_mode='colocate' only (verl and OpenRLHF put the engine to sleep while the model trains)"
    ),
    "mixed_rig_largest": N_(
        "another card in the same machine, with less memory: sized without it, on the cards with more "
        "memory — the machine holds at least that much (llama.cpp splits by each card's free memory)"
    ),
    "mixed_rig_sum": N_(
        "another card in the same machine: llama.cpp splits layers by each card's free memory, so the "
        "cards' memory is sized as their sum, shared equally; the speed from the cards' memory "
        "bandwidths, each reading its share of the layers in turn"
    ),
    "training_tool_serving": N_(
        "a training tool: this is a serving question, sized on the inference engine shown, so it is not used"
    ),
    "image_not_vl": N_(
        "visual tokens are counted from the resolution only for Qwen2-VL and Qwen2.5-VL releases (their "
        "processor's resize); this model's samples are sized by their text"
    ),
    "image_no_resolution": N_(
        "no image resolution given: give it (e.g. 1280x720) to count the visual tokens"
    ),
    "image_tokens_processor": N_(
        "your count of one image's tokens: the processor's own count from the resolution you gave is used "
        "(its resize to 28-px multiples, in the assumptions)"
    ),
    **SERVING_LOAD_TEXTS,  # s44 trialfix2 (bot.render.serving_load_texts)
    **SIDE_MODEL_TEXTS,  # s46 r42zh (bot.render.side_model_texts)
}
"""Reasons of ``interpretation.ignored`` → words (those of :data:`OWN_LINES` have lines of their own)."""


SETTINGS_APPLIED_TEXTS = {
    (True, False): N_("its ZeRO stage you gave is what the sizing uses"),
    (False, True): N_("its offload setting you gave is what the sizing uses"),
}
"""'settings_applied' worded by which of DeepSpeed's settings the request states, (ZeRO stage, offload)
(s25 trial #5: "the ZeRO stage, offload" was echoed for 'DeepSpeed ZeRO-2' with no offload written);
both or neither stated keep ``IGNORED_TEXTS['settings_applied']``."""
