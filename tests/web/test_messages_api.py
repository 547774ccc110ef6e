"""GET /api/messages/{lang}: the merged table the pages render, cacheable, 404 otherwise."""

from __future__ import annotations

from fastapi.testclient import TestClient

from raceday.present import table


def test_the_table_of_each_language_is_served(client: TestClient) -> None:
    for lang in ("en", "ja"):
        answer = client.get(f"/api/messages/{lang}")
        assert answer.status_code == 200
        assert answer.json() == table(lang).to_json()
        assert "max-age" in answer.headers["cache-control"]


def test_an_unchanged_table_answers_304(client: TestClient) -> None:
    tag = client.get("/api/messages/ja").headers["etag"]
    again = client.get("/api/messages/ja", headers={"If-None-Match": tag})
    assert again.status_code == 304 and not again.content
    assert client.get("/api/messages/en", headers={"If-None-Match": tag}).status_code == 200


def test_an_unknown_language_is_a_404_naming_the_choices(client: TestClient) -> None:
    answer = client.get("/api/messages/fr")
    assert answer.status_code == 404
    assert answer.json() == {"error": "unknown language 'fr'; choose one of en, ja"}
