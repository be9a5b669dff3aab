"""How much memory a piece of a test took, without slowing it: the process's resident size."""

from __future__ import annotations

import os
import threading


class ResidentMemory:
    """The process's resident memory, sampled from /proc every 5 ms: the most above the start."""

    PAGE = os.sysconf("SC_PAGE_SIZE")

    def __init__(self):
        self.start = self.peak = self._now()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _now(self) -> int:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * self.PAGE

    def _sample(self) -> None:
        while not self._stop.wait(0.005):
            self.peak = max(self.peak, self._now())

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    @property
    def growth(self) -> int:
        return self.peak - self.start
