"""pip install ./python into a fresh virtual environment with no package
index reachable (--no-index), then the README's Python example: it must print
the MNIST ε 2.38178. Slow (a wheel build): run by make test-python-install,
skipped otherwise."""

import os
import re
import subprocess
import sys
import tempfile

import pytest

from conftest import ROOT

pytestmark = pytest.mark.skipif(not os.environ.get("PRIVAMP_PIP_TEST"), reason="make test-python-install runs it")


def readme_python_example():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"<!-- python-example -->\s*```python\n(.*?)```", text, re.S)
    assert m, "README.md has no python-example block"
    return m.group(1)


def test_pip_install_then_readme_example():
    with tempfile.TemporaryDirectory() as tmp:
        venv = os.path.join(tmp, "venv")
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        py = os.path.join(venv, "bin", "python")
        env = {k: v for k, v in os.environ.items() if k not in ("PRIVAMP_LIBRARY", "PYTHONPATH")}
        subprocess.run([py, "-m", "pip", "install", "-q", "--no-index", os.path.join(ROOT, "python")], check=True,
                       env=env)
        out = subprocess.run([py, "-c", readme_python_example()], cwd=tmp, check=True, capture_output=True,
                             text=True, env=env).stdout
        assert out.splitlines() == ["2.38178", "pld 1.67858"], out
