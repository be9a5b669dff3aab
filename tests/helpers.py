"""Assertions and waits shared by the tests."""

import time


def assert_error(response, status: int, code: str):
    assert response.status_int == status, response.body
    body = response.json
    assert body["error"]["code"] == code, body
    assert body["error"]["message"]
    assert body["error"]["request_id"] == response.headers["X-Request-Id"]
    return body["error"]


# Polling the API: every test that waits for a worker runs under the API's own limit (100
# requests a rolling minute per key, `rate_limit.per_minute`), so a poll must never ask faster than
# that, however long the worker takes on a loaded machine. The waits grow from 50 ms (a quiet
# machine answers in the first few asks) by half each time to 2 s (at most about 40 asks in the
# first minute, 30 in each after), a 429 waits its Retry-After, and the deadline is generous: it
# only bounds a failure, and a test that passes never reaches it.
POLL_FIRST_WAIT = 0.05
POLL_LONGEST_WAIT = 2.0
POLL_DEADLINE = 120.0


def _status_and_retry_after(answer) -> tuple[int | None, str | None]:
    """The status and Retry-After of a WebTest response, or of the (status, body, headers) of a
    loopback server's request (headers a dict, or tests/e2e's http.client response)."""
    if hasattr(answer, "status_int"):
        return answer.status_int, answer.headers.get("Retry-After")
    if isinstance(answer, tuple) and len(answer) == 3 and isinstance(answer[0], int):
        headers = answer[2]
        if hasattr(headers, "getheader"):
            return answer[0], headers.getheader("Retry-After")
        named = {str(k).lower(): v for k, v in dict(headers or {}).items()}
        return answer[0], named.get("retry-after")
    return None, None


def poll(ask, until, *, timeout: float = POLL_DEADLINE, what: str = "the awaited state"):
    """`ask()` (one request to the API; a WebTest call with `expect_errors=True`, or a loopback
    server's `request`) again and again until `until(answer)` is true, and return that answer.
    A 429 is never the answer: it waits what Retry-After says. AssertionError at the deadline,
    with the last answer."""
    deadline = time.monotonic() + timeout
    wait = POLL_FIRST_WAIT
    answer = None
    while True:
        answer = ask()
        status, retry_after = _status_and_retry_after(answer)
        if status == 429:
            try:
                pause = max(float(retry_after), wait)
            except (TypeError, ValueError):
                pause = POLL_LONGEST_WAIT
        elif until(answer):
            return answer
        else:
            pause = wait
            wait = min(wait * 1.5, POLL_LONGEST_WAIT)
        if time.monotonic() + pause > deadline:
            raise AssertionError(f"{what}: not within {timeout:.0f} s; last answer: "
                                 f"{getattr(answer, 'body', answer)!r:.2000}")
        time.sleep(pause)
