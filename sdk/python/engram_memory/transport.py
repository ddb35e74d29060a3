"""HTTP with the standard library and the SDK's retry rules.

Backoff is 0.25, 0.5, 1 s (doubling), three retries by default; the wait is the larger of the
backoff and a delta-seconds ``Retry-After``; an HTTP-date ``Retry-After`` falls back to plain
backoff. Only reads and idempotent writes are retried, on connection errors, 429 and 5xx.
"""

import json
import re
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Dict, Iterator, Mapping, Optional, Tuple, Union

from .errors import MemoryAPIError, MemoryConnectionError, error_from_response

DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_RETRIES = 3
DEFAULT_BASE_DELAY = 0.25

QueryParams = Mapping[str, Union[str, int, bool, None]]


def parse_retry_after(value: Optional[str]) -> Optional[float]:
    """Seconds of a delta-seconds ``Retry-After``; None for absent or any other form."""
    if value is None:
        return None
    value = value.strip()
    return float(value) if re.fullmatch(r"\d+", value) else None


def retry_delay(retry: int, retry_after: Optional[float], base: float = DEFAULT_BASE_DELAY) -> float:
    """The wait before retry number ``retry`` (0-based)."""
    own = base * (2**retry)
    return own if retry_after is None else max(own, retry_after)


def is_retryable_status(status: int) -> bool:
    return status == 429 or status >= 500


class Transport:
    def __init__(
        self,
        base_url: str,
        api_key: Optional[str] = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        base_delay: float = DEFAULT_BASE_DELAY,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.max_retries = max_retries
        self.base_delay = base_delay
        self.sleep = sleep

    def url(self, path: str, query: Optional[QueryParams] = None) -> str:
        url = self.base_url + path
        params = {k: _query_value(v) for k, v in (query or {}).items() if v is not None}
        return url + ("?" + urllib.parse.urlencode(params) if params else "")

    def request(
        self,
        method: str,
        path: str,
        *,
        json_body: Any = None,
        data: Optional[bytes] = None,
        headers: Optional[Dict[str, str]] = None,
        query: Optional[QueryParams] = None,
        retryable: bool,
        _text: bool = False,
        _bytes: bool = False,
    ) -> Any:
        """Sends a request with the retry rules; returns parsed JSON (None for 204)."""
        attempts = 1 + (self.max_retries if retryable else 0)
        for attempt in range(attempts):
            error, retry_after, result = self._attempt(
                method, path, json_body, data, headers, query, _text, _bytes
            )
            if error is None:
                return result
            last = attempt == attempts - 1
            if last or not _retryable(error):
                raise error
            self.sleep(retry_delay(attempt, retry_after, self.base_delay))
        raise AssertionError("unreachable")

    def request_text(self, method: str, path: str, *, retryable: bool) -> str:
        """Like ``request`` for a text body (NDJSON exports)."""
        return self.request(method, path, retryable=retryable, _text=True)

    def request_bytes(self, method: str, path: str, *, retryable: bool) -> bytes:
        """Like ``request`` for a binary body (a document's file from an export)."""
        return self.request(method, path, retryable=retryable, _bytes=True)

    def stream_events(self, path: str, json_body: Any) -> Iterator[Dict[str, Any]]:
        """POSTs and yields server-sent events; a plain JSON answer yields one ``done`` event.

        Not retried: a chat writes to its session.
        """
        h = {"accept": "text/event-stream", "content-type": "application/json"}
        if self.api_key:
            h["authorization"] = f"Bearer {self.api_key}"
        data = json.dumps(_drop_none(json_body)).encode("utf-8")
        req = urllib.request.Request(self.url(path), data=data, headers=h, method="POST")
        try:
            res = urllib.request.urlopen(req, timeout=self.timeout)
        except urllib.error.HTTPError as e:
            retry_after = parse_retry_after(e.headers.get("retry-after"))
            raise error_from_response(e.code, _read_problem(e), retry_after) from None
        except (urllib.error.URLError, socket.timeout, OSError) as e:
            raise MemoryConnectionError(f"POST {path} failed: {getattr(e, 'reason', e)}") from None
        with res:
            if "text/event-stream" not in (res.headers.get("content-type") or ""):
                yield {"event": "done", "data": json.loads(res.read().decode("utf-8"))}
                return
            event, lines = "message", []
            for raw in res:
                line = raw.decode("utf-8").rstrip("\r\n")
                if line == "":
                    if lines:
                        yield {"event": event, "data": _parse_data("\n".join(lines))}
                    event, lines = "message", []
                elif line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    value = line[5:]
                    lines.append(value[1:] if value.startswith(" ") else value)
            if lines:
                yield {"event": event, "data": _parse_data("\n".join(lines))}

    def _attempt(
        self,
        method: str,
        path: str,
        json_body: Any,
        data: Optional[bytes],
        headers: Optional[Dict[str, str]],
        query: Optional[QueryParams],
        text: bool = False,
        binary: bool = False,
    ) -> Tuple[Optional[MemoryAPIError], Optional[float], Any]:
        h = {"accept": "application/json", **(headers or {})}
        if self.api_key:
            h["authorization"] = f"Bearer {self.api_key}"
        body = data
        if json_body is not None:
            body = json.dumps(_drop_none(json_body)).encode("utf-8")
            h["content-type"] = "application/json"
        req = urllib.request.Request(self.url(path, query), data=body, headers=h, method=method)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as res:
                raw = res.read()
                if binary:
                    return None, None, raw
                if text:
                    return None, None, raw.decode("utf-8")
                if res.status == 204 or not raw:
                    return None, None, None
                return None, None, json.loads(raw.decode("utf-8"))
        except urllib.error.HTTPError as e:
            retry_after = parse_retry_after(e.headers.get("retry-after"))
            problem = _read_problem(e)
            return error_from_response(e.code, problem, retry_after), retry_after, None
        except (urllib.error.URLError, socket.timeout, ConnectionError, OSError) as e:
            reason = getattr(e, "reason", e)
            what = "timed out" if isinstance(reason, (socket.timeout, TimeoutError)) else "failed"
            return MemoryConnectionError(f"{method} {path} {what}: {reason}"), None, None


def _retryable(error: MemoryAPIError) -> bool:
    if isinstance(error, MemoryConnectionError):
        return True
    return error.status_code is not None and is_retryable_status(error.status_code)


def _read_problem(e: urllib.error.HTTPError) -> Dict[str, Any]:
    try:
        raw = e.read().decode("utf-8")
    except Exception:  # noqa: BLE001 - a broken body still yields the status
        raw = ""
    if not raw:
        return {"status": e.code}
    try:
        parsed = json.loads(raw)
        if isinstance(parsed, dict):
            return parsed
    except ValueError:
        pass
    return {"status": e.code, "detail": raw[:500]}


def _parse_data(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _query_value(v: Union[str, int, bool]) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def _drop_none(value: Any) -> Any:
    """Leaves optional fields out of the body rather than sending null."""
    if isinstance(value, dict):
        return {k: _drop_none(v) for k, v in value.items() if v is not None}
    return value
