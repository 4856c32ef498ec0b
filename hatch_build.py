"""Build hook: compile what the bot would otherwise compile on every start, when a wheel or an
editable install is built: the Babel catalogs (locales/*/LC_MESSAGES/messages.po → .mo, and each one's
parsed form, messages.marshal), the reply templates (templates/_compiled/<format>/*.cache, Jinja
bytecode), the data catalogs
(estimator/data/_compiled.json), the parser's regex code (bot/parse/_compiled_regex.marshal) and its
index of model names (bot/parse/_name_indexes.marshal).
The installed bot reads them and never writes in the package.

Hatchling runs :meth:`CatalogsHook.initialize` before collecting files; the outputs are written in
the source tree (gitignored) and shipped with the package.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

_EXERCISE_ASK = (
    "from bot.cli import main\n"
    "for q in ('7B模型1万亿token要多少A100', 'serve Llama-3-70B on 4 H100 with vLLM, 32 users'):\n"
    "    for fmt in ('text', 'html', 'json', 'markdown'):\n"
    "        with contextlib.redirect_stdout(io.StringIO()):\n"
    "            main(['ask', q, '--format', fmt])\n"
    "import bot, estimator\n"
    "for pkg in (estimator, bot):\n"
    "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
    "        if m.name.endswith('__main__'):\n"
    "            continue\n"
    "        with contextlib.suppress(Exception), contextlib.redirect_stderr(io.StringIO()):\n"
    "            importlib.import_module(m.name)\n"
)
"""What a fresh interpreter runs to record what ``sizing-bot ask`` builds (its regexes, its dataclass
methods): a few answers in every format, then every bot and estimator module imported."""

_PLAIN_ASK = tuple(
    "from bot.cli import main\n"
    "from bot.parse.regex import SEEN\n"
    "for fmt in ('text', 'json'):\n"
    "    with contextlib.redirect_stdout(io.StringIO()):\n"
    f"        main(['ask', {question!r}, '--format', fmt])\n"
    "re._cache.update({(str, p, f): None for p, f in SEEN})\n"
    for question in ("7B模型1万亿token要多少A100", "serve Llama-3-70B on 4 H100 with vLLM, 32 users")
)
"""What fresh interpreters run to record the regexes a plain ``sizing-bot ask`` compiles (those the
parser makes from its store too: ``SEEN``), one question each (a first message reads more than later
ones: bot.parse.module_gates): the first part of the regex store (bot.regex_store.Codes)."""

_COMPILE_TEMPLATES = (
    "import shutil\n"
    "from bot.render.env import COMPILED_DIR, CompiledTemplates, new_environment\n"
    "from bot.render.i18n import templates_dir\n"
    "shutil.rmtree(templates_dir() / COMPILED_DIR, ignore_errors=True)\n"
    "for fmt in ('html', 'text', 'markdown'):\n"
    "    env = new_environment(fmt, CompiledTemplates(templates_dir() / COMPILED_DIR / fmt, writable=True))\n"
    "    env.install_null_translations(newstyle=True)\n"
    "    for name in env.list_templates(extensions=['j2']):\n"
    "        env.get_template(name)\n"
)
"""What a fresh interpreter (``-X no_debug_ranges``) runs to write each dialect's template bytecode."""


class CatalogsHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in sorted(Path(self.root, "locales").glob("*/LC_MESSAGES/*.po")):
            locale = po.parent.parent.name
            with po.open("rb") as fh:
                catalog = read_po(fh, locale=locale)
            with po.with_suffix(".mo").open("wb") as fh:
                write_mo(fh, catalog, use_fuzzy=False)
        self._store_catalogs()
        self._compile_templates()
        self._compile_data()
        if self._compile_cldr_subset():
            build_data.setdefault("artifacts", []).append("bot/render/_cldr_subset.pickle")
        build_data.setdefault("artifacts", []).append("estimator/data/_compiled.json")  # it is gitignored
        build_data["artifacts"].append("estimator/data/_compiled.marshal")
        if self._store_name_indexes():
            build_data["artifacts"].append("bot/parse/_name_indexes.marshal")
        if self._compile_regexes():
            build_data["artifacts"].append("bot/parse/_compiled_regex.marshal")
        if self._compile_dataclass_code():
            build_data["artifacts"].append("estimator/_dataclass_code.marshal")
        if self._store_schemas(trusted=self.target_name == "wheel" and version == "standard"):
            build_data["artifacts"].append("estimator/_schemas.pickle")

    def _store_catalogs(self) -> None:
        """Each compiled catalog's parsed form beside it (``messages.marshal``: bot.render.catalog_store),
        which the bot reads instead of parsing the ``.mo`` at every start. Nothing stored on failure (the
        ``.mo`` is parsed as before)."""
        import importlib.util
        import sys

        try:
            path = Path(self.root, "bot", "render", "catalog_store.py")
            spec = importlib.util.spec_from_file_location("_catalog_store", path)
            module = importlib.util.module_from_spec(spec)  # by path: the bot package needs pydantic
            spec.loader.exec_module(module)
            module.store_all(Path(self.root, "locales"))
        except Exception as exc:
            print(f"note: parsed catalogs not stored: {exc}", file=sys.stderr)

    def _compile_templates(self) -> None:
        """Each dialect's templates compiled to Jinja bytecode, in a fresh interpreter run with
        ``-X no_debug_ranges``: the code keeps its line numbers (Jinja's template tracebacks) but not
        the column ranges, which for Jinja's long generated lines took most of the code objects'
        memory (session 12: the idle process +1.3 MiB with them, past its 80 MiB budget)."""
        import subprocess
        import sys

        subprocess.run(
            [sys.executable, "-X", "no_debug_ranges", "-c", _COMPILE_TEMPLATES],
            cwd=self.root,
            check=True,
            env={
                **os.environ,
                "PYTHONPATH": os.pathsep.join(filter(None, (self.root, os.environ.get("PYTHONPATH")))),
            },
        )

    def _compile_data(self) -> None:
        import importlib.util
        import json
        import tomllib

        data = Path(self.root, "estimator", "data")
        out = {
            "gpus.toml": tomllib.loads((data / "gpus.toml").read_text(encoding="utf-8")),
            "prices.toml": tomllib.loads((data / "prices.toml").read_text(encoding="utf-8")),
            "models": {
                p.name: tomllib.loads(p.read_text(encoding="utf-8"))
                for p in sorted((data / "models").glob("*.toml"))
            },
        }
        spec = importlib.util.spec_from_file_location(
            "_catalog_digest", Path(self.root, "estimator", "digest.py")
        )
        digest = importlib.util.module_from_spec(spec)  # by path: the estimator package needs pydantic
        spec.loader.exec_module(digest)
        out[digest.DIGEST_KEY] = digest.sources_digest(data)
        text = json.dumps(out, ensure_ascii=False)
        (data / "_compiled.json").write_text(text, encoding="utf-8")
        import marshal  # the same data (as the JSON gives it back), for estimator.catalog to read faster

        again = json.loads(text)  # the models apart (read when one is: estimator.catalog._model_files)
        again["model_rows"] = [
            (m["id"], *m.get("aliases", ())) for _, f in sorted(again["models"].items()) for m in f["model"]
        ]
        again["models"] = marshal.dumps(again["models"])
        (data / "_compiled.marshal").write_bytes(marshal.dumps(again))

    def _compile_cldr_subset(self) -> bool:
        """Store the CLDR keys the reply formatters read, for each reply locale (bot.render.cldr_subset).
        False (nothing shipped: Babel loads its own data) on failure."""
        import importlib.util
        import sys

        try:
            path = Path(self.root, "bot", "render", "cldr_subset.py")
            spec = importlib.util.spec_from_file_location("_cldr_subset", path)
            module = importlib.util.module_from_spec(spec)  # by path: bot.render imports the estimator
            spec.loader.exec_module(module)
            module.write_subsets(module.SUBSET_FILE.with_name("_cldr_subset.pickle"), ("en", "zh_Hans_CN"))
            return True
        except Exception as exc:
            print(f"note: CLDR subset not stored: {exc}", file=sys.stderr)
            return False

    def _compile_regexes(self) -> bool:
        """Store the regex code of every parser pattern (bot.parse.regex.LazyPattern) for this
        interpreter: every bot.parse module imported, and the patterns built from the catalogs made by
        parsing a few questions; and of every other pattern ``sizing-bot ask`` compiles (module-level
        ``re.compile`` calls, ours and the libraries': bot.regex_store), recorded in a fresh interpreter.
        False (nothing shipped: patterns compile at first use) on failure."""
        import gc
        import importlib
        import pkgutil
        import sys

        sys.path.insert(0, self.root)
        try:
            import bot.parse
            from bot.parse.regex import CODES_FILE, SEEN, LazyPattern, write_codes

            for module in pkgutil.walk_packages(bot.parse.__path__, "bot.parse."):
                importlib.import_module(module.name)
            for question in ("7B模型1万亿token要多少A100", "serve Llama-3-70B on 4 H100 with vLLM, 32 users"):
                bot.parse.parse(question)
            found = {(p.pattern, int(p._flags)) for p in gc.get_objects() if isinstance(p, LazyPattern)}
            recorded = self._recorded_patterns()
            first = set().union(*(self._recorded_patterns(plain) for plain in _PLAIN_ASK))
            write_codes(CODES_FILE, found | SEEN | recorded, first or None)
            return True
        except Exception as exc:
            print(f"note: parser regexes not precompiled: {exc}", file=sys.stderr)
            return False
        finally:
            sys.path.remove(self.root)

    def _recorded_patterns(self, exercise: str = "") -> set[tuple[str, int]]:
        """(pattern, flags) of every string pattern ``re`` compiles in a fresh interpreter that runs
        ``sizing-bot ask`` on a few questions in every format and imports every bot and estimator
        module (``re``'s cache, unbounded there, holds them all), or that runs ``exercise``
        (:data:`_PLAIN_ASK`: with the parser's own, :data:`bot.parse.regex.SEEN`). Empty on failure."""
        import json
        import subprocess
        import sys

        script = (
            "import re, sys, json, pkgutil, importlib, contextlib, io\n"
            "re._MAXCACHE = 1 << 30\n"
            + (exercise or _EXERCISE_ASK)
            + "print(json.dumps(sorted((p, f) for t, p, f in list(re._cache) if t is str and not f & 129)))\n"
        )
        # one hash seed for every recording: a pattern whose text follows it (Babel's SPACE_CHARS_RE joins a
        # set) is then stored in one form, in both parts or neither; recorded under different seeds, a start
        # whose form only the rest of the store held read all of it for that pattern (~6M instructions of
        # ask, one build in six or so; bench/RESULTS.md session 45)
        done = subprocess.run(
            [sys.executable, "-c", script],
            cwd=self.root,
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        if done.returncode != 0:
            print(f"note: ask's regexes not recorded: {done.stderr[-500:]}", file=sys.stderr)
            return set()
        return {(p, int(f)) for p, f in json.loads(done.stdout.strip().splitlines()[-1])}

    def _store_name_indexes(self) -> bool:
        """Store the parser's index of catalog model names (bot.parse.name_store), built in a fresh
        interpreter from the catalogs just compiled. False (nothing shipped: the index is built on the
        first question as before) on failure."""
        import subprocess
        import sys

        script = "from bot.parse.name_store import write\nprint(write())\n"
        done = subprocess.run(
            [sys.executable, "-c", script], cwd=self.root, capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            print(f"note: name indexes not stored: {done.stderr[-500:]}", file=sys.stderr)
        return done.returncode == 0

    def _compile_dataclass_code(self) -> bool:
        """Store the code of the dataclass methods ``sizing-bot ask`` makes (estimator._dataclass_code),
        recorded in a fresh interpreter (this one has imported the bot already): every bot and
        estimator module imported, then a few answers in every format. False (nothing shipped: the
        methods compile at start as before) on failure."""
        return self._record_fresh("_dataclass_code as dc", "dc.start_recording()",
                                  "dc.write_codes(dc.CODES_FILE)", "dataclass code")  # fmt: skip

    def _store_schemas(self, trusted: bool) -> bool:
        """Store the core schema of every model ``sizing-bot ask`` completes (estimator._schema_store),
        recorded in a fresh interpreter that builds every model as pydantic does: every bot and estimator
        module imported, then a few answers in every format. False (nothing shipped: pydantic generates
        the schemas at first use as before) on failure. ``trusted`` for a wheel (target "wheel", version
        "standard"; never an sdist, whose unpacked tree can be edited):
        its sources are the ones the store is made from, so a start does not compare declarations; an
        editable install's sources can change, so its starts do."""
        write = f"ss.write_schemas(ss.SCHEMAS_FILE, trusted={trusted})"
        return self._record_fresh("_schema_store as ss", "ss.start_recording()", write, "core schemas")

    def _record_fresh(self, module: str, start: str, write: str, what: str) -> bool:
        """Run ``sizing-bot ask``'s exercise (:data:`_EXERCISE_ASK`) in a fresh interpreter between
        ``start`` and ``write`` (Python statements on ``estimator.<module>``, printed); True when it
        exits 0, else a note on stderr naming ``what`` was not stored."""
        import subprocess
        import sys

        script = (
            "import sys, pkgutil, importlib, contextlib, io\n"
            f"from estimator import {module}\n"
            f"{start}\n" + _EXERCISE_ASK + f"print({write})\n"
        )
        done = subprocess.run(
            [sys.executable, "-c", script], cwd=self.root, capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            print(f"note: {what} not stored: {done.stderr[-500:]}", file=sys.stderr)
        return done.returncode == 0
