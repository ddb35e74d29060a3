"""Python client for the Engram memory service (standard library only)."""

from .client import MemoryClient
from .errors import (
    MemoryAPIError,
    MemoryAuthError,
    MemoryConnectionError,
    MemoryNotFoundError,
    MemoryScopeError,
)
from .transport import parse_retry_after, retry_delay

__all__ = [
    "MemoryClient",
    "MemoryAPIError",
    "MemoryAuthError",
    "MemoryConnectionError",
    "MemoryNotFoundError",
    "MemoryScopeError",
    "parse_retry_after",
    "retry_delay",
]
__version__ = "0.1.0"
