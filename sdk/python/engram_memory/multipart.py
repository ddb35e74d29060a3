"""multipart/form-data for one file field, since urllib has no encoder of its own."""

import uuid
from typing import Tuple


def encode_multipart(field: str, filename: str, content_type: str, data: bytes) -> Tuple[bytes, str]:
    """Returns the body and its ``content-type`` header value."""
    boundary = f"----engram{uuid.uuid4().hex}"
    safe_name = filename.replace('"', "_").replace("\r", "_").replace("\n", "_")
    head = (
        f"--{boundary}\r\n"
        f'Content-Disposition: form-data; name="{field}"; filename="{safe_name}"\r\n'
        f"Content-Type: {content_type}\r\n\r\n"
    ).encode("utf-8")
    tail = f"\r\n--{boundary}--\r\n".encode("utf-8")
    return head + data + tail, f"multipart/form-data; boundary={boundary}"
