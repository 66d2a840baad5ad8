"""Watching the content (and layout) folders: every save becomes a studio update and an event.

``watchfiles`` reports a burst of file events (an editor's temporary file, the rename over
the old one) as one set once the folder has been quiet for ``STEP_MS``; the studio applies the
set (:meth:`cardgen.studio.state.Studio.apply`) and the server sends the change to every open
page.  A failure while applying (a bug, not a content error: those are shown in the page) is
kept on the studio for the pages to show, and the watcher goes on.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

from cardgen.studio.state import Studio

STEP_MS = 30  # quiet time that ends a burst of events
DEBOUNCE_MS = 300  # longest wait before a burst that keeps going is applied anyway


class Watcher(threading.Thread):
    def __init__(self, studio: Studio, notify: Callable[[dict], None], folders: list[Path]):
        super().__init__(name="cardgen-studio-watcher", daemon=True)
        self.studio = studio
        self.notify = notify
        self.folders = [folder for folder in dict.fromkeys(folders) if folder.is_dir()]
        self.stop_event = threading.Event()
        self.ready = threading.Event()

    def run(self) -> None:
        from watchfiles import DefaultFilter, watch

        watching = watch(*self.folders, watch_filter=DefaultFilter(), debounce=DEBOUNCE_MS, step=STEP_MS,
                         stop_event=self.stop_event, raise_interrupt=False, yield_on_timeout=True,
                         rust_timeout=200)
        for changes in watching:
            self.ready.set()  # the first (empty) timeout: the watch is in place
            if not changes:
                continue
            try:
                event = self.studio.apply(Path(path) for _, path in changes)
                self.studio.failure = None
            except Exception as error:  # noqa: BLE001 - a bug must not stop the studio
                self.studio.failure = f"{type(error).__name__}: {error}"
                event = {"version": self.studio.version, "games": [], "changed": {}}
            self.notify(event)

    def stop(self) -> None:
        self.stop_event.set()
        self.join(timeout=5)
