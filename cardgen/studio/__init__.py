"""``cardgen serve``: a local web studio that shows every card while you write it.

:mod:`~cardgen.studio.state` loads and plans the games and draws card pictures on demand,
:mod:`~cardgen.studio.pages` makes the HTML, :mod:`~cardgen.studio.server` answers the browser
(pages, pictures, change events) and :mod:`~cardgen.studio.watcher` turns every save in the
content folder into an update the open pages follow.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
PORT_RANGE = (0, 65535)  # 0: any free port (the address is printed)


def serve(content_dir: Path, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *,
          templates_dir: Path | None = None, ready: Callable[[str], None] | None = None) -> None:
    """Serve the studio until interrupted (KeyboardInterrupt goes on up after the clean-up);
    ``ready(url)`` is called once the games are loaded and the address answers."""
    from cardgen.studio.server import StudioServer
    from cardgen.studio.state import Studio
    from cardgen.studio.watcher import Watcher

    studio = Studio(content_dir, templates_dir)
    server = StudioServer(studio, host, port)  # before loading: a port in use fails at once
    watcher = None
    try:
        studio.load()
        watcher = Watcher(studio, server.notify, [studio.content_dir, studio.templates_dir])
        watcher.start()
        watcher.ready.wait(timeout=10)
        if ready is not None:
            ready(server.url)
        server.serve_forever(poll_interval=0.2)
    finally:
        if watcher is not None:
            watcher.stop()
        server.broker.close()
        server.server_close()


__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "PORT_RANGE", "serve"]
