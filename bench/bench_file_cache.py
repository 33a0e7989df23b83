"""The embedded default's cache (``make run`` without Redis): what one write costs as its
folder fills through an evening, Django's file cache against ``config.cache.FileCache``.

Django's ``FileBasedCache`` lists the whole folder before every write to see whether it must
cull; expired files leave only when read, so a long evening's folder holds thousands (every
room's documents per change and language, every phone's seat block and tokens). Our
``FileCache`` looks at most once a minute per process. Printed: the median ms of a write
(a 4 KB seat block) with 500, 5,000 and 20,000 files in the folder, each class, and the
ratio. Goal: ours does not grow with the folder (within 2× from 500 to 20,000 files).

Needs no database: the caches are made directly on a throwaway folder.
"""

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.core.cache.backends.filebased import FileBasedCache  # noqa: E402

from config.cache import FileCache  # noqa: E402

SIZES = (500, 5_000, 20_000)
WRITES = 200
BLOCK = "x" * 4096  # about a seat block's HTML


def write_ms(cls, folder: str) -> float:
    """The median ms of a write into ``folder`` (already filled), a process's first write
    (which looks at the folder) excluded."""
    cache = cls(folder, {"OPTIONS": {"MAX_ENTRIES": 100_000}})
    cache.set("first", BLOCK)
    times = []
    for i in range(WRITES):
        began = time.perf_counter()
        cache.set(f"block:{i % 20}", BLOCK)
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def main() -> int:
    print(f"== a write of a 4 KB entry, median of {WRITES}, by the number of files in the folder")
    print(f"{'files':>8} {'Django FileBasedCache':>22} {'config.cache.FileCache':>23} {'ratio':>7}")
    ours_first = ours_last = None
    for files in SIZES:
        row = []
        for cls in (FileBasedCache, FileCache):
            folder = tempfile.mkdtemp(prefix="bench-file-cache-")
            try:
                # Filling the folder goes through our class (Django's would cost as much
                # again as it measures).
                filler = FileCache(folder, {"OPTIONS": {"MAX_ENTRIES": 100_000}})
                for i in range(files):
                    filler.set(f"fill:{i}", BLOCK)
                row.append(write_ms(cls, folder))
            finally:
                shutil.rmtree(folder, ignore_errors=True)
        django_ms, ours_ms = row
        ours_first = ours_ms if ours_first is None else ours_first
        ours_last = ours_ms
        print(f"{files:>8} {django_ms:>19.2f} ms {ours_ms:>20.2f} ms {django_ms / ours_ms:>6.1f}×")
    grows = ours_last / ours_first
    ok = grows <= 2.0
    print(
        f"{'PASS' if ok else 'FAIL'}  FileCache's write from {SIZES[0]:,} to {SIZES[-1]:,} files:"
        f" {grows:.2f}× (goal ≤ 2×)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
