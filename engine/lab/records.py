"""Per-game records of a playtest (``--records PATH``): one flat row per game, for a designer's notebook.

The format follows the file's suffix: ``.csv``, ``.jsonl`` (one JSON object a line) or ``.parquet``
(needs pyarrow).  Every row has the same columns, so ``pandas.read_csv`` / ``read_json(lines=True)``
/ ``read_parquet`` load it in one call, and the arms' rows pair up by ``seed``.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from engine.errors import TabletopError
from engine.extras import optional_import
from engine.load.safe_files import write_bytes, write_text

FORMATS = (".csv", ".jsonl", ".parquet")


class RecordsError(TabletopError):
    """A records file the lab cannot write."""


def check_records_path(path: str) -> str:
    """The format of ``path`` by its suffix; checked before any game is played, so no run is lost to a typo."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise RecordsError(f"--records {path}: the suffix says the format: one of {', '.join(FORMATS)}")
    if suffix == ".parquet":
        optional_import("pyarrow", "pyarrow", "--records … .parquet")
    return suffix


def record_rows(plan, games: list, tasks: list, records: list) -> list[dict]:
    """One flat row per played game (unplayed tasks of an interrupted run are left out), in task order."""
    rows = []
    for (a, role, seed, specs), rec in zip(tasks, records):
        if rec is None:
            continue
        arm = plan.arms[a]
        row: dict = {"arm": arm.label, "variant": arm.variant or "base", **dict(arm.settings)}
        if arm.without:
            row["without"] = ",".join(arm.without)
        row.update(role=role, seed=seed)
        row.update({f"bot_{s}": spec for s, spec in enumerate(specs)})
        finished = rec["error"] is None and not rec["cut_off"]
        results = rec.get("results") or [None] * plan.players
        scores = rec.get("scores") or [None] * plan.players
        row.update({f"result_{s}": x for s, x in enumerate(results)})
        row.update({f"score_{s}": x for s, x in enumerate(scores)})
        row["winners"] = " ".join(str(s) for s, x in enumerate(results) if x == "win") if finished else None
        row.update({k: rec[k] for k in ("decisions", "turns", "rounds")})
        row.update(end_reason=rec.get("reason"), cut_off=rec["cut_off"], error=rec["error"])
        for stat in games[a].stats:
            kind = bool if stat.is_flag else _same  # a yes/no counter reads True/False in the notebook
            value = rec["stats"][stat.id] if finished else None
            if stat.per_seat:
                row.update({f"stat_{stat.id}_{s}": kind(value[s]) if value else None for s in range(plan.players)})
            else:
                row[f"stat_{stat.id}"] = None if value is None else kind(value)
        rows.append(row)
    return rows


def _same(value):
    return value


def write_records(path: str, rows: list[dict]) -> None:
    """Write ``rows`` in the format ``path``'s suffix names."""
    suffix = check_records_path(path)
    columns = list(dict.fromkeys(k for row in rows for k in row))  # every row gets every column
    if suffix == ".jsonl":
        write_text(path, "".join(json.dumps({k: row.get(k) for k in columns}) + "\n" for row in rows))
    elif suffix == ".csv":
        buf = io.StringIO()
        writer = csv.DictWriter(buf, columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        write_text(path, buf.getvalue())
    else:
        pa = optional_import("pyarrow", "pyarrow", "--records … .parquet")
        parquet = optional_import("pyarrow.parquet", "pyarrow", "--records … .parquet")
        sink = pa.BufferOutputStream()
        parquet.write_table(pa.Table.from_pylist([{k: row.get(k) for k in columns} for row in rows]), sink)
        write_bytes(path, sink.getvalue().to_pybytes())
