"""Events with dp_accounting's names (dp_accounting/dp_event.py), so that a
script written for dp_accounting's accountants runs with privamp's by
changing one import, and dp_accounting's own event objects (when that
package is installed) are read through their public ``to_named_tuple()``
form without importing dp_accounting.

privamp accounts GaussianDpEvent, LaplaceDpEvent, RandomizedResponseDpEvent,
NoOpDpEvent, PoissonSampledDpEvent, SampledWithoutReplacementDpEvent,
SelfComposedDpEvent and ComposedDpEvent (the events file format of
``privamp compose --events``, docs/accounting.md). Any other event
(NonPrivateDpEvent, UnsupportedDpEvent, …) is not supported: an
accountant's ``supports`` says False and ``compose`` raises, as
dp_accounting's accountants do.
"""

__all__ = [
    "DpEvent", "NoOpDpEvent", "NonPrivateDpEvent", "UnsupportedDpEvent", "GaussianDpEvent", "LaplaceDpEvent",
    "RandomizedResponseDpEvent", "PoissonSampledDpEvent", "SampledWithoutReplacementDpEvent",
    "SelfComposedDpEvent", "ComposedDpEvent", "to_json", "UnsupportedEventError",
]


class UnsupportedEventError(ValueError):
    """An event privamp does not account (its class named in the message)."""


class DpEvent:
    """Base of privamp's events: immutable, compared and hashed by value."""
    __slots__ = ()
    _fields = ()

    def __init__(self, *args, **kwargs):
        names = self._fields
        if len(args) > len(names):
            raise TypeError("%s takes %d arguments" % (type(self).__name__, len(names)))
        vals = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names or k in vals:
                raise TypeError("%s: unexpected or repeated argument %r" % (type(self).__name__, k))
            vals[k] = v
        missing = [n for n in names if n not in vals]
        if missing:
            raise TypeError("%s: missing argument(s) %s" % (type(self).__name__, ", ".join(missing)))
        for n in names:
            object.__setattr__(self, n, vals[n])

    def __setattr__(self, k, v):
        raise AttributeError("%s is immutable" % type(self).__name__)

    def _key(self):
        return (type(self).__name__,) + tuple(getattr(self, n) for n in self._fields)

    def __eq__(self, other):
        return isinstance(other, DpEvent) and self._key() == other._key()

    def __hash__(self):
        return hash(tuple(tuple(x) if isinstance(x, list) else x for x in self._key()))

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join("%s=%r" % (n, getattr(self, n)) for n in self._fields))


class NoOpDpEvent(DpEvent):
    """An operation that does not touch the data."""
    __slots__ = ()


class NonPrivateDpEvent(DpEvent):
    """An operation that is not private: no accountant supports it."""
    __slots__ = ()


class UnsupportedDpEvent(DpEvent):
    """An operation privamp (and dp_accounting) cannot account."""
    __slots__ = ()


class GaussianDpEvent(DpEvent):
    """The Gaussian mechanism with noise multiplier σ/Δ."""
    __slots__ = ("noise_multiplier",)
    _fields = ("noise_multiplier",)


class LaplaceDpEvent(DpEvent):
    """The Laplace mechanism with scale b/Δ."""
    __slots__ = ("noise_multiplier",)
    _fields = ("noise_multiplier",)


class RandomizedResponseDpEvent(DpEvent):
    """k-ary randomized response: answer uniformly at random with probability noise_parameter."""
    __slots__ = ("noise_parameter", "num_buckets")
    _fields = ("noise_parameter", "num_buckets")


class PoissonSampledDpEvent(DpEvent):
    """event run on a Poisson sample: each record in it with sampling_probability."""
    __slots__ = ("sampling_probability", "event")
    _fields = ("sampling_probability", "event")


class SampledWithoutReplacementDpEvent(DpEvent):
    """event run on sample_size records drawn without replacement out of source_dataset_size."""
    __slots__ = ("source_dataset_size", "sample_size", "event")
    _fields = ("source_dataset_size", "sample_size", "event")


class SelfComposedDpEvent(DpEvent):
    """event run count times (adaptively)."""
    __slots__ = ("event", "count")
    _fields = ("event", "count")


class ComposedDpEvent(DpEvent):
    """events run one after the other (adaptively)."""
    __slots__ = ("events",)
    _fields = ("events",)


# The JSON type of each event class (package composition/events) and the
# keys it carries; a nested event is converted in turn.
_TYPES = {
    "NoOpDpEvent": ("NoOp", ()),
    "GaussianDpEvent": ("Gaussian", ("noise_multiplier",)),
    "LaplaceDpEvent": ("Laplace", ("noise_multiplier",)),
    "RandomizedResponseDpEvent": ("RandomizedResponse", ("noise_parameter", "num_buckets")),
    "PoissonSampledDpEvent": ("PoissonSampled", ("sampling_probability", "event")),
    "SampledWithoutReplacementDpEvent": ("SampledWithoutReplacement", ("source_dataset_size", "sample_size", "event")),
    "SelfComposedDpEvent": ("SelfComposed", ("event", "count")),
    "ComposedDpEvent": ("Composed", ("events",)),
}


def _fields_of(event):
    """(class name, field getter) of a privamp event, a dp_accounting event
    (through to_named_tuple) or a named tuple of one."""
    if isinstance(event, DpEvent):
        return type(event).__name__, lambda k: getattr(event, k)
    nt = event
    if not hasattr(nt, "class_name") and hasattr(event, "to_named_tuple"):
        nt = event.to_named_tuple()
    if hasattr(nt, "class_name") and hasattr(nt, "_fields"):
        return nt.class_name, lambda k: getattr(nt, k)
    raise UnsupportedEventError("not a DpEvent: %r" % (event,))


def _number(x):
    """A JSON number of x (numpy scalars included), as is."""
    if isinstance(x, bool):
        raise UnsupportedEventError("a number is needed, got %r" % (x,))
    if isinstance(x, (int, float)):
        return x
    for conv in (int, float):  # numpy integers and floats
        try:
            v = conv(x)
            if v == x:
                return v
        except (TypeError, ValueError):
            pass
    raise UnsupportedEventError("a number is needed, got %r" % (x,))


def to_json(event, path="event"):
    """The events-file object of event (privamp's or dp_accounting's)."""
    name, get = _fields_of(event)
    if name not in _TYPES:
        raise UnsupportedEventError("%s: %s is not supported by privamp (supported: %s)" % (
            path, name, ", ".join(sorted(_TYPES))))
    typ, keys = _TYPES[name]
    out = {"type": typ}
    for k in keys:
        v = get(k)
        if k == "event":
            out[k] = to_json(v, path + ".event")
        elif k == "events":
            out[k] = [to_json(e, "%s.events[%d]" % (path, i)) for i, e in enumerate(v)]
        else:
            out[k] = _number(v)
    return out
