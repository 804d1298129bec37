"""The package's one numba setup: how every kernel is compiled and cached.

Every compiled function of the package goes through :func:`jit` (lazy, compiled for the
argument types of its first call), :func:`jit_inline` (the same, inlined into its
callers) or :func:`jit_signature` (compiled for one signature when its module is
imported: the solver's kernel).  They share one policy:

- **nogil**, and ``error_model="numpy"`` for the lazy ones (no zero-division checks in
  the seat arithmetic: there is always a player);
- **cached on disk** where numba finds a writable folder (the package's ``__pycache__``,
  else the user's cache folder, or ``NUMBA_CACHE_DIR`` when it is set); where none is,
  the kernels compile at every start, with one :class:`~numba.core.errors.NumbaWarning`;
- **a cached kernel is keyed on the text it was built from**: its own file's, and that
  of the modules whose kernels other modules' kernels call (:data:`SHARED_SOURCES`:
  the rules core, the bids, the sides and the scoring it compiles in, the many-deals
  kernels and the worlds).
  Numba alone keys a kernel on its own file, so a kernel of ``euchre.vector`` built
  before a change to ``euchre.core`` would go on running the old rules, inlined into it; here it is
  compiled again instead;
- **nothing is read or written on import**: the cache of a lazy kernel is found, and
  its key computed, when the kernel is first compiled.

``NUMBA_DISABLE_JIT=1`` leaves every function plain Python (for debugging and
coverage); numba reads it, and its other ``NUMBA_*`` variables, itself.
"""

from __future__ import annotations

import functools
import hashlib
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar, cast

try:
    import numba
    from numba.core import typeinfer
    from numba.core.caching import CompileResultCacheImpl, FunctionCache, NullCache, _Cache
    from numba.core.errors import NumbaWarning
except ImportError as e:  # pragma: no cover - numba is a dependency
    raise ImportError("euchre's compiled code needs numba: pip install 'numba>=0.59'") from e

__all__ = ["SHARED_SOURCES", "jit", "jit_inline", "jit_signature", "uncached"]

F = TypeVar("F", bound=Callable[..., Any])

SHARED_SOURCES: tuple[Path, ...] = tuple(
    Path(__file__).resolve().with_name(name)
    for name in ("actions.py", "core.py", "refusals.py", "scoring.py", "sides.py", "vector.py",
                 "worlds.py"))
"""The modules whose kernels the kernels of other modules call (and numba inlines or
links into them): a change to any of them makes every cached kernel stale."""

uncached: list[str] = []
"""The kernels compiled without a disk cache (no writable folder), by name."""

_LAZY: Final = {"nogil": True, "error_model": "numpy"}


@functools.cache
def _digest(path: Path, mtime_ns: int, size: int) -> str:
    """The SHA-256 of a file's text, computed once per version of the file."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _stamp_of(paths: tuple[Path, ...]) -> tuple[str, ...]:
    out = []
    for path in paths:
        st = path.stat()
        out.append(_digest(path, st.st_mtime_ns, st.st_size))
    return tuple(out)


class _KeyedImpl(CompileResultCacheImpl):
    """Numba's cache of compile results, its freshness stamp widened to the shared
    sources: an index written against other text of them reads as empty."""

    def __init__(self, py_func: Callable[..., Any]) -> None:
        super().__init__(py_func)  # type: ignore[no-untyped-call]
        own = self._locator.get_source_stamp
        shared = self.shared()
        self._locator.get_source_stamp = lambda: (own(), _stamp_of(shared))

    def shared(self) -> tuple[Path, ...]:
        """The files besides its own that the kernel's cache is keyed on."""
        return ()


class _SharedImpl(_KeyedImpl):
    def shared(self) -> tuple[Path, ...]:
        return SHARED_SOURCES


class _KeyedCache(FunctionCache):
    """A kernel's cache keyed on its own file alone (as numba's)."""

    _impl_class = _KeyedImpl


class _SharedKeyedCache(FunctionCache):
    """A kernel's cache keyed on its own file and on :data:`SHARED_SOURCES`."""

    _impl_class = _SharedImpl


class _LazyCache(_Cache):
    """A kernel's disk cache, made at its first compilation (numba makes its own when
    the kernel is defined, trying folders then)."""

    def __init__(self, py_func: Callable[..., Any], kind: type[FunctionCache]) -> None:
        self._py_func = py_func
        self._kind = kind
        self._cache: Any = None
        self._enabled = True

    def _real(self) -> Any:
        if self._cache is None:
            try:
                self._cache = self._kind(self._py_func)
            except RuntimeError:  # "cannot cache function ...: no locator available"
                if not uncached:
                    warnings.warn("numba finds no writable cache directory: euchre's "
                                  "kernels are compiled at every start (set NUMBA_CACHE_DIR "
                                  "to keep them)", NumbaWarning, stacklevel=4)
                uncached.append(self._py_func.__name__)
                self._cache = NullCache()
            if not self._enabled:
                self._cache.disable()
        return self._cache

    @property
    def cache_path(self) -> Any:
        return self._real().cache_path

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        return self._real().load_overload(sig, target_context)

    def save_overload(self, sig: Any, data: Any) -> None:
        self._real().save_overload(sig, data)

    def enable(self) -> None:
        self._enabled = True
        if self._cache is not None:
            self._cache.enable()

    def disable(self) -> None:
        self._enabled = False
        if self._cache is not None:
            self._cache.disable()

    def flush(self) -> None:
        self._real().flush()


def _compile(fn: F, options: dict[str, Any], kind: type[FunctionCache],
             signature: str | None = None) -> F:
    """``numba.njit(**options, cache=True)``, with the cache of :class:`_LazyCache`."""
    dispatcher = numba.njit(**options)(fn)
    config: Any = numba.config
    if config.DISABLE_JIT:
        return cast(F, dispatcher)  # the plain function
    dispatcher._cache = _LazyCache(fn, kind)
    if signature is not None:  # what numba.njit(signature) does, once the cache is set
        with typeinfer.register_dispatcher(dispatcher):
            dispatcher.compile(signature)
        dispatcher.disable_compile()
    return cast(F, dispatcher)


def jit(fn: Callable[..., Any]) -> Any:
    """Compile ``fn`` with numba at its first call, cached on disk (see the module)."""
    return _compile(fn, _LAZY, _SharedKeyedCache)


def jit_inline(fn: Callable[..., Any]) -> Any:
    """:func:`jit` for the small rules the hot loop asks at every action (who is next,
    what is legal, a random draw): numba inlines them into their callers, which measured
    15 to 25 % more random deals a second than calls (docs/benchmarks.md)."""
    return _compile(fn, {**_LAZY, "inline": "always"}, _SharedKeyedCache)


def jit_signature(signature: str) -> Callable[[F], F]:
    """Compile for ``signature`` now, when the module is imported (or load it from the
    cache): the open-hand solver's kernel, which calls nothing of the shared sources
    and is keyed on its own file alone."""

    def decorate(fn: F) -> F:
        return _compile(fn, {"nogil": True}, _KeyedCache, signature)

    return decorate
