"""`block`: how a kernel's compiled functions are declared, so that a first compile stays short.

Numba compiles a function once per signature of argument types, and by default gives every version a
Python entry point and a C entry point. For the games' blocks both defaults cost more than the code:

- A call with a constant (`f(st, 0)`, `f(st, ROAD)`, `f(st, True)`) is typed `Literal[int](0)` and so on,
  and each such call site compiled a version of its own beside the one for a variable (a block called
  with -1 here, 0 there and a variable elsewhere was compiled three times). A block is compiled for the
  plain types only; the constant is converted at the call.
- The Python entry point unboxes every array of the NamedTuples a block takes (a game's state, board and
  scratch are a hundred arrays): it was most of a small block's compile, and no kernel uses it. A block's
  versions for compiled callers have none. A call from Python (a kernel's entry, a test of one block)
  goes to a twin compiled on the first such call, with its own cache files.
- The C entry point (for passing a compiled function as a value) is never used: no version has one.

A block that tests step from Python as well as kernels call (a turn's steps, a search's decision, and the
search-only blocks a test of the searches builds: its work, candidates, determinizing and copies) is declared
`block(python_entry=True)`: its versions (one per signature) have the Python entry point, because its twin would
compile again all it inlines (Catan's turn and search, minutes of a fresh `make test`). Blocks the scripted
kernels compile keep the twin: an entry point costs every kernel that compiles the block (docs/compile.md).

The compiled code is the same either way: the entry points only wrap it, and a constant argument is the
same value as a variable holding it.
"""

from __future__ import annotations

import importlib
import types as pytypes
from collections.abc import Callable

import numba as nb
from numba.core import types
from numba.core.registry import CPUDispatcher


class _Block(CPUDispatcher):
    _python_entry = False  # block(python_entry=True) sets it on the dispatcher
    def get_call_template(self, args, kws):
        """A call from compiled code: typed for the arguments' plain types."""
        return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                         {k: types.unliteral(v) for k, v in kws.items()})

    def __call__(self, *args, **kwargs):
        """A call from Python: the compiled versions here have no Python entry point (Numba would jump to
        the missing one), so the twin takes it; unless the block has one (python_entry=True)."""
        if self._python_entry:
            return super().__call__(*args, **kwargs)
        twin = self.__dict__.get("_from_python")
        if twin is None:
            twin = self._from_python = _python_twin(self.py_func, self._block_options)
        return twin(*args, **kwargs)

    def __reduce__(self):
        """Pickled by name: Numba caches a closure (core/rollout_decider.py's) under the pickle of what it closes
        over, and its own pickle of a dispatcher holds an id drawn anew in every process (each process would
        compile the closure again and add a cache file)."""
        return _named, (self.py_func.__module__, self.py_func.__qualname__)


def _named(module: str, qualname: str):
    """The block `module.qualname` (a module-level one: no other is pickled)."""
    found = importlib.import_module(module)
    for name in qualname.split("."):
        found = getattr(found, name)
    return found


def closable(function: Callable) -> bool:
    """Whether a compiled closure over `function` is found in the cache by the next process: a block, or a plain
    function (with NUMBA_DISABLE_JIT); not another dispatcher (see _Block.__reduce__)."""
    return isinstance(function, _Block) or not isinstance(function, CPUDispatcher)


def _python_twin(function: Callable, options: dict) -> CPUDispatcher:
    """`function` compiled with a Python entry point; a copy under another qualified name, so that its cache
    files are not the block's."""
    twin = pytypes.FunctionType(function.__code__, function.__globals__, function.__name__, function.__defaults__,
                                function.__closure__)
    twin.__kwdefaults__ = function.__kwdefaults__
    twin.__module__ = function.__module__
    twin.__qualname__ = f"{function.__qualname__}.from_python"
    return nb.njit(cache=True, no_cfunc_wrapper=True, **options)(twin)


def block(python_entry: bool = False, **options) -> Callable:
    """`nb.njit(cache=True, **options)` for a kernel's compiled function, typed and wrapped as the module says
    (python_entry: with the Python entry point, for a block stepped from Python too). Inline ones (never compiled on
    their own) are plain `nb.njit`, but for those a rollout decider closes over (`@block(inline="always")`: see
    closable)."""

    def declare(function):
        dispatcher = nb.njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=not python_entry,
                             **options)(function)
        if isinstance(dispatcher, CPUDispatcher):  # not with NUMBA_DISABLE_JIT (a plain function then)
            dispatcher.__class__ = _Block
            dispatcher._block_options = options
            dispatcher._python_entry = python_entry
        return dispatcher

    return declare
