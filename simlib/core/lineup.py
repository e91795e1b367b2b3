"""The seats' policies as a kernel takes them, and their parameters read by name.

A policy's parameters reach a kernel as a row of floats in the order of its catalogue entry
(`PolicyInfo.params`). That order is turned into positions here and nowhere else: `lineup` fills the rows by
it, and `parameter_index` gives the kernels the same positions by name, so that no kernel spells one:

    PARAMS = parameter_index(POLICIES)  # in the game's policies.py
    margin = lineup.params[seat, PARAMS.cautious.break_margin]  # in a kernel: a constant, as a literal 1 was

`PARAMS` is a NamedTuple (by policy) of NamedTuples (by parameter) of ints: Numba reads a global tuple as a
constant, so an index costs nothing. A parameter that several policies share and one kernel line reads for
any of them (epsilon for every scripted policy) is read at `shared_position(POLICIES, "epsilon")`, which makes
sure it sits at the same place in each.
"""

from __future__ import annotations

from collections import namedtuple
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

if TYPE_CHECKING:
    from .config import PolicyInfo, RunConfig


class Lineup(NamedTuple):
    """The seats' policies, as a kernel takes them."""

    codes: np.ndarray     # [seat] the policy's code (PolicyInfo.code)
    params: np.ndarray    # [seat, position] the seat's parameters, read at parameter_index's positions
    defaults: np.ndarray  # [code, position] every policy's defaults (how a search's rollouts play a base policy)


def _positions(info: PolicyInfo) -> dict[str, int]:
    """The one place a parameter's name becomes its position: catalogue order."""
    return {name: i for i, name in enumerate(info.params)}


def lineup(config: RunConfig, catalogue: dict[str, PolicyInfo]) -> Lineup:
    """`config`'s seats as a Lineup; every row as wide as the catalogue's longest list of parameters."""
    width = max([1, *(len(info.params) for info in catalogue.values())])
    infos = [catalogue[spec.name] for spec in config.policies]
    params = np.zeros((len(infos), width))
    for seat, (info, spec) in enumerate(zip(infos, config.policies)):
        values = dict(spec.params)
        for name, i in _positions(info).items():
            params[seat, i] = values[name]
    defaults = np.zeros((max(info.code for info in catalogue.values()) + 1, width))
    for info in catalogue.values():
        for name, i in _positions(info).items():
            defaults[info.code, i] = info.params[name]
    return Lineup(np.array([info.code for info in infos], np.int64), params, defaults)


def parameter_index(catalogue: dict[str, PolicyInfo]) -> tuple:
    """By policy name, by parameter name: the parameter's position in its policy's row (see the module)."""
    by_policy = {name: namedtuple(f"{name}_parameters", list(info.params))(**_positions(info))
                 for name, info in catalogue.items()}
    return namedtuple("parameters", list(by_policy))(**by_policy)


def shared_position(catalogue: dict[str, PolicyInfo], name: str) -> int:
    """The position of parameter `name` in every policy of the catalogue that has it: for a kernel line that reads
    it whichever of them plays. Raises where it has none or more than one."""
    found = {_positions(info)[name] for info in catalogue.values() if name in info.params}
    if len(found) != 1:
        raise ValueError(f"parameter {name} sits at positions {sorted(found)}: a shared read needs exactly one")
    return found.pop()
