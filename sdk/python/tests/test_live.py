"""The Python SDK against a real local server (``wrangler dev``).

Run by test/e2e/sdk-python.test.ts, which sets ENGRAM_BASE_URL and ENGRAM_MANAGEMENT_KEY. Without
them this module defines no tests (it is not skipped: there is nothing to run against).
"""

import os
import sys
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from engram_memory import (  # noqa: E402
    MemoryAPIError,
    MemoryAuthError,
    MemoryClient,
    MemoryNotFoundError,
    MemoryScopeError,
)

BASE_URL = os.environ.get("ENGRAM_BASE_URL")
MANAGEMENT_KEY = os.environ.get("ENGRAM_MANAGEMENT_KEY")

if BASE_URL and MANAGEMENT_KEY:

    class LiveServerTest(unittest.TestCase):
        admin: MemoryClient
        memory: MemoryClient
        context_id: str
        agent_key: str

        @classmethod
        def setUpClass(cls) -> None:
            cls.context_id = f"e2e-sdk-py-{int(time.time() * 1000)}"
            cls.admin = MemoryClient(BASE_URL, api_key=MANAGEMENT_KEY)
            cls.admin.create_context(cls.context_id)
            principal = cls.admin.create_principal("agent", f"{cls.context_id}-agent")
            key = cls.admin.create_key(
                principal["id"],
                cls.context_id,
                {"memory:read": ["team:a"], "memory:write": ["team:a"], "memory:forget": ["team:a"]},
            )
            cls.agent_key = key["key"]
            cls.memory = MemoryClient(BASE_URL, api_key=cls.agent_key, context_id=cls.context_id)

        def test_ten_line_quick_start(self) -> None:
            client = MemoryClient(BASE_URL, api_key=self.agent_key, context_id=self.context_id)
            client.remember("Alice prefers answers in German.", scopes=["team:a/user:alice"])
            results = client.recall("what language does alice want?", k=1)["results"]
            self.assertEqual(results[0]["content"], "Alice prefers answers in German.")

        def test_facts_in_every_mode_then_forget(self) -> None:
            fact = self.memory.remember("Backups run at 02:00 UTC.", scopes=["team:a"])["facts"][0]
            for mode in ("vector", "bm25", "hybrid", "hybrid_graph"):
                found = self.memory.recall("when do backups run?", mode=mode, k=3)
                self.assertIn(fact["id"], [r["id"] for r in found["results"]], mode)
            self.assertEqual(self.memory.get_fact(fact["id"])["content"], "Backups run at 02:00 UTC.")
            self.memory.forget(fact["id"])
            with self.assertRaises(MemoryNotFoundError):
                self.memory.get_fact(fact["id"])

        def test_idempotent_write_and_batch(self) -> None:
            first = self.memory.remember("Py idempotent.", scopes=["team:a"], idempotency_key="py-1")
            again = self.memory.remember("Py idempotent.", scopes=["team:a"], idempotency_key="py-1")
            self.assertEqual(first["facts"][0]["id"], again["facts"][0]["id"])
            batch = self.memory.remember_batch(
                [{"content": "One.", "scopes": ["team:a"]}, {"content": "Two.", "scopes": ["team:a"]}]
            )
            self.assertEqual(len(batch["facts"]), 2)

        def test_sessions_context_chat_reflect_consolidate(self) -> None:
            self.memory.remember("Erin owns the billing service.", scopes=["team:a"])
            session = self.memory.create_session(scopes=["team:a"])
            self.assertEqual(session["scopes"], ["team:a"])
            with self.assertRaises(MemoryScopeError):
                self.memory.create_session()
            self.memory.add_turn(
                session["id"], "user", "Who owns billing?", valid_from="2023-05-08T13:56:00Z"
            )
            turns = self.memory.list_turns(session["id"])["turns"]
            self.assertEqual([t["content"] for t in turns], ["Who owns billing?"])
            self.assertEqual([t["valid_from"] for t in turns], ["2023-05-08T13:56:00.000Z"])
            block = self.memory.context(query="billing owner", session_id=session["id"])
            self.assertIn("Erin", block["context"])
            self.assertIn("Erin", self.memory.chat("Who owns the billing service?")["answer"])
            events = list(self.memory.chat_stream("Who owns the billing service?"))
            self.assertEqual(events[-1]["event"], "done")
            self.assertIn("delta", [e["event"] for e in events])
            self.assertFalse(self.memory.reflect()["persisted"])
            self.assertTrue(self.memory.consolidate(dry_run=True)["dry_run"])

        def test_upload_and_wait_for_document(self) -> None:
            doc = self.memory.upload_document(
                "# Py runbook\n\nDrain the queue first.",
                filename="runbook.md",
                content_type="text/markdown",
                scopes=["team:a"],
            )
            self.assertTrue(doc["id"].startswith("document:"))
            done = self.memory.wait_for_document(doc["id"], interval=0.2, timeout=60)
            self.assertEqual(done["status"], "ready")

        def test_whoami_lists_versions_entities_and_explain(self) -> None:
            who = self.memory.who_am_i()
            self.assertEqual(who["context_id"], self.context_id)
            self.assertEqual(who["grants"]["memory:read"], ["team:a"])
            self.assertTrue(self.admin.who_am_i()["root"])
            contexts = self.admin.list_contexts(limit=100)
            self.assertIn("next_cursor", contexts)
            keys = self.admin.list_keys(context_id=self.context_id)["keys"]
            self.assertTrue(keys)
            self.assertNotIn(self.agent_key, str(keys))
            self.assertTrue(self.admin.list_principals(kind="agent")["principals"])
            with self.assertRaises(MemoryScopeError):
                self.memory.list_keys()
            old = self.memory.remember("Mira runs the Oslo office.", scopes=["team:a"])["facts"][0]
            edited = self.memory.update_fact(old["id"], "Mira runs the Bergen office.")
            self.assertEqual(edited["replaces"], old["id"])
            history = self.memory.fact_history(edited["fact"]["id"])["versions"]
            self.assertEqual([v["id"] for v in history], [old["id"], edited["fact"]["id"]])
            names = [e["name"] for e in self.memory.list_entities(prefix="mi")["entities"]]
            self.assertIn("mira", names)
            detail = self.memory.get_entity("Mira")
            self.assertIn(edited["fact"]["id"], [i["id"] for i in detail["items"]])
            found = self.memory.recall("who runs Bergen?", mode="hybrid", k=1, explain=True)
            self.assertIn("bm25", found["results"][0]["explain"]["arms"])
            self.assertNotIn("explain", self.memory.recall("who runs Bergen?", k=1)["results"][0])

        def test_key_changes_take_effect_on_the_next_request(self) -> None:
            principal = self.admin.create_principal("agent", f"{self.context_id}-changes")
            issued = self.admin.create_key(
                principal["id"], self.context_id, {"memory:read": ["team:a"], "memory:write": ["team:a"]}
            )
            client = MemoryClient(BASE_URL, api_key=issued["key"], context_id=self.context_id)
            client.remember("The lab key is in the blue drawer.", scopes=["team:a"])
            # Narrowed to reading: the very next write is refused, reads still answer.
            self.admin.update_key(issued["id"], grants={"memory:read": ["team:a"]})
            with self.assertRaises(MemoryScopeError):
                client.remember("x", scopes=["team:a"])
            self.assertGreaterEqual(len(client.recall("where is the lab key?", k=1)["results"]), 1)
            # The principal gone: its key is refused from the next request on.
            self.admin.delete_principal(principal["id"])
            with self.assertRaises(MemoryAuthError) as gone:
                client.recall("where is the lab key?")
            self.assertEqual(gone.exception.status_code, 401)

        def test_error_classes(self) -> None:
            bad = MemoryClient(BASE_URL, api_key="mem_agent_nopenopenopenopenope0", context_id=self.context_id)
            with self.assertRaises(MemoryAuthError) as auth:
                bad.recall("x")
            self.assertEqual(auth.exception.status_code, 401)
            self.assertEqual(auth.exception.body["status"], 401)
            with self.assertRaises(MemoryScopeError):
                self.memory.create_context(f"{self.context_id}-x")
            with self.assertRaises(MemoryScopeError):
                self.memory.remember("x", scopes=["team:b"])
            with self.assertRaises(MemoryNotFoundError):
                self.memory.get_fact("fact_missing")
            with self.assertRaises(MemoryAPIError) as invalid:
                self.memory.recall("x", mode="fuzzy")
            self.assertEqual(invalid.exception.status_code, 400)
            with self.assertRaises(MemoryAPIError) as conflict:
                self.admin.create_context(self.context_id)
            self.assertEqual(conflict.exception.status_code, 409)
            self.assertIn("title", conflict.exception.body)


if __name__ == "__main__":
    unittest.main()
