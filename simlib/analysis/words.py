"""The report's words: one way to write a value, an interval, a count and a sentence, on every page.

`pct`, `number`, `interval` (one format: "28.7% to 29.1%"), `ci` (a row's value with its interval:
"20.0% (19.3% to 20.7%)"), `span` (a range of values), `p_text`, `count` ("1 run", "3 runs"), `sentence` (parts
joined, capitalised, "" for none). A table's columns may be given as words: "setup_label seat win_rate±"
(`column_list`: "x±" stands for x, x_lo and x_hi)."""

from __future__ import annotations

from collections.abc import Callable


def pct(x: float | None, digits: int = 1) -> str:
    return "–" if x is None else f"{100 * x:.{digits}f}%"


def signed(x: float, digits: int = 1) -> str:
    """x with its sign, rounded; a value that rounds to zero reads +0.0, not -0.0."""
    return f"{round(x, digits) + 0.0:+.{digits}f}"


def number(x: float | None, digits: int = 2) -> str:
    return "–" if x is None else f"{x:,.{digits}f}"


MAX_DIGITS = 4  # decimals an interval may add to show its width (beyond: its ends are equal to the eye)


def digits_apart(lo: float, hi: float, say: Callable[[float, int], str], digits: int) -> int:
    """The fewest decimals from `digits` up at which the ends print apart (an interval never reads "3.6 to 3.6")."""
    while say(lo, digits) == say(hi, digits) and digits < MAX_DIGITS and lo != hi:
        digits += 1
    return digits


def interval(lo: float | None, hi: float | None, as_pct: bool = True, digits: int | None = None) -> str:
    """A 95% interval's ends, the one way the report writes them: "28.7% to 29.1%", "-1.95 to -1.94", with as many
    more decimals as its ends need to print apart; "exactly 8.00" where the ends are equal (nothing varied)."""
    if lo is None or hi is None:
        return "–"
    say = pct if as_pct else number
    digits = digits_apart(lo, hi, say, 1 if as_pct and digits is None else 2 if digits is None else digits)
    if say(lo, digits) == say(hi, digits):
        return f"exactly {say(lo, digits)}"
    return f"{say(lo, digits)} to {say(hi, digits)}"


def ci(row: dict, column: str, as_pct: bool = True, digits: int | None = None, where: str = "") -> str:
    """A row's value of `column` and its 95% interval (`column`_lo to `column`_hi): "20.0% (19.3% to 20.7%)",
    "2.41 (2.35 to 2.47)", the value with as many decimals as the interval's ends need; `where` is said inside the
    brackets: "82.1% (79.6% to 84.6%, city grain)"."""
    say = pct if as_pct else number
    lo, hi = row[f"{column}_lo"], row[f"{column}_hi"]
    digits = 1 if as_pct and digits is None else 2 if digits is None else digits
    if lo is not None and hi is not None:
        digits = digits_apart(lo, hi, say, digits)
    return f"{say(row[column], digits)} ({interval(lo, hi, as_pct, digits)}{', ' + where if where else ''})"


def span(values, say: Callable[[float], str] = pct) -> str:
    """The range of `values` in words, `say` writing each end; one value when both ends read alike: "3.6% to 3.9%",
    "3.6%"."""
    low, high = say(min(values)), say(max(values))
    return low if low == high else f"{low} to {high}"


def p_text(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def count(n: int, noun: str, plural: str | None = None) -> str:
    """"no runs", "1 run", "3 runs", "12,000 plays"."""
    word = noun if n == 1 else (plural or f"{noun}s")
    return f"no {plural or noun + 's'}" if n == 0 else f"{n:,} {word}"


def sentence(*parts: str | None) -> str:
    """The parts that say something, joined into one sentence ("" when none does)."""
    said = [p for p in parts if p]
    if not said:
        return ""
    text = "; ".join(said)
    return text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")


def excludes(lo: float | None, hi: float | None, value: float = 0.0) -> bool:
    """The interval lies wholly on one side of `value` (a difference is significant at 95%)."""
    return lo is not None and hi is not None and (lo > value or hi < value)


def column_list(spec: str | list[str]) -> list[str]:
    """A table's columns from words, "x±" standing for x, x_lo and x_hi: "seat win_rate±" -> ["seat", "win_rate",
    "win_rate_lo", "win_rate_hi"] (a list is returned as it is)."""
    if not isinstance(spec, str):
        return list(spec)
    columns = []
    for word in spec.split():
        base = word.removesuffix("±")
        columns += [base, f"{base}_lo", f"{base}_hi"] if word.endswith("±") else [word]
    return columns
