"""The report as a reader's browser shows it: the index and every page in headless Chromium at 1280 px.

Checked per page: the page itself does not scroll sideways (a wide table scrolls inside its `div.wide`), every
image loaded, every link resolves (a file in the report, an anchor that names an id on its page), and no label
(heading, caption, summary, definition, list item, a table row's first cell) shows a run-id-like hash. Text
inside figures is checked where it is drawn: the report warns on stderr of every text box that overlaps another
or reads below 9 pt (simlib/analysis/page.py, `Figure.problems`), and this test asserts it warned of none.

A full-page screenshot of each page goes to $SIMLIB_SCREENSHOTS (default: the test's tmp dir) for a look by eye.
Needs Debian's chromium and chromium-driver (`make install-dev` installs them); without them the test fails.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from simlib.analysis.pipeline import build
from simlib.analysis.report import build_report
from simlib.cli import main

from support.browser import chromium
from support.digests import small_lake

WIDTH, HEIGHT, MAX_SHOT_HEIGHT = 1280, 900, 16000

# A run-id-like hash: '#f3f231', or a token of 6+ hex digits that mixes digits and letters.
HASH = re.compile(r"#[0-9a-f]{6,}\b|\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{6,}\b", re.IGNORECASE)

# What the browser reports of a page, in one call (texts are what the reader sees: innerText).
FACTS_JS = """
const text = e => (e.innerText || e.textContent || '').trim();
const labels = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6, figcaption, summary, dt, dd, li')]
    .map(e => ({what: e.tagName.toLowerCase(), text: text(e)}));
for (const table of document.querySelectorAll('table')) {
    const header = table.querySelector('thead th, thead td');
    if (header && /run\\s*id/i.test(text(header))) continue;  // run ids belong in a 'run id' column
    for (const row of table.querySelectorAll('tbody tr')) {
        if (row.cells.length) labels.push({what: 'first cell of a table row', text: text(row.cells[0])});
    }
}
return {
    scroll_width: document.documentElement.scrollWidth,
    inner_width: window.innerWidth,
    height: Math.max(document.body.scrollHeight, document.documentElement.scrollHeight),
    chrome_height: window.outerHeight - window.innerHeight,  // the window's own bars: not page
    images: [...document.images].map(i => ({alt: i.alt, src: i.getAttribute('src').slice(0, 40),
                                            complete: i.complete, natural_width: i.naturalWidth})),
    links: [...document.querySelectorAll('a[href]')].map(a => ({href: a.getAttribute('href'), text: text(a)})),
    ids: [...document.querySelectorAll('[id]')].map(e => e.id),
    labels: labels,
};
"""


@dataclass
class Report:
    out: Path                          # index.html and the pages
    stderr: str = field(repr=False)    # what build_report wrote on stderr: its warnings


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Report:
    """A small report of every game, drawn in this process (workers=1) so that its figure warnings are caught."""
    root = tmp_path_factory.mktemp("browser")
    lake, marts = small_lake(tmp_path_factory, root / "data")
    # A sweep too, so that the What-if page is drawn and checked (the lake's marts are built again over it).
    assert main(["sweep", "mauer", "--vary", "penalty_tower=12", "--players", "4", "--policies", "random",
                 "--plays", "300", "--lake", str(lake), "--no-report", "--quiet"]) == 0
    assert build(lake, marts, root / "data" / "simlib.duckdb").test_failures == []
    with contextlib.redirect_stderr(io.StringIO()) as stderr:
        build_report(lake, marts, root / "report", workers=1)
    return Report(root / "report", stderr.getvalue())


@pytest.fixture(scope="module")
def browser():
    with chromium(WIDTH, HEIGHT) as driver:
        yield driver


@pytest.fixture(scope="module")
def pages(report, browser, tmp_path_factory) -> dict[str, dict]:
    """Every page of the report opened at 1280 px: what the browser reports of it, by file name. Each page's
    full-length screenshot is saved on the way."""
    shots = Path(os.environ.get("SIMLIB_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    shots.mkdir(parents=True, exist_ok=True)
    facts = {}
    for path in sorted(report.out.glob("*.html")):
        browser.set_window_size(WIDTH, HEIGHT)
        browser.get(path.as_uri())
        facts[path.name] = browser.execute_script(FACTS_JS)
        page = facts[path.name]
        browser.set_window_size(WIDTH, min(page["height"], MAX_SHOT_HEIGHT) + page["chrome_height"])
        browser.save_screenshot(str(shots / f"{path.stem}.png"))
    print(f"screenshots of {len(facts)} pages in {shots}")
    return facts


def test_every_page_is_checked(report, pages):
    assert {"index.html", "whatif.html", "mauer.html"} <= set(pages), f"pages found in {report.out}: {sorted(pages)}"
    linked = {urlsplit(link["href"]).path for link in pages["index.html"]["links"]}
    unlinked = sorted(set(pages) - linked - {"index.html"})
    assert not unlinked, f"index.html links to no page {unlinked}"


def test_no_horizontal_overflow(pages):
    wide = [f"{name}: {p['scroll_width']} px wide in a {p['inner_width']} px window"
            for name, p in pages.items() if p["scroll_width"] > p["inner_width"]]
    assert not wide, "pages that scroll sideways at 1280 px:\n" + "\n".join(wide)


def test_every_image_loaded(pages):
    broken = [f"{name}: image {i['alt']!r} ({i['src']}...)" for name, p in pages.items() for i in p["images"]
              if not (i["complete"] and i["natural_width"] > 0)]
    assert not broken, "images that did not load:\n" + "\n".join(broken)


def _link_problem(page: str, href: str, pages: dict[str, dict]) -> str | None:
    """Why a link from `page` does not resolve, or None: a data: URI, a file of the report, an id on its page."""
    if href.startswith("data:"):
        return None
    url = urlsplit(href)
    if url.scheme or url.netloc:
        return "leads out of the report"
    target = unquote(url.path) or page
    if target not in pages:
        return f"{target} is not a page of the report"
    if url.fragment and unquote(url.fragment) not in pages[target]["ids"]:
        return f"no element with id {url.fragment!r} on {target}"
    return None


def test_every_link_resolves(pages):
    broken = [f"{name}: link {link['text'][:40]!r} to {link['href'][:80]!r}: {problem}"
              for name, p in pages.items() for link in p["links"]
              if (problem := _link_problem(name, link["href"], pages))]
    assert not broken, "links that do not resolve:\n" + "\n".join(broken)


def test_no_hash_in_labels(pages):
    hashed = [f"{name}: {label['what']} {label['text'][:100]!r} shows {HASH.search(label['text']).group()!r}"
              for name, p in pages.items() for label in p["labels"] if HASH.search(label["text"])]
    assert not hashed, "labels with a run-id-like hash (run ids belong in a 'run id' column):\n" + "\n".join(hashed)


def test_figure_text_does_not_overlap(report):
    warnings = [line for line in report.stderr.splitlines()
                if line.startswith("simlib: warning:") and " figure " in line]
    assert not warnings, "figure texts that overlap or read below 9 pt:\n" + "\n".join(warnings)
