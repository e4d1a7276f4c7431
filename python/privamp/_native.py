"""The shared library (libprivamp, built from python/_native with
``go build -buildmode=c-shared``) loaded with ctypes, and the one call every
function of the package goes through.

``call(method, request)`` sends a request (a dict, as JSON) to package
query's method of that name and returns the answer (a dict): the object the
command line prints with ``--json`` for the same question. ``floats`` is the
bulk path: the answer beside float arrays. A refused request raises
``PrivampError`` (a ``ValueError``) carrying the field, value and reason; a
failure raises ``PrivampFailure`` (a ``RuntimeError``).

The library is found at ``$PRIVAMP_LIBRARY`` if set, else beside this file.
ctypes releases the GIL during a call, and the Go side is safe for
concurrent calls: several threads may call at once.
"""

import ctypes
import json
import math
import os
import threading
from array import array

__all__ = ["PrivampError", "PrivampFailure", "call", "floats", "library_path"]


class PrivampError(ValueError):
    """A refused input: ``field`` (the request's key, as privamp names it),
    ``value`` (the refused value, or None) and ``reason`` (what is allowed),
    the library's dp.Error; ``line`` for a line of an embedded file."""

    def __init__(self, message, field=None, value=None, reason=None, line=None):
        super().__init__(message)
        self.field, self.value, self.reason, self.line = field, value, reason, line


class PrivampFailure(RuntimeError):
    """A computation that failed for a reason other than its input."""


def library_path():
    """The path of the shared library this package loads."""
    p = os.environ.get("PRIVAMP_LIBRARY")
    if p:
        return p
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "libprivamp.so")


_lib = None
_lock = threading.Lock()


def _load():
    global _lib
    if _lib is not None:
        return _lib
    with _lock:
        if _lib is None:
            path = library_path()
            if not os.path.exists(path):
                raise ImportError(
                    "privamp: the shared library %s is missing; install with `pip install ./python` from the "
                    "repository (it runs go build -buildmode=c-shared), or set PRIVAMP_LIBRARY" % path)
            lib = ctypes.CDLL(path)
            c_size_p = ctypes.POINTER(ctypes.c_size_t)
            lib.privamp_call.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t,
                                         ctypes.POINTER(ctypes.c_void_p), c_size_p]
            lib.privamp_call.restype = ctypes.c_int
            lib.privamp_floats.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t,
                                           ctypes.POINTER(ctypes.c_void_p), c_size_p,
                                           ctypes.POINTER(ctypes.c_void_p), c_size_p, c_size_p]
            lib.privamp_floats.restype = ctypes.c_int
            lib.privamp_free.argtypes = [ctypes.c_void_p]
            lib.privamp_free.restype = None
            _lib = lib
    return _lib


def _clean(v):
    """JSON has no NaN or infinity: refuse them here, naming nothing the
    Go side could name better (it would see a syntax error)."""
    if isinstance(v, float) and not math.isfinite(v):
        raise PrivampError("%r is not a finite number" % v, value=v, reason="must be a finite number")
    if isinstance(v, dict):
        for k, x in v.items():
            try:
                _clean(x)
            except PrivampError as e:
                if e.field is None:
                    raise PrivampError("%s must be a finite number, got %r" % (k, x), field=k, value=x,
                                       reason="must be a finite number") from None
                raise
    elif isinstance(v, (list, tuple)):
        for x in v:
            _clean(x)
    return v


def _encode(request):
    if isinstance(request, (bytes, bytearray)):
        return bytes(request)
    if isinstance(request, str):
        return request.encode("utf-8")
    try:
        return json.dumps(request, allow_nan=False).encode("utf-8")
    except ValueError:
        _clean(request)  # names the key of the NaN or ∞
        raise


def _raise(code, text):
    try:
        e = json.loads(text)
    except ValueError:
        raise PrivampFailure(text) from None
    if code == 2:
        raise PrivampError(e.get("message", ""), e.get("field"), e.get("value"), e.get("reason"), e.get("line"))
    raise PrivampFailure(e.get("message", text))


def call(method, request):
    """Answers request (a dict, or JSON text) by package query's method and
    returns the answer as a dict."""
    lib = _lib or _load()
    req = _encode(request)
    out, n = ctypes.c_void_p(), ctypes.c_size_t()
    code = lib.privamp_call(method.encode(), req, len(req), ctypes.byref(out), ctypes.byref(n))
    try:
        text = ctypes.string_at(out, n.value).decode("utf-8")
    finally:
        lib.privamp_free(out)
    if code != 0:
        _raise(code, text)
    return json.loads(text)


def floats(method, request):
    """The bulk path: (meta, columns) where meta is the answer without its
    arrays and columns maps each column's name to an ``array('d')``."""
    lib = _load()
    req = _encode(request)
    meta, mlen, data = ctypes.c_void_p(), ctypes.c_size_t(), ctypes.c_void_p()
    ncols, nrows = ctypes.c_size_t(), ctypes.c_size_t()
    code = lib.privamp_floats(method.encode(), req, len(req), ctypes.byref(meta), ctypes.byref(mlen),
                              ctypes.byref(data), ctypes.byref(ncols), ctypes.byref(nrows))
    try:
        text = ctypes.string_at(meta, mlen.value).decode("utf-8")
        if code != 0:
            _raise(code, text)
        m = json.loads(text)
        rows = nrows.value
        buf = (ctypes.c_double * (rows * ncols.value)).from_address(data.value) if rows else None
        cols = {}
        for i, c in enumerate(m["columns"]):
            a = array("d")
            if rows:
                a.frombytes(memoryview(buf).cast("B")[i * rows * 8:(i + 1) * rows * 8])
            cols[c["name"]] = a
        return m, cols
    finally:
        lib.privamp_free(meta)
        if data.value:
            lib.privamp_free(data)
