"""Time ascend-lint against its peers on fla-core's Ascend kernels, in one run.

    python bench/bench_lint.py [--repeat N]

Prints seconds for: libcst's parse alone, ascend-lint (in-process, one core), flake8 alone,
and flake8 with the ascend-lint plugin, and the ratios the project budgets against
(lint / parse must stay within 1.5x). flake8 runs every installed plugin whatever `--select`
says, so "flake8 alone" runs in a separate virtualenv holding only flake8 (made once, next to
the corpus cache).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
import venv
from pathlib import Path

import libcst as cst

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from fla_corpus import CACHE, fla_ascend_files, fla_root

from ascend_lint.config import load_settings
from ascend_lint.engine import lint_file


def best_of(repeat: int, work) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def plain_flake8() -> str:
    """A python with flake8 (same version as ours) and no plugins."""
    from importlib.metadata import version

    home = CACHE / "flake8-alone"
    python = home / "bin" / "python"
    if not python.exists():
        venv.create(home, with_pip=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", f"flake8=={version('flake8')}"], check=True)
    return str(python)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    files = [str(p) for p in fla_ascend_files()]
    lines = sum(Path(f).read_text(encoding="utf-8").count("\n") for f in files)
    settings = load_settings([str(fla_root())], isolated=True)
    settings.root = fla_root()

    parse = best_of(args.repeat, lambda: [cst.parse_module(Path(f).read_text(encoding="utf-8")) for f in files])
    lint = best_of(args.repeat, lambda: [lint_file(f, settings) for f in files])
    flake8_args = ["-m", "flake8", "--jobs=1", "--isolated", "--exit-zero", *files]
    alone = [plain_flake8(), *flake8_args, "--select=E,F,W"]
    with_plugin = [sys.executable, *flake8_args, "--select=E,F,W,ASC"]
    flake8_alone = best_of(args.repeat, lambda: subprocess.run(alone, capture_output=True, cwd=fla_root()))
    flake8_plugin = best_of(args.repeat, lambda: subprocess.run(with_plugin, capture_output=True, cwd=fla_root()))

    print(f"corpus: fla-core {len(files)} Ascend files, {lines} lines; best of {args.repeat}")
    print(f"libcst parse alone        {parse:7.2f} s  ({parse / lines * 1e6:6.1f} us/line)")
    print(f"ascend-lint (1 core)      {lint:7.2f} s  ratio to parse {lint / parse:5.2f}x (budget 1.50x)")
    print(f"flake8 alone (E,F,W)      {flake8_alone:7.2f} s")
    print(
        f"flake8 + ASC plugin       {flake8_plugin:7.2f} s  ratio to flake8 alone {flake8_plugin / flake8_alone:5.2f}x"
    )


if __name__ == "__main__":
    main()
