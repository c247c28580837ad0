"""Measuring this tree against another git revision, side by side.

`scratch_tree(rev)` checks `rev` out in a scratch git worktree, removed at
the end. `run_in(tree, bench, call)` runs one measurement in a fresh
interpreter whose `sys.path` starts with `tree`, so the two revisions'
packages never mix: it loads the bench file `bench` as a module, checks
that `engine` and `protocol` come from `tree`, evaluates `call` (a Python
expression on `bench`), and returns its JSON. The benches alternate the two
trees run by run and compare the medians of ratios of neighbouring runs.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

WORKER = """
import importlib.util, json, os, sys
sys.path.insert(0, {tree!r})
spec = importlib.util.spec_from_file_location("bench_module", {bench!r})
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
import engine, protocol
for package in (engine, protocol):
    assert os.path.dirname(os.path.dirname(os.path.abspath(package.__file__))) == {tree!r}, package.__file__
print(json.dumps({call}))
"""


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True, check=True).stdout.strip()


@contextlib.contextmanager
def scratch_tree(rev: str) -> Iterator[tuple[str, str]]:
    """(path, short commit) of `rev` checked out apart; SystemExit for no such revision."""
    try:
        commit = git("rev-parse", "--verify", f"{rev}^{{commit}}")
    except subprocess.CalledProcessError:
        raise SystemExit(f"no such revision: {rev}") from None
    scratch = tempfile.mkdtemp(prefix=f"bench-{commit[:7]}-")
    git("worktree", "add", "--detach", scratch, commit)
    try:
        yield scratch, commit[:7]
    finally:
        subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", scratch], capture_output=True, check=False)
        shutil.rmtree(scratch, ignore_errors=True)


def run_in(tree: str, bench: str, call: str) -> dict:
    """`call` evaluated on the bench file `bench`, with the packages of `tree`, in a fresh interpreter."""
    code = WORKER.format(tree=os.path.abspath(tree), bench=os.path.abspath(bench), call=call)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"measuring {call} in {tree} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])
