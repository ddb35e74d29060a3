"""Exceptions of the memory service's Python SDK, exactly as the service's error table."""

from typing import Any, Dict, Optional


class MemoryAPIError(Exception):
    """Any non-2xx answer without a narrower class (400, 409, 422, 429, 5xx).

    ``status_code`` is the HTTP status (``None`` for a network failure or timeout), ``body`` the
    RFC 9457 problem body the server sent, ``message`` a one-line summary.
    """

    def __init__(
        self,
        message: str,
        status_code: Optional[int] = None,
        body: Optional[Dict[str, Any]] = None,
        retry_after: Optional[float] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status_code = status_code
        self.body: Dict[str, Any] = body or {}
        #: Seconds the server asked to wait (429 and shed 503), when it said.
        self.retry_after = retry_after


class MemoryAuthError(MemoryAPIError):
    """401: no key, a malformed key, or an unknown or revoked one."""


class MemoryScopeError(MemoryAPIError):
    """403: the key is valid but not permitted."""


class MemoryNotFoundError(MemoryAPIError):
    """404: the resource does not exist."""


class MemoryConnectionError(MemoryAPIError):
    """The request got no answer: a network failure or a timeout (``status_code`` is None)."""


def error_from_response(
    status: int, body: Dict[str, Any], retry_after: Optional[float]
) -> MemoryAPIError:
    """Builds the exception for a non-2xx answer."""
    title = body.get("title") or "Error"
    detail = body.get("detail")
    message = f"{status} {title}" + (f": {detail}" if detail else "")
    cls = {
        401: MemoryAuthError,
        403: MemoryScopeError,
        404: MemoryNotFoundError,
    }.get(status, MemoryAPIError)
    if retry_after is None and isinstance(body.get("retry_after"), (int, float)):
        retry_after = float(body["retry_after"])
    return cls(message, status, body, retry_after)
