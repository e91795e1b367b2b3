"""Catan's scripted policies (issue 5 asks for random, weighted and builder; random so far)."""

from ...core.game import PolicyInfo

RANDOM = 0

POLICIES = {
    "random": PolicyInfo("random", RANDOM,
                         "Uniform over all legal actions at every decision, ending the turn included (the usual "
                         "reference bot); uniform placements, discards, robber hexes and victims."),
}
