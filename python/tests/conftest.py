"""The suite runs against the shared library at $PRIVAMP_LIBRARY and the
command line at $PRIVAMP_CLI (make python-test builds both); where either is
unset, it is built here with the local Go toolchain into a temporary
directory (go's build cache makes a rebuild a few seconds)."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))  # the package from the tree

_tmp = None


def _build(env_name, args, name):
    global _tmp
    if os.environ.get(env_name):
        return os.environ[env_name]
    if _tmp is None:
        _tmp = tempfile.mkdtemp(prefix="privamp-pytest-")
    out = os.path.join(_tmp, name)
    flags, pkg = args[:-1], args[-1]
    subprocess.run([shutil.which("go") or "go", "build"] + flags + ["-o", out, pkg], cwd=ROOT, check=True)
    os.environ[env_name] = out
    return out


def pytest_configure(config):
    _build("PRIVAMP_LIBRARY", ["-buildmode=c-shared", "./python/_native"], "libprivamp.so")


@pytest.fixture(scope="session")
def cli_path():
    return _build("PRIVAMP_CLI", ["./cmd/privamp"], "privamp")


@pytest.fixture(scope="session")
def cli(cli_path):
    """Runs privamp with args and --json; returns (object, exit status)."""
    def run(*args):
        p = subprocess.run([cli_path] + [str(a) for a in args] + ["--json"], cwd=ROOT, capture_output=True, text=True)
        assert p.returncode in (0, 1, 3), p.stderr
        return json.loads(p.stdout), p.returncode
    return run


def example(path):
    return os.path.join(ROOT, path)
