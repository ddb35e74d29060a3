"""multipart/form-data for one file field plus text fields, since urllib has no encoder."""

import uuid
from typing import Dict, Optional, Tuple


def encode_multipart(
    field: str,
    filename: str,
    content_type: str,
    data: bytes,
    fields: Optional[Dict[str, Optional[str]]] = None,
) -> Tuple[bytes, str]:
    """Returns the body and its ``content-type`` header value; None-valued fields are left out."""
    boundary = f"----engram{uuid.uuid4().hex}"
    safe_name = filename.replace('"', "_").replace("\r", "_").replace("\n", "_")
    parts = []
    for name, value in (fields or {}).items():
        if value is None:
            continue
        parts.append(
            (
                f"--{boundary}\r\n"
                f'Content-Disposition: form-data; name="{name}"\r\n\r\n'
                f"{value}\r\n"
            ).encode("utf-8")
        )
    head = (
        f"--{boundary}\r\n"
        f'Content-Disposition: form-data; name="{field}"; filename="{safe_name}"\r\n'
        f"Content-Type: {content_type}\r\n\r\n"
    ).encode("utf-8")
    tail = f"\r\n--{boundary}--\r\n".encode("utf-8")
    return b"".join(parts) + head + data + tail, f"multipart/form-data; boundary={boundary}"
