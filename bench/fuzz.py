"""Long fuzzing campaigns: mutants of the fixture kernels and grammar-generated Python through the
engine (tests/fuzzing.py has the inputs and the properties), then some through the real CLI.

    python bench/fuzz.py --count 10000 [--generated 500] [--packages 1000] [--cli 300] [--budget 5] [--seed N] [--save DIR]
    python bench/fuzz.py --replay DIR/refused-<hash>.py.bin DIR/reproducer-<hash>/ ...

Hypothesis generates the inputs (from `--seed`); the first property violation is shrunk to a
minimal input and saved (`DIR/reproducer-<hash>.py.bin` with the problems in `.txt`; the run
exits 1); a package's reproducer is a folder (`DIR/reproducer-<hash>/`) holding its files. A fix refused for a reason other than the fixer's own checks (its fixed text could not
be linted) is rare: it is printed in full and its input saved as `DIR/refused-<hash>.py.bin`
(the message in `.txt`). At the end it prints how the inputs ended (refused up front, syntax
errors, linted; fixed, fixes refused: rare refusals with their whole message) and the slowest
file in CPU seconds (wall time says little beside other work), whose input is saved as
`DIR/slowest-<campaign>-<hash>.py.bin` (a package's module: its package's folder) for `--replay`.
`--budget` is the per-file time limit: a file that takes longer is a hang (a
violation). `--replay` checks saved inputs again and prints how each ended.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the fuzzer
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's ascend_lint
from fuzzing import (
    REPO,
    SEEDS,
    TEXT_MUTATIONS,
    Outcome,
    check,
    check_package,
    expected_fix_refusal,
    fix_defect,
    generated,
    mutants,
    package_mutants,
    to_bytes,
)
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis.database import DirectoryBasedExampleDatabase

Input = bytes | dict[str, bytes]  # a file's bytes, or a package's files by path


class Campaign:
    """Counts of how inputs ended, and the last input that broke a property."""

    def __init__(self, budget: float, save: Path):
        self.budget = budget
        self.save = save
        self.ends: Counter[str] = Counter()
        self.slowest = (0.0, 0)  # CPU seconds, lines
        self.slowest_input: Input | None = None
        self.failing: tuple[Input, list[str]] | None = None
        self.started = time.perf_counter()

    def run(self, data: Input) -> None:
        """Check a file's bytes, or a package's files (`{path: bytes}`) module by module."""
        outcomes = check(data, self.budget) if isinstance(data, bytes) else check_package(data, self.budget)
        problems = []
        for name, outcome in outcomes.items() if isinstance(outcomes, dict) else (("", outcomes),):
            self._count(outcome, data)
            problems += [f"{name}: {problem}" if name else problem for problem in outcome.problems]
        if problems:
            self.failing = (data, problems)
            raise AssertionError("\n".join(problems))

    def _count(self, outcome: Outcome, data: Input) -> None:
        self.ends[_ending(outcome)] += 1
        if outcome.fix_refused:
            rare = not expected_fix_refusal(outcome.fix_refused)
            self.ends[f"fix refused: {outcome.fix_refused if rare else _kind(outcome.fix_refused)}"] += 1
            if rare:
                saved = _saved(self.save, "refused", data, outcome.fix_refused)
                print(f"RARE: fix refused, input saved as {saved}:\n  {outcome.fix_refused}", flush=True)
        if outcome.seconds > self.slowest[0]:
            self.slowest = (outcome.seconds, outcome.lines)
            self.slowest_input = data

    def report(self, label: str) -> None:
        total = sum(count for end, count in self.ends.items() if not end.startswith("fix"))
        print(f"{label}: {total} inputs in {time.perf_counter() - self.started:.0f} s")
        for end, count in sorted(self.ends.items()):
            print(f"  {count:6d}  {end}")
        seconds, lines = self.slowest
        print(f"  slowest file: {seconds:.2f} s of CPU for {lines} lines", end="")
        if self.slowest_input is not None:
            print(f", saved as {_saved(self.save, f'slowest-{label}', self.slowest_input, f'{seconds:.2f} s')}", end="")
        print()


def _ending(outcome: Outcome) -> str:
    if outcome.refused is not None:
        return f"not linted: {_kind(outcome.refused)}"
    return "linted, fixed" if outcome.fixed else f"linted, {'findings' if outcome.findings else 'clean'}, unchanged"


def _kind(message: str) -> str:
    """A diagnostic without its details (positions, names, numbers)."""
    message = re.sub(r"\(.*\)|'[^']*'|`[^`]*`|\d+", "…", message)
    return message.split(":")[0] if message.startswith(("SyntaxError", "IndentationError")) else message[:80]


def _saved(save: Path, kind: str, data: Input, text: str) -> Path:
    """`data` as `save/<kind>-<hash>.py.bin`, or a package's files in the folder
    `save/<kind>-<hash>/`; `text` in `save/<kind>-<hash>.txt`. What holds the input."""
    packed = data if isinstance(data, bytes) else b"".join(f"{path}\0".encode() + data[path] for path in sorted(data))
    name = save / f"{kind}-{hashlib.sha256(packed).hexdigest()[:12]}"
    name.with_suffix(".txt").write_text(text + "\n")
    if isinstance(data, bytes):
        name.with_suffix(".py.bin").write_bytes(data)
        return name.with_suffix(".py.bin")
    for path, content in data.items():
        (name / path).parent.mkdir(parents=True, exist_ok=True)
        (name / path).write_bytes(content)
    return name


def campaign(strategy, count: int, budget: float, save: Path, label: str, seed_: int) -> bool:
    runs = Campaign(budget, save)
    database = DirectoryBasedExampleDatabase(str(save / ".hypothesis"))
    options = settings(
        max_examples=count,
        deadline=None,
        database=database,
        phases=[Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )

    def one_input(data: Input) -> None:
        runs.run(data)

    try:
        seed(seed_)(given(strategy)(options(one_input)))()
    except AssertionError:
        assert runs.failing is not None
        data, problems = runs.failing  # the last failing run is the shrunk one
        saved = _saved(save, "reproducer", data, "\n".join(problems))
        runs.report(label)
        print(f"PROPERTY BROKEN, shrunk input saved as {saved}:\n" + "\n".join(problems))
        return False
    runs.report(label)
    return True


def through_the_cli(count: int, seed: int, budget: float) -> bool:
    """`count` mutants through the real command with --fix --unsafe-fixes, 50 files a run."""
    rng, ok, statuses = random.Random(seed), True, Counter()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    for batch in range(0, count, 50):
        with tempfile.TemporaryDirectory() as root:
            folder = Path(root, "triton_ascend")
            folder.mkdir()
            originals = {}
            for number in range(batch, min(batch + 50, count)):
                text = rng.choice(SEEDS).read_text(encoding="utf-8")
                for mutation in rng.sample(TEXT_MUTATIONS, rng.randint(1, 3)):
                    text = mutation(text, rng)
                path = folder / f"mutant{number}.py"
                path.write_bytes(to_bytes(text, rng.choice(("none", "none", "bom", "invalid-bytes")), rng))
                originals[path] = path.read_bytes()
            command = [sys.executable, "-m", "ascend_lint", "check", "--isolated", "--fix", "--unsafe-fixes"]
            command += ["--timeout-per-file", str(budget), "."]
            done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
            statuses[done.returncode] += 1
            if done.returncode not in (0, 1, 2) or "Traceback" in done.stderr or "internal error" in done.stderr:
                print(f"CLI batch {batch}: exit {done.returncode}\n{done.stderr[-2000:]}")
                ok = False
            for line in done.stderr.splitlines():
                if "the fixed file could not be linted" in line and fix_defect(line):
                    print(f"CLI batch {batch}: {line}")
                    ok = False
            for path, before in originals.items():
                after = path.read_bytes()
                if after != before and not _compiles(after):
                    print(f"CLI batch {batch}: {path.name} was written and no longer compiles")
                    ok = False
    print(f"CLI: {count} mutants in {sum(statuses.values())} runs, exit statuses {dict(statuses)}")
    return ok


def _compiles(data: bytes) -> bool:
    try:
        compile(data, "written.py", "exec")
    except SyntaxError:
        return False
    return True


def replay(path: Path, budget: float) -> bool:
    """Check one saved input (a file, or a package's folder) again: print how each module
    ended; whether it keeps every property."""
    if path.is_dir():
        files = {item.relative_to(path).as_posix(): item.read_bytes() for item in sorted(path.rglob("*.py"))}
        outcomes = check_package(files, budget)
    else:
        outcomes = {str(path): check(path.read_bytes(), budget)}
    for name, outcome in outcomes.items():
        print(f"{name}: {_ending(outcome)}; {outcome.seconds:.2f} s of CPU for {outcome.lines} lines")
        for line in ([f"fix refused: {outcome.fix_refused}"] if outcome.fix_refused else []) + outcome.problems:
            print(f"  {line}")
    return not any(outcome.problems for outcome in outcomes.values())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=1000, help="mutants of the fixture kernels")
    parser.add_argument("--generated", type=int, default=0, help="grammar-generated programs (hypothesmith)")
    parser.add_argument("--packages", type=int, default=0, help="fixture packages with mutated modules")
    parser.add_argument("--cli", type=int, default=0, help="mutants through the real command line")
    parser.add_argument("--budget", type=float, default=5.0, help="seconds a file may take (else: a hang)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the generated inputs and CLI mutants")
    parser.add_argument("--save", type=Path, default=Path("fuzz-reproducers"), help="where saved inputs go")
    parser.add_argument("--replay", type=Path, nargs="+", help="check these saved inputs again")
    args = parser.parse_args()
    if args.replay:
        sys.exit(0 if all(replay(path, args.budget) for path in args.replay) else 1)
    args.save.mkdir(parents=True, exist_ok=True)
    ok = campaign(mutants(), args.count, args.budget, args.save, "mutants", args.seed)
    if ok and args.generated:
        ok = campaign(generated(), args.generated, args.budget, args.save, "generated", args.seed)
    if ok and args.packages:
        ok = campaign(package_mutants(), args.packages, args.budget, args.save, "packages", args.seed)
    if ok and args.cli:
        ok = through_the_cli(args.cli, args.seed, args.budget)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
