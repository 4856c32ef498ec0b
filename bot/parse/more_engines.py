"""More serving engines people name (issue 24, round 4): engines the sizing has no memory model of, named
as ``runtime_not_modelled`` beside :data:`bot.parse.stack_words.RUNTIMES_NOT_MODELLED` — never dropped in
silence, and never read as another tool (DeepSpeed-MII is a serving engine, not the DeepSpeed training
library; before, "serve … with DeepSpeed-MII" named a training tool DeepSpeed).

Names as each project writes itself (Aphrodite Engine, once here, is modelled since s38:
:mod:`estimator.runtimes.aphrodite`): DeepSpeed-MII (github.com/deepspeedai/DeepSpeed-MII),
text-generation-webui (oobabooga), LocalAI, NVIDIA Triton Inference Server,
CTranslate2, LightLLM, PowerInfer, mistral.rs, OpenVINO, ONNX Runtime, NVIDIA NIM, TabbyAPI (ExLlamaV2's
server); round 5: MindIE and MindFormers (Huawei Ascend, gitee.com/mindspore/mindformers); round 7: MLX
serving on Apple silicon, ``mlx_lm.generate`` / ``mlx_lm.server`` / ``mlx_lm.chat`` (the serving commands of
github.com/ml-explore/mlx-lm; its ``mlx_lm.lora`` trains, :mod:`bot.parse.more_tools`); round 9: engines
of the Chinese threads, fastllm (ztxz16/fastllm: '用 fastllm 在移动端跑'), chatglm.cpp, MNN-LLM,
xFasterTransformer; round 14: WebLLM (MLC's in-browser engine), mistral.rs by its binaries; round 21:
Triton by its backends, Intel's llm-scaler (vLLM for Arc cards); round 22: Modular's MAX, LoRAX; round 23: the
Jetson engines TinyChat / TinyChatEngine (MIT Han Lab) and jetson-containers' ``local_llm`` package; round 24:
Hugging Face's text-embeddings-inference (TEI), the server of embedding and reranker models; round 25:
TabbyML's Tabby (a coding assistant's server on llama.cpp); round 26: NVIDIA's TensorRT and ComfyUI (the
engines speech and image models are run with); round 27: Paddle Serving (PaddlePaddle's server) and Chitu
(thu-pacman/chitu, 赤兔); s48 r44en: ChatRWKV; s48 names: RWKV-Runner."""

from __future__ import annotations

from bot.parse.regex import LazyPattern, rc

MORE_RUNTIMES: tuple[tuple[LazyPattern, str], ...] = (
    (rc(r"deepspeed[\s\-_]*mii\b|(?<![a-z0-9])mii(?![a-z0-9])"), "DeepSpeed-MII"),
    (rc(r"text[\s\-_]*generation[\s\-_]*webui|\boobabooga\b"), "text-generation-webui"),
    (rc(r"\blocalai\b"), "LocalAI"),  # one word: "a local AI assistant" is no engine
    (  # round 21: also by its backends ('the Triton TensorRT-LLM backend', tensorrtllm_backend's repo)
        rc(
            r"\btriton(?:[\s\-_]*inference)?[\s\-_]*server\b|\btensorrtllm_backend\b"
            r"|\btriton[\s\-_]+(?:tensorrt[\s\-_]*llm|trt[\s\-_]*llm|vllm|python|onnx(?:[\s\-_]*runtime)?)[\s\-_]+backend\b"
        ),
        "Triton Inference Server",
    ),
    (rc(r"\bctranslate2?\b"), "CTranslate2"),
    (rc(r"\blightllm\b"), "LightLLM"),
    (rc(r"\bsentence[\s\-_]*transformers\b"), "sentence-transformers"),  # embedding models (sbert.net), s32
    (rc(r"\bpowerinfer\b"), "PowerInfer"),
    # round 14: also by its binaries and crate ('./mistralrs-server --isq Q4K', 'mistralrs-cli', 'mistralrs')
    (
        rc(r"\bmistral\.rs\b|(?<![a-z0-9])mistralrs(?:[\-_](?:server|cli|core|pyo3))?(?![a-z0-9])"),
        "mistral.rs",
    ),
    (rc(r"\bopenvino\b"), "OpenVINO"),
    (rc(r"\bonnx[\s\-_]*runtime\b|\bonnxruntime\b"), "ONNX Runtime"),
    (rc(r"\bnvidia[\s\-_]*nim\b|\bnim\s+(?:container|microservice)s?\b"), "NVIDIA NIM"),
    (rc(r"\btabby[\s\-_]*api\b"), "TabbyAPI"),
    (rc(r"\bmind[\s\-_]*ie\b"), "MindIE"),  # round 5: Huawei Ascend's inference engine
    (rc(r"\bmind[\s\-_]*formers\b"), "MindFormers"),  # MindSpore's LLM suite (its run_*_chat.py scripts)
    (rc(r"\bmlx[_\-]lm[.\s](?:generate|server|chat)\b"), "MLX"),  # round 7: mlx-lm's serving commands
    (rc(r"(?<![a-z0-9])fastllm(?![a-z0-9])"), "fastllm"),  # round 9: github.com/ztxz16/fastllm
    (rc(r"\bchatglm\.cpp\b"), "chatglm.cpp"),  # github.com/li-plus/chatglm.cpp
    (rc(r"\bmnn[\s\-_]*llm\b"), "MNN-LLM"),  # github.com/alibaba/MNN (transformers/llm)
    (rc(r"(?<![a-z0-9])mnn(?![a-z0-9]|[\s\-_]*llm\b)"), "MNN"),  # s33: MNN itself ('用 MNN 在手机上跑')
    (rc(r"(?<![a-z0-9])petals(?![a-z0-9])"), "Petals"),  # s33: bigscience-workshop/petals (swarm serving)
    (rc(r"\bxfastertransformer\b"), "xFasterTransformer"),  # github.com/intel/xFasterTransformer
    (rc(r"(?<![a-z0-9])kaiwu(?![a-z0-9])"), "kaiwu"),  # round 10: github.com/val1813/kaiwu (llama.cpp-based)
    (rc(r"\bfastdeploy\b"), "FastDeploy"),  # PaddlePaddle's serving toolkit
    (rc(r"\brtp[\s\-_]*llm\b"), "RTP-LLM"),  # github.com/alibaba/rtp-llm
    (rc(r"\bgpustack\b"), "GPUStack"),  # github.com/gpustack/gpustack (it launches vLLM/llama-box)
    (
        rc(r"\bllm[\s\-_]*scaler\b"),
        "llm-scaler",
    ),  # round 21: github.com/intel/llm-scaler (vLLM on Arc)
    (
        rc(r"(?<![a-z0-9])web[\s\-_]?llm(?![a-z0-9])"),
        "WebLLM",
    ),  # round 14: github.com/mlc-ai/web-llm (browser)
    (  # round 22: Modular's MAX ('with Modular MAX', 'max benchmark --backend modular'; docs.modular.com/max)
        rc(r"\bmodular(?:['’]s)?[\s\-_]+max\b|--backend[\s=]+modular\b"),
        "Modular MAX",
    ),
    (rc(r"(?<![a-z0-9])lorax(?![a-z0-9])"), "LoRAX"),  # round 22: github.com/predibase/lorax (multi-LoRA)
    # round 23: MIT Han Lab's edge engines (github.com/mit-han-lab/TinyChatEngine; llm-awq's tinychat/)
    (rc(r"(?<![a-z0-9])tiny[\-_]?chat(?:[\-_]?engine)?(?![a-z0-9])"), "TinyChat"),
    # round 23: the jetson-containers package (github.com/dusty-nv/jetson-containers, packages/llm/local_llm)
    (rc(r"(?<![a-z0-9])local_llm(?![a-z0-9])"), "local_llm"),
    # round 24: Hugging Face's embedding/reranker server (github.com/huggingface/text-embeddings-inference)
    (
        rc(r"\btext[\s\-_]*embeddings?[\s\-_]*inference\b|(?<![a-z0-9])tei(?![a-z0-9])"),
        "text-embeddings-inference",
    ),
    # round 25: TabbyML's self-hosted coding assistant (github.com/TabbyML/tabby; it runs llama.cpp's
    # llama-server), not TabbyAPI (above)
    (rc(r"(?<![a-z0-9])tabby(?:ml)?(?![a-z0-9]|[\s\-_]*api\b)"), "Tabby"),
    # round 26: NVIDIA's TensorRT itself (developer.nvidia.com/tensorrt), which speech and image models are
    # accelerated with ('CosyVoice2 用 TensorRT 加速'), not its LLM library TensorRT-LLM (stack_words)
    (rc(r"(?<![a-z0-9])tensorrt(?![a-z0-9]|[\s\-_]*llm)"), "TensorRT"),
    # round 26: github.com/comfyanonymous/ComfyUI, the node UI image models are run in
    (rc(r"(?<![a-z0-9])comfy[\s\-_]?ui(?![a-z0-9])"), "ComfyUI"),
    # round 27: github.com/PaddlePaddle/Serving ('用 Paddle Serving 分布式推理'), never its framework alone
    (rc(r"\bpaddle[\s\-_]*serving\b"), "Paddle Serving"),
    # round 27: github.com/thu-pacman/chitu; '赤兔' alone is a horse: only beside its name or an engine word
    (rc(r"(?<![a-z0-9])chitu(?![a-z0-9])|赤兔(?=\s*(?:[（(]\s*chitu|推理|引擎|框架))"), "Chitu"),
    # round 39 en: FlexGen (github.com/FMInference/FlexLLMGen, offloading to CPU and disk), Ray Serve's
    # LLM serving (docs.ray.io serve/llm), KubeAI (github.com/kubeai-project/kubeai, an operator launching
    # vLLM / Ollama)
    (rc(r"(?<![a-z0-9])flex(?:llm)?gen(?![a-z0-9])"), "FlexGen"),
    (rc(r"\bray[\s\-_]*(?:serve|llm)\b"), "Ray Serve"),
    (rc(r"(?<![a-z0-9])kubeai(?![a-z0-9])"), "KubeAI"),
    # s44-workmiss (older rounds' leftovers): paiml's realizar (github.com/paiml/realizar, a Rust inference
    # engine), and the ggml library itself (github.com/ggml-org/ggml) when said as a project ('ggml's gpt-2
    # example', 'with ggml'), never a file or format ('ggml-model-q4_0.bin', 'GGML format', 'a ggml model')
    (rc(r"(?<![a-z0-9\-])realizar(?![a-z0-9])"), "realizar"),
    # r43 en: exo (github.com/exo-explore/exo), one model split over a cluster of home devices ('2 Mac Studio
    # M2 Ultra with exo'); never inside another word or name ('exo-planet', 'exoskeleton')
    (rc(r"(?<![a-z0-9\-])exo(?:[\-_]explore)?(?![a-z0-9\-])"), "exo"),  # one gate literal, 'exo'
    # s48 r44en: ChatRWKV (github.com/BlinkDL/ChatRWKV), the chat and serving front end of RWKV models
    # ('ChatRWKV can't load the model on both of them'); never the RWKV-LM training code
    (rc(r"(?<![a-z0-9])chatrwkv(?![a-z0-9])"), "ChatRWKV"),  # one word, as the project writes it
    # s48 names: RWKV-Runner (github.com/josStorer/RWKV-Runner), a desktop runner and API server of RWKV
    # models; the architecture word alone is the model (bot.parse.architectures), never this runtime
    (rc(r"(?<![a-z0-9])rwkv[\-_\s]?runner(?![a-z0-9])"), "RWKV-Runner"),
    (
        rc(
            r"(?<![a-z0-9\-_./])ggml(?:['’]s\s|\s+(?:examples?|library|repo|project)\b)"
            r"|\b(?:with|using|via|in)\s+ggml(?![a-z0-9\-_.])(?!\s*(?:format|models?|files?|quant|weights|v\d))"
        ),
        "ggml",
    ),
)
"""Serving engines by name, as people write them → the name the reply uses."""

NOT_DEEPSPEED_TRAINING = r"(?![\s\-_]*(?:chat|mii))"
"""After the word 'deepspeed': DeepSpeed-Chat and DeepSpeed-MII are other tools than the training library."""
