"""The Parquet lake: `<root>/<table>/game=<name>/run_id=<id>/part-NNNNN.parquet`.

The root is a local folder or an object-store URL (`s3://bucket/prefix`, or any other fsspec URL): `Lake`
holds the file system and the root, and everything that lists, reads or writes the lake goes through it.
Every file is written whole: in a folder under a hidden temporary name, renamed when complete; on an object
store as one PUT of the whole object. So a reader (or a glob such as `**/*.parquet`) never sees a
half-written file, and an interrupted run keeps every part it finished.
"""

from __future__ import annotations

import glob
import os
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import fsspec
import pyarrow as pa
import pyarrow.parquet as pq
from fsspec.implementations.local import LocalFileSystem

from .errors import SimlibError
from .locks import hold


def described(name: str, type_: pa.DataType, doc: str, nullable: bool = False) -> pa.Field:
    """A schema field whose meaning travels with it (and into docs/lake.md)."""
    return pa.field(name, type_, nullable=nullable, metadata={"doc": doc})


# The generic contract: what every game's tables provide (checked for each registered game in the tests).
REQUIRED_COLUMNS = {
    "games": ("rules_version", "play_index", "players", "turns", "end_reason", "completed", "winners"),
    "seats": ("rules_version", "play_index", "seat", "policy", "policy_spec", "score", "rank", "winner"),
}

PARTITION_DOCS = {
    "game": "Hive partition: the game's registry name.",
    "run_id": "Hive partition: the run's id, a hash of its configuration, rules and simlib version.",
}


def part_name(table: str, game: str, run_id: str, part: int) -> str:
    """A part file's path inside the lake."""
    return f"{table}/game={game}/run_id={run_id}/part-{part:05d}.parquet"


def part_path(root: Path, table: str, game: str, run_id: str, part: int) -> Path:
    return root / part_name(table, game, run_id, part)


def parquet_bytes(table: pa.Table) -> bytes:
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue().to_pybytes()


def write_bytes_atomic(data: bytes, path: Path) -> None:
    """Write a file whole into its folder: under a temporary name no other process uses, renamed when complete.
    A full disk, a missing folder or any other I/O error is one line naming the file, and leaves nothing."""
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:12]}.tmp")
    try:
        with open(tmp, "wb") as sink:
            sink.write(data)
        os.replace(tmp, path)
    except OSError as exc:
        raise SimlibError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        with suppress(OSError):
            tmp.unlink(missing_ok=True)


def check_writable_folder(folder: Path, what: str) -> None:
    """Fail early, before minutes of work, when `what` cannot be written into `folder` (one line)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".probe-"):
            pass
    except OSError as exc:
        raise SimlibError(f"{what} is not writable: {exc.strerror or exc}") from None


def write_atomic(table: pa.Table, path: Path) -> None:
    """A Parquet file written whole, its folder made if need be (a lake's new partition, a cache's new key)."""
    _make_folder(path)
    write_bytes_atomic(parquet_bytes(table), path)


def _make_folder(path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SimlibError(f"cannot write {path}: {exc.strerror or exc}") from None


@dataclass(frozen=True)
class Lake:
    """Where the lake lives: an fsspec file system and the root inside it. Paths are the file system's own
    (an absolute path locally, `bucket/prefix/...` on S3); `url` turns one into what DuckDB and Polars read.
    Picklable, so worker processes and Dask workers write to the same place."""

    fs: fsspec.AbstractFileSystem
    root: str
    location: str  # as the user gave it, for messages

    @classmethod
    def at(cls, location: str | Path | Lake) -> Lake:
        """The lake at a folder or URL. Listings are never cached: parts appear as other processes and
        machines write them, and a stale listing would skip or redo them."""
        if isinstance(location, Lake):
            return location
        try:
            fs, root = fsspec.url_to_fs(str(location), use_listings_cache=False)
        except ImportError as exc:  # fsspec names the package that reads such URLs (s3fs for s3://)
            raise SimlibError(f"lake {location}: {exc} (for s3://, pip install 'simlib[s3]')") from None
        except ValueError as exc:
            raise SimlibError(f"lake {location}: {exc}") from None
        return cls(fs, root.rstrip("/"), str(location))

    def __str__(self) -> str:
        return self.location

    def snapshot(self) -> Lake:
        """The same lake with its listings cached, for reading runs that are complete (their files no longer
        change): on an object store each folder is then listed once, not asked about file by file. A new copy
        each time, so a snapshot shows what is there when it is taken."""
        if self.is_local:
            return self
        options = self.fs.storage_options | {"use_listings_cache": True, "skip_instance_cache": True}
        return Lake(type(self.fs)(**options), self.root, self.location)

    @property
    def is_local(self) -> bool:
        return isinstance(self.fs, LocalFileSystem)

    @property
    def arrow_fs(self) -> fsspec.AbstractFileSystem | None:
        """The file system to hand pyarrow: None (its own, faster) for a local folder."""
        return None if self.is_local else self.fs

    def path(self, name: str = "") -> str:
        return f"{self.root}/{name}" if name else self.root

    def part_path(self, table: str, game: str, run_id: str, part: int) -> str:
        return self.path(part_name(table, game, run_id, part))

    def url(self, path: str) -> str:
        """What DuckDB and Polars read: the path locally, the full URL (`s3://...`) on an object store."""
        return path if self.is_local else self.fs.unstrip_protocol(path)

    def exists(self, path: str) -> bool:
        return self.fs.exists(path)

    def glob(self, pattern: str) -> list[str]:
        """The files matching `pattern` (relative to the root; the root's own characters match as they are),
        sorted: a listing, so the same on an object store."""
        return sorted(self.fs.glob(f"{glob.escape(self.root)}/{pattern}"))

    def remove(self, path: str) -> None:
        self.fs.rm_file(path)

    def read_table(self, path: str, columns: list[str] | None = None) -> pa.Table:
        return pq.read_table(path, columns=columns, filesystem=self.arrow_fs)

    def write_table(self, table: pa.Table, path: str) -> bytes:
        """Write a Parquet file whole: locally under a temporary name and renamed; elsewhere sent as one object
        (a PUT no reader sees half done; a failed write leaves nothing). Returns the bytes written."""
        data = parquet_bytes(table)
        if self.is_local:
            _make_folder(Path(path))
            write_bytes_atomic(data, Path(path))
            return data
        try:
            self.fs.pipe_file(path, data)
        except OSError as exc:
            raise SimlibError(f"cannot write {self.url(path)}: {exc}") from None
        return data

    def check_writable(self) -> None:
        """Fail early, before anything is written, when the lake cannot take files."""
        if self.is_local:
            check_writable_folder(Path(self.root), f"lake {self}")
            return
        probe = self.path(f".probe-{uuid.uuid4().hex}")
        try:
            self.fs.pipe_file(probe, b"")
            self.fs.rm_file(probe)
        except Exception as exc:  # whatever the store's client raises (no bucket, denied, unreachable)
            raise SimlibError(f"lake {self} is not writable: {type(exc).__name__}: {exc}") from None

    @contextmanager
    def lock(self, name: str, what: str) -> Iterator[None]:
        """Hold the lake's lock `name` (one writer per run) for the block, or leave with one line (locks.hold).
        An object store has no such lock: there, the manifest check is what catches a second writer's files
        (docs/scaling.md)."""
        if not self.is_local:
            yield
            return
        with hold(Path(self.root) / ".locks" / f"{name}.lock", what):
            yield

    def register(self, con) -> None:
        """Let a DuckDB connection read this lake. DuckDB reads an object store through the lake's own fsspec
        file system: its httpfs extension is downloaded at first use, which a machine without access to
        DuckDB's extension site cannot do (docs/scaling.md)."""
        if self.is_local:
            return
        protocol = self.fs.protocol if isinstance(self.fs.protocol, str) else self.fs.protocol[0]
        if protocol not in con.list_filesystems():  # DuckDB names a file system by its (first) protocol
            con.register_filesystem(self.fs)


def run_of(path: str) -> tuple[str, str]:
    """(game, run_id) of a part file's path."""
    folder = PurePosixPath(path).parent
    return folder.parent.name.removeprefix("game="), folder.name.removeprefix("run_id=")


def read_run(lake: Lake | Path | str, game: str, run_id: str) -> dict | None:
    """The runs row of a run, or None if the lake has no such run."""
    lake = Lake.at(lake)
    path = lake.part_path("runs", game, run_id, 0)
    if not lake.exists(path):
        return None
    return lake.read_table(path).to_pylist()[0]


def find_run(lake: Lake | Path | str, game: str, run_id: str) -> dict:
    row = read_run(lake, game, run_id)
    if row is None:
        raise SimlibError(f"no run {run_id!r} of {game} in lake {lake}")
    return row
