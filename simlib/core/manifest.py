"""A run's manifest, and the audit of a lake against its runs' manifests.

When a run completes, its runs row records every part file it wrote: for each part its plays and, per table,
the file's rows, bytes and SHA-256. The row is one file written whole, so the manifest and the status
`complete` arrive together. A run counts (in the pipeline, in `simlib sql`, in `simlib.connect()`) only while
its folders hold exactly the files of its manifest at their recorded sizes: a part missing, added, truncated
or replaced shows as one line naming the files, and the run is left out rather than miscounted. `simlib check`
also compares every file's checksum and rows (a foreign part of the same size), and `simlib check --mend`
re-simulates what is wrong: a play's rows depend only on the seed, its index and the configuration, so the
mended parts equal the lost ones.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import PurePosixPath

import pyarrow as pa
import pyarrow.parquet as pq

from .lake import Lake
from .schemas import SHARED_TABLES

# Tables whose files are records (the run's row; a sweep, a tune, a screening), not parts of a run.
RECORD_TABLES = frozenset(SHARED_TABLES)
UNREADABLE = "unreadable"  # a runs row that cannot be read: its run's configuration is lost


def checksum(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_entry(rows: int, data: bytes) -> dict:
    """A part file's manifest entry, from the bytes written."""
    return {"rows": rows, "bytes": len(data), "sha256": checksum(data)}


def describe_file(lake: Lake, path: str) -> dict | None:
    """A part file's manifest entry, from the lake; None for a file that is not whole Parquet."""
    try:
        data = lake.fs.cat_file(path)
        rows = pq.ParquetFile(pa.BufferReader(data)).metadata.num_rows
    except Exception:  # noqa: BLE001 - a damaged file, whatever the reader says: not a part
        return None
    return file_entry(rows, data)


def manifest_json(parts: Iterable[dict]) -> str:
    """The runs row's `manifest`: parts in order, each {part, first_play, plays, files: {table: entry}}."""
    return json.dumps({"parts": sorted(parts, key=lambda p: p["part"])}, sort_keys=True)


def expected_files(manifest: str) -> dict[str, dict]:
    """`<table>/part-NNNNN.parquet` -> entry, for every file a manifest names."""
    files = {}
    for part in json.loads(manifest)["parts"]:
        for table, entry in part["files"].items():
            files[f"{table}/part-{part['part']:05d}.parquet"] = entry
    return files


@dataclass
class RunFiles:
    """What the lake holds of one run: its runs row (None for an orphan) and its part files' sizes."""

    game: str
    run_id: str
    row: dict | None = None
    sizes: dict[str, int] = field(default_factory=dict)  # `<table>/part-NNNNN.parquet` -> bytes
    paths: dict[str, str] = field(default_factory=dict)  # the same key -> path in the lake
    row_path: str | None = None  # its runs row's file
    records: list[str] = field(default_factory=list)  # files of RECORD_TABLES kept under its run id (a sweep's)


@dataclass
class Audit:
    """A lake's runs sorted out: those that count, and a line for each that does not."""

    verified: list[tuple[str, str]]
    damaged: dict[tuple[str, str], str]  # complete, but its files do not match its manifest
    incomplete: dict[tuple[str, str], str]  # running, interrupted or failed
    orphans: dict[tuple[str, str], str]  # part files with no runs row
    runs: dict[tuple[str, str], RunFiles]

    @property
    def problems(self) -> list[str]:
        return [*self.damaged.values(), *self.orphans.values()]

    def files(self) -> dict[tuple[str, str], list[str]]:
        """(game, table) -> the verified runs' part files (paths in the lake), sorted: what the views read."""
        found: dict[tuple[str, str], list[str]] = {}
        for key in self.verified:
            run = self.runs[key]
            found.setdefault((run.game, "runs"), []).append(run.row_path)
            for name, path in run.paths.items():
                found.setdefault((run.game, name.split("/")[0]), []).append(path)
            for path in run.records:
                found.setdefault((run.game, PurePosixPath(path).parts[-4]), []).append(path)
        return {key: sorted(paths) for key, paths in found.items()}

    def rows(self) -> list[dict]:
        """The verified runs' runs rows, each with its game and run_id."""
        return [self.runs[key].row | {"game": key[0], "run_id": key[1]} for key in self.verified]


def run_files(lake: Lake, game: str, run_id: str) -> RunFiles:
    """One run's part files in every table (not its runs row), with their sizes: a listing of the lake's top
    folder, then of the run's folder in each table (a glob from the top would walk the whole lake)."""
    run = RunFiles(game, run_id)
    try:
        tops = lake.fs.ls(lake.root, detail=False)
    except FileNotFoundError:  # a new lake on an object store: no prefix until a first file
        return run
    for top in tops:
        table = PurePosixPath(top).name
        if table in RECORD_TABLES or table.startswith("."):
            continue
        try:
            found = lake.fs.ls(f"{top}/game={game}/run_id={run_id}", detail=True)
        except FileNotFoundError:
            continue
        for info in found:
            name = PurePosixPath(info["name"]).name
            if name.startswith("part-") and name.endswith(".parquet"):
                run.sizes[f"{table}/{name}"], run.paths[f"{table}/{name}"] = info["size"], info["name"]
    return run


def list_runs(lake: Lake) -> dict[tuple[str, str], RunFiles]:
    """Every run folder of the lake, from one listing: part files with their sizes, and each run's runs row."""
    found: dict[tuple[str, str], RunFiles] = {}
    records: dict[tuple[str, str], list[str]] = {}
    prefix = lake.root + "/"
    listing = lake.fs.find(lake.root, detail=True) if lake.fs.isdir(lake.root) else {}
    for path, info in listing.items():
        parts = PurePosixPath(path.removeprefix(prefix)).parts
        if len(parts) != 4 or not parts[3].endswith(".parquet") or parts[3].startswith("."):
            continue
        table, name = parts[0], parts[3]
        key = (parts[1].partition("=")[2], parts[2].partition("=")[2])
        if table in RECORD_TABLES - {"runs"}:
            records.setdefault(key, []).append(path)
        elif name.startswith("part-"):
            run = found.setdefault(key, RunFiles(*key))
            if table == "runs":
                run.row_path = path
            else:
                run.sizes[f"{table}/{name}"], run.paths[f"{table}/{name}"] = info["size"], path
    for key, run in found.items():
        run.records = sorted(records.get(key, []))
        if run.row_path is not None:
            run.row = _read_row(lake, run.row_path)
    return found


def _read_row(lake: Lake, path: str) -> dict:
    """A runs row without its times: reading a time zone costs a second at first use, which every `simlib sql`
    would pay (and an old row without a manifest column reads as one with none)."""
    try:
        with lake.fs.open(path, "rb") as handle:
            table = pq.ParquetFile(handle)
            wanted = [c for c in table.schema_arrow.names if c not in ("started_at", "ended_at")]
            return {"manifest": None} | table.read(columns=wanted).to_pylist()[0]
    except Exception:  # noqa: BLE001 - a damaged runs file: the run cannot be trusted, nor mended from it
        return {"status": UNREADABLE, "manifest": None}


NO_MANIFEST = "no manifest (written before simlib recorded one)"


def mismatches(run: RunFiles, lake: Lake | None = None) -> list[str]:
    """What is wrong with a complete run's files against its manifest (sizes; with `lake`, checksums and rows
    too), as `<table>/part-NNNNN.parquet: what` texts; empty when they match."""
    manifest = (run.row or {}).get("manifest")
    if not manifest:
        return [NO_MANIFEST]
    parts = json.loads(manifest)["parts"]
    if sum(p["plays"] for p in parts) != run.row["plays"] or any(
            p["files"]["games"]["rows"] != p["plays"] for p in parts if "games" in p["files"]):
        return ["its manifest does not add up to its plays"]
    wanted = expected_files(manifest)
    wrong = [f"{name}: missing" for name in sorted(set(wanted) - set(run.sizes))]
    wrong += [f"{name}: not in the manifest" for name in sorted(set(run.sizes) - set(wanted))]
    for name in sorted(set(wanted) & set(run.sizes)):
        entry = wanted[name]
        if run.sizes[name] != entry["bytes"]:
            wrong.append(f"{name}: {run.sizes[name]:,} bytes, not {entry['bytes']:,}")
        elif lake is not None and describe_file(lake, run.paths[name]) != entry:
            wrong.append(f"{name}: its contents differ from the manifest's checksum")
    return wrong


def audit(lake: Lake, deep: bool = False) -> Audit:
    """Sort every run of the lake into verified, damaged, incomplete and orphaned; `deep` reads every file to
    compare checksums (`simlib check`), otherwise sizes from the listing are compared (every query and build)."""
    runs = list_runs(lake)
    verified, damaged, incomplete, orphans = [], {}, {}, {}
    for key, run in sorted(runs.items()):
        game, run_id = key
        if run.row is None or run.row["status"] == UNREADABLE:
            folders = sorted({name.split("/")[0] for name in run.sizes})
            row = "no runs row" if run.row is None else "an unreadable runs row"
            orphans[key] = (f"run {run_id} of {game}: {len(run.sizes)} part files ({', '.join(folders)}) but {row}; "
                            f"its configuration is lost: remove its folders, or simulate the run again")
            continue
        status = run.row.get("status")
        if status != "complete":
            incomplete[key] = f"run {run_id} of {game}: {status}"
            continue
        wrong = mismatches(run, lake if deep else None)
        if wrong == [NO_MANIFEST]:
            damaged[key] = f"run {run_id} of {game} left out: {NO_MANIFEST} (simlib check --mend records it)"
        elif wrong:
            shown = "; ".join(wrong[:3]) + (f"; and {len(wrong) - 3} more" if len(wrong) > 3 else "")
            damaged[key] = f"run {run_id} of {game} left out: {shown} (simlib check --mend re-simulates it)"
        else:
            verified.append(key)
    return Audit(verified, damaged, incomplete, orphans, runs)
