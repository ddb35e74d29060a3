"""Error classes and retry rules against a server that sheds and rate-limits on purpose."""

import json
import os
import sys
import unittest
from datetime import datetime, timezone
from email.utils import formatdate
from typing import List

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from engram_memory import (  # noqa: E402
    MemoryAPIError,
    MemoryAuthError,
    MemoryClient,
    MemoryConnectionError,
    MemoryNotFoundError,
    MemoryScopeError,
    parse_retry_after,
)
from scripted_server import Reply, ScriptedServer, problem  # noqa: E402


class ScriptedTestCase(unittest.TestCase):
    server: ScriptedServer

    @classmethod
    def setUpClass(cls) -> None:
        cls.server = ScriptedServer()
        cls.server.start()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.server.stop()

    def setUp(self) -> None:
        self.waits: List[float] = []

    def client(self, **kwargs: object) -> MemoryClient:
        # Record the waits instead of sleeping: the rules are asserted, not the clock.
        return MemoryClient(
            self.server.url,
            api_key="mem_agent_test",
            context_id="ctx-1",
            sleep=self.waits.append,
            **kwargs,  # type: ignore[arg-type]
        )


class ErrorClassTest(ScriptedTestCase):
    def test_status_maps_to_exception_with_status_body_message(self) -> None:
        cases = [
            (401, "unauthorized", MemoryAuthError),
            (403, "forbidden", MemoryScopeError),
            (404, "not-found", MemoryNotFoundError),
            (400, "validation-error", MemoryAPIError),
            (409, "conflict", MemoryAPIError),
            (422, "unprocessable", MemoryAPIError),
        ]
        for status, slug, cls in cases:
            with self.subTest(status=status):
                self.server.play(Reply(status, problem(status, slug)))
                with self.assertRaises(cls) as ctx:
                    self.client().get_fact("f1")
                err = ctx.exception
                self.assertIs(type(err), cls)
                self.assertEqual(err.status_code, status)
                self.assertEqual(err.body["type"], f"http://127.0.0.1/errors/{slug}")
                self.assertIn(str(status), err.message)
                self.assertEqual(len(self.server.seen), 1)

    def test_429_and_5xx_are_memory_api_error_after_retries(self) -> None:
        for status in (429, 500, 503):
            with self.subTest(status=status):
                self.server.play(*[Reply(status, problem(status, "x")) for _ in range(4)])
                with self.assertRaises(MemoryAPIError) as ctx:
                    self.client().get_fact("f1")
                self.assertIs(type(ctx.exception), MemoryAPIError)
                self.assertEqual(ctx.exception.status_code, status)
                self.assertEqual(len(self.server.seen), 4)

    def test_429_exposes_retry_after_from_header_or_body(self) -> None:
        self.server.play(Reply(429, problem(429, "rate-limited", retry_after=9), {"Retry-After": "4"}))
        with self.assertRaises(MemoryAPIError) as header:
            self.client(max_retries=0).get_fact("f1")
        self.assertEqual(header.exception.retry_after, 4.0)
        self.server.play(Reply(429, problem(429, "rate-limited", retry_after=9)))
        with self.assertRaises(MemoryAPIError) as body:
            self.client(max_retries=0).get_fact("f1")
        self.assertEqual(body.exception.retry_after, 9.0)

    def test_dropped_connection_is_connection_error(self) -> None:
        self.server.play(Reply(drop=True))
        with self.assertRaises(MemoryConnectionError) as ctx:
            self.client(max_retries=0).get_fact("f1")
        self.assertIsNone(ctx.exception.status_code)

    def test_timeout_is_connection_error(self) -> None:
        self.server.play(Reply(delay=0.5))
        with self.assertRaises(MemoryConnectionError):
            self.client(timeout=0.05, max_retries=0).get_fact("f1")


class RetryRuleTest(ScriptedTestCase):
    def test_backoff_250_500_1000_over_three_retries(self) -> None:
        shed = Reply(503, problem(503, "service-unavailable"))
        self.server.play(shed, shed, shed, Reply(200, {"id": "f1"}))
        self.assertEqual(self.client().get_fact("f1"), {"id": "f1"})
        self.assertEqual(self.waits, [0.25, 0.5, 1.0])

    def test_waits_larger_of_backoff_and_delta_seconds(self) -> None:
        self.server.play(
            Reply(429, problem(429, "rate-limited", retry_after=1), {"Retry-After": "1"}),
            Reply(503, problem(503, "shed"), {"Retry-After": "0"}),
            Reply(200, {"mode": "hybrid", "results": []}),
        )
        self.client().recall("q")
        self.assertEqual(self.waits, [1.0, 0.5])

    def test_http_date_retry_after_falls_back_to_backoff(self) -> None:
        date = formatdate(usegmt=True)
        self.server.play(Reply(503, problem(503, "shed"), {"Retry-After": date}), Reply(200, {}))
        self.client().get_document("document:1")
        self.assertEqual(self.waits, [0.25])
        self.assertIsNone(parse_retry_after(date))
        self.assertEqual(parse_retry_after("7"), 7.0)

    def test_connection_failure_of_read_is_retried(self) -> None:
        self.server.play(Reply(drop=True), Reply(200, {"status": "ok"}))
        self.assertEqual(self.client().health(), {"status": "ok"})
        self.assertEqual(self.waits, [0.25])

    def test_fact_write_gets_same_automatic_idempotency_key_on_retry(self) -> None:
        self.server.play(Reply(429, problem(429, "rate-limited")), Reply(201, {"facts": []}))
        self.client().remember("a", scopes=["team:eng"])
        keys = [r["headers"].get("idempotency-key") for r in self.server.seen]
        self.assertEqual(len(keys), 2)
        self.assertRegex(keys[0] or "", r"^[0-9a-f-]{36}$")
        self.assertEqual(keys[0], keys[1])
        body = json.loads(self.server.seen[0]["body"])
        self.assertEqual(body, {"content": "a", "scopes": ["team:eng"]})

    def test_non_idempotent_write_is_not_retried(self) -> None:
        self.server.play(Reply(503, problem(503, "shed")), Reply(201, {}))
        with self.assertRaises(MemoryAPIError):
            self.client().add_turn("s1", "user", "hi")
        self.assertEqual(len(self.server.seen), 1)
        self.assertEqual(self.waits, [])

    def test_chat_is_not_retried_after_dropped_connection(self) -> None:
        self.server.play(Reply(drop=True), Reply(200, {}))
        with self.assertRaises(MemoryConnectionError):
            self.client().chat("hi")
        self.assertEqual(len(self.server.seen), 1)


class RequestShapeTest(ScriptedTestCase):
    def test_bearer_key_and_context_path(self) -> None:
        self.server.play(Reply(200, {"mode": "bm25", "results": []}))
        self.client().recall("q", mode="bm25", k=3, lens=[["a", "b"]])
        req = self.server.seen[0]
        self.assertEqual(req["path"], "/api/v1/ctx-1/query")
        self.assertEqual(req["headers"]["authorization"], "Bearer mem_agent_test")
        self.assertEqual(
            json.loads(req["body"]), {"query": "q", "mode": "bm25", "k": 3, "lens": [["a", "b"]]}
        )

    def test_recall_asks_for_neighbour_turns(self) -> None:
        self.server.play(Reply(200, {"mode": "hybrid", "results": []}))
        self.client().recall("q", neighbours=2)
        self.assertEqual(json.loads(self.server.seen[0]["body"]), {"query": "q", "neighbours": 2})

    def test_recall_sends_as_of_from_a_string_or_a_datetime(self) -> None:
        self.server.play(
            Reply(200, {"mode": "hybrid", "results": []}),
            Reply(200, {"mode": "hybrid", "results": []}),
        )
        self.client().recall("last year?", as_of="2024-03-01T00:00:00Z")
        self.client().recall("q", as_of=datetime(2024, 3, 1, tzinfo=timezone.utc))
        self.assertEqual(
            json.loads(self.server.seen[0]["body"]),
            {"query": "last year?", "as_of": "2024-03-01T00:00:00Z"},
        )
        self.assertEqual(
            json.loads(self.server.seen[1]["body"]), {"query": "q", "as_of": "2024-03-01T00:00:00+00:00"}
        )

    def test_upload_is_multipart_file(self) -> None:
        self.server.play(Reply(202, {"id": "document:1", "status": "queued"}))
        self.client().upload_document("hello", filename="a.txt")
        req = self.server.seen[0]
        self.assertTrue(req["headers"]["content-type"].startswith("multipart/form-data"))
        self.assertIn(b'name="file"; filename="a.txt"', req["body"])
        self.assertIn(b"hello", req["body"])

    def test_wait_for_document_polls_until_final(self) -> None:
        self.server.play(
            Reply(200, {"id": "document:1", "status": "queued"}),
            Reply(200, {"id": "document:1", "status": "failed", "error": "encrypted PDF"}),
        )
        doc = self.client().wait_for_document("document:1", interval=0.01)
        self.assertEqual(doc["status"], "failed")
        self.assertEqual(self.waits, [0.01])

    def test_with_context_keeps_settings_and_changes_the_path(self) -> None:
        self.server.play(Reply(200, {"id": "f1"}))
        self.client().with_context("ctx-2").get_fact("f1")
        req = self.server.seen[0]
        self.assertEqual(req["path"], "/api/v1/ctx-2/facts/f1")
        self.assertEqual(req["headers"]["authorization"], "Bearer mem_agent_test")

    def test_context_scoped_call_needs_context_id(self) -> None:
        with self.assertRaises(ValueError):
            MemoryClient(self.server.url).recall("q")


if __name__ == "__main__":
    unittest.main()
