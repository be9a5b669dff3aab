"""Assertions shared by the tests."""


def assert_error(response, status: int, code: str):
    assert response.status_int == status, response.body
    body = response.json
    assert body["error"]["code"] == code, body
    assert body["error"]["message"]
    assert body["error"]["request_id"] == response.headers["X-Request-Id"]
    return body["error"]
