"""Time ascend-lint against libcst's parse, `ast.parse` and ruff on real code, in one run.

    python bench/bench_lint.py [--repeat N] [--flake8] [--skip-vllm]

Corpora: fla-core 0.6.0's Ascend files (default targeting), the whole fla tree and
vllm-ascend's `vllm_ascend` package (both with `--target-all`), downloaded from the package
index on first use (vllm-ascend is skipped, saying why, when no wheel fits this machine).

Every measurement is a separate process, timed from start to exit: ascend-lint cold with
`--jobs 1`, cold with the default jobs (the usable CPUs), warm (a second run on the same cache);
a plain single-process `libcst.parse_module` of the same files and `ast.parse` of them (each in
a fresh interpreter, imports included, as a cold linter pays them); `ruff check` (E, F, W). The
rounds are interleaved — each round runs every measurement once — and the best of `--repeat`
rounds is kept, so a machine shared with other work affects peers alike. Ratios are to the
libcst parse of the same files. Peak memory is the largest resident set of the `--jobs 1` run.
Every process reads compiled bytecode, as an installed package does: a temporary
`PYTHONPYCACHEPREFIX`, filled by untimed runs before the first round, whatever
`PYTHONDONTWRITEBYTECODE` says (with it set, each run compiled ascend-lint's modules again).

Then the editor server: `ascend-lint server` over stdio, driven by pygls's client: the time
from an edit (`didChange`) to the diagnostics of that version, for the largest Ascend file
and for the smallest one with a kernel. `--flake8` adds flake8 alone and flake8 with the
ascend-lint plugin on the Ascend files (flake8 alone runs in a virtualenv holding only flake8,
since flake8 runs every installed plugin whatever `--select` says).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import venv
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))
from fla_corpus import CACHE, fla_ascend_files, fla_root  # noqa: E402

ENVIRONMENT = {**os.environ, "PYTHONPATH": str(REPO)}
PARSE = "import sys, libcst\nfor f in sys.argv[1:]:\n    libcst.parse_module(open(f, encoding='utf-8').read())\n"
AST = "import sys, ast\nfor f in sys.argv[1:]:\n    ast.parse(open(f, encoding='utf-8').read())\n"


@dataclass
class Corpus:
    name: str
    targets: list[str]  # what ascend-lint and ruff are given
    files: list[Path]  # the Python files those stand for
    options: tuple[str, ...] = ()

    @property
    def lines(self) -> int:
        return sum(path.read_bytes().count(b"\n") for path in self.files)


@dataclass
class Measurement:
    name: str
    command: list[str]
    prepare: Callable[[], None] = lambda: None
    seconds: list[float] = field(default_factory=list)
    peak_kb: int = 0

    def run(self) -> None:
        self.prepare()
        start = time.perf_counter()
        process = subprocess.Popen(
            self.command, cwd=REPO, env=ENVIRONMENT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        _, status, usage = os.wait4(process.pid, 0)
        self.seconds.append(time.perf_counter() - start)
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode not in (0, 1):
            raise SystemExit(f"{self.name} failed ({process.returncode}): {' '.join(self.command)}")
        self.peak_kb = max(self.peak_kb, usage.ru_maxrss)

    @property
    def best(self) -> float:
        return min(self.seconds)


def vllm_ascend() -> Path | None:
    """vllm-ascend's `vllm_ascend` package from its wheel for this machine, or None."""
    target = CACHE / "vllm-ascend"
    if (target / "vllm_ascend").is_dir():
        return target / "vllm_ascend"
    CACHE.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "vllm-ascend"]
    done = subprocess.run([*command, "-d", str(CACHE)], capture_output=True, text=True)
    wheels = sorted(CACHE.glob("vllm_ascend-*.whl"))
    if done.returncode != 0 or not wheels:
        print(f"vllm_ascend: unavailable (pip download failed: {done.stderr.strip()[-200:]})")
        return None
    with zipfile.ZipFile(wheels[-1]) as wheel:
        wheel.extractall(target, [name for name in wheel.namelist() if name.startswith("vllm_ascend/")])
    return target / "vllm_ascend"


def plain_flake8() -> str:
    """A python with flake8 (same version as ours) and no plugins."""
    from importlib.metadata import version

    home = CACHE / "flake8-alone"
    python = home / "bin" / "python"
    if not python.exists():
        venv.create(home, with_pip=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", f"flake8=={version('flake8')}"], check=True)
    return str(python)


def measurements(corpus: Corpus, cache: Path, flake8: bool) -> list[Measurement]:
    files = [str(path) for path in corpus.files]
    lint = [sys.executable, "-m", "ascend_lint", "check", "--exit-zero", "--output-format=concise", *corpus.options]
    shared_cache = cache / corpus.name.replace(" ", "-")

    def fill_cache() -> None:
        if not shared_cache.exists():
            subprocess.run(
                [*lint, f"--cache-dir={shared_cache}", *corpus.targets], cwd=REPO, env=ENVIRONMENT, capture_output=True
            )

    found = [
        Measurement("libcst parse", [sys.executable, "-c", PARSE, *files]),
        Measurement("ast.parse", [sys.executable, "-c", AST, *files]),
        Measurement("ascend-lint cold, 1 job", [*lint, "--no-cache", "--jobs=1", *corpus.targets]),
        Measurement("ascend-lint cold, default jobs", [*lint, "--no-cache", *corpus.targets]),
        Measurement("ascend-lint warm (cache)", [*lint, f"--cache-dir={shared_cache}", *corpus.targets], fill_cache),
    ]
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if Path(ruff).exists():
        command = [ruff, "check", "--no-cache", "--isolated", "--exit-zero", "--select=E,F,W", *corpus.targets]
        found.append(Measurement("ruff (E, F, W)", command))
    if flake8:
        options = ["-m", "flake8", "--jobs=1", "--isolated", "--exit-zero", *files]
        found.append(Measurement("flake8 alone (E, F, W), 1 job", [plain_flake8(), *options, "--select=E,F,W"]))
        found.append(Measurement("flake8 + ASC plugin, 1 job", [sys.executable, *options, "--select=E,F,W,ASC"]))
    return found


def bench_corpus(corpus: Corpus, repeat: int, cache: Path, flake8: bool) -> None:
    found = measurements(corpus, cache, flake8)
    for _ in range(repeat):
        for measurement in found:
            measurement.run()
    parse = found[0].best
    print(f"\n{corpus.name}: {len(corpus.files)} files, {corpus.lines} lines; best of {repeat}")
    for measurement in found:
        print(f"  {measurement.name:<34} {measurement.best:7.2f} s  {measurement.best / parse:5.2f}x libcst parse")
    print(f"  peak memory, ascend-lint 1 job      {found[2].peak_kb / 1024:7.1f} MB")


async def server_latency(path: Path, edits: int) -> tuple[float, float, float]:
    """(first lint, median and best re-lint after an edit), seconds, for one open document."""
    from lsprotocol import types as lsp
    from pygls.lsp.client import BaseLanguageClient

    client = BaseLanguageClient("bench", "1")
    published: dict[int, float] = {}
    arrived = asyncio.Event()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def publish(params: lsp.PublishDiagnosticsParams) -> None:
        published[params.version or 0] = time.perf_counter()
        arrived.set()

    async def wait_for(version: int) -> float:
        while version not in published:
            arrived.clear()
            await asyncio.wait_for(arrived.wait(), 600)
        return published[version]

    await client.start_io(sys.executable, "-m", "ascend_lint", "server", cwd=str(path.parent), env=ENVIRONMENT)
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.initialized(lsp.InitializedParams())
    text, uri = path.read_text(encoding="utf-8"), path.as_uri()
    sent = time.perf_counter()
    item = lsp.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(item))
    first = await wait_for(1) - sent
    line = _line_in_a_kernel(text)
    latencies = []
    for version in range(2, edits + 2):
        at = lsp.Position(line=line, character=0)
        # odd versions remove the comment the even ones insert, so the text stays the kernel's
        change = (
            lsp.TextDocumentContentChangePartial(range=lsp.Range(at, at), text=f"# edit {version}\n")
            if version % 2 == 0
            else lsp.TextDocumentContentChangePartial(
                range=lsp.Range(at, lsp.Position(line=line + 1, character=0)), text=""
            )
        )
        sent = time.perf_counter()
        identifier = lsp.VersionedTextDocumentIdentifier(uri=uri, version=version)
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(identifier, [change]))
        latencies.append(await wait_for(version) - sent)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return first, statistics.median(latencies), min(latencies)


def _line_in_a_kernel(text: str) -> int:
    """A 0-based line in the middle of the file's longest jitted function (the edit goes there)."""
    import ast

    kernels = [
        node
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.FunctionDef) and any("jit" in ast.unparse(d) for d in node.decorator_list)
    ]
    longest = max(kernels, key=lambda node: (node.end_lineno or node.lineno) - node.lineno)
    return (longest.lineno + (longest.end_lineno or longest.lineno)) // 2


def compile_bytecode(prefix: Path, sample: Path) -> None:
    """Has every measured process read bytecode kept under `prefix`, compiled now by untimed
    runs of what the rounds import: ascend-lint (a check, and its server's modules), libcst."""
    ENVIRONMENT.pop("PYTHONDONTWRITEBYTECODE", None)
    ENVIRONMENT["PYTHONPYCACHEPREFIX"] = str(prefix)
    for command in (
        ["-m", "ascend_lint", "check", "--isolated", "--no-cache", "--exit-zero", str(sample)],
        ["-c", "import ascend_lint.server, libcst, ast"],
    ):
        subprocess.run([sys.executable, *command], cwd=REPO, env=ENVIRONMENT, capture_output=True, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--edits", type=int, default=10, help="edits timed per file in the server")
    parser.add_argument("--flake8", action="store_true", help="also time flake8 alone and with the plugin")
    parser.add_argument("--skip-vllm", action="store_true")
    args = parser.parse_args()
    print(f"ascend-lint bench: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start")
    root = fla_root()
    ascend = fla_ascend_files()
    corpora = [
        Corpus("fla Ascend files", [str(p) for p in ascend], ascend),
        Corpus("fla whole tree", [str(root / "fla")], sorted((root / "fla").rglob("*.py")), ("--target-all",)),
    ]
    vllm = None if args.skip_vllm else vllm_ascend()
    if vllm is not None:
        corpora.append(Corpus("vllm_ascend", [str(vllm)], sorted(vllm.rglob("*.py")), ("--target-all",)))
    with tempfile.TemporaryDirectory(prefix="ascend-lint-bench-") as cache:
        compile_bytecode(Path(cache) / "bytecode", ascend[0])
        for corpus in corpora:
            bench_corpus(corpus, args.repeat, Path(cache), args.flake8 and corpus is corpora[0])
        sized = sorted(ascend, key=lambda p: p.read_bytes().count(b"\n"))
        small = next(p for p in sized if "@triton.jit" in p.read_text(encoding="utf-8"))
        print(f"\nserver (edit -> diagnostics), {args.edits} edits in the longest kernel of each file:")
        for path in (sized[-1], small):
            first, median, best = asyncio.run(server_latency(path, args.edits))
            lines = path.read_bytes().count(b"\n")
            print(
                f"  {path.relative_to(root)} ({lines} lines): open {first:.3f} s, "
                f"re-lint median {median:.3f} s, best {best:.3f} s"
            )
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
