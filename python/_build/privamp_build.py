"""privamp's PEP 517 build backend: standard library only, no build
requirements, so that `pip install ./python` works with no package index.

build_wheel runs `go build -buildmode=c-shared` on python/_native (the
module root is this directory's parent, where go.mod is) and writes a
platform wheel holding the privamp package and libprivamp.so. The Go
toolchain is `go` on PATH (or $GO); cgo needs a C compiler (gcc, which
.ci/run installs where missing).
"""

import base64
import hashlib
import os
import shutil
import subprocess
import sysconfig
import tarfile
import tempfile
import zipfile

NAME, VERSION = "privamp", "0.1.0"
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # python/
ROOT = os.path.dirname(HERE)  # the Go module

METADATA = """Metadata-Version: 2.1
Name: {name}
Version: {version}
Summary: privamp's privacy accounting from Python, in process (the Go library as a shared library)
Requires-Python: >=3.9
""".format(name=NAME, version=VERSION)


def _tag():
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return "py3-none-" + plat


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def _build_library(dest):
    go = os.environ.get("GO") or shutil.which("go")
    if not go:
        raise RuntimeError("privamp: the Go toolchain is needed to build the shared library (https://go.dev/dl)")
    if not os.path.exists(os.path.join(ROOT, "go.mod")):
        raise RuntimeError("privamp: build from the repository: %s has no go.mod" % ROOT)
    env = dict(os.environ, CGO_ENABLED="1")
    out = os.path.join(dest, "libprivamp.so")
    subprocess.run([go, "build", "-buildmode=c-shared", "-o", out, "./python/_native"],
                   cwd=ROOT, env=env, check=True)
    return out


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (arcname, digest, len(data))


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    tag = _tag()
    wheel_name = "%s-%s-%s.whl" % (NAME, VERSION, tag)
    dist_info = "%s-%s.dist-info" % (NAME, VERSION)
    with tempfile.TemporaryDirectory() as tmp:
        lib = _build_library(tmp)
        files = []
        pkg = os.path.join(HERE, NAME)
        for f in sorted(os.listdir(pkg)):
            if f.endswith(".py"):
                with open(os.path.join(pkg, f), "rb") as fh:
                    files.append((NAME + "/" + f, fh.read()))
        with open(lib, "rb") as fh:
            files.append((NAME + "/libprivamp.so", fh.read()))
        files.append((dist_info + "/METADATA", METADATA.encode()))
        files.append((dist_info + "/WHEEL", ("Wheel-Version: 1.0\nGenerator: privamp_build\nRoot-Is-Purelib: false\nTag: %s\n" % tag).encode()))
        files.append((dist_info + "/top_level.txt", (NAME + "\n").encode()))
        record = [_record_line(a, d) for a, d in files] + [dist_info + "/RECORD,,"]
        files.append((dist_info + "/RECORD", ("\n".join(record) + "\n").encode()))
        path = os.path.join(wheel_directory, wheel_name)
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for arc, data in files:
                info = zipfile.ZipInfo(arc, date_time=(2020, 1, 1, 0, 0, 0))
                info.external_attr = (0o755 if arc.endswith(".so") else 0o644) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, data)
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    """An sdist of the Python sources only: building a wheel from it needs
    the repository around it (the Go module), as pip install ./python has."""
    base = "%s-%s" % (NAME, VERSION)
    path = os.path.join(sdist_directory, base + ".tar.gz")
    with tarfile.open(path, "w:gz") as t:
        for rel in ("pyproject.toml", "_build/privamp_build.py") + tuple(
                NAME + "/" + f for f in sorted(os.listdir(os.path.join(HERE, NAME))) if f.endswith(".py")):
            t.add(os.path.join(HERE, rel), arcname=base + "/" + rel)
        meta = METADATA.encode()
        info = tarfile.TarInfo(base + "/PKG-INFO")
        info.size = len(meta)
        import io
        t.addfile(info, io.BytesIO(meta))
    return base + ".tar.gz"
