"""A small HTTP server that answers from a script and records what it saw.

It sheds (503), rate-limits (429) or drops connections on purpose so that the SDK's retry rules
can be observed without a real service.
"""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional


class Reply:
    def __init__(
        self,
        status: int = 200,
        body: Any = None,
        headers: Optional[Dict[str, str]] = None,
        drop: bool = False,
        delay: float = 0.0,
    ) -> None:
        self.status = status
        self.body = {} if body is None else body
        self.headers = headers or {}
        self.drop = drop
        self.delay = delay


def problem(status: int, slug: str, **extra: Any) -> Dict[str, Any]:
    return {
        "type": f"http://127.0.0.1/errors/{slug}",
        "title": slug,
        "status": status,
        "detail": f"scripted {slug}",
        "instance": "/scripted",
        **extra,
    }


class ScriptedServer:
    def __init__(self) -> None:
        self.script: List[Reply] = []
        self.seen: List[Dict[str, Any]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                outer.seen.append(
                    {
                        "method": self.command,
                        "path": self.path,
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                        "body": body,
                    }
                )
                reply = outer.script.pop(0) if outer.script else Reply()
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.drop:
                    self.close_connection = True
                    self.connection.close()
                    return
                payload = reply.body if isinstance(reply.body, str) else json.dumps(reply.body)
                data = payload.encode("utf-8")
                try:
                    self.send_response(reply.status)
                    ctype = "application/problem+json" if reply.status >= 400 else "application/json"
                    self.send_header("content-type", ctype)
                    self.send_header("content-length", str(len(data)))
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (the timeout test): nothing to answer

            do_GET = do_POST = do_PATCH = do_DELETE = _handle

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def play(self, *replies: Reply) -> None:
        self.script = list(replies)
        self.seen.clear()
