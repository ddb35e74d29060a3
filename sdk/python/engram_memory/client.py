"""MemoryClient: one method per endpoint of the memory service's REST API (``/api/v1``)."""

import json
import time
import uuid
from datetime import datetime
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Union
from urllib.parse import quote

from .errors import MemoryAPIError
from .multipart import encode_multipart
from .transport import DEFAULT_BASE_DELAY, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT, Transport

JSON = Dict[str, Any]
#: Scope lens in disjunctive normal form: ["a", "b"] is a OR b, [["a", "b"]] is a AND b.
Lens = Sequence[Union[str, Sequence[str]]]

_FINAL_DOCUMENT_STATES = {"ready", "failed"}
#: "Not given" for an argument where None means something (a scope floor of None removes it).
_UNSET: Any = object()


def _enc(segment: str) -> str:
    return quote(segment, safe="")


class MemoryClient:
    """Client for the memory service.

    ``context_id`` is the Context that Context-scoped methods work in; ``with_context`` gives a
    client for another one. ``timeout`` is per attempt, in seconds.
    """

    def __init__(
        self,
        base_url: str,
        api_key: Optional[str] = None,
        context_id: Optional[str] = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        base_delay: float = DEFAULT_BASE_DELAY,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.context_id = context_id
        self._t = Transport(
            base_url,
            api_key,
            timeout=timeout,
            max_retries=max_retries,
            base_delay=base_delay,
            sleep=sleep,
        )

    def with_context(self, context_id: str) -> "MemoryClient":
        """The same client working in another Context."""
        t = self._t
        return MemoryClient(
            t.base_url,
            t.api_key,
            context_id,
            timeout=t.timeout,
            max_retries=t.max_retries,
            base_delay=t.base_delay,
            sleep=t.sleep,
        )

    # --- management (management key) ---------------------------------------------------

    def create_context(
        self, id: str, *, token_limit: Optional[int] = None, namespace: Optional[str] = None
    ) -> JSON:
        body = {"id": id, "token_limit": token_limit, "namespace": namespace}
        return self._t.request("POST", "/api/v1/contexts", json_body=body, retryable=False)

    def list_contexts(self, *, cursor: Optional[str] = None, limit: Optional[int] = None) -> JSON:
        """The Contexts this management key administers, a page at a time (no usage counts)."""
        query = {"cursor": cursor, "limit": limit}
        return self._t.request("GET", "/api/v1/contexts", query=query, retryable=True)

    def who_am_i(self) -> JSON:
        """The calling key: principal, Context, grants, scope floor, read lens (any key)."""
        return self._t.request("GET", "/api/v1/whoami", retryable=True)

    def get_context(self, id: Optional[str] = None) -> JSON:
        path = f"/api/v1/contexts/{_enc(id or self._ctx())}"
        return self._t.request("GET", path, retryable=True)

    def update_context(self, id: str, patch: JSON) -> JSON:
        # Sent as given: a None here means "clear the field", not "leave it out".
        data = json.dumps(patch).encode("utf-8")
        return self._t.request(
            "PATCH",
            f"/api/v1/contexts/{_enc(id)}",
            data=data,
            headers={"content-type": "application/json"},
            retryable=False,
        )

    def delete_context(self, id: str) -> None:
        self._t.request("DELETE", f"/api/v1/contexts/{_enc(id)}", retryable=True)

    def create_principal(
        self, kind: str, display_name: str, external_id: Optional[str] = None
    ) -> JSON:
        body = {"kind": kind, "display_name": display_name, "external_id": external_id}
        return self._t.request("POST", "/api/v1/principals", json_body=body, retryable=False)

    def create_key(
        self,
        principal_id: str,
        context_id: str,
        grants: Dict[str, List[str]],
        scope_floor: Optional[str] = None,
    ) -> JSON:
        body = {
            "principal_id": principal_id,
            "context_id": context_id,
            "grants": grants,
            "scope_floor": scope_floor,
        }
        return self._t.request("POST", "/api/v1/keys", json_body=body, retryable=False)

    def list_keys(
        self,
        *,
        cursor: Optional[str] = None,
        limit: Optional[int] = None,
        context_id: Optional[str] = None,
        principal_id: Optional[str] = None,
        include_revoked: bool = False,
    ) -> JSON:
        """Keys this management key manages, never with secrets."""
        query = {
            "cursor": cursor,
            "limit": limit,
            "context_id": context_id,
            "principal_id": principal_id,
            "include_revoked": "true" if include_revoked else None,
        }
        return self._t.request("GET", "/api/v1/keys", query=query, retryable=True)

    def list_principals(
        self,
        *,
        cursor: Optional[str] = None,
        limit: Optional[int] = None,
        kind: Optional[str] = None,
    ) -> JSON:
        """Principals of the caller's tenant (management key)."""
        query = {"cursor": cursor, "limit": limit, "kind": kind}
        return self._t.request("GET", "/api/v1/principals", query=query, retryable=True)

    def get_principal(self, id: str) -> JSON:
        return self._t.request("GET", f"/api/v1/principals/{_enc(id)}", retryable=True)

    def revoke_key(self, id: str) -> None:
        self._t.request("DELETE", f"/api/v1/keys/{_enc(id)}", retryable=True)

    def update_key(
        self,
        id: str,
        grants: Optional[Dict[str, List[str]]] = None,
        scope_floor: Any = _UNSET,
    ) -> JSON:
        """Changes a key's grants or scope floor; effective on its next request."""
        body: Dict[str, Any] = {}
        if grants is not None:
            body["grants"] = grants
        if scope_floor is not _UNSET:
            body["scope_floor"] = scope_floor
        return self._t.request(
            "PATCH", f"/api/v1/keys/{_enc(id)}", json_body=body, retryable=True
        )

    def delete_principal(self, id: str) -> None:
        """Deletes a principal and its keys; they are refused from the next request on."""
        self._t.request("DELETE", f"/api/v1/principals/{_enc(id)}", retryable=True)

    def export_context(self, id: Optional[str] = None) -> str:
        """The whole Context database as NDJSON, for backups (management key)."""
        path = f"/api/v1/contexts/{_enc(id or self._ctx())}/export"
        return self._t.request_text("GET", path, retryable=True)

    def import_context(self, id: str, ndjson: str) -> JSON:
        return self._t.request(
            "POST",
            f"/api/v1/contexts/{_enc(id)}/import",
            data=ndjson.encode("utf-8"),
            headers={"content-type": "application/x-ndjson"},
            retryable=False,
        )

    def export_context_blob(self, id: str, sha256: str) -> bytes:
        """A document's file named by an export's ``blob`` line (management key)."""
        path = f"/api/v1/contexts/{_enc(id)}/export/blobs/{_enc(sha256)}"
        return self._t.request_bytes("GET", path, retryable=True)

    def import_context_blob(self, id: str, sha256: str, data: bytes) -> JSON:
        """Puts a document's file back before or after ``import_context`` (management key)."""
        return self._t.request(
            "PUT",
            f"/api/v1/contexts/{_enc(id)}/import/blobs/{_enc(sha256)}",
            data=data,
            headers={"content-type": "application/octet-stream"},
            retryable=True,
        )

    def retry_dead_letter(self, id: str) -> JSON:
        path = f"/api/v1/migrations/dlq/{_enc(id)}/retry"
        return self._t.request("POST", path, retryable=False)

    def migrations(self) -> JSON:
        return self._t.request("GET", "/api/v1/migrations", retryable=True)

    # --- facts and recall ------------------------------------------------------------------

    def remember(
        self,
        content: str,
        *,
        scopes: Optional[List[str]] = None,
        metadata: Optional[JSON] = None,
        session_id: Optional[str] = None,
        infer: Optional[str] = None,
        idempotency_key: Optional[str] = None,
        valid_from: Optional[str] = None,
        session: Optional[str] = None,
        position: Optional[int] = None,
    ) -> JSON:
        """Stores a fact; a fresh ``Idempotency-Key`` makes its retries safe.

        ``valid_from`` (ISO 8601) is when it was said or happened; ``session`` and ``position``
        place it in a conversation, so retrieval can read its neighbouring turns.
        """
        body = {
            "content": content,
            "scopes": scopes,
            "metadata": metadata,
            "session_id": session_id,
            "valid_from": valid_from,
            "session": session,
            "position": position,
        }
        return self._t.request(
            "POST",
            self._p("/facts"),
            json_body=body,
            query={"infer": infer},
            headers={"idempotency-key": idempotency_key or str(uuid.uuid4())},
            retryable=True,
        )

    def remember_batch(self, facts: List[JSON], *, idempotency_key: Optional[str] = None) -> JSON:
        return self._t.request(
            "POST",
            self._p("/facts/batch"),
            json_body={"facts": facts},
            headers={"idempotency-key": idempotency_key or str(uuid.uuid4())},
            retryable=True,
        )

    def get_fact(self, id: str) -> JSON:
        return self._t.request("GET", self._p(f"/facts/{_enc(id)}"), retryable=True)

    def list_facts(
        self,
        *,
        cursor: Optional[str] = None,
        limit: Optional[int] = None,
        lens: Optional[Lens] = None,
        kind: Optional[str] = None,
    ) -> JSON:
        query = {
            "cursor": cursor,
            "limit": limit,
            "kind": kind,
            "lens": json.dumps(lens) if lens is not None else None,
        }
        return self._t.request("GET", self._p("/facts"), query=query, retryable=True)

    def update_fact(
        self,
        id: str,
        content: str,
        *,
        scopes: Optional[List[str]] = None,
        metadata: Optional[JSON] = None,
    ) -> JSON:
        """Edits a fact: a new version supersedes the current one, which stays as history.

        Scopes and metadata default to the old version's; a new version keeps every old scope.
        Not retried: a replay after a lost answer would find the fact closed (409).
        """
        body = {"content": content, "scopes": scopes, "metadata": metadata}
        return self._t.request(
            "PATCH", self._p(f"/facts/{_enc(id)}"), json_body=body, retryable=False
        )

    def fact_history(self, id: str) -> JSON:
        """Every version of a fact the key may read, oldest first."""
        return self._t.request("GET", self._p(f"/facts/{_enc(id)}/history"), retryable=True)

    def list_entities(
        self,
        *,
        prefix: Optional[str] = None,
        cursor: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> JSON:
        """Entities current facts the key may read mention, a page at a time."""
        query = {"prefix": prefix, "cursor": cursor, "limit": limit}
        return self._t.request("GET", self._p("/entities"), query=query, retryable=True)

    def get_entity(self, name: str, *, limit: Optional[int] = None) -> JSON:
        """One entity by name, with the current facts the key may read that mention it."""
        path = self._p(f"/entities/{_enc(name)}")
        return self._t.request("GET", path, query={"limit": limit}, retryable=True)

    def forget(self, id: str) -> None:
        """Deletes a fact (or, for ``document:<id>``, the document and its chunks) everywhere."""
        if id.startswith("document:"):
            self.delete_document(id)
            return
        self._t.request("DELETE", self._p(f"/facts/{_enc(id)}"), retryable=True)

    def recall(
        self,
        query: str,
        *,
        mode: Optional[str] = None,
        k: Optional[int] = None,
        lens: Optional[Lens] = None,
        neighbours: Optional[int] = None,
        as_of: Union[str, datetime, None] = None,
        explain: Optional[bool] = None,
    ) -> JSON:
        """Ranked results; ``neighbours`` (0-5) also returns the turns around each in its session.

        ``as_of`` (ISO 8601 string or timezone-aware datetime; default: now) is when the question is
        asked from: "last week" in it is resolved against it. ``explain=True`` adds, per result,
        what each arm contributed to its score.
        """
        when = as_of.isoformat() if isinstance(as_of, datetime) else as_of
        body = {
            "query": query,
            "mode": mode,
            "k": k,
            "lens": lens,
            "neighbours": neighbours,
            "as_of": when,
            "explain": explain,
        }
        # A query only reads, so it is retried like a GET.
        return self._t.request("POST", self._p("/query"), json_body=body, retryable=True)

    # --- sessions ------------------------------------------------------------------------------

    def create_session(
        self,
        *,
        id: Optional[str] = None,
        scopes: Optional[List[str]] = None,
        metadata: Optional[JSON] = None,
    ) -> JSON:
        """Create a session. ``scopes`` must lie inside the key's write grant; reading the session
        and its turns then needs a read grant matching them. Omitted: unscoped (root grant only).
        Facts extracted from its turns carry the same scopes."""
        body = {"id": id, "scopes": scopes, "metadata": metadata}
        return self._t.request("POST", self._p("/sessions"), json_body=body, retryable=False)

    def list_sessions(self, *, limit: Optional[int] = None, offset: Optional[int] = None) -> JSON:
        query = {"limit": limit, "offset": offset}
        return self._t.request("GET", self._p("/sessions"), query=query, retryable=True)

    def get_session(self, session_id: str) -> JSON:
        return self._t.request("GET", self._p(f"/sessions/{_enc(session_id)}"), retryable=True)

    def delete_session(self, session_id: str) -> None:
        self._t.request("DELETE", self._p(f"/sessions/{_enc(session_id)}"), retryable=True)

    def session_context(self, session_id: str, *, max_tokens: Optional[int] = None) -> JSON:
        path = self._p(f"/sessions/{_enc(session_id)}/context")
        return self._t.request("GET", path, query={"max_tokens": max_tokens}, retryable=True)

    def add_turn(
        self, session_id: str, role: str, content: str, *, valid_from: Optional[str] = None
    ) -> JSON:
        """Appends a turn; ``valid_from`` (ISO 8601) is when it was said (default: now)."""
        path = self._p(f"/sessions/{_enc(session_id)}/turns")
        body = {"role": role, "content": content, "valid_from": valid_from}
        return self._t.request("POST", path, json_body=body, retryable=False)

    def list_turns(
        self, session_id: str, *, limit: Optional[int] = None, offset: Optional[int] = None
    ) -> JSON:
        path = self._p(f"/sessions/{_enc(session_id)}/turns")
        query = {"limit": limit, "offset": offset}
        return self._t.request("GET", path, query=query, retryable=True)

    # --- context, chat, reflection -----------------------------------------------------------

    def context(
        self,
        *,
        query: Optional[str] = None,
        session_id: Optional[str] = None,
        max_tokens: Optional[int] = None,
    ) -> JSON:
        body = {"query": query, "session_id": session_id, "max_tokens": max_tokens}
        return self._t.request("POST", self._p("/context"), json_body=body, retryable=True)

    def chat(
        self, message: str, *, session_id: Optional[str] = None, lens: Optional[Lens] = None
    ) -> JSON:
        body = {"message": message, "session_id": session_id, "lens": lens}
        return self._t.request("POST", self._p("/chat"), json_body=body, retryable=False)

    def chat_stream(
        self, message: str, *, session_id: Optional[str] = None, lens: Optional[Lens] = None
    ) -> Iterator[Dict[str, Any]]:
        """Yields ``{"event", "data"}`` dicts as the answer streams (server-sent events)."""
        body = {"message": message, "session_id": session_id, "lens": lens, "stream": True}
        return self._t.stream_events(self._p("/chat"), body)

    def reflect(self, *, lens: Optional[Lens] = None, persist: Optional[bool] = None) -> JSON:
        body = {"lens": lens, "persist": persist}
        return self._t.request("POST", self._p("/reflect"), json_body=body, retryable=False)

    def consolidate(
        self,
        *,
        lens: Optional[Lens] = None,
        dry_run: Optional[bool] = None,
        cursor: Optional[str] = None,
    ) -> JSON:
        """Merges duplicates and supersedes older values.

        A Context of more than 1,000 current facts is planned a window at a time: pass the
        response's ``next_cursor`` back as ``cursor`` to go on.
        """
        body = {"lens": lens, "dry_run": dry_run, "cursor": cursor}
        return self._t.request("POST", self._p("/consolidate"), json_body=body, retryable=False)

    # --- documents ---------------------------------------------------------------------------

    def upload_document(
        self,
        data: Union[bytes, str],
        *,
        filename: str = "document",
        content_type: Optional[str] = None,
        scopes: Optional[List[str]] = None,
        password: Optional[str] = None,
    ) -> JSON:
        """Uploads a file (multipart ``file``); processing happens in the background."""
        raw = data.encode("utf-8") if isinstance(data, str) else data
        ctype = content_type or ("text/plain" if isinstance(data, str) else "application/octet-stream")
        fields = {"scopes": json.dumps(scopes) if scopes else None, "password": password}
        body, header = encode_multipart("file", filename, ctype, raw, fields)
        return self._t.request(
            "POST",
            self._p("/documents"),
            data=body,
            headers={"content-type": header},
            retryable=False,
        )

    def get_document(self, id: str) -> JSON:
        return self._t.request("GET", self._p(f"/documents/{_enc(id)}"), retryable=True)

    def list_documents(self, *, cursor: Optional[str] = None, limit: Optional[int] = None) -> JSON:
        query = {"cursor": cursor, "limit": limit}
        return self._t.request("GET", self._p("/documents"), query=query, retryable=True)

    def delete_document(self, id: str) -> None:
        self._t.request("DELETE", self._p(f"/documents/{_enc(id)}"), retryable=True)

    def wait_for_document(self, id: str, *, interval: float = 0.5, timeout: float = 120.0) -> JSON:
        """Polls until the document is ``ready`` or ``failed`` (a failure is a state, not an error)."""
        deadline = time.monotonic() + timeout
        while True:
            doc = self.get_document(id)
            if doc.get("status") in _FINAL_DOCUMENT_STATES:
                return doc
            if time.monotonic() >= deadline:
                raise MemoryAPIError(f"document {id} still {doc.get('status')} after waiting")
            self._t.sleep(interval)

    def health(self) -> JSON:
        return self._t.request("GET", "/health", retryable=True)

    # --- plumbing ------------------------------------------------------------------------------

    def _ctx(self) -> str:
        if not self.context_id:
            raise ValueError("context_id is not set: pass it to MemoryClient or use with_context()")
        return self.context_id

    def _p(self, suffix: str) -> str:
        return f"/api/v1/{_enc(self._ctx())}{suffix}"
