"""The scripts that measure speed and strength, outside the wheel: each runs from a clone's
root as `python -m bench.NAME` (`--help` says what it measures, `--json` prints its figures
as JSON). They import the product's packages, research/ and the tests' helpers
(`tests.helpers`) as packages: no script edits `sys.path`. `revisions.py` alone runs code
of another git revision, in a fresh interpreter of its own."""
