"""Set-ups in words: how a label says a line-up of policies and the rule options that differ from the defaults,
from the game's `setup_options` phrases. pipelines/shared/mart_run_setups.py labels every run with them, the
What-if page names its variants with them, and a run's progress bar and `simlib batch` say its set-up with them
(simlib/core/summary.py): so they are in the core."""

from __future__ import annotations


def option_text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def changed_options(game, options: dict, one_policy: bool) -> dict[str, object]:
    """The options of a run that differ from the game's defaults and can change a play, in parameter order;
    a data file's hash (`*_id`) stands for its text (`*_text`, `deck_cards`: not compared)."""
    params = game.parameters()
    defaults = _defaults(game)
    return {name: options[name] for name, p in params.items()
            if name in options and options[name] != defaults.get(name)
            and (not p.derived or name.endswith("_id"))
            and not (one_policy and name in game.match_parameters)}


_DEFAULTS: dict[str, dict] = {}


def _defaults(game) -> dict:
    if game.name not in _DEFAULTS:
        _DEFAULTS[game.name] = game.resolve_options({n: p.default for n, p in game.parameters().items()})
    return _DEFAULTS[game.name]


def phrase(game, name: str, value) -> str:
    """How a label says one option's value: the game's phrase (a dict's "*" is for any other value), or the
    option's name and value."""
    text = game.setup_options.get(name, f"{name.replace('_', ' ')} {{}}")
    if isinstance(text, dict):
        text = text.get(option_text(value), text.get("*", f"{name.replace('_', ' ')} {{}}"))
    return text.format(option_text(value))


def options_label(game, changed: dict) -> str:
    plain = [n for n in changed if not n.endswith("_id")]
    words = [phrase(game, n, changed[n]) for n in plain]
    if len(plain) < len(changed) and not plain:
        words.append("data files edited")
    return ", ".join(words)


def spec_words(game, spec: str) -> str:
    """`hollow:builder_hollow=0.5:epsilon=0.1` as `hollow (builder_hollow=0.5)`: the parameters that differ from
    the policy's defaults."""
    name, *pairs = spec.split(":")
    defaults = game.policies()[name].params
    changed = [pair for pair in pairs if float(pair.partition("=")[2]) != defaults.get(pair.partition("=")[0])]
    return f"{name} ({', '.join(changed)})" if changed else name


def distinct_labels(specs: list[str]) -> list[str]:
    """Each spec's policy name, with the parameters in which it differs from another of the specs with that name:
    ['random', 'search (budget=16)', 'search (budget=64)'] (a figure's axis, where one policy has several rows)."""
    parsed = [(spec.split(":")[0], dict(p.split("=") for p in spec.split(":")[1:])) for spec in specs]
    labels = []
    for name, params in parsed:
        others = [q for n, q in parsed if n == name and q != params]
        differ = [f"{k}={v}" for k, v in params.items() if any(q.get(k) != v for q in others)]
        labels.append(f"{name} ({', '.join(differ)})" if differ else name)
    return labels


def lineup_label(game, players: int, kind: str, specs: list[str], lineup: dict) -> str:
    """'4 random players', 'greedy in seat 0 against 3 random', '3 players: greedy, climber, random'."""
    if kind == "one_policy":
        return f"{players} {spec_words(game, specs[0])} players"
    if kind == "one_vs_field":
        return (f"{spec_words(game, lineup['focal_spec'])} in seat {lineup['focal_seat']} against {players - 1} "
                f"{spec_words(game, lineup['field_spec'])}")
    return f"{players} players: " + ", ".join(spec_words(game, s) for s in specs)


def table_words(game, specs: list[str]) -> str:
    """A table's policies by seat in words, as lineup_label says them."""
    distinct = sorted(set(specs), key=specs.index)
    if len(distinct) == 1:
        return lineup_label(game, len(specs), "one_policy", specs, {})
    field = max(distinct, key=specs.count)
    if len(distinct) == 2 and specs.count(field) == len(specs) - 1:
        focal = next(s for s in distinct if s != field)
        return lineup_label(game, len(specs), "one_vs_field", specs,
                            {"focal_spec": focal, "field_spec": field, "focal_seat": specs.index(focal)})
    return lineup_label(game, len(specs), "mixed", specs, {})
