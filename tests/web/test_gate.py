from tests.helpers import assert_error


def test_health_answers_without_a_key(anonymous):
    response = anonymous.get("/healthz")
    assert response.json == {"data": {"status": "ok", "version": response.json["data"]["version"]}}
    assert response.headers["X-Request-Id"].startswith("req_")


def test_it_asks_for_a_key(anonymous):
    response = anonymous.get("/api/v1/properties", status=401)
    assert_error(response, 401, "UNAUTHENTICATED")
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
